"""Weather on Home: the card (current, 4 days, 2-hour rain, units from Settings, demo label, failures) and
the rain banner recommending a sheltered route (run-route-planner 8, trailz 3.2.4.14, goski weather)."""

import json
import math
import re
import urllib.request

import pytest
from conftest import by_label, by_text, set_geolocation, set_location_permission, wait
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from weather_fakes import FakeWeather

BEDOK = (1.3236, 103.9273)


@pytest.fixture
def fake_weather():
    fake = FakeWeather()
    yield fake
    fake.stop()


def weather_card(browser, timeout=15):
    """The weather card (the section headed "Weather"), once it has loaded."""
    card = wait(browser, timeout).until(EC.visibility_of_element_located(
        (By.XPATH, "//section[./header/*[self::h2 or self::h3][normalize-space()='Weather']]")))
    wait(browser, timeout).until(lambda d: card.get_attribute("aria-busy") == "false"
                                 and "Loading" not in card.text and "Finding" not in card.text)
    return card


def rain_banner_shown(browser):
    return any(e.is_displayed() for e in browser.find_elements(By.CSS_SELECTOR, "[aria-label='Rain warning']"))


def start_with_nea(start_server, fake_weather):
    """Cairn with NEA's 2-hour forecast (the fake) for rain and demo weather for the rest."""
    return start_server(env={"CAIRN_WEATHER_NOWCAST_PROVIDER": "nea",
                             "CAIRN_NEA_URL": f"{fake_weather.url}/v1/environment/2-hour-weather-forecast"})


def start_with_open_meteo(start_server, fake_weather):
    """Cairn with all its weather from Open-Meteo (the fake)."""
    return start_server(env={"CAIRN_WEATHER_PROVIDER": "open-meteo",
                             "CAIRN_OPEN_METEO_URL": f"{fake_weather.url}/v1/forecast"})


def open_home_located_at(browser, server, lat, lon):
    """Home, with location already allowed and the device at lat, lon."""
    browser.get(server.url)
    set_location_permission(browser, server.url, "granted")
    set_geolocation(browser, lat, lon)
    browser.refresh()


def choose_units(browser, temperature):
    by_label(browser, "Profile and settings").click()
    by_text(browser, "a", "Settings").click()
    by_label(browser, f"Temperature: °{temperature}").find_element(By.XPATH, "..").click()
    by_label(browser, "Main").find_element(By.XPATH, ".//a[normalize-space()='Home']").click()


def round_half_up(value):
    return math.floor(value + 0.5)


def test_home_shows_demo_weather_for_the_map_home_area_with_its_label(server, browser):
    browser.get(server.url)

    card = weather_card(browser)

    assert "Demo weather" in card.text
    assert "Helsinki" in card.text
    days = card.find_elements(By.CSS_SELECTOR, "[aria-label='4-day forecast'] li")
    assert len(days) == 4
    assert days[0].text.startswith("Today")
    labels = [icon.get_attribute("aria-label") for icon in card.find_elements(By.CSS_SELECTOR, "svg[role='img']")]
    assert len(labels) == 5 and all(labels)
    rain_line = card.find_element(By.CSS_SELECTOR, ".weather-rain__text").text
    assert re.match(r"(No rain expected in the next 2 hours|Rain expected from \d\d:\d\d|Rain now or soon)", rain_line)
    assert not browser.find_elements(By.XPATH, "//*[@role='dialog']"), "Home must not ask for location"


def test_temperatures_follow_the_unit_chosen_in_settings(server, browser):
    with urllib.request.urlopen(f"{server.url}/api/weather/current?lat=60.17&lon=24.94") as response:
        celsius = json.load(response)["report"]["temperature_c"]
    browser.get(server.url)

    choose_units(browser, "C")
    now = by_label(browser, f"Temperature now {round_half_up(celsius)}°C", timeout=15)
    assert now.text == f"{round_half_up(celsius)}°C"
    assert "°F" not in weather_card(browser).text

    choose_units(browser, "F")
    now = by_label(browser, f"Temperature now {round_half_up(celsius * 9 / 5 + 32)}°F", timeout=15)
    card = weather_card(browser)
    highs = card.find_elements(By.CSS_SELECTOR, ".weather-day__high")
    assert len(highs) == 4 and all(high.text.endswith("°F") for high in highs)
    assert "°C" not in card.text


def test_rain_banner_recommends_a_sheltered_route_when_the_nowcast_says_rain(start_server, browser, fake_weather):
    fake_weather.mode = "rain"
    server = start_with_nea(start_server, fake_weather)
    open_home_located_at(browser, server, *BEDOK)

    banner = by_label(browser, "Rain warning", timeout=15)
    wait(browser, 15).until(lambda d: banner.is_displayed())

    assert "Thundery Showers in Bedok" in banner.text
    assert "sheltered route" in banner.text
    card = weather_card(browser)
    assert "Your location" in card.text and "NEA Singapore" in card.text
    browser.execute_script("window.hashes = []; addEventListener('hashchange', (e) => hashes.push(new URL(e.newURL).hash));")
    banner.find_element(By.XPATH, ".//button[normalize-space()='Plan a sheltered run']").click()
    wait(browser).until(lambda d: "#/runs?sheltered=1" in d.execute_script("return window.hashes"))


def test_no_rain_banner_when_the_nowcast_is_dry(start_server, browser, fake_weather):
    fake_weather.mode = "dry"
    server = start_with_nea(start_server, fake_weather)
    open_home_located_at(browser, server, *BEDOK)

    card = weather_card(browser)
    wait(browser, 15).until(lambda d: "Partly Cloudy (Night) in Bedok" in card.text)

    assert "No rain expected in the next 2 hours" in card.text
    assert not rain_banner_shown(browser)
    assert any("2-hour-weather-forecast" in path for path in fake_weather.requests)


def test_open_meteo_weather_and_its_rain_line(start_server, browser, fake_weather):
    fake_weather.mode = "rain"
    server = start_with_open_meteo(start_server, fake_weather)
    browser.get(server.url)

    card = weather_card(browser)

    assert "Source: Open-Meteo" in card.text
    assert "Demo weather" not in card.text
    assert "Rain expected from" in card.text or "Rain now" in card.text
    wait(browser).until(rain_banner_shown)
    conditions = [icon.get_attribute("aria-label") for icon in card.find_elements(By.CSS_SELECTOR, ".weather-day svg")]
    assert conditions == ["Rain", "Partly cloudy", "Snow", "Sunny"]
    assert all("latitude=60.17&" in path for path in fake_weather.requests if path.startswith("/v1/forecast"))


def test_failing_provider_shows_weather_unavailable_and_the_page_still_works(start_server, browser, fake_weather):
    fake_weather.mode = "error"
    server = start_with_open_meteo(start_server, fake_weather)
    browser.get(server.url)

    card = weather_card(browser)

    assert "Weather is unavailable: Open-Meteo is not answering properly right now." in card.text
    assert not rain_banner_shown(browser)
    # The rest of Home still works: every app of the catalogue is listed, the weather's failure changes nothing.
    titles = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "[aria-label='Apps'] .card__title")]
    assert titles == ["Trails", "Run planner", "Parking", "Field guide", "Community", "Ski"]
