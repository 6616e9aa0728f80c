"""Community in Chromium at 390×844: find a person and befriend them, chat in real time across two (and three)
browsers — edit, delete, invite, remove — reviews with votes and reports, and public profiles."""

import uuid

from accounts import PASSWORD, fill, log_in, register_api, shown, tap, title
from conftest import by_label, by_text, dialog, make_browser, unique_name, wait
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys


def token(server, username):
    status, body, _ = server.api("POST", "/api/session", {"login": username, "password": PASSWORD, "session": "token"})
    assert status == 200, body
    return body["token"]


def api_as(server, username, method, path, body=None):
    status, answer, _ = server.api(method, path, body, {"Authorization": f"Bearer {token(server, username)}"})
    return status, answer


def befriend_api(server, a, b):
    status, outcome = api_as(server, a, "POST", "/api/friends/requests", {"username": b})
    assert status == 201, outcome
    status, answer = api_as(server, b, "POST", f"/api/friends/requests/{outcome['request']['id']}/accept")
    assert status == 200, answer


def person(server, first):
    username = unique_name(first.lower())
    account = register_api(server, username, first_name=first, last_name="Walker")
    return username, account["id"], f"{first} Walker"


def find(driver, xpath, timeout=10):
    """The first element at `xpath`, once there."""
    return wait(driver, timeout).until(lambda d: next(iter(d.find_elements(By.XPATH, xpath)), None))


def message_bubbles(browser):
    """(class, text) of each message shown, read at once (the list is redrawn as messages arrive)."""
    return [tuple(item) for item in browser.execute_script(
        "return [...document.querySelectorAll('.message-list .message:not(.message--notice)')]"
        ".map(e => [e.className, e.querySelector('.message__text')?.textContent ?? ''])")]


def open_conversation_with(browser, server, name):
    browser.get(f"{server.url}/#/messages")
    title(browser, "Messages")
    tap(browser, "span", name)
    title(browser, "Conversation")


def test_two_people_befriend_and_chat_in_real_time(server, browser):
    ada, _, ada_name = person(server, "Ada")
    bob, _, bob_name = person(server, "Bob")
    other = make_browser()
    try:
        log_in(browser, server, ada)
        browser.get(f"{server.url}/#/friends")
        title(browser, "Friends")
        fill(browser, "Find people", bob).send_keys(Keys.ENTER)
        by_text(browser, "h2", "People found")
        tap(browser, "button", "Add friend")
        shown(browser, "span", "Request sent")

        log_in(other, server, bob)
        other.get(f"{server.url}/#/friends")
        by_text(other, "h2", "Friend requests")
        tap(other, "button", "Accept")
        by_text(other, "h2", "Friends (1)")
        shown(other, "span", ada_name)

        browser.get(f"{server.url}/#/messages")
        title(browser, "Messages")
        by_label(browser, "New message").click()
        title(browser, "New Message")
        find(browser, f"//label[contains(., '{bob_name}')]").click()
        by_label(browser, "Start conversation").click()
        title(browser, "Conversation")
        compose = by_label(browser, "Message")
        compose.send_keys("Hello Bob, trail at 9?")
        compose.send_keys(Keys.ENTER)
        wait(browser).until(lambda d: ("message message--mine", "Hello Bob, trail at 9?") in message_bubbles(d))

        wait(other).until(lambda d: d.find_elements(By.CSS_SELECTOR, '.bottom-nav a[aria-label="Messages, 1 unread"]'))
        open_conversation_with(other, server, ada_name)
        wait(other).until(lambda d: ("message message--theirs", "Hello Bob, trail at 9?") in message_bubbles(d))
        reply = by_label(other, "Message")
        reply.send_keys("Yes! See you there.")
        tap(other, "button", "Send")

        wait(browser).until(lambda d: ("message message--theirs", "Yes! See you there.") in message_bubbles(d))
        assert [text for _, text in message_bubbles(browser)] == ["Hello Bob, trail at 9?", "Yes! See you there."]

        by_label(browser, "Message options").click()
        tap(browser, "button", "Edit")
        compose = by_label(browser, "Message")
        compose.clear()
        compose.send_keys("Hello Bob, trail at 10?")
        tap(browser, "button", "Save")
        wait(other).until(lambda d: ("message message--theirs", "Hello Bob, trail at 10?") in message_bubbles(d))
        wait(other).until(lambda d: "edited" in d.find_element(By.CSS_SELECTOR, ".message--theirs .message__meta").text)

        by_label(browser, "Message options").click()
        tap(browser, "button", "Delete")
        dialog(browser, "Delete message?").find_element(By.XPATH, ".//button[normalize-space()='Delete']").click()
        wait(other).until(lambda d: ("message message--theirs", "This message was deleted.") in message_bubbles(d))
        assert not other.find_elements(By.XPATH, "//button[@aria-label='Message options' and ancestor::li[contains(@class, 'message--theirs')]]")
    finally:
        other.quit()


