"""Running a planned loop in the browser (run-route-planner 6, 7, 9): a loop planned on the Helsinki demo
network is run by a replayed GPS trace fed through Chromium's geolocation override at ten times the speed of
the wall clock — Start, each instruction said before its turn, the off-route prompt raised on a detour and
cleared on return, a reload in the middle that loses nothing, the automatic end at the finish, the summary,
Save, the history and the activity's page with its route image; and the privacy zone: a run that starts and
ends at home shows others (image, GPX) only what lies outside it."""

import re

from accounts import log_in, register_api, shown, tap
from activities_helpers import distance_m, gpx_points, replay, save_activity, trace_along, warp_clock
from conftest import by_label, by_text, set_geolocation, set_location_permission, unique_name, wait, xpath_literal
from runs_helpers import CENTRE, open_planner_located_at, plan_a_route, start_is_my_location, token_of, use_units
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

SPEED = 10


def record_plan_requests(browser):
    browser.execute_script("""
        window.planRequests = [];
        const original = window.fetch;
        window.fetch = (url, options, ...rest) => {
          if (String(url).endsWith('/api/runs/plan')) window.planRequests.push(JSON.parse(options.body));
          return original(url, options, ...rest);
        };""")


def record_announcements(browser):
    """From the next page load on, every text the screen's Announcement live region says is kept in order in
    sessionStorage (so a reload keeps what was said before it)."""
    browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
        new MutationObserver((records) => {
          for (const record of records) {
            const region = record.target.nodeType === Node.ELEMENT_NODE ? record.target : record.target.parentElement;
            if (region?.getAttribute('aria-label') !== 'Announcement') continue;
            for (const node of record.addedNodes) {
              const said = JSON.parse(sessionStorage.getItem('said') ?? '[]');
              said.push(node.textContent);
              sessionStorage.setItem('said', JSON.stringify(said));
            }
          }
        }).observe(document, { subtree: true, childList: true });"""})


def run_screen_state(browser):
    """What the run screen shows now: everything said so far, whether the off-route prompt shows, and the
    distance figure."""
    return browser.execute_script("""
        const alert = [...document.querySelectorAll('[role="alert"]')].find((e) => !e.hidden && e.textContent.startsWith('Off route'));
        const figures = document.querySelector('[aria-label="Run figures"]');
        const distance = figures && !figures.hidden ? figures.querySelector('dt:first-of-type + dd')?.textContent : null;
        return { said: JSON.parse(sessionStorage.getItem('said') ?? '[]'), off: Boolean(alert), distance };""")


def button_in_reach(browser, text):
    """Whether the button `text` can be tapped where it is now, without scrolling: inside the viewport, above the
    bottom navigation, and the topmost thing at its centre (read in one go: the screen redraws every second)."""
    return browser.execute_script("""
        const e = [...document.querySelectorAll('main button')].find((b) => b.textContent.trim() === arguments[0]);
        if (!e) return false;
        const r = e.getBoundingClientRect(), nav = document.querySelector('.bottom-nav');
        const floor = nav ? nav.getBoundingClientRect().top : innerHeight;
        if (r.top < 0 || r.bottom > floor || r.height === 0) return false;
        return document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)?.closest('button') === e;""", text)


def km(text):
    value, unit = re.match(r"([\d.]+) (km|m)$", text).groups()
    return float(value) * (1 if unit == "km" else 0.001)


def test_a_planned_loop_is_run_end_to_end_with_a_replayed_trace(server, browser):
    username = register_api(server, unique_name("runner"))["username"]
    log_in(browser, server, username)
    use_units(browser, server, "km")
    open_planner_located_at(browser, server, *CENTRE)
    start_is_my_location(browser)
    record_plan_requests(browser)
    plan_a_route(browser, "2")
    plan_body = browser.execute_script("return window.planRequests[0]")

    # The same plan through the API gives the same loop; its instructions are what the screen must say.
    status, plan, _ = server.api("POST", "/api/runs/plan", plan_body)
    assert status == 200, plan
    loop = plan["routes"][0]
    status, route, _ = server.api("POST", "/api/activities/route", {"geometry": loop["geometry"]})
    assert status == 200, route
    turns = [(i, item) for i, item in enumerate(route["instructions"]) if item["maneuver"] not in ("arrive",) and i > 0]
    assert turns and all(len(item["text"].split()) <= 6 for _, item in turns)

    tap(browser, "button", "Start this run")
    by_text(browser, "h1", "Run")
    shown(browser, "button", "Start", timeout=20)
    # From here on the page's clock runs ten times faster (the chosen route is kept on the device, so the
    # reload that installs the clock shows it again).
    warp_clock(browser, SPEED)
    record_announcements(browser)
    browser.refresh()
    tap(browser, "button", "Start")
    by_label(browser, "Next instruction")

    length = route["length_m"]
    # The detour leaves where the route is farthest from any turn, between a quarter and 60 % of the way.
    candidates = [length * 0.25 + 10 * i for i in range(int(length * 0.35 / 10))]
    detour_at = max(candidates, key=lambda d: min(abs(item["distance_m"] - d) for item in route["instructions"]))
    fixes = trace_along(route["coordinates"], detour_at=detour_at, detour_m=110)
    said = []  # (instruction text, metres before its turn when said)
    off_seen = []  # (fix index, true metres off the route) when the prompt shows
    end_in_reach = []  # whether End could be tapped without scrolling, at each of those fixes
    reloaded = {"done": False, "distance": None}

    def on_fix(index, fix):
        _lat, _lon, along, off = fix
        state = run_screen_state(browser)
        said.extend((text, along) for text in state["said"][len(said):])
        if state["off"]:
            off_seen.append((index, off))
            # With the prompt showing too, End can still be tapped at once, without scrolling the map away.
            end_in_reach.append(button_in_reach(browser, "End"))
        # Halfway through, after the detour: a reload loses nothing of the run.
        if not reloaded["done"] and along > detour_at + 300 and not state["off"] and state["distance"]:
            reloaded["done"] = True
            reloaded["distance"] = km(state["distance"])
            browser.refresh()
            wait(browser, 15).until(lambda d: run_screen_state(d)["distance"])
            reloaded["after"] = km(run_screen_state(browser)["distance"])
        return bool(browser.find_elements(By.XPATH, "//h2[normalize-space()='Run summary']"))

    replay(browser, fixes, on_fix)

    # Every turn was said before it, about 50 m ahead; nothing said twice.
    texts = [text for text, _ in said]
    for index, item in turns:
        before = [item["distance_m"] - along for text, along in said if text == item["text"]]
        assert any(0 <= ahead <= 80 for ahead in before), (item["text"], round(item["distance_m"]), before)
    assert len(texts) <= len(route["instructions"]) and texts[0] == route["instructions"][0]["text"]
    # The prompt showed while the runner was far off, and cleared on the way back.
    assert off_seen and min(off for _, off in off_seen) >= 20
    assert max(off for _, off in off_seen) >= 100
    assert off_seen[-1][0] < len(fixes) - 30
    assert end_in_reach and all(end_in_reach), end_in_reach
    # The reload kept the run.
    assert reloaded["done"] and reloaded["after"] >= reloaded["distance"] - 0.01

    # The automatic end, and the summary.
    summary = by_label(browser, "Summary", timeout=20)
    shown(browser, "p", "You finished the loop: well done!")
    figures = dict(zip([e.text for e in summary.find_elements(By.TAG_NAME, "dt")], [e.text for e in summary.find_elements(By.TAG_NAME, "dd")]))
    assert re.fullmatch(r"\d\d:\d\d", figures["Time"]), figures
    distance = km(figures["Distance"])
    assert abs(distance * 1000 - (length + 220)) < 0.08 * length, (figures, length)
    assert re.fullmatch(r"\d+:\d\d /km", figures["Pace"]), figures

    tap(browser, "button", "Save run")
    shown(browser, "p", "Your run is saved. See it in your activities", timeout=20)
    token = token_of(server, username)
    status, history, _ = server.api("GET", "/api/activities", headers={"Authorization": f"Bearer {token}"})
    assert status == 200 and history["total"] == 1
    saved = history["activities"][0]
    assert saved["outcome"] == "finished" and saved["kind"] == "run"
    assert abs(saved["distance_m"] / 1000 - distance) < 0.01

    tap(browser, "a", "See it in your activities")
    by_text(browser, "h2", saved["name"])
    image = browser.find_element(By.XPATH, f"//img[@alt={xpath_literal('Route of ' + saved['name'])}]")
    wait(browser, 15).until(lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", image))
    page = browser.find_element(By.TAG_NAME, "main").text
    assert figures["Distance"] in page and "Pace" in page

    browser.get(f"{server.url}/#/activities")
    by_text(browser, "h1", "My Activities")
    cards = wait(browser, 15).until(lambda d: d.find_elements(By.XPATH, "//ul[@aria-label='My activities']/li") or None)
    assert len(cards) == 1 and saved["name"] in cards[0].text and figures["Distance"] in cards[0].text


def test_a_person_who_reads_miles_is_told_turns_in_feet_not_hundredths_of_a_mile(server, browser):
    username = register_api(server, unique_name("miler"))["username"]
    log_in(browser, server, username)
    use_units(browser, server, "mi")
    open_planner_located_at(browser, server, *CENTRE)
    start_is_my_location(browser)
    plan_a_route(browser, "1.5")
    tap(browser, "button", "Start this run")
    by_text(browser, "h1", "Run")
    shown(browser, "button", "Start", timeout=20)
    ready = wait(browser, 20).until(lambda d: next(
        (e.text for e in d.find_elements(By.XPATH, "//main//p[contains(., 'announced')]") if e.is_displayed()), None))
    assert re.fullmatch(r"(1 turn|\d+ turns), each announced 160 ft before\. Tap Start when you are at the start\.", ready), ready

    tap(browser, "button", "Start")
    banner = by_label(browser, "Next instruction")
    wait(browser).until(lambda d: banner.is_displayed() and banner.text.strip())
    assert not re.search(r"\b0\.0\d mi\b", banner.text), banner.text


def test_an_activitys_figures_do_not_overlap_on_a_phone(server, browser):
    username = register_api(server, unique_name("figures"))["username"]
    token = token_of(server, username)
    points = [(CENTRE[0] + i * 0.0002, CENTRE[1]) for i in range(120)]
    save_activity(server, token, points, day=5, name="Long evening run", kind="run", seconds_per_point=40)
    log_in(browser, server, username)
    use_units(browser, server, "km")
    browser.get(f"{server.url}/#/activities/00000000-0000-4000-8000-000000000005")
    by_text(browser, "h2", "Long evening run")
    figures = by_label(browser, "Figures")
    # Where each term's and value's text is drawn (its glyphs, which may spill out of its box).
    boxes = browser.execute_script("""
        return [...arguments[0].querySelectorAll('dt, dd')].map((e) => {
          const range = document.createRange();
          range.selectNodeContents(e);
          const r = range.getBoundingClientRect();
          return { text: e.textContent, left: r.left, top: r.top, right: r.right, bottom: r.bottom };
        });""", figures)
    assert len(boxes) >= 10 and any(re.fullmatch(r"\d:\d\d:\d\d", b["text"]) for b in boxes), boxes
    width = browser.execute_script("return document.documentElement.clientWidth")
    for i, a in enumerate(boxes):
        assert 0 <= a["left"] and a["right"] <= width, a
        for b in boxes[i + 1:]:
            apart = a["right"] <= b["left"] + 0.5 or b["right"] <= a["left"] + 0.5 or a["bottom"] <= b["top"] + 0.5 or b["bottom"] <= a["top"] + 0.5
            assert apart, (a, b)


def test_the_run_screen_without_a_chosen_route_leads_to_the_planner(server, browser):
    browser.get(f"{server.url}/#/activities/run")
    by_text(browser, "h1", "Run")
    tap(browser, "a", "Plan a run")
    by_text(browser, "h1", "Run Planner")


def fetch_text(browser, url):
    """The body of `url` fetched by the page, with its session (as the download link would)."""
    return browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch(arguments[0], { credentials: 'same-origin' }).then((r) => r.text()).then(done, (e) => done(String(e)));", url)


def test_the_privacy_zone_trims_what_others_see_of_a_run_from_home(server, browser):
    username = register_api(server, unique_name("private"))["username"]
    token = token_of(server, username)
    # A run from home 1.2 km north and back (home is the first point).
    home = CENTRE
    out = [(home[0] + i * 0.0001, home[1]) for i in range(109)]
    run = save_activity(server, token, out + out[-2::-1], day=3, name="Out from home", kind="run", seconds_per_point=3)

    log_in(browser, server, username)
    use_units(browser, server, "km")
    set_location_permission(browser, server.url, "granted")
    set_geolocation(browser, *home)
    browser.get(f"{server.url}/#/activities")
    by_text(browser, "h1", "My Activities")
    shown(browser, "p", "Off: your tracks are shown whole.")
    Select(by_label(browser, "Hide around home")).select_by_value("500")
    tap(browser, "button", "Save privacy zone")
    shown(browser, "p", "On: 500 m around your home.")

    browser.get(f"{server.url}/#/activities/{run['id']}")
    by_text(browser, "h2", "Out from home")
    owner_gpx = gpx_points(fetch_text(browser, browser.find_element(By.XPATH, "//a[normalize-space()='Download GPX']").get_attribute("href")))
    assert distance_m(owner_gpx[0], home) < 5 and distance_m(owner_gpx[-1], home) < 5, "the owner sees it whole"

    tap(browser, "button", "As others see it")
    shown(browser, "p", "As others see it: the start and end within your privacy zone are hidden.")
    assert browser.find_element(By.XPATH, "//button[normalize-space()='As others see it']").get_attribute("aria-pressed") == "true"
    link = browser.find_element(By.XPATH, "//a[normalize-space()='Download GPX as others see it']")
    public_gpx = gpx_points(fetch_text(browser, link.get_attribute("href")))
    assert public_gpx and len(public_gpx) < len(owner_gpx)
    # Cut a little beyond the circle (up to half the radius more): both ends outside it, the far end kept.
    for end in (public_gpx[0], public_gpx[-1]):
        assert 500 <= distance_m(end, home) <= 760, distance_m(end, home)
    assert max(distance_m(p, home) for p in public_gpx) > 1150
    image = browser.find_element(By.XPATH, "//img[@alt='Route of Out from home as others see it']")
    assert "visibility=public" in image.get_attribute("src")
    wait(browser, 15).until(lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", image))

    # Back to the owner's view.
    tap(browser, "button", "As others see it")
    shown(browser, "a", "Download GPX")
