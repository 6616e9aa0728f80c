"""The offline basemap (issue 15): with no tile server and no internet (the browser tests run without either),
every map draws Cairn's own map of the covered area — the sea and Töölönlahti, parks, buildings, streets and
names — shows where the data ends when zoomed out, says so plainly outside it, and draws a visited area with
the network cut."""

import pytest
from conftest import by_label, by_text, dialog, set_location_permission, set_offline, wait
from selenium.webdriver import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

# Known places of the Helsinki extract: Kaisaniemenlahti (a sea bay, from the coastline), Töölönlahti (a lake
# mostly outside the extract, in its north-west corner), Kaisaniemi Park, a block of buildings by Aleksanterinkatu.
SEA = (60.1785, 24.9428)
TOOLONLAHTI = (60.1787, 24.9358)
PARK = (60.1748, 24.9474)
BUILDING = (60.1688, 24.9465)


def the_map(browser):
    return by_label(browser, "Map")


def data(browser, name):
    value = the_map(browser).get_attribute(f"data-{name}")
    return value if value is not None else ""


def number(browser, name):
    value = data(browser, name)
    return int(value) if value.lstrip("-").isdigit() else -1


def open_map(browser, server):
    browser.get(f"{server.url}/#/map")
    set_location_permission(browser, server.url, "prompt")
    browser.refresh()
    dialog(browser, "Use your location?")
    by_text(browser, "button", "Not now").click()
    wait(browser, 20).until(lambda d: number(d, "basemap-tiles") > 0)


def view(browser, lat, lon, zoom):
    """Moves the map (a test hook on the map element), then waits until its tiles and names are drawn."""
    browser.execute_script("arguments[0].basemapProbe.view(arguments[1], arguments[2], arguments[3])",
                           the_map(browser), lat, lon, zoom)
    wait(browser, 20).until(lambda d: data(d, "zoom") == str(zoom) and drawn_at(d, lat, lon))


def drawn_at(browser, lat, lon):
    return browser.execute_script("return arguments[0].basemapProbe.pixel(arguments[1], arguments[2])",
                                  the_map(browser), lat, lon)


def color(browser, token):
    return browser.execute_script("return arguments[0].basemapProbe.color(arguments[1])", the_map(browser), token)


def close_to(pixel, expected, tolerance=6):
    return pixel is not None and all(abs(a - b) <= tolerance for a, b in zip(pixel[:3], expected[:3]))


def mostly(browser, lat, lon, *tokens):
    """Whether most of the pixels within a few metres of the point are drawn in one of the tokens' colours (a
    path or a label may cross the point itself)."""
    colors = [color(browser, token) for token in tokens]
    pixels = [drawn_at(browser, lat + dy * 0.00003, lon + dx * 0.00006) for dy in (-1, 0, 1) for dx in (-1, 0, 1)]
    return sum(any(close_to(pixel, c) for c in colors) for pixel in pixels) >= 5


def test_with_no_tile_server_the_map_draws_water_parks_buildings_and_names(server, browser):
    open_map(browser, server)

    wait(browser, 20).until(lambda d: number(d, "basemap-labels") > 5)
    assert data(browser, "basemap") == "on"
    assert not browser.find_elements(By.CSS_SELECTOR, "img.leaflet-tile"), "no raster tile was asked for"
    assert number(browser, "basemap-water") > 0
    assert number(browser, "basemap-green") > 0
    assert number(browser, "basemap-buildings") > 50
    assert number(browser, "basemap-roads") > 50
    assert "OpenStreetMap" in browser.find_element(By.CSS_SELECTOR, ".leaflet-control-attribution").text

    view(browser, *SEA, 16)
    assert mostly(browser, *SEA, "water"), "Kaisaniemenlahti is sea"
    view(browser, *PARK, 16)
    assert mostly(browser, *PARK, "park", "grass"), "Kaisaniemi Park is green"
    view(browser, *BUILDING, 17)
    assert mostly(browser, *BUILDING, "building"), "the block is built"
    wait(browser, 10).until(lambda d: "Aleksanterinkatu" in data(d, "basemap-names"))
    view(browser, *TOOLONLAHTI, 16)
    assert mostly(browser, *TOOLONLAHTI, "water"), "Töölönlahti, cut by the extract's edge"