def test_a_conversation_after_twenty_missed_messages_shows_each_once_in_order(server, browser):
    ada, _, _ = person(server, "Ada")
    bob, bob_id, _ = person(server, "Bob")
    befriend_api(server, ada, bob)
    status, thread = api_as(server, ada, "POST", "/api/threads", {"id": str(uuid.uuid4()), "members": [bob_id]})
    assert status == 201, thread
    log_in(browser, server, bob)
    browser.get(f"{server.url}/#/messages/{thread['id']}")
    title(browser, "Conversation")
    by_text(browser, "li", "No messages yet. Say hello!")
    ada_token = token(server, ada)
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    for n in range(1, 21):
        status, _, _ = server.api("POST", f"/api/threads/{thread['id']}/messages",
                                  {"id": str(uuid.uuid4()), "text": f"Missed {n}"},
                                  {"Authorization": f"Bearer {ada_token}"})
        assert status == 201
    browser.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    browser.execute_script("window.dispatchEvent(new Event('online'))")

    wait(browser, 40).until(lambda d: len(message_bubbles(d)) >= 20)
    assert [text for _, text in message_bubbles(browser)] == [f"Missed {n}" for n in range(1, 21)]


def test_invite_and_remove_friends_in_a_group_conversation(server, browser):
    ada, _, ada_name = person(server, "Ada")
    bob, bob_id, bob_name = person(server, "Bob")
    cat, _, cat_name = person(server, "Cat")
    befriend_api(server, ada, bob)
    befriend_api(server, ada, cat)
    status, thread = api_as(server, ada, "POST", "/api/threads", {"id": str(uuid.uuid4()), "members": [bob_id]})
    assert status == 201, thread
    third = make_browser()
    try:
        log_in(third, server, cat)
        log_in(browser, server, ada)
        browser.get(f"{server.url}/#/messages/{thread['id']}")
        title(browser, "Conversation")
        by_label(browser, "Conversation options").click()
        assert shown(browser, "button", "Remove Friends").get_attribute("disabled") is not None
        tap(browser, "button", "Invite Friends")
        sheet = dialog(browser, "Invite Friends")
        sheet.find_element(By.XPATH, f".//label[contains(., '{cat_name}')]").click()
        sheet.find_element(By.XPATH, ".//button[normalize-space()='Invite']").click()
        wait(browser).until(lambda d: d.find_elements(By.XPATH, f"//li[contains(@class, 'message--notice') and normalize-space()='{ada_name} added {cat_name}.']"))

        third.get(f"{server.url}/#/messages/{thread['id']}")
        title(third, "Conversation")
        by_text(third, "li", f"{ada_name} added {cat_name}.")

        by_label(browser, "Conversation options").click()
        tap(browser, "button", "Remove Friends")
        dialog(browser, "Remove Friends").find_element(By.XPATH, f".//button[@aria-label='Remove {bob_name}']").click()
        by_text(third, "li", f"{ada_name} removed {bob_name}.", timeout=15)
        by_label(browser, "Conversation options").click()
        assert shown(browser, "button", "Remove Friends").get_attribute("disabled") is not None
    finally:
        third.quit()


