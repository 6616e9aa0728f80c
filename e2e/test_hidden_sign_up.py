"""Sign-up on a server that hides which emails are registered (CAIRN_RESET_UNKNOWN_EMAIL=hide, issue 13 item 6):
the form says "Check your inbox" for every address; the mailed link finishes the sign-up and signs in, and what
the guest did on the device comes along."""

import re

import pytest
from accounts import PASSWORD, fill, tap, title, wait_for_mail
from conftest import by_label, by_text, unique_name, wait
from selenium.webdriver.common.by import By


@pytest.fixture(scope="module")
def hiding_server():
    from conftest import Server
    running = Server(env={"CAIRN_RESET_UNKNOWN_EMAIL": "hide"})
    yield running
    running.cleanup()


def account_of(browser):
    return browser.execute_script("return fetch('/api/account').then(r => r.ok ? r.json() : null)")


def sign_up(browser, server, username, email):
    browser.get(f"{server.url}/#/login")  # away first: after a sign-up the form is replaced on the same screen
    title(browser, "Log in")
    browser.get(f"{server.url}/#/register")
    title(browser, "Register")
    fill(browser, "First name", "Eve")
    fill(browser, "Last name", "Example")
    fill(browser, "Username", username)
    fill(browser, "Email address", email)
    fill(browser, "Password", PASSWORD)
    fill(browser, "Confirm password", PASSWORD)
    tap(browser, "button", "Register")
    by_text(browser, "h2", "Check your inbox")
    return wait(browser).until(lambda d: d.find_element(
        By.XPATH, "//p[@role='status'][starts-with(normalize-space(), 'Check your inbox')]")).text


def test_sign_up_mails_a_link_that_signs_in_with_the_guests_units(hiding_server, browser):
    server = hiding_server
    browser.get(f"{server.url}/#/settings")
    by_label(browser, "Distance: mi").find_element(By.XPATH, "..").click()
    username = unique_name("eve")
    email = f"{username}@example.org"

    said = sign_up(browser, server, username, email)

    assert said.startswith("Check your inbox to finish signing up")
    assert account_of(browser) is None, "not signed in before the link is opened"
    link = re.search(r"https?://\S+/#/confirm-sign-up/[A-Za-z0-9_-]+", wait_for_mail(server, email, "Finish signing up"))
    browser.get(link.group(0).replace("http://localhost", server.url))
    title(browser, "Finish Signing Up")
    by_text(browser, "p", f"Welcome, Eve! You are signed in as {username}.")
    account = account_of(browser)
    assert account["username"] == username and account["email_verified"]
    assert account["profile"]["units"]["distance"] == "mi", "the guest's units came along"
    tap(browser, "a", "Go to Home")
    title(browser, "Home")

    browser.get(link.group(0).replace("http://localhost", server.url))
    title(browser, "Finish Signing Up")
    by_text(browser, "p", "This sign-up link has expired or was already used. Sign up again.")


def test_a_registered_email_sees_the_same_screen_and_is_mailed_to_log_in(hiding_server, browser):
    server = hiding_server
    existing = unique_name("ada")
    status, body, _ = server.api("POST", "/api/account", {
        "first_name": "Ada", "last_name": "Lovelace", "username": existing, "email": f"{existing}@example.org",
        "password": PASSWORD, "password_confirmation": PASSWORD,
    })
    assert status == 202, body
    link = re.search(r"/#/confirm-sign-up/([A-Za-z0-9_-]+)",
                     wait_for_mail(server, f"{existing}@example.org", "Finish signing up"))
    status, body, _ = server.api("POST", "/api/account/sign-up-confirmation",
                                 {"token": link.group(1), "session": "token"})
    assert status == 201, body

    said_registered = sign_up(browser, server, unique_name("eve"), f"{existing}@example.org")
    new = unique_name("eve")
    said_new = sign_up(browser, server, new, f"{new}@example.org")

    assert said_registered.replace(f"{existing}@example.org", "X") == said_new.replace(f"{new}@example.org", "X")
    text = wait_for_mail(server, f"{existing}@example.org", "You already have a Cairn account")
    assert f"your username is {existing}" in text
