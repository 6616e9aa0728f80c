"""The run planner in the browser (run-route-planner 4, 5, 8.3.1) on the Helsinki demo network: a start from
the current location or an address, the distance checked on the screen in the person's unit, a landmark from
the drop-down, shelter on, three routes on the map with a legend, one selected and kept; the rain banner."""

import re

import pytest
from accounts import field_error, fill, log_in, register_api, shown, tap
from conftest import by_label, by_text, dialog, set_geolocation, set_location_permission, unique_name, wait
from runs_helpers import (CENTRE, choose_mode, fill_distance, keep_a_route, landmark_options, open_plan_form,
                          open_planner_located_at, plan_a_route, plan_status, planned_routes_listed, planned_runs_of,
                          route_cards, select_route, start_is_my_location, token_of, use_units)
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select
from weather_fakes import FakeWeather


@pytest.fixture
def fake_weather():
    fake = FakeWeather()
    yield fake
    fake.stop()


def record_plan_requests(browser):
    """Keeps the body of every POST /api/runs/plan the page sends in window.planRequests."""
    browser.execute_script("""
        window.planRequests = [];
        const original = window.fetch;
        window.fetch = (url, options, ...rest) => {
          if (String(url).includes('/api/runs/plan') && !String(url).includes('planned')) window.planRequests.push(JSON.parse(options.body));
          return original(url, options, ...rest);
        };""")


def kilometres(text):
    """'1.85 km there and back' or '850 m there and back' in km."""
    value, unit = re.match(r"([\d.]+) (km|m) there and back", text).groups()
    return float(value) / (1 if unit == "km" else 1000)


def test_plan_a_sheltered_three_km_loop_through_a_landmark_and_keep_one(server, browser):
    username = register_api(server, unique_name("runner"))["username"]
    log_in(browser, server, username)
    use_units(browser, server, "km")
    open_planner_located_at(browser, server, *CENTRE)
    start_is_my_location(browser)

    fill(browser, "Distance (km)", "3")
    landmarks = landmark_options(browser)
    texts = [option.text for option in landmarks.options]
    assert texts[0] == "No landmark"
    round_trips = [kilometres(text.split(" · ")[-1]) for text in texts[1:]]
    assert all(km <= 3 for km in round_trips) and round_trips == sorted(round_trips)
    chosen = max(i for i, km in enumerate(round_trips, start=1) if km <= 2.5)
    landmarks.select_by_index(chosen)
    landmark_name = texts[chosen].split(" · ")[0]
    choose_mode(browser, "Shelter-optimised")
    tap(browser, "button", "Plan routes")

    cards = route_cards(browser)
    assert [name for name, *_ in cards] == ["Route 1", "Route 2", "Route 3"]
    assert all(2.5 <= length <= 3.5 and unit == "km" for _, length, unit, _, _ in cards)
    legend = by_label(browser, "Legend")
    assert legend.is_displayed()
    assert "Sheltered sections" in legend.text and landmark_name in legend.text
    assert len(browser.find_elements(By.CSS_SELECTOR, "[aria-label='Planned routes map'] path[data-route]")) == 3
    assert "Shelter-optimised" in plan_status(browser).text and f"via {landmark_name}" in plan_status(browser).text

    assert [button.get_attribute("aria-pressed") for *_, button in cards] == ["true", "false", "false"]
    select_route(browser, cards[1][4])
    assert [button.get_attribute("aria-pressed") for *_, button in cards] == ["false", "true", "false"]
    tap(browser, "button", "Save this route")
    shown(browser, "p", "Route 2 is in your planned routes. See my planned routes")
    tap(browser, "a", "See my planned routes")

    by_text(browser, "h1", "Planned Routes")
    saved = planned_routes_listed(browser, 1)
    assert saved[0].text.startswith(f"{cards[1][1]:.2f} km")
    assert "Shelter-optimised" in saved[0].text and f"via {landmark_name}" in saved[0].text
    assert len(planned_runs_of(server, token_of(server, username))) == 1


def test_a_guest_who_saves_a_route_finds_it_after_logging_in(server, browser):
    username = register_api(server, unique_name("guest"))["username"]
    open_planner_located_at(browser, server, *CENTRE)
    start_is_my_location(browser)
    plan_a_route(browser)

    tap(browser, "button", "Save this route")
    sheet = dialog(browser, "You need an account")
    assert "What you did as a guest on this device comes with you" in sheet.text
    shown(browser, "p", "Kept on this device: log in or create an account and route 1 joins your planned routes.")
    sheet.find_element(By.XPATH, ".//a[normalize-space()='Log in']").click()
    by_text(browser, "h1", "Log in")
    fill(browser, "Username or email", username)
    fill(browser, "Password", "Trail-Mix-42!")
    tap(browser, "button", "Log in")
    by_text(browser, "h1", "Home")

    browser.get(f"{server.url}/#/runs/planned")
    listed = planned_routes_listed(browser, 1)[0].text
    assert "loop" in listed and "asked" in listed
    assert len(planned_runs_of(server, token_of(server, username))) == 1


