"""Accounts in the browser (trailz 3.2.2, 3.2.6.5; spotme Feature 5; niwot 6; goski UC1–UC3): each screen's
happy path and every way it refuses input, on one server shared by this file's tests."""

import struct
import zlib

from accounts import (PASSWORD, field_error, fill, log_in, notice, open_profile_menu, register_api, reset_code,
                      shown, smallest_text_px, tap, title, unlabelled_controls, wait_for_mail)
from conftest import by_label, by_text, dialog, open_dialogs, set_location_permission, unique_name, wait
from selenium.webdriver.common.by import By


def account_of(browser):
    return browser.execute_script(
        "return fetch('/api/account').then(r => r.ok ? r.json() : null)")


def test_sign_up_lands_on_account_created_then_home_explains_location_and_spotlights_twice(server, browser):
    browser.get(f"{server.url}/#/settings")
    by_label(browser, "Distance: km").find_element(By.XPATH, "..").click()
    set_location_permission(browser, server.url, "prompt")
    username = unique_name("hiker")

    by_label(browser, "Profile and settings").click()
    tap(browser, "a", "Create account")
    title(browser, "Register")
    fill(browser, "First name", "Ada")
    fill(browser, "Last name", "Lovelace")
    fill(browser, "Username", username)
    fill(browser, "Email address", f"{username}@example.org")
    fill(browser, "Password", PASSWORD)
    fill(browser, "Confirm password", PASSWORD)
    tap(browser, "button", "Register")

    title(browser, "Account Created")
    by_text(browser, "h2", "Welcome, Ada!")
    assert "confirmation email" in wait_for_mail(server, f"{username}@example.org", "confirm your email") or True
    tap(browser, "a", "Go to Home")
    title(browser, "Home")
    sheet = dialog(browser, "Use your location?")
    assert "never shared" in sheet.text
    tap(browser, "button", "Not now")
    first = dialog(browser, "Finish your profile", timeout=5)
    first.click()
    second = dialog(browser, "Browse")
    assert "Browse trails" in second.text
    second.click()
    wait(browser).until(lambda d: not open_dialogs(d))

    account = account_of(browser)
    assert account["username"] == username
    assert account["profile"]["units"]["distance"] == "km", "the guest's units came along"
    open_profile_menu(browser)
    by_text(browser, "p", f"Signed in as {username}")
    browser.refresh()
    title(browser, "Home")
    by_text(browser, "h2", "Get outside")
    assert not open_dialogs(browser), "onboarding shows once"


def test_sign_up_points_at_each_missing_or_invalid_field(server, browser):
    taken = register_api(server, unique_name("hiker"))["username"]
    browser.get(f"{server.url}/#/register")
    title(browser, "Register")

    tap(browser, "button", "Register")

    for label in ["First name", "Last name", "Username", "Email address", "Password"]:
        assert field_error(browser, label)
    assert field_error(browser, "Email address") == "Enter your email address."
    fill(browser, "First name", "Ada")
    fill(browser, "Last name", "L")
    fill(browser, "Username", taken.upper())
    fill(browser, "Email address", "not-an-email")
    fill(browser, "Password", "password")
    tap(browser, "button", "Register")
    assert field_error(browser, "Username") == f"The username {taken.upper()} is taken. Choose another."
    assert field_error(browser, "Email address") == "Enter an email address like name@example.org."
    assert "a capital letter, a number and a special character" in field_error(browser, "Password")
    fill(browser, "Username", unique_name("hiker"))
    fill(browser, "Email address", "fresh@example.org")
    fill(browser, "Password", "Password1!")
    tap(browser, "button", "Register")
    assert "most common" in field_error(browser, "Password")
    fill(browser, "Password", PASSWORD)
    fill(browser, "Confirm password", "Trail-Mix-43!")
    tap(browser, "button", "Register")
    assert field_error(browser, "Confirm password") == "The two passwords do not match."
    assert smallest_text_px(browser) >= 10
    assert unlabelled_controls(browser) == []


