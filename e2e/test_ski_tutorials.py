"""Ski tutorials (issue 21, GoSki story 3, UC7, functionality 3) at 390×844, on the demo list `cairn seed-demo`
loads: the Tutorials entry of the ski main menu, three levels with their videos, a YouTube/Vimeo video that loads
nothing from the provider before play and then a privacy-enhanced frame, an outside link that says so, the list
offline, and an admin's editor (a bad address refused next to its field, fixed, shown in its level, deleted)."""

import uuid

import pytest
from accounts import field_error, fill, log_in, register_api, shown, tap
from conftest import Server, by_label, by_text, dialog, set_offline, small_tap_targets, unique_name, wait
from runs_helpers import token_of
from selenium.common.exceptions import ElementClickInterceptedException, StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

LEVELS = ["Beginner", "Intermediate", "Advanced"]
FIRST_VIDEO = "How to ski: 10 beginner skills for the first day (Stomp It Tutorials)"
VIMEO_VIDEO = "Sideslipping on steep ground"
OUTSIDE_LINK = "Alpine skiing: the basics explained"


@pytest.fixture(scope="module")
def ski_server():
    running = Server(seed_demo=True)
    yield running
    running.cleanup()


def press(browser, element):
    """Scrolls `element` to the middle and taps it, again while a late layout shift puts something over it."""
    def tapped(_):
        browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
        element.click()
        return True

    WebDriverWait(browser, 10, ignored_exceptions=(ElementClickInterceptedException,)).until(tapped)


def open_tutorials(browser, server):
    browser.get(f"{server.url}/#/ski")
    by_text(browser, "h1", "GoSki")
    menu = by_label(browser, "Ski menu")
    press(browser, menu.find_element(By.XPATH, ".//a[.//span[@class='ski-menu__label' and normalize-space()='Tutorials']]"))
    by_text(browser, "h1", "Tutorials")
    wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "ol.ski-tutorial-list > li"))


def titles(browser, level):
    lists = browser.find_elements(By.XPATH, f"//ol[@aria-label='{level} tutorials']")
    if not lists:
        return []
    return [e.text for e in lists[0].find_elements(By.CSS_SELECTOR, ".ski-tutorial__title, .ski-tutorial__link-title")]


def third_party_hosts(browser):
    """Hosts other than Cairn's that the page has fetched anything from, and whether it holds any frame."""
    return browser.execute_script("""
        const hosts = performance.getEntriesByType('resource').map((entry) => new URL(entry.name).host)
          .filter((host) => host !== location.host);
        return { hosts: [...new Set(hosts)], frames: document.querySelectorAll('iframe').length };""")


def test_a_guest_finds_three_levels_of_videos_from_the_main_menu(ski_server, browser):
    open_tutorials(browser, ski_server)

    headings = [e.text for e in browser.find_elements(By.CSS_SELECTOR, ".ski-level__title")]
    assert headings == LEVELS
    for level in LEVELS:
        assert len(titles(browser, level)) == 4, level
    assert any(t.startswith(FIRST_VIDEO) for t in titles(browser, "Beginner"))
    assert browser.find_elements(By.XPATH, "//*[normalize-space()='Edit tutorials']") == []
    tap(browser, "button", "Advanced")
    assert small_tap_targets(browser) == []


def test_a_video_loads_nothing_from_youtube_or_vimeo_until_play_then_the_privacy_enhanced_player(ski_server, browser):
    open_tutorials(browser, ski_server)
    play = by_label(browser, f"Play “{FIRST_VIDEO}”")
    assert "loads only when you press play" in browser.find_element(By.CSS_SELECTOR, ".ski-player__privacy").text

    before = third_party_hosts(browser)
    assert before == {"hosts": [], "frames": 0}

    press(browser, play)
    frame = wait(browser).until(lambda d: d.find_element(By.CSS_SELECTOR, "iframe.ski-player__frame"))
    assert frame.get_attribute("src") == "https://www.youtube-nocookie.com/embed/_yfFGDuJ2g0?autoplay=1"
    assert frame.get_attribute("title") == f"{FIRST_VIDEO} (YouTube video)"

    # The demo list has no Vimeo video: an admin adds one (through the API) for this part, and takes it away.
    keeper = register_api(ski_server, unique_name("keeper"))["username"]
    ski_server.run_cli("user", "set-role", keeper, "admin", check=True)
    admin = {"Authorization": f"Bearer {token_of(ski_server, keeper)}"}
    vimeo = {"id": str(uuid.uuid4()), "level": "advanced", "title": VIMEO_VIDEO, "url": "https://vimeo.com/148751763"}
    status, added, _ = ski_server.api("POST", "/api/ski/tutorials", vimeo, headers=admin)
    assert status == 201, added
    try:
        open_tutorials(browser, ski_server)
        press(browser, by_label(browser, f"Play “{VIMEO_VIDEO}”"))
        frame = wait(browser).until(lambda d: d.find_element(By.CSS_SELECTOR, "iframe.ski-player__frame"))
        assert frame.get_attribute("src") == "https://player.vimeo.com/video/148751763?dnt=1&autoplay=1"
    finally:
        status, _, _ = ski_server.api("DELETE", f"/api/ski/tutorials/{vimeo['id']}", headers=admin)
        assert status == 204

    # The page's policy lets frames come from exactly these two players.
    _, _, headers = ski_server.api("GET", "/api/ski/tutorials")
    policy = [part.strip() for part in headers["Content-Security-Policy"].split(";")]
    assert [part for part in policy if part.startswith("frame-src")] == [
        "frame-src https://www.youtube-nocookie.com https://player.vimeo.com"]


