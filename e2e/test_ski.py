"""Ski mountains (issue 21, GoSki) at 390×844 as a skier meets them, on the demo mountains `cairn seed-demo` loads:
the ski main menu (UC3's guest tip), Nearby on a map with the skier and a list by distance and by price with a
missing price last (UC4, UC5), Search with the seed's examples and "No mountain with this name" (UC9), a
mountain's page with weather, prices, pistes and lifts and the piste convention switch (UC6), its reviews read by
anyone and written when signed in (UC8), and Favourites (UC10)."""

import pytest
from accounts import log_in, register_api, shown, tap
from conftest import (Server, by_label, by_text, dialog, set_geolocation, set_location_permission,
                      small_tap_targets, unique_name, wait)
from selenium.common.exceptions import ElementClickInterceptedException, StaleElementReferenceException
from selenium.webdriver.common.by import By
from runs_helpers import token_of
from selenium.webdriver.support.ui import WebDriverWait

# Willard Mountain's base, Greenwich NY (the seed's example mountain).
GREENWICH = (43.0226, -73.5437)


@pytest.fixture(scope="module")
def ski_server():
    running = Server(seed_demo=True)
    yield running
    running.cleanup()


def mountain(server, name):
    status, body, _ = server.api("GET", f"/api/ski/mountains?q={name.replace(' ', '%20')}")
    assert status == 200
    return next(m for m in body["mountains"] if m["name"] == name)


def rows(browser, label):
    return [e.text.split("\n")[0].replace("★ Favourite", "").strip()
            for e in browser.find_elements(By.XPATH, f"//ol[@aria-label='{label}']/li")]


def click(browser, xpath):
    """Scrolls the visible element to the middle and taps it, again while a late layout shift puts something over it."""
    def tapped(d):
        element = next((e for e in d.find_elements(By.XPATH, xpath) if e.is_displayed()), None)
        if element is None:
            return False
        d.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
        element.click()
        return True

    WebDriverWait(browser, 15, ignored_exceptions=(ElementClickInterceptedException, StaleElementReferenceException)) \
        .until(tapped)


def choose_signs(browser, value):
    """Picks a piste-sign convention: a tap on its segment lands on the segment's (transparent) radio button."""
    radio = wait(browser).until(lambda d: d.find_element(By.XPATH, f"//input[@name='ski-convention' and @value='{value}']"))
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", radio)
    radio.click()


def open_menu(browser, label):
    click(browser, f"//a[contains(@class, 'ski-menu__item')][.//span[@class='ski-menu__label' and normalize-space()='{label}']]")


def open_row(browser, label, name):
    click(browser, f"//ol[@aria-label='{label}']//a[.//span[contains(@class, 'ski-row__name') and starts-with(normalize-space(), \"{name}\")]]")


def at_greenwich(browser, server):
    browser.get(server.url)
    set_location_permission(browser, server.url, "granted")
    set_geolocation(browser, *GREENWICH)


def test_the_main_menu_has_every_entry_and_the_guest_tip(ski_server, browser):
    browser.get(f"{ski_server.url}/#/home")
    click(browser, "//a[.//*[contains(@class, 'card__title') and normalize-space()='Ski']]")
    by_text(browser, "h1", "GoSki")
    menu = by_label(browser, "Ski menu")
    labels = [e.text for e in menu.find_elements(By.CSS_SELECTOR, ".ski-menu__label")]
    assert labels == ["Nearby", "Search", "Favourites", "Tutorials", "Best Moments", "Find Friends"]
    assert "You are skiing as a guest" in browser.find_element(By.CSS_SELECTOR, ".ski-guest-tip").text
    assert small_tap_targets(browser) == []


def test_nearby_shows_the_map_and_sorts_by_distance_then_by_price_with_no_price_last(ski_server, browser):
    at_greenwich(browser, ski_server)
    browser.get(f"{ski_server.url}/#/ski/nearby")
    by_text(browser, "h1", "Nearby Mountains")
    wait(browser, 20).until(lambda d: rows(d, "Nearby mountains") and rows(d, "Nearby mountains")[0] == "Willard Mountain")
    names = rows(browser, "Nearby mountains")
    assert {"West Mountain", "Gore Mountain", "Killington"} <= set(names)
    assert "Vail" not in names
    the_map = by_label(browser, "Nearby mountains map")
    wait(browser, 15).until(lambda d: the_map.get_attribute("data-mountains") == str(len(names)))
    assert browser.find_elements(By.CSS_SELECTOR, ".ski-me")
    assert len(browser.find_elements(By.CSS_SELECTOR, ".ski-marker")) == len(names)
    first = browser.find_element(By.XPATH, "//ol[@aria-label='Nearby mountains']/li[1]").text
    assert "away" in first and "$52.00" in first
    distances = [float(m["distance_m"]) for m in ski_server.api(
        "GET", f"/api/ski/mountains?near={GREENWICH[0]},{GREENWICH[1]}")[1]["mountains"]]
    assert distances == sorted(distances)

    tap(browser, "button", "Price")
    wait(browser, 15).until(lambda d: rows(d, "Nearby mountains")[-1] == "West Mountain")
    assert by_text(browser, "button", "Price").get_attribute("aria-pressed") == "true"
    last = browser.find_element(By.XPATH, "//ol[@aria-label='Nearby mountains']/li[last()]").text
    assert "No price known" in last
    assert "no known price and comes last" in browser.find_element(By.CSS_SELECTOR, ".ski-status").text
    prices = [m["price"]["amount_minor"] for m in ski_server.api(
        "GET", f"/api/ski/mountains?near={GREENWICH[0]},{GREENWICH[1]}&sort=price")[1]["mountains"] if m.get("price")]
    assert prices == sorted(prices)
    assert rows(browser, "Nearby mountains")[0] == "Willard Mountain"
    assert small_tap_targets(browser) == []

    open_row(browser, "Nearby mountains", rows(browser, "Nearby mountains")[1])
    by_text(browser, "h2", "Ticket prices")