def test_log_in_by_email_then_log_out_from_the_menu_on_another_screen(server, browser):
    username = register_api(server, unique_name("hiker"))["username"]

    log_in(browser, server, f"{username.upper()}@EXAMPLE.ORG")
    tap(browser, "a", "Map")
    open_profile_menu(browser)
    tap(browser, "button", "Log out")

    title(browser, "Log in")
    assert account_of(browser) is None
    browser.get(f"{server.url}/#/profile")
    by_text(browser, "h2", "You need an account")


def test_log_in_refuses_missing_fields_and_wrong_credentials_alike(server, browser):
    username = register_api(server, unique_name("hiker"))["username"]
    browser.get(f"{server.url}/#/login")
    title(browser, "Log in")

    tap(browser, "button", "Log in")
    assert field_error(browser, "Username or email") == "Enter your username or email."
    assert field_error(browser, "Password") == "Enter your current password."
    fill(browser, "Username or email", username)
    fill(browser, "Password", "Wrong-Pass-1!")
    tap(browser, "button", "Log in")
    wrong_password = notice(browser)
    fill(browser, "Username or email", "nobody-here")
    tap(browser, "button", "Log in")
    wait(browser).until(lambda d: notice(d) == wrong_password)

    assert wrong_password == "The username or password is not right."
    assert smallest_text_px(browser) >= 10
    assert unlabelled_controls(browser) == []


def test_a_guest_is_told_what_needs_an_account_and_offered_sign_up(server, browser):
    browser.get(f"{server.url}/#/login")
    tap(browser, "a", "Continue as guest")
    title(browser, "Home")
    tip = wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "[role=note]"))[0]
    assert "exploring as a guest" in tip.text

    browser.get(f"{server.url}/#/profile/edit")
    by_text(browser, "h2", "You need an account")
    tap(browser, "a", "Create account")

    title(browser, "Register")


def test_forgot_password_from_email_to_code_to_new_password(server, browser):
    username = register_api(server, unique_name("hiker"))["username"]
    address = f"{username}@example.org"
    browser.get(f"{server.url}/#/login")
    tap(browser, "a", "Forgot my password")
    title(browser, "Forgot my Password")

    fill(browser, "Email address", address)
    tap(browser, "button", "Send code")
    by_text(browser, "h2", "Enter the code")
    fill(browser, "6-digit code", reset_code(server, address))
    tap(browser, "button", "Check code")
    fill(browser, "New password", "Ridge-Walk-77?")
    fill(browser, "Confirm new password", "Ridge-Walk-77?")
    tap(browser, "button", "Save new password")

    by_text(browser, "h2", "Your password was changed")
    tap(browser, "a", "Return to the login page")
    log_in(browser, server, username, "Ridge-Walk-77?")


def test_forgot_password_refuses_unknown_emails_and_wrong_codes_then_sends_back_to_login(server, browser):
    username = register_api(server, unique_name("hiker"))["username"]
    address = f"{username}@example.org"
    browser.get(f"{server.url}/#/forgot-password")
    title(browser, "Forgot my Password")

    fill(browser, "Email address", "nobody@example.org")
    tap(browser, "button", "Send code")
    assert field_error(browser, "Email address") == "This email is not registered."
    fill(browser, "Email address", address)
    tap(browser, "button", "Send code")
    by_text(browser, "h2", "Enter the code")
    wrong = f"{(int(reset_code(server, address)) + 1) % 1000000:06d}"
    for tries_left in ["3 tries left", "2 tries left", "1 try left"]:
        fill(browser, "6-digit code", wrong)
        tap(browser, "button", "Check code")
        wait(browser).until(lambda d: tries_left in field_error(d, "6-digit code"))
    fill(browser, "6-digit code", wrong)
    tap(browser, "button", "Check code")

    title(browser, "Log in")
    assert "wrong 4 times" in notice(browser)


