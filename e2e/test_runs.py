"""The run planner in the browser (run-route-planner 4, 5, 8.3.1) on the Helsinki demo network: a start from
the current location or an address, the distance checked on the screen, a landmark from the drop-down,
shelter on, three routes on the map with a legend, one selected and kept; the rain banner."""

import re
import time

import pytest
from accounts import field_error, fill, log_in, register_api, shown, tap
from conftest import by_label, by_text, set_geolocation, set_location_permission, wait
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select
from weather_fakes import FakeWeather

CENTRE = (60.1699, 24.9384)


@pytest.fixture
def fake_weather():
    fake = FakeWeather()
    yield fake
    fake.stop()


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
    """The landmark drop-down's options once it has been filled for the start and distance."""
    select = by_label(browser, "Landmark")
    wait(browser, timeout).until(lambda d: len(select.find_elements(By.TAG_NAME, "option")) > 1)
    return Select(select)


def choose_mode(browser, label):
    option = by_label(browser, label).find_element(By.XPATH, "..")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", option)
    option.click()


def route_cards(browser, timeout=30):
    """The planned routes' cards once a plan is shown, as (title, length in km, element)."""
    cards = wait(browser, timeout).until(
        lambda d: d.find_elements(By.XPATH, "//ul[@aria-label='Planned routes']/li") or None)
    settle_scrolling(browser)
    found = []
    for card in cards:
        title = card.find_element(By.CLASS_NAME, "route-card__title").text
        length = float(re.search(r"([\d.]+) km", card.find_element(By.CLASS_NAME, "route-card__length").text).group(1))
        found.append((title, length, card))
    return found


def settle_scrolling(browser):
    """Waits for the smooth scroll to the results to end, so taps land where the elements are."""
    last = None
    deadline = time.time() + 5
    while time.time() < deadline:
        position = browser.execute_script("return window.scrollY")
        if position == last:
            return
        last = position
        time.sleep(0.25)


def count_plan_requests(browser):
    browser.execute_script("""
        window.planRequests = 0;
        const original = window.fetch;
        window.fetch = (url, ...rest) => {
          if (String(url).includes('/api/runs/plan')) window.planRequests += 1;
          return original(url, ...rest);
        };""")


def test_plan_a_sheltered_three_km_loop_through_a_landmark_and_keep_one(server, browser):
    register_api(server, "runner")
    log_in(browser, server, "runner")
    open_planner_located_at(browser, server, *CENTRE)
    start_is_my_location(browser)

    fill(browser, "Distance (km)", "3")
    landmarks = landmark_options(browser)
    texts = [option.text for option in landmarks.options]
    assert texts[0] == "No landmark"
    round_trips = [float(re.search(r"([\d.]+) km there and back", text).group(1)) for text in texts[1:]]
    assert all(km <= 3 for km in round_trips) and round_trips == sorted(round_trips)
    chosen = max(i for i, km in enumerate(round_trips, start=1) if km <= 2.5)
    landmarks.select_by_index(chosen)
    landmark_name = texts[chosen].split(" · ")[0]
    choose_mode(browser, "Shelter-optimised")
    tap(browser, "button", "Plan routes")

    cards = route_cards(browser)
    assert [title for title, _, _ in cards] == ["Route 1", "Route 2", "Route 3"]
    assert all(2.5 <= km <= 3.5 for _, km, _ in cards)
    legend = by_label(browser, "Legend")
    assert legend.is_displayed()
    assert "Sheltered sections" in legend.text and landmark_name in legend.text
    assert len(browser.find_elements(By.CSS_SELECTOR, "[aria-label='Planned routes map'] path[data-route]")) == 3
    status = by_label(browser, "Planned routes map").find_element(By.XPATH, "preceding-sibling::p[@role='status']")
    assert "Shelter-optimised" in status.text and f"via {landmark_name}" in status.text

    second = cards[1][2].find_element(By.CLASS_NAME, "route-card__select")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", second)
    second.click()
    assert second.get_attribute("aria-pressed") == "true"
    assert [card.find_element(By.CLASS_NAME, "route-card__select").get_attribute("aria-pressed")
            for _, _, card in cards] == ["false", "true", "false"]
    tap(browser, "button", "Save this route")
    shown(browser, "p", f"Route 2 is in your planned routes. See my planned routes")
    tap(browser, "a", "See my planned routes")

    by_text(browser, "h1", "Planned Routes")
    saved = wait(browser, 15).until(lambda d: d.find_elements(By.XPATH, "//ul[@aria-label='My planned routes']/li") or None)
    assert len(saved) == 1
    assert saved[0].text.startswith(f"{cards[1][1]:.2f} km")
    assert "Shelter-optimised" in saved[0].text and f"via {landmark_name}" in saved[0].text


def test_a_guest_is_asked_to_sign_in_to_keep_a_route(server, browser):
    open_planner_located_at(browser, server, *CENTRE)
    start_is_my_location(browser)
    fill(browser, "Distance (km)", "2")
    tap(browser, "button", "Plan routes")
    first = route_cards(browser)[0][2].find_element(By.CLASS_NAME, "route-card__select")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", first)
    first.click()

    tap(browser, "button", "Save this route")

    sheet = wait(browser).until(lambda d: d.find_element(By.CSS_SELECTOR, "[role='dialog']"))
    assert "To save a planned route, log in or create a free account" in sheet.text


