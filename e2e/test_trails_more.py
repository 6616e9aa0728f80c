"""Trails, the rest of issue 20 at 390×844: an admin edits a trail in the web editor (errors next to their fields,
then saved through the admin PATCH) and adds a waterfall, which the trail map's Waterfalls overlay then shows — a
tap names it and opens its trail, and the choice stays after a reload; an admin uploads a GPX file (a file with no
track refused next to the file field) while a hiker sees no Edit; Directions draws the walking route from the
person's position to the trailhead on the street network, or says why it cannot; and an admin chooses a trailhead
photo and a point of interest's photo in the editor, which a hiker then sees on the card, the trail page and the
Points of Interest screen.
The catalogue is the real Helsinki extract imported by `cairn trails import --demo`, as `make run` does."""

import struct
import tempfile
import zlib
from pathlib import Path

import pytest
from accounts import field_error, log_in, register_api, shown, tap
from conftest import (OSM_DIR, Server, by_label, by_text, set_geolocation, set_location_permission,
                      small_tap_targets, unique_name, wait, xpath_literal)
from selenium.webdriver.common.by import By


@pytest.fixture(scope="module")
def trails_server():
    """One server with the Helsinki extract's trails (demo facts) imported through the command line."""
    running = Server()
    running.run_cli("trails", "import", str(OSM_DIR / "Helsinki.osm.pbf"), "--demo", "--region", "Uusimaa", check=True)
    yield running
    running.cleanup()


def catalogue(server):
    status, body, _ = server.api("GET", "/api/trails?limit=100")
    assert status == 200
    return body["trails"]


def admin(server, browser):
    keeper = register_api(server, unique_name("keeper"))["username"]
    server.run_cli("user", "set-role", keeper, "admin", check=True)
    log_in(browser, server, keeper)


def in_fieldset(browser, legend, label):
    """The control labelled `label` inside the fieldset whose legend is `legend`."""
    fieldset = f"//fieldset[legend[normalize-space()={xpath_literal(legend)}]]"
    return wait(browser).until(lambda d: d.find_element(
        By.XPATH, f"{fieldset}//*[@id={fieldset}//label[normalize-space()={xpath_literal(label)}]/@for]"))


def error_of(browser, control):
    error = browser.find_element(By.ID, control.get_attribute("aria-describedby").split()[0])
    wait(browser).until(lambda d: error.text.strip() != "")
    assert control.get_attribute("aria-invalid") == "true"
    return error.text


def replace(control, text):
    control.clear()
    control.send_keys(text)


def test_an_admin_edits_a_trail_adds_a_waterfall_and_the_map_overlay_shows_it(trails_server, browser):
    trail = catalogue(trails_server)[0]
    head = trail["trailhead"]
    falls = {"lat": round(head["lat"] + 0.0004, 6), "lon": round(head["lon"] + 0.0004, 6)}
    admin(trails_server, browser)

    browser.get(f"{trails_server.url}/#/trails/{trail['id']}")
    by_text(browser, "h2", "General Information")
    tap(browser, "a", "Edit")
    by_text(browser, "h1", f"Edit {trail['name']}")
    name = by_label(browser, "Name")
    assert name.get_attribute("value") == trail["name"]
    replace(name, "")
    replace(by_label(browser, "Admission fees"), "Free for everyone.")
    tap(browser, "button", "Add a point of interest")
    poi_fieldsets = browser.find_elements(By.XPATH, "//fieldset[starts-with(legend, 'Point of interest')]")
    poi = f"Point of interest {len(poi_fieldsets)}"
    replace(in_fieldset(browser, poi, "Name"), "Kappeli falls")
    kind = in_fieldset(browser, poi, "Kind")
    kind.find_element(By.XPATH, "./option[normalize-space()='Waterfall']").click()
    replace(in_fieldset(browser, poi, "Latitude"), "95")
    replace(in_fieldset(browser, poi, "Longitude"), str(falls["lon"]))
    tap(browser, "button", "Save trail")
    assert "name" in field_error(browser, "Name").lower()
    assert "latitude" in error_of(browser, in_fieldset(browser, poi, "Latitude")).lower()
    assert small_tap_targets(browser) == []

    replace(by_label(browser, "Name"), "Old church park walk")
    replace(in_fieldset(browser, poi, "Latitude"), str(falls["lat"]))
    tap(browser, "button", "Save trail")
    shown(browser, "div", "Old church park walk is saved.")
    tap(browser, "a", "Back to the trail page")
    by_text(browser, "h1", "Old church park walk")
    tap(browser, "a", "Additional Information")
    by_text(browser, "dd", "Free for everyone.")

    browser.get(f"{trails_server.url}/#/trails/map?lat={falls['lat']}&lon={falls['lon']}")
    by_text(browser, "h1", "Trail Map")
    assert not browser.find_elements(By.XPATH, "//*[@aria-label='Waterfall: Kappeli falls']")
    tap(browser, "button", "Filters")
    sheet = wait(browser).until(lambda d: d.find_element(By.XPATH, "//dialog[@open]"))
    assert sheet.find_element(By.XPATH, ".//label[contains(., 'Scenic overlooks')]//input[@role='switch']")
    assert small_tap_targets(browser) == []
    sheet.find_element(By.XPATH, ".//label[contains(., 'Waterfalls')]").click()
    tap(browser, "button", "Show trails")
    icon = by_label(browser, "Waterfall: Kappeli falls", timeout=15)
    icon.click()
    popup = wait(browser).until(lambda d: next((p for p in d.find_elements(By.CSS_SELECTOR, ".poi-popup")
                                                if "Kappeli falls" in p.text), None))
    assert "Waterfall on Old church park walk" in popup.text

    browser.refresh()
    by_label(browser, "Waterfall: Kappeli falls", timeout=15)
    shown(browser, "button", "Filters (1)")
    by_label(browser, "Waterfall: Kappeli falls").click()
    tap(browser, "a", "Open Old church park walk")
    by_text(browser, "h1", "Old church park walk")

    browser.get(f"{trails_server.url}/#/trails/legend")
    by_text(browser, "h1", "Map Legend")
    by_text(browser, "li", "≋ Waterfall (Waterfalls in Filters)")
    by_text(browser, "li", "◉ Scenic overlook (Scenic overlooks in Filters)")


