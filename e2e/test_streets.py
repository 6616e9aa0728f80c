"""The offline street layer (issue 4): the map opens on the server's street network and draws its walkable
ways, sheltered ones in their own colour, with no tile server at all (the browser tests run without tiles)."""

from conftest import by_label, by_text, dialog, set_location_permission, wait
from selenium.webdriver.common.by import By


def street_features(browser):
    return int(by_label(browser, "Map").get_attribute("data-street-features") or -1)


def open_map_without_location(browser, server):
    browser.get(f"{server.url}/#/map")
    set_location_permission(browser, server.url, "prompt")
    browser.refresh()
    dialog(browser, "Use your location?")
    by_text(browser, "button", "Not now").click()


def test_the_map_opens_on_the_street_network_and_draws_its_ways_without_tiles(server, browser):
    open_map_without_location(browser, server)

    wait(browser, 15).until(lambda d: street_features(d) > 100)
    map_element = by_label(browser, "Map")
    assert int(map_element.get_attribute("data-sheltered-features")) > 0
    assert not browser.find_elements(By.CSS_SELECTOR, "img.leaflet-tile")
    assert browser.find_elements(By.CSS_SELECTOR, ".leaflet-streets-pane canvas")
    legend = by_label(browser, "Map key")
    # The basemap draws the streets and paths; the street layer adds the sheltered ways, which the key names.
    assert "Sheltered way" in legend.text and "Walkable way" not in legend.text
    assert "OpenStreetMap" in browser.find_element(By.CSS_SELECTOR, ".leaflet-control-attribution").text


def zoom(browser, label, steps):
    """Taps Zoom in or Zoom out `steps` times, each once the map has settled at the zoom before."""
    for _ in range(steps):
        before = float(by_label(browser, "Map").get_attribute("data-zoom"))
        wait(browser).until(lambda d: not d.find_elements(By.CSS_SELECTOR, ".leaflet-zoom-anim"))
        by_label(browser, label).click()
        wait(browser).until(lambda d: float(by_label(d, "Map").get_attribute("data-zoom")) != before)


def test_zooming_out_beyond_street_level_hides_the_layer_and_zooming_in_brings_it_back(server, browser):
    open_map_without_location(browser, server)
    wait(browser, 15).until(lambda d: street_features(d) > 100)

    zoom(browser, "Zoom out", 3)
    wait(browser).until(lambda d: street_features(d) == 0)

    zoom(browser, "Zoom in", 2)
    wait(browser).until(lambda d: street_features(d) > 100)


def test_without_a_street_network_the_map_still_works(start_server, browser):
    server = start_server(streets=False)
    open_map_without_location(browser, server)

    map_element = by_label(browser, "Map")
    wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".leaflet-control-zoom"))
    assert map_element.get_attribute("data-street-features") is None
    assert not browser.find_elements(By.CSS_SELECTOR, "[aria-label='Map key']")


def test_the_layer_travels_gzipped_to_clients_that_accept_it(server):
    import gzip
    import json
    import urllib.request

    request = urllib.request.Request(f"{server.url}/api/streets/layer?bbox=24.935,60.165,24.950,60.172",
                                     headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(request, timeout=30) as response:
        body = response.read()
        assert response.headers["Content-Encoding"] == "gzip"
    layer = json.loads(gzip.decompress(body))
    assert layer["type"] == "FeatureCollection" and len(layer["features"]) > 200
    assert len(body) * 4 < len(gzip.decompress(body))
