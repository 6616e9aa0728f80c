"""The ski mountains' admin editor (issue 21: "an admin editor … for prices and the rest") at 390×844: an admin
opens a mountain's editor from its page, changes a ticket price (a bad amount is refused next to its field) and
closes a piste, and the mountain's page shows both; a skier without the admin role sees no Edit button and the
editor refuses them."""

import pytest
from accounts import log_in, register_api, shown, tap
from conftest import Server, by_text, small_tap_targets, unique_name, wait, xpath_literal
from selenium.webdriver.common.by import By


@pytest.fixture(scope="module")
def ski_server():
    running = Server(seed_demo=True)
    yield running
    running.cleanup()


def mountain_page(server, name):
    status, body, _ = server.api("GET", f"/api/ski/mountains?q={name.replace(' ', '%20')}")
    assert status == 200
    found = next(m for m in body["mountains"] if m["name"] == name)
    status, page, _ = server.api("GET", f"/api/ski/mountains/{found['id']}")
    assert status == 200
    return page


def named_form(browser, name):
    return wait(browser, 15).until(lambda d: d.find_element(By.XPATH, f"//form[@aria-label={xpath_literal(name)}]"))


def control_in(form, label):
    return form.find_element(By.XPATH, f".//*[@id=//label[normalize-space()={xpath_literal(label)}]/@for]")


def centre_click(browser, element):
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


def test_an_admin_changes_a_price_and_closes_a_piste_and_the_page_shows_both(ski_server, browser):
    keeper = register_api(ski_server, unique_name("keeper"))["username"]
    ski_server.run_cli("user", "set-role", keeper, "admin", check=True)
    page = mountain_page(ski_server, "Gore Mountain")
    gore = page["mountain"]["id"]
    piste = next(p for p in page["pistes"] if p["open"])["name"]
    adult = next(p for p in page["prices"] if p["kind"] == "adult_day")
    log_in(browser, ski_server, keeper)

    browser.get(f"{ski_server.url}/#/ski/mountains/{gore}")
    by_text(browser, "h2", "Ticket prices")
    tap(browser, "a", "Edit")
    by_text(browser, "h1", "Edit Gore Mountain")
    assert small_tap_targets(browser) == []
    form = named_form(browser, f"Adult day ticket {adult['season']}")
    amount = control_in(form, "Price")
    amount.clear()
    amount.send_keys("12,50")
    control_in(form, "Source").send_keys("Ticket window sign")
    centre_click(browser, form.find_element(By.XPATH, ".//button[normalize-space()='Save price']"))
    error = form.find_element(By.CSS_SELECTOR, "[data-field='amount'] .field-error")
    wait(browser, 15).until(lambda d: "is not a number" in error.text)
    assert error.text == "Amount '12,50' is not a number (write it like 69 or 69.50)."
    assert amount.get_attribute("aria-invalid") == "true"

    amount.clear()
    amount.send_keys("79.50")
    centre_click(browser, form.find_element(By.XPATH, ".//button[normalize-space()='Save price']"))
    wait(browser, 15).until(lambda d: next(
        p for p in ski_server.api("GET", f"/api/ski/mountains/{gore}")[1]["prices"] if p["id"] == adult["id"]
    )["amount_minor"] == 7950)

    checkbox = wait(browser, 15).until(lambda d: d.find_element(
        By.XPATH, f"//input[@id=//label[normalize-space()={xpath_literal(piste + ' is open')}]/@for]"))
    assert checkbox.is_selected()
    centre_click(browser, browser.find_element(By.XPATH, f"//label[normalize-space()={xpath_literal(piste + ' is open')}]"))
    shown(browser, "p", f"{piste} is closed.", timeout=15)

    tap(browser, "a", "Back to the mountain page")
    by_text(browser, "h2", "Ticket prices")
    row = wait(browser, 15).until(lambda d: d.find_element(
        By.XPATH, "//table[contains(@class, 'ski-prices')]//tr[th[normalize-space()='Adult day ticket']]"))
    assert "$79.50" in row.text and "Demo" not in row.text
    closed = browser.find_element(
        By.XPATH, f"//ul[@aria-label='Pistes']/li[.//span[contains(@class, 'ski-piste__name') and normalize-space()={xpath_literal(piste)}]]")
    assert "Closed" in closed.text


def test_a_skier_who_is_not_an_admin_sees_no_edit_button(ski_server, browser):
    skier = register_api(ski_server, unique_name("skier"))["username"]
    page = mountain_page(ski_server, "Willard Mountain")
    willard = page["mountain"]["id"]
    log_in(browser, ski_server, skier)

    browser.get(f"{ski_server.url}/#/ski/mountains/{willard}")
    by_text(browser, "h2", "Ticket prices")
    assert not [e for e in browser.find_elements(By.XPATH, "//a[normalize-space()='Edit']") if e.is_displayed()]

    browser.get(f"{ski_server.url}/#/ski/mountains/{willard}/edit")
    by_text(browser, "h2", "For admins")
    assert not browser.find_elements(By.CSS_SELECTOR, "form.ski-price-form")
