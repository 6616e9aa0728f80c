"""Live location in Chromium at 390×844, three browsers: Ada shares with Bob only, for an hour; Bob sees her on
the map and her position move; Cat, a friend she did not choose, and Mallory, a stranger, see nothing; when Ada
stops, Bob's map drops her and nothing more arrives."""

from accounts import log_in, register_api, shown, tap, title
from conftest import (by_label, dialog, make_browser, set_geolocation, set_location_permission, small_tap_targets,
                      unique_name, wait)
from selenium.webdriver.common.by import By

from test_community import befriend_api


def person(server, first):
    username = unique_name(first.lower())
    register_api(server, username, first_name=first, last_name="Walker")
    return username, f"{first} Walker"


def markers(browser):
    return browser.execute_script(
        "return [...document.querySelectorAll('.friend-marker')].map(m => m.getAttribute('aria-label'))")


def test_a_friend_chosen_sees_the_share_live_and_nobody_else_sees_anything(server, browser):
    ada, ada_name = person(server, "Ada")
    bob, bob_name = person(server, "Bob")
    cat, _ = person(server, "Cat")
    mallory, _ = person(server, "Mallory")
    befriend_api(server, ada, bob)
    befriend_api(server, ada, cat)
    bob_browser = make_browser()
    cat_browser = make_browser()
    try:
        set_location_permission(browser, server.url, "granted")
        set_geolocation(browser, 60.1699, 24.9384)
        log_in(browser, server, ada)
        browser.get(f"{server.url}/#/location")
        title(browser, "Share My Location")
        assert small_tap_targets(browser) == []
        tap(browser, "button", "Start sharing")
        shown(browser, "p", "Choose at least one friend or group to share with.")
        browser.find_element(By.XPATH, f"//label[contains(., '{bob_name}')]/input").click()
        tap(browser, "button", "Start sharing")
        status = wait(browser).until(lambda d: next(iter(d.find_elements(By.XPATH, "//*[@role='status'][contains(., 'Sharing your location')]")), None))
        assert bob_name in status.text

        log_in(bob_browser, server, bob)
        bob_browser.get(f"{server.url}/#/location/map")
        title(bob_browser, "Friends on the Map")
        wait(bob_browser).until(lambda d: markers(d) == [ada_name])
        marker = bob_browser.find_element(By.CSS_SELECTOR, ".friend-marker")
        marker.click()
        # The popup fades in; Selenium reads no text while its opacity is 0.
        wait(bob_browser).until(lambda d: any(p.text.startswith(f"{ada_name} · seen")
                                              for p in d.find_elements(By.CSS_SELECTOR, ".friend-popup")))

        # Cat is a friend Ada did not choose; Mallory a stranger: neither sees anything.
        for other, username in ((cat_browser, cat), (cat_browser, mallory)):
            log_in(other, server, username)
            other.get(f"{server.url}/#/location/map")
            shown(other, "p", "Nobody shares their location with you right now.")
            assert markers(other) == []

        # Ada stops: Bob's map drops her at once.
        tap(browser, "button", "Stop sharing")
        dialog(browser, "Stop sharing?").find_element(By.XPATH, ".//button[normalize-space()='Stop sharing']").click()
        shown(browser, "button", "Start sharing")
        wait(bob_browser).until(lambda d: markers(d) == [])
        shown(bob_browser, "p", "Nobody shares their location with you right now.")
    finally:
        bob_browser.quit()
        cat_browser.quit()
