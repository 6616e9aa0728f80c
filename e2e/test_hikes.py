"""My Hikes in the browser (Trailz 3.2.3): start a free hike, walk a replayed trace, stop, rate it, see the
summary, save it; the History tab's ten newest hikes and "See more"; All Trails in each of its four orders."""

import re

from accounts import log_in, register_api, shown, tap
from activities_helpers import replay, save_activity, trace_along, warp_clock
from conftest import by_text, dialog, set_geolocation, set_location_permission, unique_name, wait, xpath_literal
from runs_helpers import CENTRE, token_of, use_units
from selenium.webdriver.common.by import By

# Eleven hikes: name, day of April 2026, length (m), climb (m), whether they start in Helsinki (where the
# street network knows the city) or far north of it (no region).
HIKES = [
    ("Nuuksio lake loop", 1, 3000, 50, True), ("Ärjänsaari", 2, 9000, 100, True), ("Bay path", 3, 1500, 0, False),
    ("Cliff trail", 4, 4000, 1300, True), ("Zigzag ridge", 5, 2000, 10, False), ("alder woods", 6, 6000, 0, True),
    ("Kallio walk", 7, 2500, 0, True), ("Museum round", 8, 5000, 0, False), ("Ölands way", 9, 7000, 500, True),
    ("Harbour", 10, 1000, 0, True), ("Granite steps", 11, 2200, 300, False),
]


def save_hike(server, token, name, day, meters, climb, in_helsinki):
    """A hike saved through the API with the body the app's Save sends (idempotent by its id)."""
    start = CENTRE if in_helsinki else (60.75, 24.95)
    count = 200
    step = meters / (count - 1) / 111_132.954
    save_activity(server, token, [(start[0] + i * step, start[1]) for i in range(count)], day=day, name=name, climb=climb)


def text_of(browser, label):
    """The shown text of the element labelled `label`, read at once (the hike card redraws every second)."""
    return browser.execute_script(
        "const e = document.querySelector(`[aria-label='${arguments[0]}']`); return e ? e.innerText : null", label)


def card_names(browser, label):
    cards = wait(browser, 15).until(lambda d: d.find_elements(By.XPATH, f"//ul[@aria-label='{label}']/li") or None)
    return [card.find_element(By.TAG_NAME, "h3").text for card in cards]