def test_an_admin_uploads_a_gpx_file_and_a_hiker_sees_no_edit(trails_server, browser):
    folder = Path(tempfile.mkdtemp(prefix="cairn-trail-upload-"))
    empty = folder / "no-track.gpx"
    empty.write_text('<?xml version="1.0"?><gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1">'
                     '<wpt lat="60.17" lon="24.94"><name>Only a point</name></wpt></gpx>')
    good = folder / "harbour.gpx"
    good.write_text('<?xml version="1.0"?><gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1">'
                    '<trk><name>Harbour shore walk</name><trkseg><trkpt lat="60.1670" lon="24.9520"><ele>3</ele></trkpt>'
                    '<trkpt lat="60.1660" lon="24.9560"><ele>5</ele></trkpt><trkpt lat="60.1650" lon="24.9600"><ele>4</ele>'
                    '</trkpt></trkseg></trk></gpx>')
    hiker = register_api(trails_server, unique_name("hiker"))["username"]
    log_in(browser, trails_server, hiker)
    trail = catalogue(trails_server)[1]
    browser.get(f"{trails_server.url}/#/trails/{trail['id']}")
    by_text(browser, "h2", "General Information")
    assert not [a for a in browser.find_elements(By.XPATH, "//a[normalize-space()='Edit']") if a.is_displayed()]
    browser.get(f"{trails_server.url}/#/trails/{trail['id']}/edit")
    by_text(browser, "h2", "For admins")
    browser.get(f"{trails_server.url}/#/trails")
    by_text(browser, "h2", "Suggested Trails")
    assert not browser.find_elements(By.XPATH, "//a[normalize-space()='Add trails']")

    browser.delete_all_cookies()
    browser.execute_script("localStorage.clear(); sessionStorage.clear();")
    browser.refresh()
    admin(trails_server, browser)
    browser.get(f"{trails_server.url}/#/trails")
    tap(browser, "a", "Add trails")
    by_text(browser, "h1", "Add trails")
    file_field = by_label(browser, "GPX or GeoJSON file")
    file_field.send_keys(str(empty))
    tap(browser, "button", "Upload trails")
    assert "no track points" in field_error(browser, "GPX or GeoJSON file", timeout=15)
    file_field.clear()
    file_field.send_keys(str(good))
    by_label(browser, "Fill fees, hours, rangers and safety with demo text (marked as demo)").click()
    tap(browser, "button", "Upload trails")
    shown(browser, "div", "1 new and 0 updated trail from harbour.gpx.", timeout=15)
    assert small_tap_targets(browser) == []
    tap(browser, "a", "Harbour shore walk")
    by_text(browser, "h1", "Harbour shore walk")
    shown(browser, "p", "Demo information: fees, hours, rangers and safety texts on this trail are examples, not the park's.")
    assert any(t["name"] == "Harbour shore walk" for t in catalogue(trails_server))


