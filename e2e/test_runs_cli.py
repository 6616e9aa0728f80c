"""`cairn runs plan` on the Helsinki extract (run-route-planner 5): three closed loops within ±0.5 km of the
distance, through the landmark when one is given; errors as one clear line."""

import json
import math

import pytest

from conftest import helsinki_graph
from test_cli import one_clear_line, run

EARTH_RADIUS_M = 6_371_008.8
CENTRE = "60.1699,24.9384"


def haversine(a, b):
    (lon1, lat1), (lon2, lat2) = a, b
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * EARTH_RADIUS_M * math.asin(min(1, math.sqrt(h)))


def path_length(coordinates):
    return sum(haversine(a, b) for a, b in zip(coordinates, coordinates[1:]))


def distance_to_line(point, coordinates):
    """Metres from a [lon, lat] point to the nearest point of a polyline (local flat projection)."""
    lon0, lat0 = point
    scale = math.cos(math.radians(lat0))

    def flat(p):
        return (math.radians(p[0] - lon0) * scale * EARTH_RADIUS_M, math.radians(p[1] - lat0) * EARTH_RADIUS_M)

    best = math.inf
    for a, b in zip(coordinates, coordinates[1:]):
        (ax, ay), (bx, by) = flat(a), flat(b)
        dx, dy = bx - ax, by - ay
        t = 0 if dx == dy == 0 else max(0, min(1, -(ax * dx + ay * dy) / (dx * dx + dy * dy)))
        best = min(best, math.hypot(ax + t * dx, ay + t * dy))
    return best


@pytest.fixture(scope="module")
def graph():
    return str(helsinki_graph())


def plan(graph, *args):
    result = run("runs", "plan", "--graph", graph, *args)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_three_closed_loops_within_half_a_kilometre_of_the_distance(graph):
    body = plan(graph, "--start", CENTRE, "--km", "3", "--seed", "1")

    routes = body["routes"]
    assert len(routes) == 3 and "shortfall" not in body
    start = [body["start"]["lon"], body["start"]["lat"]]
    assert haversine(start, [24.9384, 60.1699]) < 250
    for route in routes:
        line = route["geometry"]
        assert line["type"] == "LineString"
        coordinates = line["coordinates"]
        assert coordinates[0] == start and coordinates[-1] == start
        assert abs(route["length_m"] - 3000) <= 500
        assert abs(path_length(coordinates) - route["length_m"]) <= 0.01 * route["length_m"]
        assert 0 <= route["sheltered_m"] <= route["length_m"]
    assert len({json.dumps(route["geometry"]) for route in routes}) == 3


def test_every_loop_passes_the_landmark_snapped_to_the_network(graph):
    landmarks = json.loads(run("graph", "landmarks", "--graph", graph, "--near", CENTRE, "--radius-m", "700").stdout)
    landmark = next(item for item in landmarks if item["distance_m"] > 300)

    body = plan(graph, "--start", CENTRE, "--km", "4", "--landmark", f"{landmark['lat']},{landmark['lon']}",
                "--seed", "2")

    assert body["routes"]
    point = [landmark["lon"], landmark["lat"]]
    misses = [distance_to_line(point, route["geometry"]["coordinates"]) for route in body["routes"]]
    # Each loop passes the walkable point nearest to the landmark, so each comes equally close to it.
    assert max(misses) - min(misses) < 1, misses
    assert max(misses) < 250
    for route in body["routes"]:
        assert abs(route["length_m"] - 4000) <= 500


def test_shelter_mode_runs_at_least_as_much_under_a_roof(graph):
    standard = plan(graph, "--start", CENTRE, "--km", "3", "--seed", "3")
    sheltered = plan(graph, "--start", CENTRE, "--km", "3", "--seed", "3", "--sheltered")

    def mean_share(body):
        return sum(r["sheltered_m"] / r["length_m"] for r in body["routes"]) / len(body["routes"])

    assert sheltered["sheltered"] and not standard["sheltered"]
    assert mean_share(sheltered) >= mean_share(standard)
    assert mean_share(sheltered) > 0


@pytest.mark.parametrize("km", ["0", "31", "abc", "30.5"])
def test_a_distance_outside_one_to_thirty_is_one_clear_line(graph, km):
    line = one_clear_line(run("runs", "plan", "--graph", graph, "--start", CENTRE, "--km", km))

    assert "Enter a number between 1 and 30" in line


def test_a_start_far_from_any_walkable_way_is_one_clear_line(graph):
    line = one_clear_line(run("runs", "plan", "--graph", graph, "--start", "0,0", "--km", "3"))

    assert "--start" in line and "no walkable path near" in line and graph in line


def test_a_start_that_is_not_a_point_is_one_clear_line(graph):
    line = one_clear_line(run("runs", "plan", "--graph", graph, "--start", "Senate Square", "--km", "3"))

    assert "--start" in line and "write LAT,LON" in line


def test_a_missing_graph_is_one_clear_line(tmp_path):
    missing = tmp_path / "nothing.cairngraph"

    line = one_clear_line(run("runs", "plan", "--graph", str(missing), "--start", CENTRE, "--km", "3"))

    assert str(missing) in line