@pytest.mark.parametrize("typed", ["0", "31", "abc", ""])
def test_a_distance_outside_one_to_thirty_is_refused_on_the_screen_and_by_the_api(server, browser, typed):
    use_units(browser, server, "km")
    open_planner_located_at(browser, server, *CENTRE)
    start_is_my_location(browser)
    record_plan_requests(browser)

    fill(browser, "Distance (km)", typed)
    tap(browser, "button", "Plan routes")

    assert field_error(browser, "Distance (km)") == "Enter a number between 1 and 30"
    assert browser.execute_script("return window.planRequests.length") == 0
    body = {"start": {"lat": CENTRE[0], "lon": CENTRE[1]}, "sheltered": False}
    if typed:
        body["distance_km"] = float(typed) if typed.isdigit() else typed
    status, problem, _ = server.api("POST", "/api/runs/plan", body)
    assert status == 422
    assert problem["errors"] == [{"field": "distance_km", "detail": "Enter a number between 1 and 30"}]


def test_a_person_who_reads_miles_enters_and_sees_miles(server, browser):
    use_units(browser, server, "mi")
    open_planner_located_at(browser, server, *CENTRE)
    start_is_my_location(browser)
    record_plan_requests(browser)

    fill(browser, "Distance (mi)", "19")
    tap(browser, "button", "Plan routes")
    assert field_error(browser, "Distance (mi)") == "Enter a number between 0.7 and 18.6"
    fill(browser, "Distance (mi)", "1.5")
    landmarks = landmark_options(browser)
    assert all(option.text.endswith("mi there and back") for option in landmarks.options[1:])
    tap(browser, "button", "Plan routes")

    cards = route_cards(browser)
    assert all(unit == "mi" and 1.2 <= length <= 1.8 for _, length, unit, _, _ in cards)
    assert browser.execute_script("return window.planRequests")[0]["distance_km"] == pytest.approx(2.414, abs=0.001)
    results = browser.find_element(By.XPATH, "//section[h3[normalize-space()='Routes']]")
    assert " km" not in results.text and "1.50 mi" in plan_status(browser).text


def test_the_plan_sheet_that_fills_the_screen_can_be_closed_for_the_map(server, browser):
    use_units(browser, server, "km")
    open_planner_located_at(browser, server, *CENTRE)
    sheet = dialog(browser, "Plan a run")
    close = sheet.find_element(By.XPATH, ".//button[normalize-space()='Close']")
    # In view at the top of the sheet, as large as a finger, without scrolling the form.
    box = close.rect
    assert box["y"] >= 0 and box["y"] + box["height"] <= 200 and box["height"] >= 44 and box["width"] >= 44, box
    close.click()
    wait(browser).until(lambda d: not d.find_elements(By.XPATH, "//dialog[@open]"))
    by_label(browser, "Planned routes map")
    tap(browser, "button", "Choose start and distance")
    dialog(browser, "Plan a run")


def test_start_from_an_address_chosen_among_the_suggestions(server, browser):
    use_units(browser, server, "km")
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
    chosen = options[0].text.splitlines()[0]
    start.send_keys(Keys.ENTER)

    assert start.get_attribute("value") == chosen
    assert start.get_attribute("aria-expanded") == "false"
    fill(browser, "Distance (km)", "2")
    landmark_options(browser)
    tap(browser, "button", "Plan routes")
    cards = route_cards(browser)
    assert len(cards) == 3 and all(1.5 <= length <= 2.5 for _, length, _, _, _ in cards)


def test_a_typed_start_not_chosen_from_the_suggestions_is_used_not_ignored(server, browser):
    # The device is in Kallio; suggestions are ranked from the map's centre, which is where the device is.
    status, answer, _ = server.api("GET", "/api/streets/suggestions?q=Mannerheimintie&limit=1&lat=60.18410&lon=24.95000")
    best = answer["suggestions"][0]
    open_planner_located_at(browser, server, 60.1841, 24.9500)
    start_is_my_location(browser)
    record_plan_requests(browser)

    fill(browser, "Start", "Mannerheimintie")
    fill_distance(browser, "2")
    tap(browser, "button", "Plan routes")

    route_cards(browser)
    start = browser.execute_script("return window.planRequests")[0]["start"]
    assert start["lat"] == pytest.approx(best["lat"], abs=1e-6) and start["lon"] == pytest.approx(best["lon"], abs=1e-6)
    open_plan_form(browser)
    assert by_label(browser, "Start").get_attribute("value") == best["text"]

    fill(browser, "Start", "Qwxz Nowhere Street")
    tap(browser, "button", "Plan routes")
    assert "No place matches “Qwxz Nowhere Street”" in field_error(browser, "Start")
    assert len(browser.execute_script("return window.planRequests")) == 1


