"""Settings › Notifications in Chromium at 390×844. Headless Chromium has no push service: turning notifications
on says so plainly instead of failing silently, and the per-kind switches (which apply to every device of the
account) are saved through the API and read back after a reload."""

from accounts import log_in, register_api, shown
from conftest import by_label, by_text, small_tap_targets, unique_name, wait


def grant_notifications(driver, origin):
    driver.execute_cdp_cmd("Browser.setPermission",
                           {"origin": origin, "permission": {"name": "notifications"}, "setting": "granted"})


def test_this_browser_cannot_receive_notifications_and_the_kind_switches_are_saved(server, browser):
    username = unique_name("notify")
    register_api(server, username)
    grant_notifications(browser, server.url)
    log_in(browser, server, username)
    browser.get(f"{server.url}/#/settings")
    by_text(browser, "h3", "Notifications")

    device = by_label(browser, "Notifications on this device")
    messages = by_label(browser, "New messages")
    requests = by_label(browser, "Friend requests")
    assert messages.is_selected() and requests.is_selected()
    assert not device.is_selected()
    if device.is_enabled():
        browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", device)
        device.click()
    shown(browser, "p", "This browser cannot receive notifications.", timeout=30)
    wait(browser).until(lambda d: not by_label(d, "Notifications on this device").is_selected())

    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", messages)
    messages.click()
    shown(browser, "p", "New messages: off.")
    assert small_tap_targets(browser) == []

    browser.refresh()
    by_text(browser, "h3", "Notifications")
    wait(browser).until(lambda d: by_label(d, "Friend requests").is_selected())
    assert not by_label(browser, "New messages").is_selected()


def test_a_guest_is_asked_to_log_in_for_notifications(server, browser):
    browser.get(f"{server.url}/#/settings")
    by_text(browser, "h3", "Notifications")
    wait(browser).until(lambda d: "Log in to get notifications" in by_text(d, "h3", "Notifications")
                        .find_element("xpath", "..").text)
