"""The app shell: Home, bottom navigation, profile menu, installability, offline start."""

import json
import urllib.request

from conftest import by_label, by_text, wait
from selenium.webdriver.common.by import By


def test_home_shows_the_five_apps(server, browser):
    browser.get(server.url)

    by_text(browser, "h1", "Home")
    cards = wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "[aria-label='Apps'] .card__title"))
    titles = [e.text for e in cards]
    assert titles == ["Trails", "Run planner", "Parking", "Field guide", "Ski"]


def test_bottom_navigation_switches_screens_and_marks_the_current_tab(server, browser):
    browser.get(server.url)
    nav = by_label(browser, "Main")

    for tab in ["Browse", "Chat", "Map", "Home"]:
        nav.find_element(By.XPATH, f".//a[normalize-space()='{tab}']").click()
        by_text(browser, "h1", tab)
        current = nav.find_element(By.CSS_SELECTOR, "a[aria-current='page']")
        assert current.text == tab
        assert browser.current_url.endswith(f"#/{tab.lower()}")


def test_profile_icon_opens_a_menu_with_settings(server, browser):
    browser.get(server.url)

    by_label(browser, "Profile and settings").click()
    by_text(browser, "a", "Settings").click()

    by_text(browser, "h1", "Settings")


def test_all_text_is_at_least_10px(server, browser):
    for screen in ["home", "browse", "chat", "settings"]:
        browser.get(f"{server.url}/#/{screen}")
        by_text(browser, "h1", screen.capitalize())
        smallest = browser.execute_script("""
            let min = Infinity;
            for (const el of document.querySelectorAll('body *')) {
              if (!el.offsetParent && getComputedStyle(el).position !== 'fixed') continue;
              const hasText = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
              if (hasText) min = Math.min(min, parseFloat(getComputedStyle(el).fontSize));
            }
            return min;""")
        assert smallest >= 10, f"{screen}: smallest text is {smallest}px"


def test_manifest_makes_the_app_installable(server):
    with urllib.request.urlopen(f"{server.url}/manifest.webmanifest") as response:
        manifest = json.load(response)

    assert manifest["display"] == "standalone"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        with urllib.request.urlopen(f"{server.url}{icon['src']}") as response:
            assert response.status == 200


def test_app_shell_opens_offline_once_visited(start_server, browser):
    server = start_server()
    browser.get(server.url)
    by_text(browser, "h1", "Home")
    wait(browser, 20).until(lambda d: d.execute_script("return navigator.serviceWorker.controller !== null"))

    server.stop()
    browser.get(f"{server.url}/#/settings")

    by_text(browser, "h1", "Settings")
    assert by_label(browser, "Distance: km").is_enabled()
