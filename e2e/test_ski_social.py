"""The ski app's social side (issue 21, GoSki) at 390×844, on the demo mountains: Best Moments (story 9, UC11) — a
skier posts a moment with a photo from the ski menu, shown large, and another skier with Best Moments open sees it
arrive live; guests read it. Groups on the mountain (story 10, UC12) — on Willard Mountain's page A makes a group and invites
friend B, B joins and shares his location with it, A sees B on the mountain's map, live, with his name and when he
was seen; a third person sees nothing."""

import uuid

import pytest
from accounts import fill, log_in, register_api, shown, tap, title
from conftest import (Server, by_label, dialog, make_browser, set_geolocation, set_location_permission,
                      small_tap_targets, unique_name, wait)
from selenium.webdriver.common.by import By

from test_community import befriend_api
from test_forums import png_with_gps
from test_ski import click, mountain, open_menu

# On Willard Mountain's slopes, near the summit (the seed's mountain sits at its base, Greenwich NY).
ON_WILLARD = (43.0301, -73.5391)


@pytest.fixture(scope="module")
def ski_server():
    running = Server(seed_demo=True)
    yield running
    running.cleanup()


def person(server, first):
    username = unique_name(first.lower())
    register_api(server, username, first_name=first, last_name="Walker")
    return username, f"{first} Walker"


def open_best_moments(browser, server):
    browser.get(f"{server.url}/#/ski")
    title(browser, "GoSki")
    open_menu(browser, "Best Moments")
    title(browser, "Best Moments")


def moment_photo(browser, text):
    """The large photo of the moment titled `text` in the list, once it has loaded."""
    image = wait(browser, 15).until(lambda d: next(iter(d.find_elements(
        By.XPATH, f"//ul[@aria-label='Topics']//a[.//h3[normalize-space()='{text}']]//img[@alt='Photo: {text}']")), None))
    wait(browser).until(lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", image))
    return image


def test_a_skier_posts_a_moment_with_a_photo_and_another_skier_sees_it(ski_server, browser, tmp_path):
    ada, ada_name = person(ski_server, "Ada")
    bob, _ = person(ski_server, "Bob")
    moment = f"First chair {uuid.uuid4().hex[:6]}"
    photo = png_with_gps(tmp_path / "powder.png", width=320, height=240)
    other = make_browser()
    try:
        # Bob has Best Moments open before Ada posts.
        log_in(other, ski_server, bob)
        open_best_moments(other, ski_server)

        log_in(browser, ski_server, ada)
        open_best_moments(browser, ski_server)
        assert browser.find_elements(By.CSS_SELECTOR, ".ski-hero")
        tap(browser, "a", "New post")
        title(browser, "New Post")
        fill(browser, "Title", moment)
        fill(browser, "Text", "Fresh corduroy on Willard at eight.")
        by_label(browser, "Photo (optional)").send_keys(str(photo))
        wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "img[alt='The chosen photo']"))
        tap(browser, "button", "Post")
        title(browser, moment)
        wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "img.forum-post__photo"))

        # Back in Best Moments the new moment is first, its photo across the screen.
        open_best_moments(browser, ski_server)
        image = moment_photo(browser, moment)
        first = browser.find_element(By.XPATH, "//ul[@aria-label='Topics']/li[1]")
        assert moment in first.text and ada_name in first.text
        assert image.size["width"] >= 300
        assert small_tap_targets(browser) == []

        # Bob sees it arrive on his open list, live, and opens it.
        moment_photo(other, moment)
        click(other, f"//ul[@aria-label='Topics']//h3[normalize-space()='{moment}']")
        title(other, moment)
        shown(other, "p", "Fresh corduroy on Willard at eight.")
    finally:
        other.quit()

    # A guest reads Best Moments too.
    guest = make_browser()
    try:
        open_best_moments(guest, ski_server)
        moment_photo(guest, moment)
    finally:
        guest.quit()


def markers(browser):
    return browser.execute_script(
        "return [...document.querySelectorAll('.group-map .friend-marker')].map(m => m.getAttribute('aria-label'))")


def press(browser, label):
    """Taps the button a screen reader names `label` (its visible text is shorter)."""
    button = wait(browser).until(lambda d: next((b for b in d.find_elements(By.XPATH, f"//button[@aria-label='{label}']")
                                                 if b.is_displayed()), None))
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    button.click()