def test_deleting_a_planned_route_asks_first(server, browser):
    username = register_api(server, unique_name("deleter"))["username"]
    keep_a_route(server, token_of(server, username))
    log_in(browser, server, username)
    browser.get(f"{server.url}/#/runs/planned")
    by_text(browser, "h1", "Planned Routes")
    planned_routes_listed(browser, 1)

    tap(browser, "button", "Delete")
    sheet = dialog(browser, "Delete this route?")
    sheet.find_element(By.XPATH, ".//button[normalize-space()='Keep it']").click()
    wait(browser).until(lambda d: not d.find_elements(By.XPATH, "//dialog[@open]"))
    assert len(planned_routes_listed(browser, 1)) == 1
    assert len(planned_runs_of(server, token_of(server, username))) == 1

    tap(browser, "button", "Delete")
    dialog(browser, "Delete this route?").find_element(By.XPATH, ".//button[normalize-space()='Delete route']").click()

    planned_routes_listed(browser, 0)
    wait(browser).until(lambda d: "Deleted the" in d.find_element(By.XPATH, "//main//p[@role='status']").text
                        or "No planned routes yet" in d.find_element(By.XPATH, "//main//p[@role='status']").text)
    assert planned_runs_of(server, token_of(server, username)) == []


def test_the_rain_banner_turns_shelter_on_and_plans_again(start_server, browser, fake_weather):
    fake_weather.mode = "rain"
    server = start_server(env={"CAIRN_WEATHER_PROVIDER": "open-meteo",
                               "CAIRN_OPEN_METEO_URL": f"{fake_weather.url}/v1/forecast"})
    open_planner_located_at(browser, server, *CENTRE)
    start_is_my_location(browser)
    fill_distance(browser, "2")
    choose_mode(browser, "Standard")
    tap(browser, "button", "Plan routes")
    route_cards(browser)
    assert "Standard" in plan_status(browser).text

    banner = by_label(browser, "Rain warning", timeout=15)
    wait(browser, 15).until(lambda d: banner.is_displayed())
    assert "sheltered route" in banner.text
    action = banner.find_element(By.XPATH, ".//button[normalize-space()='Use a sheltered route']")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", action)
    action.click()

    wait(browser, 30).until(lambda d: "Shelter-optimised" in plan_status(d).text)
    assert not banner.is_displayed()
    open_plan_form(browser)
    assert by_label(browser, "Shelter-optimised").is_selected()


def test_no_rain_banner_when_the_nowcast_is_dry(start_server, browser, fake_weather):
    fake_weather.mode = "dry"
    server = start_server(env={"CAIRN_WEATHER_PROVIDER": "open-meteo",
                               "CAIRN_OPEN_METEO_URL": f"{fake_weather.url}/v1/forecast"})
    open_planner_located_at(browser, server, *CENTRE)
    start_is_my_location(browser)

    banner = by_label(browser, "Rain warning", timeout=15)
    wait(browser, 15).until(lambda d: banner.get_attribute("aria-busy") == "false")

    assert not banner.is_displayed()
    assert any("/v1/forecast" in path for path in fake_weather.requests)
    assert not by_label(browser, "Shelter-optimised").is_selected()


def test_homes_sheltered_link_opens_the_planner_in_shelter_mode(server, browser):
    browser.get(f"{server.url}/#/runs?sheltered=1")

    by_text(browser, "h1", "Run Planner")
    assert by_label(browser, "Shelter-optimised").is_selected()
    assert not by_label(browser, "Standard").is_selected()


def delay_plans(browser, milliseconds):
    """Holds every POST /api/runs/plan the page sends for `milliseconds` before it leaves (a slow plan)."""
    browser.execute_script("""
        const original = window.fetch, wait = arguments[0];
        window.fetch = async (url, ...rest) => {
          if (String(url).includes('/api/runs/plan') && !String(url).includes('planned')) await new Promise((r) => setTimeout(r, wait));
          return original(url, ...rest);
        };""", milliseconds)


def box(browser, element):
    return browser.execute_script("const r = arguments[0].getBoundingClientRect(); return {top: r.top, bottom: r.bottom, height: r.height}", element)


