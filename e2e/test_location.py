"""The map and location permission (run-route-planner functional 2–3, non-functional 4)."""

from conftest import by_label, by_text, dialog, open_dialogs, set_geolocation, set_location_permission, settled, wait
from selenium.webdriver.common.by import By


def marker_position(browser):
    marker = by_label(browser, "Your location", timeout=15)
    return float(marker.get_attribute("data-lat")), float(marker.get_attribute("data-lon"))


def test_explanation_comes_before_the_browser_prompt_and_not_now_respects_the_choice(server, browser):
    browser.get(f"{server.url}/#/map")
    set_location_permission(browser, server.url, "prompt")
    browser.refresh()

    sheet = dialog(browser, "Use your location?")
    assert "show where you are on the map" in sheet.text
    assert "never shared" in sheet.text
    by_text(browser, "button", "Not now").click()

    status = by_label(browser, "Map").find_element(By.XPATH, "..//*[@role='status']")
    wait(browser).until(lambda d: "Location is off" in status.text)
    assert not browser.find_elements(By.CSS_SELECTOR, "[aria-label='Your location']")


def test_granted_location_shows_a_marker_that_moves_with_the_user(server, browser):
    browser.get(server.url)
    set_location_permission(browser, server.url, "granted")
    set_geolocation(browser, 60.1699, 24.9384)

    by_text(browser, "a", "Map").click()
    wait(browser, 15).until(lambda d: marker_position(d) == (60.1699, 24.9384))
    accuracy = by_label(browser, "Your location").get_attribute("data-accuracy")
    assert accuracy == "8"

    set_geolocation(browser, 60.1712, 24.9402)

    wait(browser, 15).until(lambda d: marker_position(d) == (60.1712, 24.9402))


def test_denied_location_explains_how_to_turn_it_on(server, browser):
    browser.get(server.url)
    set_location_permission(browser, server.url, "denied")

    by_text(browser, "a", "Map").click()

    sheet = dialog(browser, "Location access is needed")
    assert "Settings › Privacy & Security › Location Services" in sheet.text
    assert "Settings › Location" in sheet.text
    by_text(browser, "button", "OK").click()
    assert not browser.find_elements(By.CSS_SELECTOR, "[aria-label='Your location']")


def test_allow_then_browser_denial_shows_the_settings_message(server, browser):
    browser.get(f"{server.url}/#/map")
    set_location_permission(browser, server.url, "prompt")
    browser.refresh()
    dialog(browser, "Use your location?")
    set_location_permission(browser, server.url, "denied")

    by_text(browser, "button", "Allow").click()

    dialog(browser, "Location access is needed")


def map_zoom(browser):
    """The map's zoom level once its last zoom has ended."""
    return float(by_label(browser, "Map").get_attribute("data-zoom"))


def test_map_controls_are_labelled(server, browser):
    browser.get(server.url)
    set_location_permission(browser, server.url, "granted")
    set_geolocation(browser, 60.1699, 24.9384, accuracy=40)
    by_text(browser, "a", "Map").click()

    for label in ["Map", "Zoom in", "Zoom out", "Show my location"]:
        assert by_label(browser, label).is_displayed()
    marker_position(browser)
    # The first fix zooms the map to 16; a click during that animation would be ignored by Leaflet.
    wait(browser, 15).until(lambda d: map_zoom(d) >= 16 and not d.find_elements(By.CSS_SELECTOR, ".leaflet-zoom-anim"))
    zoom_before = map_zoom(browser)
    circle = browser.find_element(By.CSS_SELECTOR, ".leaflet-overlay-pane path")
    # The map may still be animating to the first fix.
    width_before = settled(browser, lambda d: circle.size["width"])

    by_label(browser, "Zoom in").click()

    wait(browser).until(lambda d: map_zoom(d) == zoom_before + 1)
    wait(browser).until(lambda d: circle.size["width"] > 1.8 * width_before)


def test_the_denied_sheet_is_not_shown_again_once_read_until_the_person_asks(server, browser):
    browser.get(server.url)
    set_location_permission(browser, server.url, "denied")
    by_text(browser, "a", "Map").click()
    dialog(browser, "Location access is needed")
    by_text(browser, "button", "OK").click()

    by_text(browser, "a", "Home").click()
    by_text(browser, "h1", "Home")
    by_text(browser, "a", "Map").click()
    status = by_label(browser, "Map").find_element(By.XPATH, "..//*[@role='status']")
    wait(browser).until(lambda d: "Location is blocked" in status.text)
    assert not open_dialogs(browser)

    by_text(browser, "button", "Turn on location").click()
    dialog(browser, "Location access is needed")


def test_a_sheet_closes_when_the_person_goes_back(server, browser):
    browser.get(f"{server.url}/#/home")
    set_location_permission(browser, server.url, "prompt")
    by_text(browser, "h1", "Home")
    by_text(browser, "a", "Map").click()
    dialog(browser, "Use your location?")

    browser.back()

    by_text(browser, "h1", "Home")
    wait(browser).until(lambda d: not open_dialogs(d))