@pytest.mark.parametrize("typed, expected", [
    ("Willard", ["Willard Mountain"]),
    ("lard", ["Willard Mountain"]),
    ("val d'isere", ["Val d'Isère"]),
])
def test_search_finds_full_partial_and_accentless_names(ski_server, browser, typed, expected):
    browser.get(f"{ski_server.url}/#/ski/search")
    by_text(browser, "h1", "Search Mountains")
    by_label(browser, "Mountain name").send_keys(typed)
    tap(browser, "button", "Search")
    wait(browser, 15).until(lambda d: rows(d, "Mountains found") == expected)
    assert f"1 mountain for “{typed}”." in browser.find_element(By.CSS_SELECTOR, ".ski-status").text


def test_search_says_when_no_mountain_has_the_name_and_asks_for_one(ski_server, browser):
    browser.get(f"{ski_server.url}/#/ski/search")
    tap(browser, "button", "Search")
    assert by_text(browser, "p", "Enter a mountain's name, or a part of it.").get_attribute("role") == "alert"
    by_label(browser, "Mountain name").send_keys("Atlantis Peak")
    tap(browser, "button", "Search")
    by_text(browser, "p", "No mountain with this name.")
    assert rows(browser, "Mountains found") == []


def test_the_mountain_page_shows_weather_prices_pistes_lifts_and_switches_convention(ski_server, browser):
    willard = mountain(ski_server, "Willard Mountain")
    browser.get(f"{ski_server.url}/#/ski/mountains/{willard['id']}")
    by_text(browser, "h1", "Willard Mountain")
    by_text(browser, "h2", "Weather")
    wait(browser, 15).until(lambda d: "Humidity" in d.find_element(By.CSS_SELECTOR, ".weather-card").text)
    assert browser.find_elements(By.XPATH, "//*[starts-with(@aria-label, 'Temperature now')]")
    page = browser.find_element(By.TAG_NAME, "main").text
    assert "77 Intervale Road, Greenwich, NY 12834, USA" in page
    assert "Summit" in page and "Base" in page
    prices = browser.find_element(By.CSS_SELECTOR, ".ski-prices").text
    assert prices.split("\n")[1].replace(" ", "") == "Adultdayticket$52.00Demo2025/26"
    assert "As of November 1, 2025" in page or "As of 1 November 2025" in page
    assert shown(browser, "a", "Directions").get_attribute("href").startswith("geo:43.0226,-73.5437")
    by_text(browser, "h2", "Lifts")
    by_text(browser, "a", "Mountain Forum")

    by_text(browser, "legend", "Piste signs")
    choose_signs(browser, "north_america")
    wait(browser).until(lambda d: "Blue square" in d.find_element(By.CSS_SELECTOR, "[aria-label='Pistes']").text)
    pistes = browser.find_element(By.CSS_SELECTOR, "[aria-label='Pistes']").text
    assert "Green circle" in pistes and "Red" not in pistes
    choose_signs(browser, "europe")
    wait(browser).until(lambda d: "Red" in d.find_element(By.CSS_SELECTOR, "[aria-label='Pistes']").text)
    assert "Blue square" not in browser.find_element(By.CSS_SELECTOR, "[aria-label='Pistes']").text
    browser.refresh()
    by_text(browser, "legend", "Piste signs")
    wait(browser).until(lambda d: "Red" in d.find_element(By.CSS_SELECTOR, "[aria-label='Pistes']").text)
    assert small_tap_targets(browser) == []


