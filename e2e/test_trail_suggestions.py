"""Weekly trail suggestions (issue 20, Trailz 3.2.3.1): the switch in Settings › Notifications is shown and saved;
the notification's url opens Browse at Suggested Trails, from a fresh start and in an app already open (the
service worker hands an open window the url by message; the message is dispatched here as it would arrive)."""

import json
import tempfile
from pathlib import Path

import pytest
from accounts import log_in, register_api, shown
from conftest import Server, by_label, by_text, unique_name, wait

URL = "/#/trails?show=suggested"

TRAILS = {"type": "FeatureCollection", "features": [
    {"type": "Feature", "properties": {"name": f"Nuuksio loop {index}", "city": "Espoo", "region": "Uusimaa"},
     "geometry": {"type": "LineString", "coordinates": [[24.50 + index / 100, 60.30], [24.51 + index / 100, 60.31]]}}
    for index in range(6)]}


@pytest.fixture(scope="module")
def suggestions_server():
    """One server with six small trails imported through the command line."""
    running = Server()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "trails.geojson"
        path.write_text(json.dumps(TRAILS))
        result = running.run_cli("trails", "import", str(path), "--region", "Uusimaa", check=True)
        assert "created" in result.stdout
    yield running
    running.cleanup()


def suggested_in_view(driver):
    return driver.execute_script(
        "const h = [...document.querySelectorAll('h2')].find((e) => e.textContent === 'Suggested Trails');"
        "if (!h) return false; const r = h.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight;")


def test_the_weekly_suggestions_switch_is_shown_and_saved(suggestions_server, browser):
    username = unique_name("weekly")
    register_api(suggestions_server, username)
    log_in(browser, suggestions_server, username)
    browser.get(f"{suggestions_server.url}/#/settings")
    by_text(browser, "h3", "Notifications")
    switch = by_label(browser, "Weekly trail suggestions")
    wait(browser).until(lambda d: by_label(d, "Weekly trail suggestions").is_selected())
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", switch)
    switch.click()
    shown(browser, "p", "Weekly trail suggestions: off.")

    browser.refresh()
    by_text(browser, "h3", "Notifications")
    wait(browser).until(lambda d: by_label(d, "New messages").is_selected())
    assert not by_label(browser, "Weekly trail suggestions").is_selected()


def test_the_notification_url_opens_browse_at_suggested_trails(suggestions_server, browser):
    browser.get(f"{suggestions_server.url}{URL}")
    by_text(browser, "h1", "Trails")
    by_text(browser, "h2", "Suggested Trails")
    wait(browser).until(lambda d: d.find_elements("xpath", "//*[@aria-label='Suggested trails']/a"))
    wait(browser).until(suggested_in_view)


def test_an_open_app_follows_a_tapped_notification_to_suggested_trails(suggestions_server, browser):
    browser.get(f"{suggestions_server.url}/#/settings")
    by_text(browser, "h1", "Settings")
    wait(browser).until(lambda d: d.execute_script("return Boolean(navigator.serviceWorker)"))
    browser.execute_script(
        "navigator.serviceWorker.dispatchEvent(new MessageEvent('message',"
        " {data: {type: 'cairn:navigate', url: arguments[0]}}))", f"{suggestions_server.url}{URL}")
    by_text(browser, "h2", "Suggested Trails")
    assert browser.execute_script("return location.hash") == "#/trails?show=suggested"
    wait(browser).until(suggested_in_view)

    # A url elsewhere than the app is not followed (the listener sets the hash at once when it follows).
    hash_after = browser.execute_script(
        "navigator.serviceWorker.dispatchEvent(new MessageEvent('message',"
        " {data: {type: 'cairn:navigate', url: 'https://elsewhere.example.net/#/settings'}}));"
        " return location.hash")
    assert hash_after == "#/trails?show=suggested"