def test_review_vote_and_report_hide_a_review(server, browser):
    ada, _, _ = person(server, "Ada")
    bob, _, bob_name = person(server, "Bob")
    log_in(browser, server, ada)
    browser.get(f"{server.url}/#/community")
    title(browser, "Community")
    tap(browser, "button", "Write a review")
    sheet = dialog(browser, "Write a review")
    sheet.find_element(By.XPATH, ".//button[@aria-label='4 stars']").click()
    sheet.find_element(By.XPATH, ".//textarea").send_keys("Friendly people and well kept paths.")
    sheet.find_element(By.XPATH, ".//button[normalize-space()='Save review']").click()
    wait(browser).until(lambda d: "Friendly people" in by_label(d, "Your review").text)
    mine = by_label(browser, "Your review")
    assert "review--mine" in mine.get_attribute("class")

    status, _ = api_as(server, bob, "PUT", "/api/reviews/community:general", {"rating": 2, "text": "Buy cheap boots at example.com"})
    assert status in (200, 201)
    browser.refresh()
    bobs = by_label(browser, f"Review by {bob_name}")
    bobs.find_element(By.XPATH, ".//button[starts-with(normalize-space(), 'Not accurate')]").click()
    wait(browser).until(lambda d: by_label(d, f"Review by {bob_name}").find_element(
        By.XPATH, ".//button[starts-with(normalize-space(), 'Not accurate')]").get_attribute("aria-pressed") == "true")
    by_label(browser, f"Options for {bob_name}'s review").click()
    tap(browser, "button", "Report")
    sheet = dialog(browser, "Report this review")
    sheet.find_element(By.XPATH, ".//textarea").send_keys("Advertising")
    sheet.find_element(By.XPATH, ".//button[normalize-space()='Report']").click()
    wait(browser).until(lambda d: d.find_elements(By.XPATH, "//button[normalize-space()='Reported']"))

    _, page = api_as(server, ada, "GET", "/api/reviews?subject=community:general")
    review_id = page["reviews"][0]["id"]
    for first in ("Cat", "Dan"):
        reporter, _, _ = person(server, first)
        status, _ = api_as(server, reporter, "POST", f"/api/reviews/{review_id}/reports", {"reason": "Spam"})
        assert status == 201
    browser.refresh()
    by_label(browser, "Your review")
    wait(browser).until(lambda d: not d.find_elements(By.XPATH, f"//*[@aria-label='Review by {bob_name}']"))
    assert "1 review" in by_text(browser, "h2", "How is this Cairn?").find_element(By.XPATH, "..").text


def test_a_public_profile_and_the_friends_button(server, browser):
    ada, _, _ = person(server, "Ada")
    bob, _, bob_name = person(server, "Bob")
    status, _ = api_as(server, bob, "PUT", "/api/account/profile",
                       {"first_name": "Bob", "last_name": "Walker", "about_me": "Ridge runner.", "age": 33})
    assert status == 200
    log_in(browser, server, ada)
    browser.get(f"{server.url}/#/profile")
    title(browser, "Profile")
    tap(browser, "a", "Friends")
    title(browser, "Friends")

    browser.get(f"{server.url}/#/people/{bob}")
    title(browser, "Profile")
    by_text(browser, "h2", bob_name)
    by_text(browser, "p", "Ridge runner.")
    # The age stays private (the random handle, shown as @name, may itself hold "33").
    assert "33" not in browser.find_element(By.TAG_NAME, "main").text.replace(f"@{bob}", "")
    tap(browser, "button", "Add friend")
    by_text(browser, "p", "Friend request sent.")
