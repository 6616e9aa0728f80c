"""The alpine field guide (issue 17): the guide and its exclusive filters, "No Flora Found", species pages,
an observation recorded offline that survives a reload and is uploaded exactly once, researchers'
verification, the sightings map (blue and red pins, distance line, photo in range), the Darwin Core
export read by a real Darwin Core reader, "Wi-Fi only" on a mobile network, and the CSV import screen."""

import base64
import re
import struct
import urllib.request
import zlib
import zipfile

import pytest
from accounts import log_in, register_api, shown, tap
from conftest import Server, by_label, by_text, dialog, set_geolocation, set_location_permission, set_offline, \
    small_tap_targets, unique_name, wait
from runs_helpers import token_of
from selenium.webdriver.common.by import By

SADDLE = (40.0552, -105.5905)


@pytest.fixture(scope="module")
def flora_server():
    """One server with the demo field guide loaded (`cairn seed-demo`)."""
    running = Server(seed_demo=True, streets=False)
    yield running
    running.cleanup()


def plants_listed(browser):
    return browser.find_elements(By.XPATH, "//ul[@aria-label='Plants']/li")


def open_guide(browser, server):
    browser.get(f"{server.url}/#/flora")
    by_text(browser, "h1", "Field Guide")
    wait(browser, 15).until(lambda d: len(plants_listed(d)) > 0)


def choice(sheet, label_start):
    """The radio or checkbox whose label starts with `label_start` (labels end with a count)."""
    return sheet.find_element(By.XPATH, f".//label[starts-with(normalize-space(), '{label_start} (')]")


def test_the_exclusive_filter_comes_first_narrows_the_menu_and_no_flora_found_shows(flora_server, browser):
    open_guide(browser, flora_server)
    assert by_text(browser, "p", "98 plants")
    assert small_tap_targets(browser) == []

    tap(browser, "button", "Filters")
    sheet = dialog(browser, "Filters")
    assert sheet.find_elements(By.XPATH, ".//legend[normalize-space()='Flower colour']")
    choice(sheet, "Grasses, sedges and rushes").click()

    wait(browser).until(lambda d: not sheet.find_elements(By.XPATH, ".//legend[normalize-space()='Flower colour']"))
    assert sheet.find_elements(By.XPATH, ".//legend[normalize-space()='Habitat']")
    assert small_tap_targets(browser) == []
    grasses = len(plants_listed(browser))
    assert 10 <= grasses < 98
    choice(sheet, "Talus and scree").click()
    wait(browser).until(lambda d: sheet.find_element(By.XPATH, ".//button[normalize-space()='No Flora Found']"))
    tap(browser, "button", "No Flora Found")

    shown(browser, "p", "No Flora Found")
    assert plants_listed(browser) == []
    tap(browser, "button", "Filters (2)")
    sheet = dialog(browser, "Filters")
    tap(browser, "button", "Clear filters")
    wait(browser).until(lambda d: len(plants_listed(d)) == 98)


def test_a_species_page_has_its_facts_and_the_three_buttons(flora_server, browser):
    open_guide(browser, flora_server)
    link = wait(browser).until(lambda d: d.find_element(By.XPATH, "//a[.//span[normalize-space()='Moss campion']]"))
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", link)
    link.click()

    by_text(browser, "h2", "Moss campion")
    assert by_text(browser, "i", "Silene acaulis")
    assert by_text(browser, "dd", "Caryophyllaceae")
    assert by_text(browser, "a", "Upload a sighting")
    assert by_text(browser, "a", "View sightings map")
    assert by_text(browser, "figcaption", "Illustration of the plant group, not a photograph of this species.")
    assert small_tap_targets(browser) == []
    tap(browser, "button", "Back")
    by_text(browser, "h1", "Field Guide")


