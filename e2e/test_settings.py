"""Settings › General: units default from the locale and persist."""

from conftest import by_label, by_text


def test_units_default_from_the_browser_locale(server, browser):
    browser.get(f"{server.url}/#/settings")
    by_text(browser, "h1", "Settings")

    # The test browser runs with --lang=en-US: miles, Fahrenheit, feet.
    assert by_label(browser, "Distance: mi").is_selected()
    assert by_label(browser, "Temperature: °F").is_selected()
    assert by_label(browser, "Elevation: ft").is_selected()


def test_chosen_units_persist_across_reloads(server, browser):
    browser.get(f"{server.url}/#/settings")
    by_text(browser, "h1", "Settings")

    by_label(browser, "Distance: km").find_element("xpath", "..").click()
    by_label(browser, "Temperature: °C").find_element("xpath", "..").click()
    by_label(browser, "Elevation: m").find_element("xpath", "..").click()
    browser.refresh()
    by_text(browser, "h1", "Settings")

    assert by_label(browser, "Distance: km").is_selected()
    assert by_label(browser, "Temperature: °C").is_selected()
    assert by_label(browser, "Elevation: m").is_selected()
    assert not by_label(browser, "Distance: mi").is_selected()