@pytest.mark.parametrize("typed", ["0", "31", "abc", ""])
def test_a_distance_outside_one_to_thirty_is_refused_on_the_screen_and_by_the_api(server, browser, typed):
    open_planner_located_at(browser, server, *CENTRE)
    start_is_my_location(browser)
    count_plan_requests(browser)

    fill(browser, "Distance (km)", typed)
    tap(browser, "button", "Plan routes")

    assert field_error(browser, "Distance (km)") == "Enter a number between 1 and 30"
    assert browser.execute_script("return window.planRequests") == 0
    body = {"start": {"lat": CENTRE[0], "lon": CENTRE[1]}, "sheltered": False}
    if typed:
        body["distance_km"] = float(typed) if typed.isdigit() else typed
    status, problem, _ = server.api("POST", "/api/runs/plan", body)
    assert status == 422
    assert problem["errors"] == [{"field": "distance_km", "detail": "Enter a number between 1 and 30"}]


def test_start_from_an_address_chosen_among_the_suggestions(server, browser):
    browser.get(f"{server.url}/#/runs")
    by_text(browser, "h1", "Run Planner")
    start = by_label(browser, "Start")

    start.send_keys("Aleksanterink")
    listbox = wait(browser).until(lambda d: next(
        (e for e in d.find_elements(By.CSS_SELECTOR, "[role='listbox']") if e.is_displayed()), None))
    options = wait(browser).until(lambda d: listbox.find_elements(By.CSS_SELECTOR, "[role='option']") or None)
    assert all("Aleksanterinkatu" in option.text for option in options)
    assert start.get_attribute("aria-expanded") == "true"
    start.send_keys(Keys.ARROW_DOWN)
    assert start.get_attribute("aria-activedescendant") == options[0].get_attribute("id")
    chosen = options[0].find_element(By.CLASS_NAME, "suggestions__text").text
    start.send_keys(Keys.ENTER)

    assert start.get_attribute("value") == chosen
    assert start.get_attribute("aria-expanded") == "false"
    fill(browser, "Distance (km)", "2")
    landmark_options(browser)
    tap(browser, "button", "Plan routes")
    cards = route_cards(browser)
    assert len(cards) == 3 and all(1.5 <= km <= 2.5 for _, km, _ in cards)


def test_the_rain_banner_turns_shelter_on_and_plans_again(start_server, browser, fake_weather):
    fake_weather.mode = "rain"
    server = start_server(env={"CAIRN_WEATHER_PROVIDER": "open-meteo",
                               "CAIRN_OPEN_METEO_URL": f"{fake_weather.url}/v1/forecast"})
    open_planner_located_at(browser, server, *CENTRE)
    start_is_my_location(browser)
    fill(browser, "Distance (km)", "2")
    choose_mode(browser, "Standard")
    tap(browser, "button", "Plan routes")
    route_cards(browser)
    status = by_label(browser, "Planned routes map").find_element(By.XPATH, "preceding-sibling::p[@role='status']")
    assert "Standard" in status.text

    banner = by_label(browser, "Rain warning", timeout=15)
    wait(browser, 15).until(lambda d: banner.is_displayed())
    assert "sheltered route" in banner.text
    action = banner.find_element(By.XPATH, ".//button[normalize-space()='Use a sheltered route']")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", action)
    action.click()

    assert by_label(browser, "Shelter-optimised").is_selected()
    wait(browser, 30).until(lambda d: "Shelter-optimised" in status.text)
    assert not banner.is_displayed()


def test_no_rain_banner_when_the_nowcast_is_dry(start_server, browser, fake_weather):
    fake_weather.mode = "dry"
    server = start_server(env={"CAIRN_WEATHER_PROVIDER": "open-meteo",
                               "CAIRN_OPEN_METEO_URL": f"{fake_weather.url}/v1/forecast"})
    open_planner_located_at(browser, server, *CENTRE)
    start_is_my_location(browser)

    wait(browser, 15).until(lambda d: d.execute_script(
        "return performance.getEntriesByType('resource').some(e => e.name.includes('/api/weather/nowcast') && e.responseEnd > 0)"))
    deadline = time.time() + 1.5
    while time.time() < deadline:
        assert not any(e.is_displayed() for e in browser.find_elements(By.CSS_SELECTOR, "[aria-label='Rain warning']"))
        time.sleep(0.1)

    assert any("/v1/forecast" in path for path in fake_weather.requests)
    assert not by_label(browser, "Shelter-optimised").is_selected()


def test_homes_sheltered_link_opens_the_planner_in_shelter_mode(server, browser):
    browser.get(f"{server.url}/#/runs?sheltered=1")

    by_text(browser, "h1", "Run Planner")
    assert by_label(browser, "Shelter-optimised").is_selected()
    assert not by_label(browser, "Standard").is_selected()