def png_file(tmp_path):
    """A 64 × 48 PNG, as a phone camera roll might hold."""
    width, height = 64, 48
    rows = b"".join(
        b"\x00" + b"".join(bytes((x * 4 % 256, y * 5 % 256, 120)) for x in range(width)) for y in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    data = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
    path = tmp_path / "campion.png"
    path.write_bytes(data)
    return path


def observations_of(server, token):
    status, body, _ = server.api("GET", "/api/flora/observations", headers={"Authorization": f"Bearer {token}"})
    assert status == 200, body
    return body["observations"]


def test_an_observation_recorded_offline_survives_a_reload_and_is_uploaded_once(flora_server, browser, tmp_path):
    username = register_api(flora_server, unique_name("botanist"))["username"]
    token = token_of(flora_server, username)
    set_location_permission(browser, flora_server.url, "granted")
    set_geolocation(browser, *SADDLE, accuracy=6)
    browser.get(flora_server.url)
    by_text(browser, "h1", "Home")
    wait(browser, 20).until(lambda d: d.execute_script("return navigator.serviceWorker.controller !== null"))
    log_in(browser, flora_server, username)
    open_guide(browser, flora_server)

    set_offline(browser, True)
    browser.get(f"{flora_server.url}/#/flora/record?species=silene-acaulis")
    by_text(browser, "h1", "Record a Sighting")
    shown(browser, "strong", "Moss campion")
    browser.find_element(By.CSS_SELECTOR, "input[type=file]").send_keys(str(png_file(tmp_path)))
    shown(browser, "p", "Is this photo good?")
    tap(browser, "button", "Use this photo")
    tap(browser, "button", "Use my GPS position")
    wait(browser).until(lambda d: "40.05520, -105.59050" in d.find_element(By.XPATH, "//p[@role='status' and contains(., '40.0')]").text)
    by_label(browser, "Comment").send_keys("Three cushions in flower")
    assert small_tap_targets(browser) == []
    tap(browser, "button", "Save observation")

    by_text(browser, "h1", "Sync Status")
    wait(browser, 15).until(lambda d: "Pending" in d.find_element(By.XPATH, "//ul[@aria-label='My observations']").text)
    browser.refresh()
    by_text(browser, "h1", "Sync Status")
    wait(browser, 15).until(lambda d: "Pending" in d.find_element(By.XPATH, "//ul[@aria-label='My observations']").text)
    assert observations_of(flora_server, token) == []

    set_offline(browser, False)

    wait(browser, 30).until(lambda d: "Synced, waiting for a researcher" in d.find_element(By.XPATH, "//ul[@aria-label='My observations']").text)
    stored = observations_of(flora_server, token)
    assert len(stored) == 1
    assert stored[0]["species_id"] == "silene-acaulis"
    assert stored[0]["comment"] == "Three cushions in flower"
    assert abs(stored[0]["latitude"] - SADDLE[0]) < 1e-6
    assert stored[0]["photo_url"]
    browser.refresh()
    wait(browser, 15).until(lambda d: "Synced" in d.find_element(By.XPATH, "//ul[@aria-label='My observations']").text)
    assert len(observations_of(flora_server, token)) == 1
    assert "Pending" not in browser.find_element(By.XPATH, "//ul[@aria-label='My observations']").text


def test_a_researcher_verifies_from_the_review_queue(flora_server, browser):
    observer = register_api(flora_server, unique_name("walker"))["username"]
    status, body, _ = flora_server.api(
        "PUT", "/api/flora/observations/3f1c5c9e-5a0b-4d1e-9a51-0a4b7f0e2c11",
        {"species_id": "geum-rossii", "latitude": SADDLE[0], "longitude": SADDLE[1], "accuracy_m": 5,
         "observed_at": "2024-07-14T10:30:00Z", "comment": "Yellow, five petals"},
        headers={"Authorization": f"Bearer {token_of(flora_server, observer)}"})
    assert status == 201, body
    researcher = register_api(flora_server, unique_name("researcher"))["username"]
    flora_server.run_cli("user", "set-role", researcher, "researcher", check=True)
    log_in(browser, flora_server, researcher)

    browser.get(f"{flora_server.url}/#/flora/review")
    by_text(browser, "h1", "Review Observations")
    mine = "//li[.//p[normalize-space()='Yellow, five petals']]"
    verify = wait(browser, 15).until(lambda d: d.find_element(By.XPATH, mine + "//button[normalize-space()='Verify Alpine avens']"))
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", verify)
    verify.click()

    wait(browser, 15).until(lambda d: not d.find_elements(By.XPATH, mine) or None)
    status, observation, _ = flora_server.api("GET", "/api/flora/observations/3f1c5c9e-5a0b-4d1e-9a51-0a4b7f0e2c11")
    assert observation["status"] == "verified"


def test_the_darwin_core_export_reads_with_a_darwin_core_reader(flora_server, tmp_path):
    from dwca.read import DwCAReader

    archive = tmp_path / "export.zip"
    with urllib.request.urlopen(f"{flora_server.url}/api/flora/export/dwca.zip", timeout=60) as response:
        archive.write_bytes(response.read())

    with DwCAReader(str(archive)) as dwca:
        rows = list(dwca)
        assert dwca.descriptor.core.type == "http://rs.tdwg.org/dwc/terms/Occurrence"
        assert len(rows) >= 369
        first = rows[0].data
        term = "http://rs.tdwg.org/dwc/terms/"
        assert first[term + "basisOfRecord"] == "HumanObservation"
        assert first[term + "identificationVerificationStatus"] in ("verified", "unverified")
        assert -90 <= float(first[term + "decimalLatitude"]) <= 90
        names = {row.data[term + "scientificName"] for row in rows}
        assert "Silene acaulis" in names
    assert sorted(zipfile.ZipFile(archive).namelist()) == ["eml.xml", "meta.xml", "occurrence.txt"]


def test_a_sightings_map_has_coloured_pins_and_a_tapped_pin_gives_distance_line_and_photo(flora_server, browser,
                                                                                          tmp_path):
    observer = register_api(flora_server, unique_name("mapper"))["username"]
    photo = base64.b64encode(png_file(tmp_path).read_bytes()).decode()
    status, body, _ = flora_server.api(
        "PUT", "/api/flora/observations/5d2b1f7e-2c4a-4b8e-9f3a-1c2d3e4f5a6b",
        {"species_id": "silene-acaulis", "latitude": SADDLE[0], "longitude": SADDLE[1], "accuracy_m": 4,
         "observed_at": "2001-07-14T18:00:00Z", "photo": photo},
        headers={"Authorization": f"Bearer {token_of(flora_server, observer)}"})
    assert status == 201, body
    set_location_permission(browser, flora_server.url, "granted")
    set_geolocation(browser, SADDLE[0] + 0.0005, SADDLE[1], accuracy=5)

    browser.get(f"{flora_server.url}/#/flora/species/silene-acaulis/map")
    by_text(browser, "h1", "Sightings Map")
    pins = wait(browser, 15).until(lambda d: d.find_elements(By.CSS_SELECTOR, "path[data-status]") or None)
    assert {pin.get_attribute("data-status") for pin in pins} == {"verified", "unverified"}
    colours = {pin.get_attribute("data-status"): pin.get_attribute("fill") for pin in pins}
    assert colours == {"verified": "#1d4ed8", "unverified": "#dc2626"}
    mine = browser.find_element(By.XPATH, "//*[name()='path' and contains(@aria-label, '2001')]")
    browser.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", mine)

    wait(browser, 15).until(lambda d: "from you in a straight line" in d.find_element(By.CLASS_NAME, "flora-pin").text)
    assert re.search(r"\b(56 m|0\.03 mi) from you", browser.find_element(By.CLASS_NAME, "flora-pin").text)
    wait(browser, 15).until(lambda d: d.find_elements(By.XPATH, "//img[@alt='Photo of this sighting of Moss campion']"))
    line = browser.find_element(By.CSS_SELECTOR, "path[stroke-dasharray]")
    assert line.get_attribute("d") not in (None, "", "M0 0")


# Desktop Chromium does not say what network it is on (`navigator.connection.type` is undefined, and DevTools'
# network emulation does not set it), so the test plays the phone: `type` reads what the test last set.
PHONE_NETWORK = """
Object.defineProperty(NetworkInformation.prototype, "type", {
  configurable: true, get() { return sessionStorage.getItem("test.connectionType") ?? undefined; } });
"""


def set_connection_type(driver, connection_type):
    """The phone moves to `connection_type` (`cellular`, `wifi`): `navigator.connection` says so and fires
    `change`, as a phone's browser does."""
    driver.execute_script(
        "sessionStorage.setItem('test.connectionType', arguments[0]);"
        "navigator.connection.dispatchEvent(new Event('change'));", connection_type)


def test_wifi_only_holds_an_observation_on_a_mobile_network_and_sends_it_on_wifi(flora_server, browser):
    username = register_api(flora_server, unique_name("ranger"))["username"]
    token = token_of(flora_server, username)
    set_location_permission(browser, flora_server.url, "granted")
    set_geolocation(browser, *SADDLE, accuracy=6)
    browser.get(flora_server.url)
    by_text(browser, "h1", "Home")
    script = browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": PHONE_NETWORK})
    browser.execute_script(PHONE_NETWORK)
    try:
        log_in(browser, flora_server, username)
        set_connection_type(browser, "cellular")
        browser.get(f"{flora_server.url}/#/flora/sync")
        by_text(browser, "h1", "Sync Status")
        tap(browser, "label", "Wi-Fi only")
        assert browser.execute_script("return navigator.connection.type") == "cellular"

        browser.get(f"{flora_server.url}/#/flora/record?species=geum-rossii")
        by_text(browser, "h1", "Record a Sighting")
        tap(browser, "button", "Use my GPS position")
        wait(browser).until(lambda d: "40.05520" in d.find_element(By.XPATH, "//p[@role='status' and contains(., '40.0')]").text)
        by_label(browser, "Comment").send_keys("Avens by the weather station")
        tap(browser, "button", "Save observation")
        by_text(browser, "h1", "Sync Status")
        observations = "//ul[@aria-label='My observations']"
        wait(browser, 15).until(lambda d: "Pending" in d.find_element(By.XPATH, observations).text)
        # Asked to upload now, it still waits: the phone is on a mobile network.
        tap(browser, "button", "Upload now")
        wait(browser, 15).until(lambda d: "Pending" in d.find_element(By.XPATH, observations).text)
        assert observations_of(flora_server, token) == []

        set_connection_type(browser, "wifi")
        wait(browser, 30).until(lambda d: "Synced" in d.find_element(By.XPATH, observations).text)
        stored = observations_of(flora_server, token)
        assert [item["comment"] for item in stored] == ["Avens by the weather station"]
    finally:
        browser.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": script["identifier"]})


SPECIES_HEADER = ("id,scientific_name,common_name,family,group,flower_colors,flowering_months,habitats,"
                  "elevation_min_m,elevation_max_m,sensitive,tags,image,description\n")


def test_a_researcher_imports_species_from_csv_and_a_bad_row_is_reported_by_line(browser, tmp_path):
    server = Server(seed_demo=True, streets=False)
    try:
        researcher = register_api(server, unique_name("curator"))["username"]
        server.run_cli("user", "set-role", researcher, "researcher", check=True)
        log_in(browser, server, researcher)
        bad = tmp_path / "species.csv"
        bad.write_text(SPECIES_HEADER + "silene-exscapa,Silene exscapa,Alpine catchfly,Caryophyllaceae,wildflower,"
                       "pink,7,fellfield,high,4300,,form-cushion,,A pink cushion.\n", encoding="utf-8")
        browser.get(f"{server.url}/#/flora/import")
        by_text(browser, "h1", "Import CSV")
        by_label(browser, "Species (species.csv)").send_keys(str(bad))
        tap(browser, "button", "Import")
        wait(browser, 15).until(lambda d: d.find_elements(
            By.XPATH, "//form//*[normalize-space()='Nothing was imported: 1 problems, listed below.']"))
        problems = browser.find_element(By.XPATH, "//ul[@aria-label='Import problems']").text
        assert "line 2" in problems and "elevation_min_m" in problems, problems
        status, body, _ = server.api("GET", "/api/flora/species/silene-exscapa")
        assert status == 404, body

        good = tmp_path / "good" / "species.csv"
        good.parent.mkdir()
        good.write_text(bad.read_text(encoding="utf-8").replace(",high,", ",3300,"), encoding="utf-8")
        by_label(browser, "Species (species.csv)").send_keys(str(good))
        tap(browser, "button", "Import")
        wait(browser, 15).until(lambda d: d.find_elements(
            By.XPATH, "//form//*[contains(normalize-space(), 'species: 1 new, 0 changed')]"))
        status, body, _ = server.api("GET", "/api/flora/species/silene-exscapa")
        assert status == 200 and body["species"]["common_name"] == "Alpine catchfly", body
    finally:
        server.cleanup()
