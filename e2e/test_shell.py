"""The app shell: Home, bottom navigation, profile menu, focus on navigation, Back, installability, offline
start; and what every screen owes a person: 44 px tap targets, a readable map attribution in both themes."""

import json
import urllib.request

from accounts import log_in, register_api, tap
from conftest import (by_label, by_text, dialog, open_dialogs, set_location_permission, small_tap_targets,
                      unique_name, wait)
from runs_helpers import CENTRE, keep_a_route, open_planner_located_at, plan_a_route, start_is_my_location, token_of
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys


def test_home_shows_the_five_apps(server, browser):
    browser.get(server.url)

    by_text(browser, "h1", "Home")
    cards = wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "[aria-label='Apps'] .card__title"))
    titles = [e.text for e in cards]
    assert titles == ["Trails", "Run planner", "Parking", "Field guide", "Community", "Ski"]


def test_bottom_navigation_switches_screens_and_marks_the_current_tab(server, browser):
    browser.get(server.url)
    nav = by_label(browser, "Main")

    for tab in ["Browse", "Messages", "Map", "Home"]:
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


def test_the_profile_menu_is_a_disclosure_of_links(server, browser):
    browser.get(server.url)
    button = by_label(browser, "Profile and settings")
    assert button.get_attribute("aria-expanded") == "false"

    button.click()

    menu = by_label(browser, "Profile menu")
    assert button.get_attribute("aria-expanded") == "true" and menu.is_displayed()
    assert button.get_attribute("aria-controls") == menu.get_attribute("id")
    assert not browser.find_elements(By.XPATH, "//*[@role='menu' or @role='menuitem' or @aria-haspopup]")
    assert [link.text for link in menu.find_elements(By.TAG_NAME, "a")] == ["Log in", "Create account", "Field guide", "Settings"]
    menu.find_element(By.TAG_NAME, "a").send_keys(Keys.ESCAPE)
    wait(browser).until(lambda d: not menu.is_displayed())
    assert browser.switch_to.active_element == button and button.get_attribute("aria-expanded") == "false"


def test_navigation_moves_focus_to_the_new_screens_heading_which_alone_is_announced(server, browser):
    browser.get(server.url)
    by_text(browser, "h1", "Home")
    assert browser.find_element(By.TAG_NAME, "main").get_attribute("aria-live") is None

    for tab in ["Browse", "Messages", "Home"]:
        by_label(browser, "Main").find_element(By.XPATH, f".//a[normalize-space()='{tab}']").click()
        heading = by_text(browser, "h1", tab)
        wait(browser).until(lambda d: d.switch_to.active_element == heading)
    assert not browser.find_elements(By.XPATH, "//main[@aria-live] | //main//*[@aria-live='assertive']")


def test_every_screen_below_the_tabs_has_a_way_back(server, browser):
    browser.get(f"{server.url}/#/settings")
    by_text(browser, "h1", "Settings")

    by_label(browser, "Back").click()
    by_text(browser, "h1", "Home")
    assert not by_label(browser, "Back").is_displayed(), "the tabs' own screens have no Back"

    browser.get(f"{server.url}/#/settings")
    by_text(browser, "h1", "Settings")
    tap(browser, "a", "Account, password and sign-out")
    by_text(browser, "h1", "Account")
    by_label(browser, "Back").click()
    by_text(browser, "h1", "Settings")


# Every screen, as a guest and signed in: (hash, title), and what to wait for once the screen has drawn.
GUEST_SCREENS = [("home", "Home"), ("browse", "Browse"), ("messages", "Messages"), ("community", "Community"), ("runs", "Run Planner"),
                 ("runs/planned", "Planned Routes"), ("settings", "Settings"), ("login", "Log in"),
                 ("register", "Register"), ("forgot-password", "Forgot my Password"), ("profile", "Profile"),
                 ("verify-email/not-a-token", "Confirm Email")]
