"""Fixtures for Cairn's end-to-end tests: the real `cairn` binary, and Chromium driving the web app.

Each test gets its own `cairn serve` on a free loopback port with a fresh data folder, and Debian's
Chromium (headless, through Debian's chromedriver) with a 390×844 phone viewport. Every browser test
leaves a screenshot in SCREENSHOT_DIR, printed at the end of the run.
"""

import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

ROOT = Path(__file__).resolve().parent.parent
CAIRN = Path(os.environ.get("CAIRN_BIN", ROOT / ".build" / "debug" / "cairn"))
SCREENSHOT_DIR = Path(os.environ.get("CAIRN_SCREENSHOT_DIR", ROOT / "var" / "screenshots"))
CHROMIUM = os.environ.get("CHROMIUM_BIN", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER_BIN", "/usr/bin/chromedriver")
PHONE = {"width": 390, "height": 844, "pixelRatio": 3}


OSM_DIR = Path(os.environ.get("CAIRN_OSM_DIR", ROOT / "var" / "osm"))
_graphs = {}


def helsinki_graph():
    """The Helsinki demo extract imported once per test run (`cairn graph import`); its snapshot path."""
    if "helsinki" not in _graphs:
        out = Path(tempfile.mkdtemp(prefix="cairn-e2e-graph-")) / "helsinki.cairngraph"
        subprocess.run([str(CAIRN), "graph", "import", str(OSM_DIR / "Helsinki.osm.pbf"), "--out", str(out)],
                       check=True, capture_output=True, text=True, timeout=300)
        _graphs["helsinki"] = out
    return _graphs["helsinki"]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """A running `cairn serve` with its own data folder, on the Helsinki street network unless
    `streets=False`."""

    def __init__(self, env=None, seed_demo=False, streets=True):
        self.data_dir = Path(tempfile.mkdtemp(prefix="cairn-browser-"))
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {key: value for key, value in os.environ.items()
                    if key not in ("DATABASE_URL", "CAIRN_STREET_GRAPH")}
        self.env.update({
            "CAIRN_DATA_DIR": str(self.data_dir),
            "CAIRN_WEB_DIR": str(ROOT / "Web"),
            "CAIRN_TILE_URL": "",
            "LOG_LEVEL": "notice",
        })
        if streets:
            self.env["CAIRN_STREET_GRAPH"] = str(helsinki_graph())
        self.env.update(env or {})
        if seed_demo:
            self.run_cli("seed-demo", check=True)
        self.log = open(self.data_dir / "server.log", "w")
        self.process = subprocess.Popen(
            [str(CAIRN), "serve", "--hostname", "127.0.0.1", "--port", str(self.port)],
            cwd=ROOT, env=self.env, stdout=self.log, stderr=subprocess.STDOUT,
        )
        self.wait_until_healthy()

    def run_cli(self, *args, check=False, timeout=120):
        return subprocess.run([str(CAIRN), *args], cwd=ROOT, env=self.env, capture_output=True, text=True,
                              check=check, timeout=timeout)

    def wait_until_healthy(self, timeout=60):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"cairn serve exited with {self.process.returncode}: "
                                   f"{(self.data_dir / 'server.log').read_text()}")
            try:
                with urllib.request.urlopen(f"{self.url}/healthz", timeout=2) as response:
                    if response.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            time.sleep(0.1)
        raise RuntimeError("cairn serve did not become healthy in time")

    def api(self, method, path, body=None, headers=None):
        """Calls the API; returns (status, parsed JSON or None, headers)."""
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(f"{self.url}{path}", data=data, method=method,
                                         headers={"Content-Type": "application/json", **(headers or {})})
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                raw = response.read()
                return response.status, (json.loads(raw) if raw else None), response.headers
        except urllib.error.HTTPError as error:
            raw = error.read()
            return error.code, (json.loads(raw) if raw else None), error.headers

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self.log.close()

    def cleanup(self):
        self.stop()
        shutil.rmtree(self.data_dir, ignore_errors=True)


@pytest.fixture
def start_server():
    """Factory: start_server(env={...}, seed_demo=False, streets=True) → Server; all are stopped after the test."""
    servers = []

    def start(**kwargs):
        server = Server(**kwargs)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.cleanup()


@pytest.fixture
def server(start_server):
    return start_server()


def make_browser():
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--no-first-run", "--disable-background-networking", "--disable-component-update",
                     "--disable-sync", "--metrics-recording-only", "--lang=en-US"):
        options.add_argument(argument)
    options.add_experimental_option("mobileEmulation", {"deviceMetrics": PHONE})
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.set_window_size(PHONE["width"], PHONE["height"])
    driver.implicitly_wait(0)
    return driver


@pytest.fixture
def browser(request):
    driver = make_browser()
    yield driver
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
    name = request.node.name.replace("/", "_").replace("[", "-").replace("]", "")
    try:
        driver.save_screenshot(str(SCREENSHOT_DIR / f"{name}.png"))
    finally:
        driver.quit()


def pytest_terminal_summary(terminalreporter):
    if SCREENSHOT_DIR.exists() and any(SCREENSHOT_DIR.glob("*.png")):
        terminalreporter.write_line(f"Screenshots of every browser test: {SCREENSHOT_DIR}")


# Helpers used by the tests: find things the way a person does, by visible text, label and role.

def wait(driver, timeout=10):
    return WebDriverWait(driver, timeout)


def by_text(driver, tag, text, timeout=10):
    """The visible element `tag` whose normalised text is `text`."""
    xpath = f"//{tag}[normalize-space()={xpath_literal(text)}]"
    return wait(driver, timeout).until(EC.visibility_of_element_located((By.XPATH, xpath)))


def by_label(driver, label, timeout=10):
    """An element by its aria-label, or the form control a <label> with this text names."""
    literal = xpath_literal(label)
    xpath = (f"//*[@aria-label={literal}] | //input[@id=//label[normalize-space()={literal}]/@for]"
             f" | //select[@id=//label[normalize-space()={literal}]/@for]"
             f" | //textarea[@id=//label[normalize-space()={literal}]/@for]")
    return wait(driver, timeout).until(EC.presence_of_element_located((By.XPATH, xpath)))


def dialog(driver, title, timeout=10):
    """The open dialog whose heading is `title`."""
    xpath = f"//*[@role='dialog'][.//h2[normalize-space()={xpath_literal(title)}]]"
    return wait(driver, timeout).until(EC.visibility_of_element_located((By.XPATH, xpath)))


def xpath_literal(text):
    if "'" not in text:
        return f"'{text}'"
    if '"' not in text:
        return f'"{text}"'
    return "concat(" + ", \"'\", ".join(f"'{part}'" for part in text.split("'")) + ")"


def set_geolocation(driver, lat, lon, accuracy=8):
    driver.execute_cdp_cmd("Emulation.setGeolocationOverride",
                           {"latitude": lat, "longitude": lon, "accuracy": accuracy})


def set_location_permission(driver, origin, setting):
    """setting: 'granted', 'denied' or 'prompt' — as if the user had answered the browser's prompt."""
    driver.execute_cdp_cmd("Browser.setPermission",
                           {"origin": origin, "permission": {"name": "geolocation"}, "setting": setting})