def test_the_dark_theme_draws_with_its_own_colours(server, browser):
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    open_map(browser, server)
    view(browser, *SEA, 16)

    water = color(browser, "water")
    assert water[:3] != [169, 210, 238], "not the light theme's water"
    assert sum(water[:3]) < 300, "dark water"
    assert mostly(browser, *SEA, "water")


def zoom_out(browser, steps):
    for _ in range(steps):
        before = data(browser, "zoom")
        wait(browser).until(lambda d: not d.find_elements(By.CSS_SELECTOR, ".leaflet-zoom-anim"))
        by_label(browser, "Zoom out").click()
        wait(browser).until(lambda d: data(d, "zoom") != before)


def test_zooming_out_shows_the_outline_of_the_covered_area(server, browser):
    open_map(browser, server)
    start = number(browser, "coverage-width")

    zoom_out(browser, 3)

    wait(browser, 15).until(lambda d: 0 < number(d, "coverage-width") < start / 4)
    assert data(browser, "coverage") == "inside"
    south, north, west, east = 60.164155, 60.179113, 24.9351762, 24.9534145
    outline = color(browser, "coverage")
    # One pixel at zoom 12 is about 0.00034° of longitude here: each probe looks a pixel either side.
    on_outline = 0
    for edge in (west, east):
        for i in range(1, 20):
            lat = south + (north - south) * i / 20
            pixels = [browser.execute_script(
                "return arguments[0].basemapProbe.pixel(arguments[1], arguments[2], 'labels')",
                the_map(browser), lat, edge + dx * 0.00034) for dx in (-1, 0, 1)]
            on_outline += any(close_to(p, outline, 40) for p in pixels)
    assert on_outline >= 12, "the dashed outline is drawn along the west and east edges"

    zoom_out(browser, 5)
    wait(browser, 15).until(lambda d: "Helsinki map" in data(d, "basemap-names"))


def drag(browser, dx, dy):
    """Drags the map from right of its centre by (dx, dy) pixels, as a finger would."""
    map_element = the_map(browser)
    ActionChains(browser).move_to_element_with_offset(map_element, 150 if dx < 0 else -150, 0).click_and_hold() \
        .move_by_offset(dx // 3, dy // 3).move_by_offset(dx // 3, dy // 3).move_by_offset(dx - 2 * (dx // 3), dy - 2 * (dy // 3)) \
        .release().perform()


def test_panning_outside_the_covered_area_says_so_and_leads_back(server, browser):
    open_map(browser, server)
    notice = "No map data here — this Cairn covers Helsinki."

    for _ in range(5):
        drag(browser, -280, 0)
        if data(browser, "coverage") == "outside":
            break
    wait(browser).until(lambda d: data(d, "coverage") == "outside")

    shown = by_text(browser, "p", notice)
    assert shown.is_displayed()
    by_text(browser, "button", "Show Helsinki").click()
    wait(browser, 15).until(lambda d: data(d, "coverage") == "inside")
    wait(browser).until(lambda d: not d.find_element(By.XPATH, f"//p[normalize-space()='{notice}']").is_displayed())


@pytest.fixture
def offline_capable(browser, server):
    """A browser whose page is controlled by Cairn's service worker (so the shell opens offline)."""
    browser.get(server.url)
    by_text(browser, "h1", "Home")
    wait(browser, 20).until(lambda d: d.execute_script("return navigator.serviceWorker.controller !== null"))
    return browser


def test_a_visited_area_still_draws_with_the_network_cut(server, offline_capable):
    browser = offline_capable
    open_map(browser, server)
    view(browser, *SEA, 16)
    seen = number(browser, "basemap-tiles")

    set_offline(browser, True)
    browser.refresh()
    by_text(browser, "h1", "Map")
    view(browser, *SEA, 16)

    assert number(browser, "basemap-tiles") >= seen // 2
    assert mostly(browser, *SEA, "water")
    assert number(browser, "basemap-buildings") > 0


def test_the_whole_map_can_be_kept_for_offline_use(server, offline_capable):
    browser = offline_capable
    open_map(browser, server)

    by_label(browser, "Keep the map offline").click()
    sheet = dialog(browser, "Keep the map of Helsinki")
    by_text(sheet, "button", "Keep the map").click()
    kept = wait(browser, 60).until(lambda d: next(
        (p for p in d.find_elements(By.XPATH, "//dialog//p[@role='status']") if "is kept on this device" in p.text), None))
    assert "tiles" in kept.text
    ActionChains(browser).send_keys(Keys.ESCAPE).perform()

    set_offline(browser, True)
    # A corner never looked at before, at the deepest zoom of the data.
    view(browser, 60.1785, 24.9525, 16)
    assert number(browser, "basemap-tiles") > 0


def png_tile():
    """A 256 × 256 grey PNG, as a raster tile server sends."""
    import struct
    import zlib

    def chunk(kind, payload):
        return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", zlib.crc32(kind + payload))

    rows = b"".join(b"\x00" + b"\xc8\xc8\xc8" * 256 for _ in range(256))
    header = struct.pack(">IIBBBBB", 256, 256, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


@pytest.fixture
def raster_tiles():
    """A raster tile server on loopback; yields its URL template and how many tiles it served."""
    import http.server
    import threading

    served = []
    body = png_tile()

    class Tiles(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            served.append(self.path)
            self.send_response(200)
            self.send_header("Content-Type", "image/png")
            self.send_header("Access-Control-Allow-Origin", "*")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Tiles)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/{{z}}/{{x}}/{{y}}.png", served
    httpd.shutdown()


def test_online_raster_tiles_draw_on_top_and_bring_their_own_names(start_server, browser, raster_tiles):
    template, served = raster_tiles
    server = start_server(env={"CAIRN_TILE_URL": template})
    open_map(browser, server)

    wait(browser, 20).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "img.leaflet-tile-loaded")) > 0)
    assert served
    wait(browser, 10).until(lambda d: number(d, "basemap-labels") == 0)
    assert number(browser, "basemap-tiles") > 0, "the basemap still draws underneath"