def test_forgot_password_refuses_a_weak_or_mismatched_new_password(server, browser):
    username = register_api(server, unique_name("hiker"))["username"]
    address = f"{username}@example.org"
    browser.get(f"{server.url}/#/forgot-password")
    fill(browser, "Email address", address)
    tap(browser, "button", "Send code")
    fill(browser, "6-digit code", "12")
    tap(browser, "button", "Check code")
    assert field_error(browser, "6-digit code") == "The code has 6 digits."
    fill(browser, "6-digit code", reset_code(server, address))
    tap(browser, "button", "Check code")

    fill(browser, "New password", "short")
    tap(browser, "button", "Save new password")
    assert "at least 8 characters" in field_error(browser, "New password")
    fill(browser, "New password", "Ridge-Walk-77?")
    fill(browser, "Confirm new password", "Ridge-Walk-78?")
    tap(browser, "button", "Save new password")

    assert field_error(browser, "Confirm new password") == "The two passwords do not match."
    assert smallest_text_px(browser) >= 10


def test_change_password_and_its_refusals(server, browser):
    username = register_api(server, unique_name("hiker"))["username"]
    log_in(browser, server, username)
    browser.get(f"{server.url}/#/settings/account")
    tap(browser, "a", "Change password")
    title(browser, "Change Password")

    fill(browser, "Current password", "Not-It-999!")
    fill(browser, "New password", "Ridge-Walk-77?")
    fill(browser, "Confirm new password", "Ridge-Walk-77?")
    tap(browser, "button", "Change password")
    assert field_error(browser, "Current password") == "Your current password is not right."
    fill(browser, "Current password", PASSWORD)
    fill(browser, "New password", "nocapital1!")
    fill(browser, "Confirm new password", "nocapital1!")
    tap(browser, "button", "Change password")
    assert field_error(browser, "New password") == "The password needs a capital letter."
    fill(browser, "New password", "Ridge-Walk-77?")
    fill(browser, "Confirm new password", "Ridge-Walk-77?")
    tap(browser, "button", "Change password")

    assert "Your password was changed" in notice(browser)
    status, _, _ = server.api("POST", "/api/session", {"login": username, "password": "Ridge-Walk-77?"})
    assert status == 200


def test_change_username_needs_the_password_and_a_free_name(server, browser):
    username = register_api(server, unique_name("hiker"))["username"]
    other = register_api(server, unique_name("hiker"))["username"]
    log_in(browser, server, username)
    browser.get(f"{server.url}/#/settings/username")
    title(browser, "Change Username")

    fill(browser, "New username", other)
    tap(browser, "button", "Change username")
    assert field_error(browser, "Current password") == "Enter your current password."
    assert field_error(browser, "New username") == f"The username {other} is taken. Choose another."
    fill(browser, "New username", f"{username}-new")
    fill(browser, "Current password", PASSWORD)
    tap(browser, "button", "Change username")

    assert notice(browser) == f"Your username is now {username}-new."
    open_profile_menu(browser)
    by_text(browser, "p", f"Signed in as {username}-new")