def test_on_a_phone_the_routes_fill_the_map_one_highlighted_with_time_at_my_pace(server, browser):
    use_units(browser, server, "km")
    open_planner_located_at(browser, server, *CENTRE)
    start_is_my_location(browser)
    open_plan_form(browser)
    fill_distance(browser, "2")
    fill(browser, "Your pace (min/km)", "5:00")
    delay_plans(browser, 1500)
    tap(browser, "button", "Plan routes")

    # The form gives way to the map at once; a plan that takes over a second says for how long.
    wait(browser).until(lambda d: not d.find_elements(By.XPATH, "//dialog[@open]"))
    progress = by_label(browser, "Planning progress")
    wait(browser).until(lambda d: progress.is_displayed())
    assert re.match(r"Planning three 2\.00 km routes… \d s\.", plan_status(browser).text)
    cards = route_cards(browser)
    wait(browser).until(lambda d: not progress.is_displayed())

    the_map = by_label(browser, "Planned routes map")
    assert box(browser, the_map)["height"] >= 0.45 * 844
    assert box(browser, the_map)["top"] < box(browser, cards[0][3])["top"]
    assert by_label(browser, "Area with streets the planner knows")
    assert "Sheltered sections (white dashes)" in by_label(browser, "Legend").text

    # One route highlighted at a time: the first at once, the others thin; a tap on another card moves it.
    assert [button.get_attribute("aria-pressed") for *_, button in cards] == ["true", "false", "false"]
    widths = lambda: [float(browser.find_element(By.CSS_SELECTOR, f"path[data-route='{i}']").get_attribute("stroke-width")) for i in (1, 2, 3)]
    assert widths()[0] > widths()[1] == widths()[2]
    starts = [e for e in browser.find_elements(By.XPATH, "//button[normalize-space()='Start this run']") if e.is_displayed()]
    assert len(starts) == 1 and cards[0][3].find_elements(By.XPATH, ".//button[normalize-space()='Start this run']")
    select_route(browser, cards[2][4])
    assert widths()[2] > widths()[0] == widths()[1]
    assert cards[2][3].find_elements(By.XPATH, ".//button[normalize-space()='Start this run']")

    # Each card: distance, time at the pace typed, sheltered share and what kind of route it is.
    for name, length, unit, card, button in cards:
        minutes = int(re.search(r"About (\d+) min at 5:00 min/km", button.text).group(1))
        assert abs(minutes - length * 5) <= 1, button.text
        assert re.search(r"\d+ % sheltered", button.text)
        assert re.search(r"^(Loop|Lollipop: .+|Out and back: Out and back along .+)$", button.text.splitlines()[-1]), button.text

    # The pace is kept: the form opens again with it, and a new pace changes the times at once.
    open_plan_form(browser)
    assert by_label(browser, "Your pace (min/km)").get_attribute("value") == "5:00"
    assert fill_distance(browser, "2").get_attribute("value") == "2"
    fill(browser, "Your pace (min/km)", "10")
    browser.switch_to.active_element.send_keys(Keys.ESCAPE)
    wait(browser).until(lambda d: not d.find_elements(By.XPATH, "//dialog[@open]"))
    for *_, length, unit, card, button in route_cards(browser):
        assert "at 10:00 min/km" in button.text

    open_plan_form(browser)
    fill(browser, "Your pace (min/km)", "1:00")
    tap(browser, "button", "Plan routes")
    assert "Enter a pace such as 6:00" in field_error(browser, "Your pace (min/km)")


def test_landmarks_are_listed_once_each_with_their_kind_and_can_be_searched(server, browser):
    use_units(browser, server, "km")
    open_planner_located_at(browser, server, *CENTRE)
    start_is_my_location(browser)
    fill(browser, "Distance (km)", "5")
    landmarks = landmark_options(browser)
    texts = [option.text for option in landmarks.options[1:]]
    names = [text.split(" · ")[0] for text in texts]
    assert len(names) > 5 and len(set(names)) == len(names), "one per name"
    assert all(len(text.split(" · ")) == 3 and text.endswith("there and back") for text in texts)
    kinds = {text.split(" · ")[1] for text in texts}
    assert not any("_" in kind for kind in kinds) and len(kinds) > 1

    kind = sorted(kinds)[0]
    fill(browser, "Find a landmark", kind.lower())
    wait(browser).until(lambda d: len(Select(by_label(d, "Landmark")).options) - 1 == sum(f" · {kind} · " in t for t in texts))
    assert all(f" · {kind} · " in option.text for option in Select(by_label(browser, "Landmark")).options[1:])
    assert f"of {len(texts)} landmarks match." in by_label(browser, "Find a landmark").find_element(
        By.XPATH, "following-sibling::p").text
    fill(browser, "Find a landmark", "zzqx")
    wait(browser).until(lambda d: len(Select(by_label(d, "Landmark")).options) == 1)
    assert "No landmark matches “zzqx”." in browser.page_source
