"""Fixtures for Cairn's end-to-end tests: the real `cairn` binary, and Chromium driving the web app.

The tests of one file share one `cairn serve` (`server`, on a free loopback port with a fresh data folder; with
`pytest --pair`, two instances behind nginx on PostgreSQL, e2e/proxy_pair.py); each test makes its own users
(`unique_name`). A test that changes the server's configuration or stops it
starts its own with `start_server`. Every browser test gets a fresh Debian Chromium (headless, through
Debian's chromedriver, a new profile, started while the test before it ran) with a 390×844 phone viewport,
and leaves a screenshot in SCREENSHOT_DIR, printed at the end of the run. On every page, a guard fails the
test when the screen shows "null", "undefined", "NaN" or "[object" anywhere.
"""

import itertools
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
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


def wait_until_healthy(url, process, name, log, timeout):
    """Polls `url`/healthz until it answers 200; fails with `log()` if `process` (called `name`) exits first."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{name} exited with {process.returncode}: {log()}")
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.1)
    raise RuntimeError(f"{name} did not become healthy in time")


class Server:
    """A running `cairn serve` with its own data folder, on the Helsinki street network unless
    `streets=False`; its output goes to `log_name` in the data folder."""

    def __init__(self, env=None, seed_demo=False, streets=True, port=None, data_dir=None, log_name="server.log"):
        self.data_dir = Path(data_dir) if data_dir else Path(tempfile.mkdtemp(prefix="cairn-browser-"))
        self.port = port or free_port()
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
        self.log_path = self.data_dir / log_name
        self.log = open(self.log_path, "a")
        self.process = subprocess.Popen(
            [str(CAIRN), "serve", "--hostname", "127.0.0.1", "--port", str(self.port)],
            cwd=ROOT, env=self.env, stdout=self.log, stderr=subprocess.STDOUT,
        )
        self.wait_until_healthy()

    def run_cli(self, *args, check=False, timeout=120):
        return subprocess.run([str(CAIRN), *args], cwd=ROOT, env=self.env, capture_output=True, text=True,
                              check=check, timeout=timeout)

    def wait_until_healthy(self, timeout=60):
        wait_until_healthy(self.url, self.process, "cairn serve", lambda: self.log_path.read_text(), timeout)

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


_postgres = {}


def postgres_cluster():
    """One throwaway PostgreSQL cluster for the whole run, started on first use (e2e/postgres.py)."""
    if "cluster" not in _postgres:
        from postgres import PostgresCluster
        _postgres["cluster"] = PostgresCluster()
    return _postgres["cluster"]


def pytest_sessionfinish(session, exitstatus):
    if "cluster" in _postgres:
        _postgres.pop("cluster").stop()
    for launched in _next_browser:
        try:
            launched.result().quit()
        except Exception:
            pass
    _next_browser.clear()


@pytest.fixture
def start_instances():
    """Factory: start_instances(n, env={...}) → n `cairn serve` processes on one new PostgreSQL database, as
    behind a load balancer (the first migrates, the others start once it is up); all stopped after the test."""
    servers = []

    def start(count, env=None, **kwargs):
        database = postgres_cluster().create_database()
        started = []
        for _ in range(count):
            server = Server(env={"DATABASE_URL": database, **(env or {})}, **kwargs)
            servers.append(server)
            started.append(server)
        return started

    yield start
    for server in servers:
        server.cleanup()


def pytest_addoption(parser):
    parser.addoption("--pair", action="store_true",
                     help="make `server` two instances behind nginx on PostgreSQL (e2e/proxy_pair.py)")


@pytest.fixture(scope="module")
def server(request):
    """One server for every test of a file that does not change its configuration; with `--pair`, two instances
    behind nginx on one PostgreSQL database, and the file fails unless both answered some of its requests."""
    if not request.config.getoption("--pair"):
        running = Server()
        yield running
        running.cleanup()
        return
    from proxy_pair import ProxyPair
    running = ProxyPair(postgres_cluster().create_database())
    yield running
    served = running.served_by()
    running.cleanup()
    assert min(served.values()) > 0, f"one instance of the pair answered nothing: requests by port {served}"


_names = itertools.count(1)


def unique_name(prefix="user"):
    """A username no other test of this run uses, so tests can share a server."""
    return f"{prefix}{os.getpid()}x{next(_names)}"


def make_browser():
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--no-first-run", "--disable-background-networking", "--disable-component-update",
                     "--disable-sync", "--metrics-recording-only", "--lang=en-US"):
        options.add_argument(argument)
    options.add_experimental_option("mobileEmulation", {"deviceMetrics": PHONE})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.set_window_size(PHONE["width"], PHONE["height"])
    driver.implicitly_wait(0)
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": SCREEN_GUARD})
    return driver


# Watches every page for text no screen may show: a value that was missing or not a number rendered as words.
SCREEN_GUARD = r"""
(() => {
  const bad = /\b(null|undefined|NaN)\b|\[object /;
  const attributes = ["value", "aria-label", "placeholder", "title", "alt"];
  const report = (text, where) => console.error(`Cairn guard: the screen shows "${String(text).trim().slice(0, 120)}" in ${where}`);
  const checkElement = (element) => {
    if (["SCRIPT", "STYLE"].includes(element.tagName)) return;
    for (const name of attributes) {
      const value = element.getAttribute?.(name);
      if (value && bad.test(value)) report(value, `${element.tagName.toLowerCase()}[${name}]`);
    }
  };
  const check = (node) => {
    if (node.nodeType === Node.TEXT_NODE) {
      const parent = node.parentElement;
      if (parent && !["SCRIPT", "STYLE"].includes(parent.tagName) && bad.test(node.textContent)) {
        report(node.textContent, parent.tagName.toLowerCase());
      }
    } else if (node.nodeType === Node.ELEMENT_NODE) {
      checkElement(node);
      for (const child of node.querySelectorAll("*")) checkElement(child);
      const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
      while (walker.nextNode()) check(walker.currentNode);
    }
  };
  new MutationObserver((records) => {
    for (const record of records) {
      if (record.type === "characterData") check(record.target);
      else if (record.type === "attributes") checkElement(record.target);
      else record.addedNodes.forEach(check);
    }
  }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: attributes });
})();
"""


def guard_reports(driver):
    """What the screen guard saw since it was last asked (reading the log empties it)."""
    return [entry["message"] for entry in driver.get_log("browser") if "Cairn guard" in entry["message"]]


# Starting Chromium takes over a second; the next test's browser starts in the background while a test runs.
# Every test still gets a browser of its own, with a new profile.
_launcher = ThreadPoolExecutor(max_workers=1)
_next_browser = []


def fresh_browser():
    driver = _next_browser.pop().result() if _next_browser else make_browser()
    _next_browser.append(_launcher.submit(make_browser))
    return driver


@pytest.fixture
def browser(request):
    driver = fresh_browser()
    yield driver
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
    name = request.node.name.replace("/", "_").replace("[", "-").replace("]", "")
    try:
        driver.save_screenshot(str(SCREENSHOT_DIR / f"{name}.png"))
        reports = guard_reports(driver)
    finally:
        driver.quit()
    assert not reports, f"a screen showed a missing value: {reports}"


def pytest_terminal_summary(terminalreporter):
    if SCREENSHOT_DIR.exists() and any(SCREENSHOT_DIR.glob("*.png")):
        terminalreporter.write_line(f"Screenshots of every browser test: {SCREENSHOT_DIR}")


# Helpers used by the tests: find things the way a person does, by visible text, label and role.

def wait(driver, timeout=10):
    """A wait that looks again when the page re-rendered what it was reading (a stale element)."""
    return WebDriverWait(driver, timeout, ignored_exceptions=(NoSuchElementException, StaleElementReferenceException))


def settled(driver, read, timeout=10):
    """What `read(driver)` gives once two reads a quarter of a second apart agree (an animation has ended)."""
    reads = []

    def same(d):
        reads.append(read(d))
        return len(reads) > 1 and reads[-1] == reads[-2] and (reads[-1],)

    return WebDriverWait(driver, timeout, poll_frequency=0.25).until(same)[0]


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
    """The open dialog (a sheet, or the onboarding's spotlight) whose heading is `title`."""
    heading = f".//h2[normalize-space()={xpath_literal(title)}]"
    xpath = f"//dialog[@open][{heading}] | //*[@role='dialog'][{heading}]"
    return wait(driver, timeout).until(EC.visibility_of_element_located((By.XPATH, xpath)))


def open_dialogs(driver):
    """The sheets and other dialogs showing now."""
    return [e for e in driver.find_elements(By.XPATH, "//dialog[@open] | //*[@role='dialog']") if e.is_displayed()]


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


def set_offline(driver, offline):
    """Cuts the page's network (navigator.onLine turns false and requests fail), or gives it back."""
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": offline, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})


def small_tap_targets(driver, minimum=44):
    """Every visible control on the screen smaller than `minimum` × `minimum` CSS pixels, described."""
    return driver.execute_script("""
        const minimum = arguments[0];
        const controls = document.querySelectorAll(
          'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [role=option]:not([aria-disabled=true]), [tabindex]:not([tabindex="-1"])');
        const small = [];
        for (const control of controls) {
          // A visually hidden input (a segmented control's radio) is tapped through its label; so may a checkbox
          // or a radio be (a tap on its label toggles it): then whichever of the two is large enough is the target.
          const label = control.matches('input') && control.labels?.length ? control.labels[0] : null;
          const large = (element) => {
            const r = element.getBoundingClientRect();
            return r.width >= minimum - 0.5 && r.height >= minimum - 0.5;
          };
          const target = label && (getComputedStyle(control).opacity === '0'
            || (control.matches('[type=checkbox], [type=radio]') && !large(control) && large(label)))
            ? label : control;
          const box = target.getBoundingClientRect();
          if (!box.width || !box.height || getComputedStyle(target).visibility === 'hidden') continue;
          if (target.closest('[hidden], [inert]') || box.right <= 0 || box.bottom <= 0) continue;
          if (box.width < minimum - 0.5 || box.height < minimum - 0.5) {
            small.push(`${Math.round(box.width)}×${Math.round(box.height)} ${target.outerHTML.slice(0, 90)}`);
          }
        }
        return small;""", minimum)