def test_favourites_need_an_account_and_keep_a_mountain(ski_server, browser):
    gore = mountain(ski_server, "Gore Mountain")
    browser.get(f"{ski_server.url}/#/ski/favourites")
    by_text(browser, "h1", "Favourite Mountains")
    wait(browser).until(lambda d: "You need an account" in d.find_element(By.TAG_NAME, "main").text)

    username = unique_name("skier")
    register_api(ski_server, username)
    log_in(browser, ski_server, username)
    browser.get(f"{ski_server.url}/#/ski/mountains/{gore['id']}")
    by_text(browser, "h1", "Gore Mountain")
    star = by_label(browser, "Favourite")
    assert star.get_attribute("aria-pressed") == "false"
    star.click()
    wait(browser).until(lambda d: by_label(d, "Favourite").get_attribute("aria-pressed") == "true")

    browser.get(f"{ski_server.url}/#/ski")
    open_menu(browser, "Favourites")
    by_text(browser, "h1", "Favourite Mountains")
    wait(browser, 15).until(lambda d: rows(d, "Favourite mountains") == ["Gore Mountain"])
    open_row(browser, "Favourite mountains", "Gore Mountain")
    by_text(browser, "h1", "Gore Mountain")
    by_label(browser, "Favourite").click()
    wait(browser).until(lambda d: by_label(d, "Favourite").get_attribute("aria-pressed") == "false")
    browser.get(f"{ski_server.url}/#/ski/favourites")
    by_text(browser, "p", "No favourites yet. Tap the star on a mountain's page to keep it here.")


def ratings_text(browser):
    """The text of the mountain page's Ratings section (the community's reviews of the mountain), "" before it shows."""
    sections = browser.find_elements(By.XPATH, "//section[contains(@class, 'reviews')][.//h2[normalize-space()='Ratings']]")
    try:
        return sections[0].text if sections else ""
    except StaleElementReferenceException:
        return ""


def test_a_guest_reads_a_mountains_reviews_and_a_signed_in_skier_rates_it(ski_server, browser):
    whiteface = mountain(ski_server, "Whiteface Mountain")
    subject = f"mountain:{whiteface['id']}"
    first = unique_name("rater")
    register_api(ski_server, first)
    status, _, _ = ski_server.api("PUT", f"/api/reviews/{subject}", {"rating": 4, "text": "Long groomers, busy lifts."},
                                  headers={"Authorization": f"Bearer {token_of(ski_server, first)}"})
    assert status == 201

    browser.get(f"{ski_server.url}/#/ski/mountains/{whiteface['id']}")
    by_text(browser, "h1", "Whiteface Mountain")
    wait(browser, 15).until(lambda d: "Long groomers, busy lifts." in ratings_text(d))
    assert "4.0 · 1 review" in ratings_text(browser)
    click(browser, "//button[normalize-space()='Write a review']")
    dialog(browser, "You need an account")

    skier = unique_name("skier")
    register_api(ski_server, skier)
    log_in(browser, ski_server, skier)
    browser.get(f"{ski_server.url}/#/ski/mountains/{whiteface['id']}")
    by_text(browser, "h1", "Whiteface Mountain")
    click(browser, "//button[normalize-space()='Write a review']")
    sheet = dialog(browser, "Write a review")
    sheet.find_element(By.XPATH, ".//button[normalize-space()='Save review']").click()
    wait(browser).until(lambda d: "Choose a rating from 1 to 5 stars." in sheet.text)
    sheet.find_element(By.XPATH, ".//button[@aria-label='5 stars']").click()
    sheet.find_element(By.XPATH, ".//textarea").send_keys("Fresh corduroy at opening, worth the drive.")
    sheet.find_element(By.XPATH, ".//button[normalize-space()='Save review']").click()
    wait(browser).until(lambda d: "Fresh corduroy" in by_label(d, "Your review").text)
    wait(browser).until(lambda d: "4.5 · 2 reviews" in ratings_text(d))
    assert small_tap_targets(browser) == []


def test_a_signed_in_skier_reports_a_pistes_condition_for_today(ski_server, browser):
    whiteface = mountain(ski_server, "Whiteface Mountain")
    _, page, _ = ski_server.api("GET", f"/api/ski/mountains/{whiteface['id']}")
    piste = page["pistes"][0]["name"]
    username = unique_name("reporter")
    register_api(ski_server, username)
    log_in(browser, ski_server, username)
    browser.get(f"{ski_server.url}/#/ski/mountains/{whiteface['id']}")
    by_text(browser, "h1", "Whiteface Mountain")
    click(browser, f"//button[@aria-label=\"Report conditions on {piste}\"]")
    sheet = wait(browser).until(lambda d: d.find_element(By.CSS_SELECTOR, "dialog[open]"))
    sheet.find_element(By.XPATH, ".//label[normalize-space()='Powder']").click()
    by_label(browser, "Note (optional)").send_keys("Fresh tracks under the lift")
    sheet.find_element(By.XPATH, ".//button[normalize-space()='Send report']").click()
    wait(browser).until(lambda d: not d.find_elements(By.CSS_SELECTOR, "dialog[open]"))
    row = f"//ul[@aria-label='Pistes']/li[.//span[normalize-space()=\"{piste}\"]]"
    wait(browser).until(lambda d: "Today: Powder (1 report)" in d.find_element(By.XPATH, row).text)
    assert "Fresh tracks under the lift" in browser.find_element(By.XPATH, row).text
    browser.refresh()
    wait(browser, 15).until(lambda d: "Today: Powder (1 report)" in d.find_element(By.XPATH, row).text)
