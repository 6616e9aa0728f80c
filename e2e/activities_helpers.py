"""A GPS replay harness for the browser: the page's clock runs `speed` times faster than the wall's, and a
trace along a route (with a little GPS noise and a detour off it) is fed to the page through Chromium's
geolocation override, one fix per second of the page's clock."""

import math
import random
import time
import xml.etree.ElementTree as ET

from conftest import set_geolocation
from selenium.webdriver.support.ui import WebDriverWait

METRES_PER_DEGREE_LAT = 111_132.954


def warp_clock(browser, speed):
    """From the next page load on, Date runs `speed` times faster than the wall clock, from now on (the same
    epoch across reloads, so times the page kept stay in order)."""
    epoch = int(time.time() * 1000)
    browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": f"""
        (() => {{
          const epoch = {epoch}, speed = {speed};
          const RealDate = Date;
          const realNow = RealDate.now.bind(RealDate);
          const now = () => epoch + (realNow() - epoch) * speed;
          class WarpedDate extends RealDate {{
            constructor(...args) {{ if (args.length === 0) super(now()); else super(...args); }}
            static now() {{ return now(); }}
          }}
          window.Date = WarpedDate;
        }})();"""})


def page_now(browser):
    return browser.execute_script("return Date.now()")


def _local(origin):
    per_lon = METRES_PER_DEGREE_LAT * math.cos(math.radians(origin[0]))
    to_xy = lambda lat, lon: ((lon - origin[1]) * per_lon, (lat - origin[0]) * METRES_PER_DEGREE_LAT)
    to_ll = lambda x, y: (origin[0] + y / METRES_PER_DEGREE_LAT, origin[1] + x / per_lon)
    return to_xy, to_ll


def trace_along(coordinates, step=3.3, detour_at=None, detour_m=100, noise_m=3, seed=7):
    """Fixes every `step` metres along `coordinates` ([lon, lat]); with `detour_at` (metres along), the runner
    turns off there at right angles for `detour_m` and comes back. Returns [(lat, lon, along, off_m)], where
    `along` is the true place along the route and `off_m` how far off the route the runner truly is."""
    origin = (coordinates[0][1], coordinates[0][0])
    to_xy, to_ll = _local(origin)
    points = [to_xy(lat, lon) for lon, lat in coordinates]
    rng = random.Random(seed)
    fixes = []
    along = 0.0
    ex = ey = 0.0
    detoured = detour_at is None

    def fix(x, y, along_here, off):
        nonlocal ex, ey
        ex = 0.8 * ex + rng.gauss(0, noise_m * 0.6)
        ey = 0.8 * ey + rng.gauss(0, noise_m * 0.6)
        lat, lon = to_ll(x + ex, y + ey)
        fixes.append((lat, lon, along_here, off))

    carry = 0.0
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        length = math.hypot(x1 - x0, y1 - y0)
        if length == 0:
            continue
        ux, uy = (x1 - x0) / length, (y1 - y0) / length
        d = carry
        while d < length:
            x, y = x0 + ux * d, y0 + uy * d
            fix(x, y, along + d, 0)
            if not detoured and along + d >= detour_at:
                detoured = True
                # Off to the left at right angles, and back.
                out = [(x - uy * s, y + ux * s, s) for s in _steps(detour_m, step)]
                for px, py, s in out + list(reversed(out)):
                    fix(px, py, along + d, s)
            d += step
        carry = d - length
        along += length
    lon, lat = coordinates[-1]
    for _ in range(5):  # standing at the finish
        fix(*to_xy(lat, lon), along, 0)
    return fixes


def _steps(total, step):
    n = max(1, int(total / step))
    return [total * (i + 1) / n for i in range(n)]


def replay(browser, fixes, on_fix, accuracy=6):
    """Feeds each fix once a second of the page's clock; `on_fix(index, fix)` runs after each and may return
    True to stop."""
    next_time = page_now(browser)
    for index, (lat, lon, *_rest) in enumerate(fixes):
        WebDriverWait(browser, 10, poll_frequency=0.01).until(lambda d: page_now(d) >= next_time)
        set_geolocation(browser, lat, lon, accuracy)
        next_time += 1000
        if on_fix(index, fixes[index]):
            return index
    return len(fixes)


def encode_polyline(points, precision=6):
    """Google's polyline encoding of [(lat, lon)], as the API takes tracks."""
    factor = 10 ** precision
    out, last_lat, last_lon = [], 0, 0
    for lat, lon in points:
        y, x = round(lat * factor), round(lon * factor)
        for value in (y - last_lat, x - last_lon):
            value = ~(value << 1) if value < 0 else value << 1
            while value >= 0x20:
                out.append(chr((0x20 | (value & 0x1F)) + 63))
                value >>= 5
            out.append(chr(value + 63))
        last_lat, last_lon = y, x
    return "".join(out)


def save_activity(server, token, points, *, day, name, kind="hike", seconds_per_point=10, climb=0):
    """Saves a finished activity along `points` [(lat, lon)] through the API, as the app's Save does (the same
    body shape; its id made from `day`, so saving it again changes nothing). Returns the answer."""
    meters = sum(distance_m(a, b) for a, b in zip(points, points[1:]))
    elapsed = seconds_per_point * (len(points) - 1)
    body = {
        "id": f"00000000-0000-4000-8000-{day:012d}", "kind": kind, "name": name,
        "started_at": f"2026-04-{day:02d}T08:00:00Z", "elapsed_s": elapsed, "moving_s": elapsed - 10,
        "distance_m": meters, "elevation_gain_m": climb, "steps": int(meters / 0.7),
        "track": {"polyline": encode_polyline(points), "times": [0] + [seconds_per_point * 10] * (len(points) - 1)},
    }
    status, answer, _ = server.api("POST", "/api/activities", body, headers={"Authorization": f"Bearer {token}"})
    assert status in (200, 201), answer
    return answer


def distance_m(a, b):
    """Metres between two (lat, lon) points (haversine)."""
    r = 6_371_008.8
    p1, p2 = math.radians(a[0]), math.radians(b[0])
    dp, dl = p2 - p1, math.radians(b[1] - a[1])
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * r * math.asin(math.sqrt(h))


def gpx_points(text):
    """The (lat, lon) of every track point of a GPX document."""
    root = ET.fromstring(text)
    return [(float(p.get("lat")), float(p.get("lon"))) for p in root.iter() if p.tag.endswith("trkpt")]