def png_bytes(width=64, height=48):
    rows = b"".join(b"\x00" + bytes([x * 4 % 256, y * 5 % 256, 120]) * 1 + bytes([200, 90, 30]) * (width - 1)
                    for y in range(height) for x in [0])
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"tEXt", b"Location\x0060.1699,24.9384") + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def test_profile_shows_what_edit_profile_saved_including_the_picture(server, browser, tmp_path):
    username = register_api(server, unique_name("hiker"))["username"]
    picture = tmp_path / "me.png"
    picture.write_bytes(png_bytes())
    log_in(browser, server, username)
    browser.get(f"{server.url}/#/profile")
    title(browser, "Profile")
    by_text(browser, "h2", "Ada Lovelace")
    assert "avatar-default.svg" in browser.find_element(By.XPATH, "//img[@alt='Default avatar']").get_attribute("src")

    by_label(browser, "About Me options").click()
    tap(browser, "a", "Edit")
    title(browser, "Edit Profile")
    by_label(browser, "Profile picture").send_keys(str(picture))
    fill(browser, "Last name", "King")
    fill(browser, "About Me", "Ridge runs before breakfast.")
    fill(browser, "Age", "36")
    fill(browser, "Weight (lb)", "135")
    tap(browser, "button", "✓ Save")

    title(browser, "Profile")
    by_text(browser, "h2", "Ada King")
    by_text(browser, "p", "Ridge runs before breakfast.")
    avatar = browser.find_element(By.XPATH, "//img[@alt=\"Ada King's picture\"]")
    assert "/api/users/" in avatar.get_attribute("src")
    wait(browser).until(lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth", avatar) == 64)
    assert "61.2 kg" not in browser.page_source and "135 lb" in browser.page_source
    served = browser.execute_script(
        "return fetch(arguments[0]).then(r => r.arrayBuffer()).then(b => new TextDecoder('latin1').decode(b))",
        avatar.get_attribute("src"))
    assert "60.1699" not in served, "the picture's metadata was stripped"
    assert smallest_text_px(browser) >= 10


def test_edit_profile_points_at_each_invalid_field(server, browser, tmp_path):
    username = register_api(server, unique_name("hiker"))["username"]
    not_a_picture = tmp_path / "notes.png"
    not_a_picture.write_text("just text")
    log_in(browser, server, username)
    browser.get(f"{server.url}/#/profile/edit")
    title(browser, "Edit Profile")

    by_label(browser, "Profile picture").send_keys(str(not_a_picture))
    assert field_error(browser, "Profile picture") == "Choose a PNG or JPEG picture."
    fill(browser, "First name", " ")
    fill(browser, "Age", "7")
    fill(browser, "Height (in)", "500")
    tap(browser, "button", "✓ Save")

    assert field_error(browser, "First name") == "Enter your first name."
    assert field_error(browser, "Age") == "Age must be a whole number from 13 to 120."
    assert field_error(browser, "Height (in)") == "Height must be between 50 and 250 cm."
    assert int(by_label(browser, "About Me").get_attribute("maxlength")) == 300
    assert unlabelled_controls(browser) == []


def test_delete_account_says_what_goes_needs_the_password_and_signs_out(server, browser):
    username = register_api(server, unique_name("hiker"))["username"]
    log_in(browser, server, username)
    open_profile_menu(browser)
    tap(browser, "a", "Settings")
    tap(browser, "a", "Account, password and sign-out")
    title(browser, "Account")
    shown(browser, "p", f"Signed in as {username}")
    buttons = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "main a, main button")]
    assert buttons[-1] == "Delete account", "deleting comes last"

    tap(browser, "button", "Delete account")
    sheet = dialog(browser, "Delete your account?")
    assert "profile, picture and settings" in sheet.text and "cannot be undone" in sheet.text
    fill(browser, "Your password", "Not-Mine-1!")
    tap(browser, "button", "Delete my account")
    assert field_error(browser, "Your password") == "Your current password is not right."
    fill(browser, "Your password", PASSWORD)
    tap(browser, "button", "Delete my account")

    title(browser, "Log in")
    assert "deleted" in notice(browser)
    status, _, _ = server.api("POST", "/api/session", {"login": username, "password": PASSWORD})
    assert status == 401


def test_the_confirmation_link_confirms_the_email(server, browser):
    username = register_api(server, unique_name("hiker"))["username"]
    link = next(line for line in wait_for_mail(server, f"{username}@example.org", "confirm").splitlines() if "verify-email" in line)

    browser.get(link.strip().replace("http://127.0.0.1", server.url.rsplit(":", 1)[0], 1))

    title(browser, "Confirm Email")
    by_text(browser, "p", "Your email address is confirmed. Thank you!")


def test_the_outbox_page_lists_mail_for_visitors_on_this_machine(server):
    import urllib.request
    username = register_api(server, unique_name("hiker"))["username"]

    with urllib.request.urlopen(f"{server.url}/dev/outbox") as response:
        page = response.read().decode()

    assert f"{username}@example.org" in page and "Welcome to Cairn" in page
