"""Trails (issue 20): Browse with Suggested Trails and cards, search, a trail's page with its weather, facts and
sub-pages, the favourite star and Favorites, the scavenger hunt's checkboxes kept after a reload, and the trail
map: lines by difficulty, search by trail name, the legend, and a two-second press on a line opening its trail.
The catalogue is the real Helsinki extract imported by `cairn trails import --demo`, as `make run` does."""

import pytest
from accounts import log_in, register_api, shown, tap
from conftest import OSM_DIR, Server, by_label, by_text, small_tap_targets, unique_name, wait
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.by import By


@pytest.fixture(scope="module")
def trails_server():
    """One server with the Helsinki extract's trails (demo facts) imported through the command line."""
    running = Server()
    result = running.run_cli("trails", "import", str(OSM_DIR / "Helsinki.osm.pbf"), "--demo", "--region", "Uusimaa",
                             check=True)
    assert "created" in result.stdout
    yield running
    running.cleanup()


def catalogue(server, query=""):
    status, body, _ = server.api("GET", f"/api/trails?limit=100{query}")
    assert status == 200
    return body["trails"]


def trail_cards(browser, label):
    return browser.find_elements(By.XPATH, f"//*[@aria-label='{label}']/a[contains(@class, 'trail-card')]")


def test_browse_shows_suggested_and_all_trails_and_searches(trails_server, browser):
    trails = catalogue(trails_server)
    assert len(trails) >= 3
    browser.get(f"{trails_server.url}/#/trails")
    by_text(browser, "h1", "Trails")
    by_text(browser, "h2", "Suggested Trails")
    wait(browser, 15).until(lambda d: len(trail_cards(d, "Suggested trails")) == min(5, len(trails)))
    wait(browser, 15).until(lambda d: len(trail_cards(d, "All trails")) == min(20, len(trails)))
    assert small_tap_targets(browser) == []

    name = trails[0]["name"]
    field = by_label(browser, "Search trails")
    field.send_keys(name)
    tap(browser, "button", "Search")
    wait(browser, 15).until(lambda d: trail_cards(d, "All trails")
                            and all(name.lower() in c.text.lower() for c in trail_cards(d, "All trails")))
    trail_cards(browser, "All trails")[0].click()
    by_text(browser, "h2", "General Information")
    by_text(browser, "h2", "Traversal")
    by_text(browser, "h2", "Weather")
    assert shown(browser, "a", "Download GPX").get_attribute("href").endswith(".gpx")
    assert small_tap_targets(browser) == []

    tap(browser, "a", "Safety Guidelines")
    by_text(browser, "h1", "Safety Guidelines")
    by_text(browser, "h3", "European adder (Vipera berus)")
    browser.back()
    tap(browser, "a", "Emergency Contact Information")
    by_text(browser, "h1", "Emergency Contact Information")
    assert browser.find_elements(By.XPATH, "//a[starts-with(@href, 'tel:')]")


def test_the_star_keeps_a_favourite_and_takes_it_away(trails_server, browser):
    username = unique_name("hiker")
    register_api(trails_server, username)
    log_in(browser, trails_server, username)
    trail = catalogue(trails_server)[1]
    browser.get(f"{trails_server.url}/#/trails/{trail['id']}")
    star = by_label(browser, "Favorite")
    assert star.get_attribute("aria-pressed") == "false"
    star.click()
    wait(browser).until(lambda d: by_label(d, "Favorite").get_attribute("aria-pressed") == "true")

    browser.get(f"{trails_server.url}/#/trails/favorites")
    by_text(browser, "h1", "Favorites")
    wait(browser, 15).until(lambda d: [c.find_element(By.CLASS_NAME, "card__title").text for c in trail_cards(d, "Favorite trails")] == [trail["name"]])

    browser.get(f"{trails_server.url}/#/trails/{trail['id']}")
    by_label(browser, "Favorite").click()
    wait(browser).until(lambda d: by_label(d, "Favorite").get_attribute("aria-pressed") == "false")
    browser.get(f"{trails_server.url}/#/trails/favorites")
    by_text(browser, "p", "No favorites yet. Tap the star on a trail's page to keep it here.", timeout=15)