ACCOUNT_SCREENS = [("home", "Home"), ("account-created", "Account Created"), ("profile", "Profile"),
                   ("messages", "Messages"), ("messages/new", "New Message"), ("friends", "Friends"),
                   ("profile/edit", "Edit Profile"), ("settings/account", "Account"),
                   ("settings/password", "Change Password"), ("settings/username", "Change Username")]


def settled_screen(browser, server, path, title):
    browser.get(f"{server.url}/#/{path}")
    by_text(browser, "h1", title)
    wait(browser, 15).until(lambda d: d.execute_script(
        "return document.querySelectorAll('main > *').length > 0 && !document.querySelector('[aria-busy=true]')"))


def test_every_control_on_every_screen_is_at_least_44_px_square(server, browser):
    small = {}
    for path, title in GUEST_SCREENS:
        settled_screen(browser, server, path, title)
        small[f"guest {path}"] = small_tap_targets(browser)
    browser.get(f"{server.url}/#/map")
    set_location_permission(browser, server.url, "prompt")
    browser.refresh()
    dialog(browser, "Use your location?").find_element(By.XPATH, ".//button[normalize-space()='Not now']").click()
    wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".leaflet-control-zoom"))
    small["map"] = small_tap_targets(browser)
    open_planner_located_at(browser, server, *CENTRE)
    start_is_my_location(browser)
    plan_a_route(browser)
    small["planner with a plan"] = small_tap_targets(browser)

    username = register_api(server, unique_name("tapper"))["username"]
    keep_a_route(server, token_of(server, username))
    log_in(browser, server, username)
    for path, title in ACCOUNT_SCREENS + [("runs/planned", "Planned Routes")]:
        settled_screen(browser, server, path, title)
        small[f"signed in {path}"] = small_tap_targets(browser)
    by_label(browser, "Profile and settings").click()
    small["profile menu"] = small_tap_targets(browser)

    assert {screen: found for screen, found in small.items() if found} == {}


CONTRAST = r"""
    const parse = (text) => (text.match(/[\d.]+/g) || []).map(Number);
    const blend = ([r, g, b, a = 1], [R, G, B]) => [r * a + R * (1 - a), g * a + G * (1 - a), b * a + B * (1 - a)];
    const luminance = (rgb) => {
      const [r, g, b] = rgb.map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const box = arguments[0];
    const under = blend(parse(getComputedStyle(box.closest('.leaflet-container')).backgroundColor), [255, 255, 255]);
    const background = blend(parse(getComputedStyle(box).backgroundColor), under);
    const text = blend(parse(getComputedStyle(box).color), background);
    const [light, dark] = [luminance(text), luminance(background)].sort((a, b) => b - a);
    return (light + 0.05) / (dark + 0.05);"""


def test_the_map_attribution_is_readable_in_the_light_and_the_dark_theme(server, browser):
    browser.get(f"{server.url}/#/map")
    set_location_permission(browser, server.url, "prompt")
    browser.refresh()
    dialog(browser, "Use your location?").find_element(By.XPATH, ".//button[normalize-space()='Not now']").click()
    attribution = wait(browser, 15).until(lambda d: next(
        (e for e in d.find_elements(By.CSS_SELECTOR, ".leaflet-control-attribution") if "OpenStreetMap" in e.text), None))

    ratios = {}
    for theme in ["light", "dark"]:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": theme}]})
        ratios[theme] = browser.execute_script(CONTRAST, attribution)

    assert all(ratio >= 4.5 for ratio in ratios.values()), ratios


def test_home_greets_a_signed_in_person_without_stray_words(server, browser):
    username = register_api(server, unique_name("greeted"))["username"]
    log_in(browser, server, username)

    by_text(browser, "h2", "Get outside")
    text = browser.find_element(By.TAG_NAME, "main").text

    assert "null" not in text and "undefined" not in text
    assert not browser.find_elements(By.XPATH, "//*[@role='note'][contains(., 'exploring as a guest')]")
    assert not open_dialogs(browser)


def test_all_text_is_at_least_10px(server, browser):
    for screen in ["home", "browse", "messages", "settings"]:
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
