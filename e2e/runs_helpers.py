"""Helpers for the run planner's browser tests: open the planner located somewhere, read the planned routes'
cards by role and text, choose units, and keep a route through the API."""

import re

from accounts import register_api, shown, tap
from conftest import by_label, by_text, dialog, set_geolocation, set_location_permission, wait
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

CENTRE = (60.1699, 24.9384)


def use_units(browser, server, distance):
    """Settings › Distance in `distance` ("km" or "mi") before anything else happens."""
    browser.get(f"{server.url}/#/settings")
    by_label(browser, f"Distance: {distance}").find_element(By.XPATH, "..").click()
    wait(browser).until(lambda d: by_label(d, f"Distance: {distance}").is_selected())


def open_planner_located_at(browser, server, lat, lon):
    """Home with location allowed and the device at lat, lon; then the Run planner card."""
    browser.get(server.url)
    set_location_permission(browser, server.url, "granted")
    set_geolocation(browser, lat, lon)
    browser.refresh()
    tap(browser, "h3", "Run planner")
    by_text(browser, "h1", "Run Planner")


def start_is_my_location(browser):
    wait(browser, 15).until(lambda d: by_label(d, "Start").get_attribute("value") == "Your location")


def landmark_options(browser, timeout=15):
    """The landmark drop-down once it has been filled for the start and distance."""
    select = by_label(browser, "Landmark")
    wait(browser, timeout).until(lambda d: len(select.find_elements(By.TAG_NAME, "option")) > 1)
    return Select(select)


def choose_mode(browser, label):
    option = by_label(browser, label).find_element(By.XPATH, "..")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", option)
    option.click()


def route_cards(browser, timeout=90):
    """The planned routes' cards once a plan is shown, as (name, length, unit, card, select button)."""
    cards = wait(browser, timeout).until(
        lambda d: d.find_elements(By.XPATH, "//ul[@aria-label='Planned routes']/li") or None)
    found = []
    for card in cards:
        button = card.find_element(By.XPATH, "./button[@aria-pressed]")
        name, length, unit = re.match(r"(Route \d)\s+([\d.]+) (km|mi)", button.text).groups()
        found.append((name, float(length), unit, card, button))
    return found


def open_plan_form(browser):
    """The planner's form sheet, opened with "Change plan" on the map when a plan hides it."""
    if not browser.find_elements(By.XPATH, "//dialog[@open][.//h2[normalize-space()='Plan a run']]"):
        tap(browser, "button", "Change plan")
    return dialog(browser, "Plan a run")


def plan_status(browser):
    """The line above the map that says what the plan is."""
    return browser.find_element(By.XPATH, "//section[h3[normalize-space()='Routes']]/p[@role='status']")


def select_route(browser, button):
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    wait(browser).until(lambda d: d.execute_script(
        "const r = arguments[0].getBoundingClientRect(); return document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)?.closest('button') === arguments[0]",
        button))
    button.click()


def plan_a_route(browser, distance="2"):
    """Types the distance, plans, and selects the first route; returns the cards."""
    fill_distance(browser, distance)
    tap(browser, "button", "Plan routes")
    cards = route_cards(browser)
    select_route(browser, cards[0][4])
    return cards


def fill_distance(browser, text):
    control = browser.find_element(By.XPATH, "//input[@id=//label[starts-with(normalize-space(), 'Distance (')]/@for]")
    control.clear()
    control.send_keys(text)
    return control


def planned_routes_listed(browser, count, timeout=15):
    """The items of "My planned routes" once there are `count` of them."""
    def listed(driver):
        items = driver.find_elements(By.XPATH, "//ul[@aria-label='My planned routes']/li")
        return len(items) == count and (items or True)

    found = wait(browser, timeout).until(listed)
    return found if isinstance(found, list) else []


def planned_runs_of(server, token):
    status, body, _ = server.api("GET", "/api/runs/planned", headers={"Authorization": f"Bearer {token}"})
    assert status == 200, body
    return body["planned_runs"]


def token_of(server, username, password="Trail-Mix-42!"):
    status, session, _ = server.api("POST", "/api/session", {"login": username, "password": password, "session": "token"})
    assert status == 200, session
    return session["token"]


def keep_a_route(server, token):
    """Plans from the centre and keeps the first route through the API, as the web app would."""
    status, plan, _ = server.api("POST", "/api/runs/plan", {"start": {"lat": CENTRE[0], "lon": CENTRE[1]}, "distance_km": 2})
    assert status == 200, plan
    route = plan["routes"][0]
    body = {"distance_km": 2, "sheltered": False, "length_m": route["length_m"], "sheltered_m": route["sheltered_m"],
            "geometry": route["geometry"], "sheltered_segments": route["sheltered_segments"]}
    status, saved, _ = server.api("POST", "/api/runs/planned", body, headers={"Authorization": f"Bearer {token}"})
    assert status == 201, saved
    return saved


