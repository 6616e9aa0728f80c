"""Forums in Chromium at 390×844: a first-visit explanation, a post with a photo (its camera data gone) and a
dropped pin, a comment from a second browser, the pin opened on a map, deleting one's own post, and guests
reading without writing."""

import struct
import urllib.request
import uuid
import zlib

from accounts import fill, log_in, register_api, shown, tap, title
from conftest import by_label, by_text, dialog, make_browser, small_tap_targets, unique_name, wait
from selenium.webdriver.common.by import By

from test_community import api_as


def png_with_gps(path, width=64, height=48):
    """A gradient PNG carrying a tEXt chunk with a GPS position, as a camera app might leave it."""
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
    rows = b"".join(b"\x00" + bytes(v for x in range(width) for v in (x * 4 % 256, y * 5 % 256, 120))
                    for y in range(height))
    data = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"tEXt", b"GPSLatitude\x0060.1699 N") + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
    path.write_bytes(data)
    return path


def person(server, first):
    username = unique_name(first.lower())
    register_api(server, username, first_name=first, last_name="Walker")
    return username, f"{first} Walker"


def test_a_post_with_a_photo_and_a_pin_gets_a_comment_from_another_browser(server, browser, tmp_path):
    ada, _ = person(server, "Ada")
    bob, bob_name = person(server, "Bob")
    title_text = f"Sunrise {uuid.uuid4().hex[:6]}"
    photo = png_with_gps(tmp_path / "sunrise.png")
    other = make_browser()
    try:
        log_in(browser, server, ada)
        browser.get(f"{server.url}/#/community")
        title(browser, "Community")
        tap(browser, "strong", "Best Moments")
        title(browser, "Best Moments")
        by_text(browser, "h2", "Welcome to the forums")
        tap(browser, "button", "Got it")
        wait(browser).until(lambda d: not d.find_elements(By.XPATH, "//h2[normalize-space()='Welcome to the forums']"))
        assert small_tap_targets(browser) == []

        tap(browser, "a", "New post")
        title(browser, "New Post")
        tap(browser, "button", "Post")
        assert "Enter a title" in shown(browser, "p", "Enter a title.").text
        fill(browser, "Title", title_text)
        fill(browser, "Text", "Worth the early start.")
        by_label(browser, "Photo (optional)").send_keys(str(photo))
        wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "img[alt='The chosen photo']"))
        tap(browser, "button", "Drop a pin")
        sheet = dialog(browser, "Drop a pin")
        wait(browser).until(lambda d: sheet.find_elements(By.CSS_SELECTOR, ".leaflet-container"))
        sheet.find_element(By.XPATH, ".//button[normalize-space()='Use this place']").click()
        wait(browser).until(lambda d: "Pinned:" in d.find_element(By.XPATH, "//p[contains(., 'Pinned:')]").text)
        assert small_tap_targets(browser) == []
        tap(browser, "button", "Post")

        title(browser, title_text)
        image = wait(browser).until(lambda d: next(iter(d.find_elements(By.CSS_SELECTOR, "img.forum-post__photo")), None))
        wait(browser).until(lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", image))
        served = urllib.request.urlopen(image.get_attribute("src"), timeout=10).read()
        assert served[:3] == b"\xff\xd8\xff" and b"GPSLatitude" not in served and b"Exif" not in served
        pin = browser.find_element(By.CSS_SELECTOR, ".forum-post__pin")
        assert "Pinned place:" in pin.text and "N," in pin.text

        # Bob, in his own browser, finds the post and comments; Ada sees it.
        log_in(other, server, bob)
        other.get(f"{server.url}/#/forums/community:best-moments")
        title(other, "Best Moments")
        tap(other, "h3", title_text)
        title(other, title_text)
        fill(other, "Your comment", "Beautiful light!")
        tap(other, "button", "Comment")
        shown(other, "p", "Beautiful light!")
        shown(other, "h3", "1 comment")

        browser.refresh()
        title(browser, title_text)
        shown(browser, "p", "Beautiful light!")
        assert browser.find_element(By.XPATH, f"//article[@aria-label='Comment by {bob_name}']")
        pin = browser.find_element(By.CSS_SELECTOR, ".forum-post__pin")
        browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", pin)
        pin.click()
        pinned = dialog(browser, "Pinned place")
        wait(browser).until(lambda d: pinned.find_elements(By.CSS_SELECTOR, ".leaflet-marker-icon"))
        pinned.find_element(By.XPATH, ".//button[normalize-space()='Close']").click()

        # Bob deletes his comment through ⋮ → Delete.
        by_label(other, "Your post's options").click()
        tap(other, "button", "Delete")
        dialog(other, "Delete your post?").find_element(By.XPATH, ".//button[normalize-space()='Delete']").click()
        shown(other, "p", "No comments yet.")
    finally:
        other.quit()


def test_guests_read_the_forum_but_are_asked_to_log_in_to_post(server, browser):
    ada, _ = person(server, "Ada")
    topic_title = f"Lake {uuid.uuid4().hex[:6]}"
    status, topic = api_as(server, ada, "POST", "/api/forums/community:general/topics",
                           {"id": str(uuid.uuid4()), "title": topic_title, "text": "Calm today."})
    assert status == 201, topic

    browser.get(f"{server.url}/#/forums/community:general")
    title(browser, "General")
    tap(browser, "h3", topic_title)
    title(browser, topic_title)
    shown(browser, "p", "Calm today.")
    shown(browser, "a", "Log in to comment")
    assert not browser.find_elements(By.XPATH, "//label[normalize-space()='Your comment']")
    browser.get(f"{server.url}/#/forums/community:general/new")
    title(browser, "New Post")
    shown(browser, "a", "Log in")


def test_a_moderator_hides_a_reported_post_and_only_its_author_still_sees_it_with_why(server, browser):
    ada, _ = person(server, "Ada")
    bob, _ = person(server, "Bob")
    mod, _ = person(server, "Mona")
    server.run_cli("user", "set-role", mod, "moderator", check=True)
    topic_title = f"Cheap boots {uuid.uuid4().hex[:6]}"
    status, topic = api_as(server, ada, "POST", "/api/forums/community:general/topics",
                           {"id": str(uuid.uuid4()), "title": topic_title, "text": "Visit my shop."})
    assert status == 201, topic
    other = make_browser()
    try:
        # Bob reports it through ⋮ → Report.
        log_in(other, server, bob)
        other.get(f"{server.url}/#/forum-topics/{topic['id']}")
        title(other, topic_title)
        by_label(other, "Options for Ada Walker's post").click()
        tap(other, "button", "Report")
        sheet = dialog(other, "Report this post")
        sheet.find_element(By.TAG_NAME, "textarea").send_keys("Advertising")
        sheet.find_element(By.XPATH, ".//button[normalize-space()='Report']").click()
        wait(other).until(lambda d: not d.find_elements(By.XPATH, "//dialog[@open]"))

        # The moderator finds it in the queue, with the reason and no reporter, and hides it.
        log_in(browser, server, mod)
        browser.get(f"{server.url}/#/community")
        tap(browser, "a", "Moderation")
        title(browser, "Moderation")
        item = wait(browser).until(lambda d: next(iter(d.find_elements(By.XPATH, f"//article[.//a[contains(., '{topic_title}')]]")), None))
        assert "Advertising" in item.text and "Bob" not in item.text
        assert small_tap_targets(browser) == []
        item.find_element(By.XPATH, ".//button[normalize-space()='Hide']").click()
        sheet = dialog(browser, "Hide this content")
        sheet.find_element(By.TAG_NAME, "textarea").send_keys("Advertising is not allowed here.")
        sheet.find_element(By.XPATH, ".//button[normalize-space()='Hide']").click()
        wait(browser).until(lambda d: not d.find_elements(By.XPATH, f"//article[.//a[contains(., '{topic_title}')]]"))

        # Bob no longer finds it; Ada sees it hidden, with the reason.
        other.get(f"{server.url}/#/forums/community:general")
        title(other, "General")
        wait(other).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".forum-topics") and not d.find_elements(By.XPATH, f"//h3[normalize-space()='{topic_title}']"))
        other.get(f"{server.url}/#/forum-topics/{topic['id']}")
        shown(other, "p", "This topic is gone: its author deleted it, or a moderator hid it.")

        log_in(browser, server, ada)
        browser.get(f"{server.url}/#/forum-topics/{topic['id']}")
        title(browser, topic_title)
        shown(browser, "p", "Advertising is not allowed here.")
    finally:
        other.quit()