def test_directions_draw_the_walk_to_the_trailhead_or_say_why_not(trails_server, browser):
    trail = catalogue(trails_server)[0]
    browser.get(f"{trails_server.url}/#/trails/{trail['id']}")
    by_text(browser, "h2", "General Information")
    set_location_permission(browser, trails_server.url, "denied")
    tap(browser, "a", "Directions")
    by_text(browser, "h1", "Directions")
    head = trail["trailhead"]
    assert shown(browser, "a", "Open in your maps app").get_attribute("href").startswith(f"geo:{head['lat']},{head['lon']}")
    wait(browser, 15).until(lambda d: "Your position is unknown" in d.find_element(By.CLASS_NAME, "trail-walk").text)

    # Helsinki's railway station square, on the street network, about a kilometre from the parks' trails.
    set_location_permission(browser, trails_server.url, "granted")
    set_geolocation(browser, 60.17098, 24.94135)
    browser.refresh()
    walk = wait(browser, 20).until(lambda d: d.find_element(By.CLASS_NAME, "trail-walk"))
    wait(browser, 20).until(lambda d: walk.text.startswith("Walking route to the trailhead:"))
    assert "min." in walk.text
    assert browser.find_elements(By.CSS_SELECTOR, "path.walk-line")
    assert small_tap_targets(browser) == []

    # Tampere: far outside the Helsinki street network.
    set_geolocation(browser, 61.4978, 23.7610)
    browser.refresh()
    walk = wait(browser, 20).until(lambda d: d.find_element(By.CLASS_NAME, "trail-walk"))
    wait(browser, 20).until(lambda d: "You are not near a path of our street network" in walk.text)
    assert "away in a straight line" in walk.text
    assert not browser.find_elements(By.CSS_SELECTOR, "path.walk-line")


def png_file(path, width, height, rgb):
    """A plain-colour PNG of `width` × `height`."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = b"".join(b"\x00" + bytes(rgb) * width for _ in range(height))
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                     + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
    return str(path)


def loaded_image(browser, alt, timeout=15):
    """The image described by `alt` once it has loaded: a picture, not a drawing or a broken image. Photos load
    lazily, so each candidate is scrolled into view first, as a person would."""
    return wait(browser, timeout).until(lambda d: next(
        (image for image in d.find_elements(By.XPATH, f"//img[@alt={xpath_literal(alt)}]")
         if d.execute_script("arguments[0].scrollIntoView({block: 'center'});"
                             " return arguments[0].complete && arguments[0].naturalWidth > 0", image)), None))


def photo_input(browser, label):
    return wait(browser).until(lambda d: d.find_element(
        By.XPATH, f"//input[@type='file'][@id=//label[normalize-space()={xpath_literal(label)}]/@for]"))


def test_an_admin_adds_a_trailhead_and_a_poi_photo_and_a_hiker_sees_them(trails_server, browser, tmp_path):
    trail = catalogue(trails_server)[2]
    name, head = trail["name"], trail["trailhead"]
    admin(trails_server, browser)
    browser.get(f"{trails_server.url}/#/trails/{trail['id']}/edit")
    by_text(browser, "h1", f"Edit {name}")
    photo_input(browser, "Choose trailhead photo").send_keys(png_file(tmp_path / "head.png", 800, 600, (40, 120, 60)))
    loaded_image(browser, "The chosen trailhead photo, sent when you save")
    tap(browser, "button", "Add a point of interest")
    number = len(browser.find_elements(By.XPATH, "//fieldset[starts-with(legend, 'Point of interest')]"))
    poi = f"Point of interest {number}"
    replace(in_fieldset(browser, poi, "Name"), "Photo rock")
    replace(in_fieldset(browser, poi, "Latitude"), str(round(head["lat"] + 0.0003, 6)))
    replace(in_fieldset(browser, poi, "Longitude"), str(round(head["lon"] + 0.0003, 6)))
    photo_input(browser, f"Choose photo of point of interest {number}").send_keys(
        png_file(tmp_path / "rock.png", 640, 480, (120, 110, 100)))
    loaded_image(browser, f"The chosen photo of point of interest {number}, sent when you save")
    tap(browser, "button", "Save trail")
    shown(browser, "div", f"{name} is saved.", timeout=15)
    loaded_image(browser, "The trailhead photo")
    loaded_image(browser, f"The photo of point of interest {number}")
    assert small_tap_targets(browser) == []

    browser.delete_all_cookies()
    browser.execute_script("localStorage.clear(); sessionStorage.clear();")
    browser.refresh()
    log_in(browser, trails_server, register_api(trails_server, unique_name("hiker"))["username"])
    browser.get(f"{trails_server.url}/#/trails")
    by_label(browser, "Search trails").send_keys(name)
    tap(browser, "button", "Search")
    card = loaded_image(browser, f"Trailhead of {name}")
    assert card.get_attribute("src").endswith("/thumbnail")
    assert (card.get_attribute("width"), card.get_attribute("height")) == ("96", "96")
    card.click()
    by_text(browser, "h2", "General Information")
    page = loaded_image(browser, f"Trailhead of {name}")
    assert "/api/trails/photos/" in page.get_attribute("src") and not page.get_attribute("src").endswith("/thumbnail")
    tap(browser, "a", "Points of Interest")
    by_text(browser, "h1", "Points of Interest")
    loaded_image(browser, "Photo rock")