def open_willard(browser, server):
    willard = mountain(server, "Willard Mountain")
    browser.get(f"{server.url}/#/ski/mountains/{willard['id']}")
    title(browser, "Willard Mountain")
    return wait(browser, 15).until(lambda d: next(iter(d.find_elements(
        By.XPATH, "//section[contains(@class, 'group-map')][.//h2[normalize-space()='Ski together']]")), None))


def test_a_group_on_willard_sees_a_member_who_shares_and_nobody_else_does(ski_server, browser):
    ada, ada_name = person(ski_server, "Ada")
    bob, bob_name = person(ski_server, "Bob")
    cat, _ = person(ski_server, "Cat")
    befriend_api(ski_server, ada, bob)
    befriend_api(ski_server, ada, cat)
    group = f"Willard crew {uuid.uuid4().hex[:4]}"
    bob_browser = make_browser()
    cat_browser = make_browser()
    try:
        # A guest learns what the section is for.
        section = open_willard(browser, ski_server)
        wait(browser).until(lambda d: "log in or create an account to ski together" in section.text)

        # Ada makes a group on Willard Mountain's page and invites Bob (not Cat).
        log_in(browser, ski_server, ada)
        section = open_willard(browser, ski_server)
        wait(browser).until(lambda d: "No groups yet." in section.text)
        assert by_label(browser, "Group map of Willard Mountain")
        tap(browser, "button", "Create a group")
        sheet = dialog(browser, "New group")
        name = sheet.find_element(By.ID, "group-map-name")
        assert name.get_attribute("value") == "Willard Mountain crew"
        name.clear()
        name.send_keys(group)
        sheet.find_element(By.XPATH, f".//label[contains(., '{bob_name}')]/input").click()
        sheet.find_element(By.XPATH, ".//button[normalize-space()='Create group']").click()
        groups = wait(browser).until(lambda d: next(iter(d.find_elements(By.XPATH, "//ul[@aria-label='Your groups']")), None))
        wait(browser).until(lambda d: group in groups.text and f"invited: {bob_name}" in groups.text)
        shown(browser, "p", "Nobody in your groups shares their location right now.")
        assert small_tap_targets(browser) == []

        # Bob joins from the same page and shares his location with the group.
        set_location_permission(bob_browser, ski_server.url, "granted")
        set_geolocation(bob_browser, *ON_WILLARD)
        log_in(bob_browser, ski_server, bob)
        open_willard(bob_browser, ski_server)
        press(bob_browser, f"Join {group}")
        press(bob_browser, f"Share my location with {group}")
        sharing = wait(bob_browser).until(lambda d: next(iter(d.find_elements(
            By.XPATH, "//section[contains(@class, 'group-map')]//p[contains(., 'Sharing your location')]")), None))
        assert group in sharing.text

        # Ada sees Bob on the mountain's map, live, with his name and when he was seen.
        wait(browser, 20).until(lambda d: markers(d) == [bob_name])
        people = by_label(browser, "Your groups on Willard Mountain")
        wait(browser).until(lambda d: people.text.startswith(f"{bob_name} · seen"))

        # Cat, Ada's friend outside the group, sees no group and nobody, here or on Friends on the Map.
        log_in(cat_browser, ski_server, cat)
        section = open_willard(cat_browser, ski_server)
        wait(cat_browser).until(lambda d: "No groups yet." in section.text)
        shown(cat_browser, "p", "Nobody in your groups shares their location right now.")
        assert markers(cat_browser) == []
        cat_browser.get(f"{ski_server.url}/#/location/map")
        shown(cat_browser, "p", "Nobody shares their location with you right now.")

        # Bob stops: Ada's map drops him at once.
        tap(bob_browser, "button", "Stop sharing")
        dialog(bob_browser, "Stop sharing?").find_element(By.XPATH, ".//button[normalize-space()='Stop sharing']").click()
        wait(bob_browser).until(lambda d: by_label(d, f"Share my location with {group}").is_displayed())
        wait(browser, 20).until(lambda d: markers(d) == [])
        shown(browser, "p", "Nobody in your groups shares their location right now.")
    finally:
        bob_browser.quit()
        cat_browser.quit()
