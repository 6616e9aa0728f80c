"""Offline (issue 15): writes made offline wait in the outbox, survive a reload and are sent exactly once when
the connection comes back; saved routes open with no connection; errors show where the person is looking and
the app says it is offline."""

import pytest
from accounts import log_in, register_api, shown, tap
from conftest import by_label, by_text, set_offline, unique_name, wait
from runs_helpers import (CENTRE, fill_distance, keep_a_route, open_plan_form, open_planner_located_at, plan_a_route,
                          planned_routes_listed, planned_runs_of, route_cards, start_is_my_location, token_of)
from selenium.webdriver.common.by import By


@pytest.fixture
def offline_capable(browser, server):
    """A browser whose page is controlled by Cairn's service worker (so the shell opens offline)."""
    browser.get(server.url)
    by_text(browser, "h1", "Home")
    wait(browser, 20).until(lambda d: d.execute_script("return navigator.serviceWorker.controller !== null"))
    return browser


def connection_status(browser):
    return browser.find_element(By.ID, "connection-status")


def route_drawn(browser, map_label):
    return browser.find_elements(By.CSS_SELECTOR, f"[aria-label='{map_label}'] path[data-route]")


def test_a_route_saved_offline_survives_a_reload_and_is_sent_exactly_once_back_online(server, offline_capable):
    browser = offline_capable
    username = register_api(server, unique_name("offline"))["username"]
    token = token_of(server, username)
    log_in(browser, server, username)
    open_planner_located_at(browser, server, *CENTRE)
    start_is_my_location(browser)
    plan_a_route(browser)

    set_offline(browser, True)
    wait(browser).until(lambda d: "You are offline" in connection_status(d).text)
    tap(browser, "button", "Save this route")
    shown(browser, "p", "Kept on this device: route 1 goes to your planned routes as soon as the server can be reached.")
    wait(browser).until(lambda d: "1 change waits to be sent" in connection_status(d).text)
    browser.refresh()
    by_text(browser, "h1", "Run Planner")
    browser.get(f"{server.url}/#/runs/planned")
    waiting = wait(browser, 15).until(lambda d: d.find_elements(By.XPATH, "//ul[@aria-label='Waiting to be sent']/li") or None)
    assert "Route 1" in waiting[0].text and "Kept on this device" in waiting[0].text
    assert planned_runs_of(server, token) == []

    set_offline(browser, False)

    listed = planned_routes_listed(browser, 1, timeout=30)
    assert "loop" in listed[0].text
    wait(browser).until(lambda d: not d.find_elements(By.XPATH, "//ul[@aria-label='Waiting to be sent']/li"))
    wait(browser).until(lambda d: not connection_status(d).is_displayed())
    browser.refresh()
    planned_routes_listed(browser, 1)
    assert len(planned_runs_of(server, token)) == 1


def test_saved_routes_open_with_no_connection(server, offline_capable):
    browser = offline_capable
    username = register_api(server, unique_name("reader"))["username"]
    keep_a_route(server, token_of(server, username))
    log_in(browser, server, username)
    browser.get(f"{server.url}/#/runs/planned")
    planned_routes_listed(browser, 1)
    wait(browser, 15).until(lambda d: route_drawn(d, "Planned route map"))

    set_offline(browser, True)
    browser.refresh()

    by_text(browser, "h1", "Planned Routes")
    status = wait(browser, 15).until(lambda d: next(
        (p for p in d.find_elements(By.XPATH, "//main//p[@role='status']") if "You are offline" in p.text), None))
    assert "1 planned route" in status.text
    assert len(planned_routes_listed(browser, 1)) == 1
    wait(browser, 15).until(lambda d: route_drawn(d, "Planned route map"))
    assert "You are offline" in connection_status(browser).text


def vertical_gap(browser, upper, lower):
    return browser.execute_script(
        "return arguments[1].getBoundingClientRect().top - arguments[0].getBoundingClientRect().bottom", upper, lower)


def test_offline_errors_show_beside_the_button_and_the_app_says_it_is_offline(server, browser):
    open_planner_located_at(browser, server, *CENTRE)
    start_is_my_location(browser)
    cards = plan_a_route(browser)
    assert len(cards) == 3

    set_offline(browser, True)
    wait(browser).until(lambda d: connection_status(d).is_displayed() and "You are offline" in connection_status(d).text)
    other = tap(browser, "button", "Show other routes")
    other_error = wait(browser).until(lambda d: next(
        (e for e in d.find_elements(By.XPATH, "//*[@role='alert']") if "Cannot reach the Cairn server" in e.text), None))
    assert 0 <= vertical_gap(browser, other, other_error) < 48, "the error shows right under Show other routes"

    open_plan_form(browser)
    fill_distance(browser, "3")
    plan = tap(browser, "button", "Plan routes")
    plan_error = wait(browser).until(lambda d: next(
        (e for e in d.find_elements(By.XPATH, "//form//*[@role='alert']") if "Cannot reach the Cairn server" in e.text), None))
    assert 0 <= vertical_gap(browser, plan_error, plan) < 48, "the error shows right above Plan routes"
    assert browser.execute_script(
        "const r = arguments[0].getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight", plan_error)
    assert len(route_cards(browser)) == 3, "the routes planned before stay"
