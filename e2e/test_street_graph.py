"""`cairn graph import` and `cairn graph route` on the real Helsinki extract, checked against an independent
computation: libosmium (pyosmium) reads the same file, the same walkable rule (docs/streets.md) picks the
ways, and networkx finds shortest paths over haversine segment lengths."""

import json
import math
import random
import subprocess
import tempfile
from pathlib import Path

import networkx
import osmium
import pytest

from conftest import CAIRN, ROOT
from test_cli import one_clear_line, run

HELSINKI = ROOT / "var" / "osm" / "Helsinki.osm.pbf"
EARTH_RADIUS_M = 6_371_008.8

FOOT_GRANTS = {"yes", "designated", "permissive"}
FOOT_FORBIDS = {"no", "private", "use_sidepath"}
CLASSES = {"footway", "path", "pedestrian", "steps", "cycleway", "track", "bridleway", "corridor", "platform",
           "living_street", "residential", "service", "unclassified", "road", "tertiary", "secondary",
           "primary", "trunk"}
AREA_CLASSES = {"pedestrian", "footway", "path", "platform", "corridor"}


def walkable(tags):
    """docs/streets.md, "Walkable ways", written again from the document."""
    highway = tags.get("highway")
    if highway is not None:
        highway = highway[:-5] if highway.endswith("_link") else highway
        highway = "path" if highway == "trail" else highway
        if highway not in CLASSES:
            return False
    elif tags.get("railway") == "platform" or tags.get("public_transport") == "platform":
        highway = "platform"
    else:
        return False
    foot = tags.get("foot")
    granted = foot in FOOT_GRANTS
    if foot in FOOT_FORBIDS:
        return False
    if tags.get("access") in {"no", "private"} and not granted:
        return False
    if tags.get("motorroad") == "yes" and not granted:
        return False
    sidewalk = any(tags.get(key) in {"yes", "both", "left", "right"}
                   for key in ("sidewalk", "sidewalk:both", "sidewalk:left", "sidewalk:right"))
    if highway == "trunk" and not granted and not sidewalk:
        return False
    if tags.get("area") == "yes" and highway not in AREA_CLASSES:
        return False
    return True


def haversine(a, b):
    (lat1, lon1), (lat2, lon2) = a, b
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * EARTH_RADIUS_M * math.asin(min(1, math.sqrt(h)))


@pytest.fixture(scope="module")
def helsinki():
    assert HELSINKI.exists(), f"{HELSINKI} is missing: run `make demo-data`"
    return HELSINKI


@pytest.fixture(scope="module")
def reference_graph(helsinki):
    """The walkable network as networkx sees it: OSM nodes joined by every way segment (ways that share
    nodes give parallel edges, as in our graph), largest component only."""
    ways = []
    for way in osmium.FileProcessor(str(helsinki), osmium.osm.WAY):
        tags = {tag.k: tag.v for tag in way.tags}
        if len(way.nodes) >= 2 and walkable(tags):
            ways.append([node.ref for node in way.nodes])
    needed = {ref for refs in ways for ref in refs}
    where = {node.id: (node.location.lat, node.location.lon)
             for node in osmium.FileProcessor(str(helsinki), osmium.osm.NODE) if node.id in needed}
    graph = networkx.MultiGraph()
    for refs in ways:
        for a, b in zip(refs, refs[1:]):
            if a in where and b in where and a != b:
                graph.add_edge(a, b, length=haversine(where[a], where[b]))
    largest = max(networkx.connected_components(graph), key=len)
    return graph.subgraph(largest).copy(), where


@pytest.fixture(scope="module")
def imported(helsinki):
    out = Path(tempfile.mkdtemp(prefix="cairn-graph-")) / "helsinki.cairngraph"
    result = run("graph", "import", str(helsinki), "--out", str(out), "--json")
    assert result.returncode == 0, result.stderr
    return out, json.loads(result.stdout)


def test_import_reports_the_network_it_wrote(imported):
    out, report = imported
    summary = report["summary"]

    assert out.exists() and out.read_bytes()[:8] == b"CAIRNGPH"
    assert summary["source"] == "Helsinki.osm.pbf"
    assert summary["edges"] == 5307 and summary["nodes"] == 3772
    assert summary["sheltered_edges"] == 327
    assert summary["landmarks"] == 125
    assert 115 < summary["walkable_km"] < 116
    assert report["seconds"] < 10


def test_walkable_length_matches_the_independent_network(imported, reference_graph):
    graph, _ = reference_graph
    reference_km = sum(data["length"] for _, _, data in graph.edges(data=True)) / 1000

    summary = imported[1]["summary"]

    assert abs(summary["walkable_km"] - reference_km) < 1e-4 * reference_km


def test_routes_match_networkx_shortest_paths(imported, reference_graph):
    out, _ = imported
    graph, where = reference_graph
    junctions = sorted(node for node in graph.nodes if graph.degree(node) >= 3)
    pairs = random.Random(42).sample([(a, b) for a in junctions[::37] for b in junctions[::41] if a != b], 12)

    for a, b in pairs:
        expected = networkx.shortest_path_length(graph, a, b, weight="length")
        result = run("graph", "route", "--graph", str(out),
                     "--from", "{},{}".format(*where[a]), "--to", "{},{}".format(*where[b]))
        assert result.returncode == 0, result.stderr
        route = json.loads(result.stdout)

        assert abs(route["length_m"] - expected) < max(0.5, 1e-4 * expected), (a, b)
        line = route["geometry"]
        assert line["type"] == "LineString"
        assert line["coordinates"][0] == pytest.approx([where[a][1], where[a][0]], abs=1e-6)
        assert line["coordinates"][-1] == pytest.approx([where[b][1], where[b][0]], abs=1e-6)
        drawn = sum(haversine((p[1], p[0]), (q[1], q[0]))
                    for p, q in zip(line["coordinates"], line["coordinates"][1:]))
        assert abs(drawn - route["length_m"]) < 1