def test_a_link_that_is_not_a_video_opens_outside_cairn(ski_server, browser):
    open_tutorials(browser, ski_server)
    link = wait(browser).until(lambda d: d.find_element(
        By.XPATH, f"//a[contains(@class, 'ski-tutorial__link')][.//*[starts-with(normalize-space(), '{OUTSIDE_LINK}')]]"))
    assert link.get_attribute("href") == "https://en.wikipedia.org/wiki/Alpine_skiing"
    assert link.get_attribute("target") == "_blank"
    assert "noopener" in link.get_attribute("rel").split()
    assert "Opens outside Cairn · en.wikipedia.org" in link.text
    tabs = set(browser.window_handles)

    press(browser, link)

    wait(browser).until(lambda d: len(d.window_handles) == len(tabs) + 1)
    assert browser.current_url.endswith("#/ski/tutorials")
    assert browser.find_elements(By.CSS_SELECTOR, "iframe") == []


def test_offline_the_kept_list_shows_and_a_video_says_it_needs_a_connection(ski_server, browser):
    open_tutorials(browser, ski_server)
    browser.get(f"{ski_server.url}/#/ski")
    by_text(browser, "h1", "GoSki")
    set_offline(browser, True)
    try:
        browser.execute_script("location.hash = '#/ski/tutorials'")
        by_text(browser, "h1", "Tutorials")
        wait(browser).until(lambda d: "Offline: the list as kept" in d.find_element(By.TAG_NAME, "main").text)
        assert len(titles(browser, "Beginner")) == 4

        press(browser, by_label(browser, f"Play “{FIRST_VIDEO}”"))

        shown(browser, "p", "This video needs a connection. Try again when you are online.")
        assert browser.find_elements(By.CSS_SELECTOR, "iframe") == []
    finally:
        set_offline(browser, False)


def test_an_admin_adds_a_video_fixing_a_bad_address_sees_it_in_its_level_and_deletes_it(ski_server, browser):
    keeper = register_api(ski_server, unique_name("keeper"))["username"]
    ski_server.run_cli("user", "set-role", keeper, "admin", check=True)
    log_in(browser, ski_server, keeper)
    open_tutorials(browser, ski_server)
    name = f"Getting up after a fall {unique_name('')}"

    tap(browser, "button", "Edit tutorials")
    tap(browser, "button", "Add a beginner tutorial")
    sheet = dialog(browser, "Add a tutorial")
    fill(browser, "Title", name)
    fill(browser, "Video address", "http://youtu.be/q3JkB7fW2aX")
    press(browser, sheet.find_element(By.XPATH, ".//button[normalize-space()='Add tutorial']"))
    assert field_error(browser, "Video address").startswith("Enter a web address starting with https://")

    fill(browser, "Video address", "https://youtu.be/q3JkB7fW2aX")
    press(browser, sheet.find_element(By.XPATH, ".//button[normalize-space()='Add tutorial']"))

    wait(browser).until(lambda d: name in titles(d, "Beginner"))
    assert titles(browser, "Beginner")[-1] == name
    assert name not in titles(browser, "Intermediate") + titles(browser, "Advanced")
    by_label(browser, f"Play “{name}”")
    assert small_tap_targets(browser) == []

    press(browser, by_label(browser, f"Move up “{name}”"))
    wait(browser).until(lambda d: titles(d, "Beginner")[-2:-1] == [name])

    press(browser, by_label(browser, f"Delete “{name}”"))
    confirm = dialog(browser, "Delete this tutorial?")
    press(browser, confirm.find_element(By.XPATH, ".//button[normalize-space()='Delete tutorial']"))
    wait(browser).until(lambda d: name not in titles(d, "Beginner"))
    assert len(titles(browser, "Beginner")) == 4
