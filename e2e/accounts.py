"""Helpers for the account tests: accounts made through the API, mail read back from the outbox folder,
and form fields found by their labels with the error shown next to them."""

import email
import email.policy
import re
import time

from conftest import by_label, by_text, wait, xpath_literal
from selenium.webdriver.common.by import By

PASSWORD = "Trail-Mix-42!"


def sign_up_api(server, username, password=PASSWORD, first_name="Ada", last_name="Lovelace"):
    """Creates an account through the API (no browser session); the answer: the account and its bearer token."""
    status, body, _ = server.api("POST", "/api/account", {
        "first_name": first_name, "last_name": last_name, "username": username, "email": f"{username}@example.org",
        "password": password, "password_confirmation": password, "session": "token",
    })
    assert status == 201, body
    return body


def register_api(server, username, password=PASSWORD, first_name="Ada", last_name="Lovelace"):
    """Creates an account through the API (no browser session); the account."""
    return sign_up_api(server, username, password, first_name, last_name)["account"]


def outbox(server, to):
    """The messages in the outbox folder addressed to `to`, oldest first, as (subject, text)."""
    folder = server.data_dir / "outbox"
    messages = []
    for path in sorted(folder.glob("*.eml")) if folder.exists() else []:
        message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        if to in message["To"]:
            messages.append((str(message["Subject"]), message.get_content()))
    return messages


def wait_for_mail(server, to, subject_part, timeout=10):
    deadline = time.time() + timeout
    while time.time() < deadline:
        found = [text for subject, text in outbox(server, to) if subject_part in subject]
        if found:
            return found[-1]
        time.sleep(0.1)
    raise AssertionError(f"no mail to {to} about {subject_part!r}")


def reset_code(server, to):
    return re.search(r"\b(\d{6})\b", wait_for_mail(server, to, "reset code")).group(1)


def fill(browser, label, text):
    control = by_label(browser, label)
    control.clear()
    control.send_keys(text)
    return control


def field_error(browser, label, timeout=10):
    """The error shown next to the control labelled `label` (through its aria-describedby)."""
    control = by_label(browser, label)
    ids = control.get_attribute("aria-describedby").split()
    error = browser.find_element(By.ID, ids[0])
    wait(browser, timeout).until(lambda d: error.text.strip() != "")
    assert control.get_attribute("aria-invalid") == "true"
    return error.text


def notice(browser, timeout=10):
    """The form's alert (by its submit button) once it says something."""
    element = wait(browser, timeout).until(
        lambda d: next((e for e in d.find_elements(By.XPATH, "//form//*[@role='alert']") if e.text.strip()), None))
    return element.text


def title(browser, text):
    return by_text(browser, "h1", text)


def log_in(browser, server, login, password=PASSWORD):
    browser.get(f"{server.url}/#/login")
    title(browser, "Log in")
    fill(browser, "Username or email", login)
    fill(browser, "Password", password)
    tap(browser, "button", "Log in")
    title(browser, "Home")


def open_profile_menu(browser):
    by_label(browser, "Profile and settings").click()


def smallest_text_px(browser):
    return browser.execute_script("""
        let min = Infinity;
        for (const el of document.querySelectorAll('body *')) {
          if (!el.offsetParent && getComputedStyle(el).position !== 'fixed') continue;
          const hasText = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
          if (hasText) min = Math.min(min, parseFloat(getComputedStyle(el).fontSize));
        }
        return min;""")


def unlabelled_controls(browser):
    """Inputs, selects, textareas and buttons a screen reader could not name."""
    return browser.execute_script("""
        return [...document.querySelectorAll('input, select, textarea, button')]
          .filter(el => el.offsetParent !== null || getComputedStyle(el).position === 'fixed')
          .filter(el => !(el.labels && el.labels.length) && !el.getAttribute('aria-label') && !el.textContent.trim())
          .map(el => el.outerHTML.slice(0, 80));""")


def shown(browser, tag, text, timeout=10):
    """The first visible `tag` whose normalised text is `text` (hidden menus may hold the same words)."""
    xpath = f"//{tag}[normalize-space()={xpath_literal(text)}]"
    return wait(browser, timeout).until(
        lambda d: next((e for e in d.find_elements(By.XPATH, xpath) if e.is_displayed()), None))


def tap(browser, tag, text):
    """Clicks the visible `tag` whose text is `text`, scrolled clear of the fixed app bar and bottom navigation."""
    element = shown(browser, tag, text)
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()
    return element