def test_when_the_raster_tile_server_cannot_be_reached_the_basemap_keeps_its_names(start_server, browser):
    from conftest import free_port
    server = start_server(env={"CAIRN_TILE_URL": f"http://127.0.0.1:{free_port()}/{{z}}/{{x}}/{{y}}.png"})
    open_map(browser, server)

    wait(browser, 20).until(lambda d: number(d, "basemap-labels") > 5)


def test_tiles_decode_with_mapbox_s_own_decoder(server):
    """The server's tiles are Mapbox Vector Tiles as another implementation reads them: the layers, classes and
    names the map draws, exterior rings clockwise on screen (the specification's winding)."""
    import gzip
    import json
    import urllib.request

    import mapbox_vector_tile

    with urllib.request.urlopen(f"{server.url}/api/streets/basemap", timeout=30) as response:
        info = json.load(response)
    # The zoom-16 tile of the Market Square and the harbour beside it.
    path = info["tiles"][0].replace("{z}", "16").replace("{x}", "37310").replace("{y}", "18970")
    request = urllib.request.Request(f"{server.url}{path}", headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.headers["Content-Encoding"] == "gzip"
        body = gzip.decompress(response.read())

    tile = mapbox_vector_tile.decode(body, default_options={"y_coord_down": True})

    assert {"water", "building", "road", "poi"} <= set(tile)
    assert all(layer["extent"] == 4096 for layer in tile.values())
    assert any(f["properties"]["class"] == "sea" for f in tile["water"]["features"])
    assert any("name" in f["properties"] for f in tile["road"]["features"])
    assert {f["geometry"]["type"] for f in tile["building"]["features"]} <= {"Polygon", "MultiPolygon"}

    def area(ring):
        return sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(ring, ring[1:] + ring[:1])) / 2

    for layer in ("water", "building", "landuse", "landcover"):
        for feature in tile.get(layer, {}).get("features", []):
            geometry = feature["geometry"]
            polygons = [geometry["coordinates"]] if geometry["type"] == "Polygon" else geometry["coordinates"]
            for rings in polygons:
                assert area(rings[0]) > 0, f"{layer}: an exterior ring runs counter-clockwise"