def test_xml_and_pbf_of_the_same_extract_import_alike(helsinki, imported, tmp_path):
    xml = tmp_path / "Helsinki.osm"
    with osmium.SimpleWriter(str(xml)) as writer:
        for element in osmium.FileProcessor(str(helsinki)):
            writer.add(element)

    result = run("graph", "import", str(xml), "--out", str(tmp_path / "from-xml.cairngraph"), "--json")

    assert result.returncode == 0, result.stderr
    from_xml = json.loads(result.stdout)["summary"]
    from_pbf = dict(imported[1]["summary"], source="Helsinki.osm")
    assert from_xml == from_pbf


@pytest.mark.parametrize("name, content, message", [
    ("map.png", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR", "is not an OpenStreetMap extract (it looks like a PNG image)"),
    ("notes.txt", b"just some notes\n", "is not an OpenStreetMap extract (it looks like a text file)"),
    ("empty.osm.pbf", b"", "is not an OpenStreetMap extract (the file is empty)"),
])
def test_wrong_file_type_is_one_clear_line_and_writes_nothing(tmp_path, name, content, message):
    bad = tmp_path / name
    bad.write_bytes(content)
    out = tmp_path / "out.cairngraph"

    line = one_clear_line(run("graph", "import", str(bad), "--out", str(out)))

    assert str(bad) in line and message in line
    assert list(tmp_path.iterdir()) == [bad]


def test_truncated_extract_is_one_clear_line_and_keeps_the_old_graph(helsinki, imported, tmp_path):
    cut = tmp_path / "cut.osm.pbf"
    cut.write_bytes(helsinki.read_bytes()[:300_000])
    out = tmp_path / "graph.cairngraph"
    out.write_bytes(imported[0].read_bytes())

    line = one_clear_line(run("graph", "import", str(cut), "--out", str(out)))

    assert f"{cut} is truncated" in line
    assert out.read_bytes() == imported[0].read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cut.osm.pbf", "graph.cairngraph"]


def test_extract_without_walkable_ways_is_one_clear_line(tmp_path):
    xml = tmp_path / "lake.osm"
    xml.write_text('<?xml version="1.0"?>\n<osm version="0.6">\n'
                   '  <node id="1" lat="60.1" lon="24.9"/><node id="2" lat="60.2" lon="24.9"/>\n'
                   '  <way id="1"><nd ref="1"/><nd ref="2"/><tag k="natural" v="coastline"/></way>\n</osm>\n')

    line = one_clear_line(run("graph", "import", str(xml), "--out", str(tmp_path / "g.cairngraph")))

    assert f"{xml} has no walkable ways" in line


def test_route_on_a_damaged_graph_is_one_clear_line(imported, tmp_path):
    damaged = tmp_path / "damaged.cairngraph"
    data = bytearray(imported[0].read_bytes())
    data[len(data) // 2] ^= 0xFF
    damaged.write_bytes(bytes(data))

    line = one_clear_line(run("graph", "route", "--graph", str(damaged), "--from", "60.17,24.94",
                              "--to", "60.168,24.95"))

    assert f"graph {damaged} is corrupt" in line and "fails its checksum" in line


def test_route_from_far_away_is_one_clear_line(imported):
    line = one_clear_line(run("graph", "route", "--graph", str(imported[0]), "--from", "61.5,23.7",
                              "--to", "60.168,24.95"))

    assert "no walkable path near this point (61.5,23.7)" in line and "within 500 m" in line


def test_landmarks_near_a_point_are_named_osm_features_nearest_first(helsinki, imported):
    senate_square = (60.1703, 24.9522)
    result = run("graph", "landmarks", "--graph", str(imported[0]), "--near", "60.1703,24.9522", "--radius-m", "300")
    assert result.returncode == 0, result.stderr

    landmarks = json.loads(result.stdout)
    assert landmarks[0]["name"] == "Helsingin tuomiokirkko" and landmarks[0]["id"] == "w419479428"
    distances = [landmark["distance_m"] for landmark in landmarks]
    assert distances == sorted(distances) and distances[-1] <= 300
    for landmark in landmarks:
        assert abs(haversine(senate_square, (landmark["lat"], landmark["lon"])) - landmark["distance_m"]) < 0.2
    named = {f"n{node.id}": node.tags.get("name") for node in osmium.FileProcessor(str(helsinki), osmium.osm.NODE)
             if "name" in node.tags}
    for landmark in landmarks:
        if landmark["id"].startswith("n"):
            assert named[landmark["id"]] == landmark["name"]
    museums = {f"n{node.id}" for node in osmium.FileProcessor(str(helsinki), osmium.osm.NODE)
               if node.tags.get("tourism") == "museum" and "name" in node.tags
               and haversine(senate_square, (node.location.lat, node.location.lon)) <= 300}
    assert museums and museums <= {landmark["id"] for landmark in landmarks}


def test_landmarks_need_a_positive_radius(imported):
    result = run("graph", "landmarks", "--graph", str(imported[0]), "--near", "60.17,24.95", "--radius-m", "0")

    assert result.returncode != 0
    assert result.stderr.splitlines()[0] == "Error: --radius-m must be positive"