def test_scavenger_checkboxes_are_kept_after_a_reload(trails_server, browser):
    username = unique_name("hunter")
    register_api(trails_server, username)
    log_in(browser, trails_server, username)
    trail = next(t for t in catalogue(trails_server) if t["difficulty"] != "hard")
    browser.get(f"{trails_server.url}/#/trails/{trail['id']}")
    tap(browser, "a", "Scavenger Hunt")
    by_text(browser, "h1", "Scavenger Hunt")
    box = by_label(browser, "Red squirrel — Look up into the spruces; listen for cones being stripped (demo).")
    box.click()
    by_text(browser, "p", "Red squirrel found.")
    browser.refresh()
    wait(browser, 15).until(lambda d: d.find_element(By.ID, "focal-red-squirrel").is_selected())
    assert not browser.find_element(By.ID, "focal-great-tit").is_selected()
    assert small_tap_targets(browser) == []


def test_the_map_finds_a_trail_and_a_long_press_on_its_line_opens_it(trails_server, browser):
    trail = max(catalogue(trails_server), key=lambda t: t["length_meters"])
    trail_id = trail["id"].lower()
    browser.get(f"{trails_server.url}/#/trails/map")
    by_text(browser, "h1", "Trail Map")
    field = by_label(browser, "Search the map")
    field.send_keys(trail["name"])
    tap(browser, "button", "Search")
    by_text(browser, "p", f"{trail['name']}: its trailhead is in the middle of the map.")
    map_element = browser.find_element(By.CSS_SELECTOR, ".map")
    wait(browser, 15).until(lambda d: map_element.get_attribute("data-trails-zoom") == map_element.get_attribute("data-zoom")
                            and d.find_elements(By.CSS_SELECTOR, f"path[data-trail='{trail_id}']"))
    # The map's reload at the trailhead leaves the search's answer in place.
    by_text(browser, "p", f"{trail['name']}: its trailhead is in the middle of the map.")
    def on_the_line():
        """The line's colour as drawn now, and a point of its stroke in the viewport that nothing covers (another
        trail's line or an icon can lie on top of parts of it; read again when the layer redraws the line)."""
        def read(d):
            try:
                line = d.find_element(By.CSS_SELECTOR, f"path[data-trail='{trail_id}']")
                point = d.execute_script("""
                    const path = arguments[0];
                    const length = path.getTotalLength();
                    for (let step = 1; step < 40; step += 1) {
                        const along = path.getPointAtLength(length * ((step * 0.618) % 1));
                        const screen = along.matrixTransform(path.getScreenCTM());
                        if (document.elementFromPoint(screen.x, screen.y) === path) return [screen.x, screen.y];
                    }
                    return null;
                """, line)
                return point and (line.get_attribute("stroke"), *point)
            except StaleElementReferenceException:
                return None
        return wait(browser, 10).until(read)

    def press(x, y, hold=False):
        """A mouse press at a point of the viewport: a click, or a press held until released."""
        action = ActionBuilder(browser)
        action.pointer_action.move_to_location(round(x), round(y)).pointer_down()
        if not hold:
            action.pointer_action.pointer_up()
        action.perform()

    stroke, x, y = on_the_line()
    assert stroke in ("#2e9d44", "#e8c30e", "#f07b12")
    # A short tap does not open the trail; holding two seconds does.
    press(x, y)
    assert "#/trails/map" in browser.current_url
    wait(browser, 15).until(lambda d: map_element.get_attribute("data-trails-zoom") == map_element.get_attribute("data-zoom"))
    _, x, y = on_the_line()
    press(x, y, hold=True)
    wait(browser, 5).until(lambda d: d.current_url.lower().endswith(f"#/trails/{trail_id}"))
    release = ActionBuilder(browser)
    release.pointer_action.pointer_up()
    release.perform()
    by_text(browser, "h2", "General Information")

    browser.get(f"{trails_server.url}/#/trails/legend")
    by_text(browser, "h1", "Map Legend")
    assert by_text(browser, "li", "Hard trail")