def test_a_hike_is_recorded_stopped_rated_saved_and_listed_in_every_order(server, browser):
    username = register_api(server, unique_name("hiker"))["username"]
    token = token_of(server, username)
    for hike in HIKES:
        save_hike(server, token, *hike)
    log_in(browser, server, username)
    use_units(browser, server, "km")
    set_location_permission(browser, server.url, "granted")
    set_geolocation(browser, *CENTRE)
    warp_clock(browser, 10)
    browser.get(f"{server.url}/#/hikes")
    by_text(browser, "h1", "My Hikes")
    assert wait(browser).until(lambda d: text_of(d, "Stopwatch")) == "00:00:00"

    tap(browser, "button", "Start hike")
    shown(browser, "button", "Stop")
    # The card is built once: while the hike goes on, only the figures' text changes (the map, the Stop button
    # and the stopwatch element stay the same nodes).
    browser.execute_script("""
        window.kept = { stopwatch: document.querySelector("[aria-label='Stopwatch']"),
          stop: [...document.querySelectorAll('button')].find((b) => b.textContent === 'Stop'),
          map: document.querySelector('.hike-map') };""")
    # Half a minute's walk at 1.4 m/s round a corner: 32 fixes.
    corners = [[CENTRE[1], CENTRE[0]], [CENTRE[1], CENTRE[0] + 0.0002], [CENTRE[1] + 0.0004, CENTRE[0] + 0.0002]]
    fixes = trace_along(corners, step=1.4, noise_m=2)
    replay(browser, fixes, lambda index, fix: False)
    wait(browser, 10).until(lambda d: text_of(d, "Stopwatch") not in (None, "00:00:00"))
    figures = text_of(browser, "Hike figures")
    assert "Steps" in figures and re.search(r"\d+ km/h", figures), figures
    assert browser.execute_script("""
        const k = window.kept;
        return k.stopwatch.isConnected && k.stop.isConnected && k.map.isConnected
          && k.stopwatch === document.querySelector("[aria-label='Stopwatch']")
          && k.map === document.querySelector('.hike-map');""")

    tap(browser, "button", "Stop")
    sheet = dialog(browser, "Rate your hike")
    sheet.find_element(By.XPATH, ".//button[@aria-label='4 stars']").click()
    by_text(browser, "h2", "Hike summary")
    shown(browser, "p", "You rated this hike 4 of 5 stars.")
    summary = wait(browser).until(lambda d: text_of(d, "Hike summary figures"))
    for term in ("Time", "Average speed", "Total steps", "Distance"):
        assert term in summary
    assert re.search(r"Time\s+00:0\d:\d\d", summary), summary
    tap(browser, "button", "Save")

    # The card moves to History: the ten newest, newest first, and "See more".
    wait(browser, 20).until(lambda d: d.find_element(By.XPATH, "//button[@role='tab'][normalize-space()='History']").get_attribute("aria-selected") == "true")
    names = card_names(browser, "Hike history")
    assert len(names) == 10 and names[0].startswith("Hike on ")
    assert names[1:] == [name for name, *_ in sorted(HIKES, key=lambda h: -h[1])][:9]
    status, mine, _ = server.api("GET", "/api/activities?kind=hike&limit=1", headers={"Authorization": f"Bearer {token}"})
    assert mine["total"] == 12 and mine["activities"][0]["rating"] == 4
    tap(browser, "a", "See more")

    by_text(browser, "h1", "All Trails")
    recorded = mine["activities"][0]["name"]
    by_date = card_names(browser, "All hikes")
    assert by_date == [recorded] + [name for name, *_ in sorted(HIKES, key=lambda h: -h[1])]
    # Every card's route image is drawn: a list asks for them together (here all twelve at once, as a phone on
    # HTTP/2 does), and none may be refused.
    statuses = browser.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const urls = [...document.querySelectorAll('.activity-card__image')].map((i) => i.src);
        Promise.all(urls.map((url) => fetch(url, { cache: 'no-store' }).then((r) => r.status))).then(done);""")
    assert statuses == [200] * 12, statuses

    def sort_by(label):
        sort_button = wait(browser).until(lambda d: d.find_element(By.XPATH, "//button[starts-with(normalize-space(), 'Sort: ')]"))
        sort_button.click()
        dialog(browser, "Sort by").find_element(By.XPATH, f".//button[normalize-space()='{label}']").click()
        shown(browser, "button", f"Sort: {label}")
        return card_names(browser, "All hikes")

    folded = lambda name: name.lower().replace("ä", "a").replace("ö", "o")
    assert sort_by("Trail name") == sorted([recorded] + [h[0] for h in HIKES], key=folded)
    difficulty = sort_by("Difficulty")
    assert difficulty[-1] == "Cliff trail" and difficulty[-3:-1] == ["Ärjänsaari", "Ölands way"]
    assert difficulty[:-3] == sorted(difficulty[:-3], key=folded)
    state = sort_by("State")
    in_helsinki = sorted([recorded] + [h[0] for h in HIKES if h[4]], key=folded)
    assert state[:len(in_helsinki)] == in_helsinki
    assert state[len(in_helsinki):] == sorted([h[0] for h in HIKES if not h[4]], key=folded)
    assert sort_by("Date") == by_date

    # The path's image opens it on the Map (Trailz 3.2.3.7), drawn by the home Map through the platform.
    browser.get(f"{server.url}/#/hikes")
    tap(browser, "button", "History")
    link = wait(browser, 15).until(lambda d: d.find_element(By.XPATH, f"//a[@aria-label={xpath_literal('Show ' + recorded + ' on the map')}]"))
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", link)
    link.click()
    shown(browser, "p", f"{recorded}: the recorded path", timeout=15)
    assert browser.find_elements(By.CSS_SELECTOR, "path.leaflet-interactive[stroke='#d9480f']")


def test_start_on_a_trails_page_records_the_hike_on_that_trail(server, browser):
    keeper = register_api(server, unique_name("keeper"))["username"]
    server.run_cli("user", "set-role", keeper, "admin", check=True)
    name = f"Esplanadi stroll {unique_name('')}"
    lon, lat = CENTRE[1], CENTRE[0]
    status, imported, _ = server.api(
        "POST", "/api/trails/import",
        {"type": "FeatureCollection", "features": [{"type": "Feature",
         "properties": {"name": name, "city": "Helsinki", "region": "Uusimaa", "difficulty": "easy"},
         "geometry": {"type": "LineString", "coordinates": [[lon, lat], [lon + 0.004, lat + 0.001]]}}]},
        headers={"Authorization": f"Bearer {token_of(server, keeper)}"})
    assert status == 201, imported
    trail_id = imported["trails"][0]["id"]
    hiker = register_api(server, unique_name("hiker"))["username"]
    log_in(browser, server, hiker)
    set_location_permission(browser, server.url, "granted")
    set_geolocation(browser, *CENTRE)

    browser.get(f"{server.url}/#/trails/{trail_id}")
    by_text(browser, "h1", name)
    tap(browser, "a", "Start")
    by_text(browser, "h1", "My Hikes")
    shown(browser, "p", f"On {name}")
    tap(browser, "button", "Start hike")
    shown(browser, "button", "Stop")
    fixes = trace_along([[lon, lat], [lon + 0.0004, lat + 0.0001]], step=1.4, noise_m=1)
    replay(browser, fixes[:8], lambda index, fix: False)
    tap(browser, "button", "Stop")
    dialog(browser, "Rate your hike").find_element(By.XPATH, ".//button[normalize-space()='Not now']").click()
    tap(browser, "button", "Save")

    wait(browser, 20).until(lambda d: card_names(d, "Hike history")[:1] == [name])
    status, mine, _ = server.api("GET", "/api/activities?kind=hike&limit=1",
                                 headers={"Authorization": f"Bearer {token_of(server, hiker)}"})
    assert mine["activities"][0]["trail"] == {"id": trail_id, "name": name, "difficulty": "easy", "region": "Uusimaa"}
    # The card says the trail's difficulty as a word, not its code.
    card = wait(browser, 15).until(lambda d: d.find_element(By.XPATH, "//ul[@aria-label='Hike history']/li[1]"))
    assert " · Easy · Uusimaa" in card.text and "easy" not in card.text, card.text
    # No map asked the server for the streets of an empty area while its card was not shown (a 422 each time).
    logs = [entry["message"] for entry in browser.get_log("browser")]
    assert not [m for m in logs if "/api/streets/layer" in m or "Street layer unavailable" in m], logs
    assert not [m for m in logs if "Cairn guard" in m], logs
