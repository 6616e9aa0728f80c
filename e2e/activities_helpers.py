"""A GPS replay harness for the browser: the page's clock runs `speed` times faster than the wall's, and a
trace along a route (with a little GPS noise and a detour off it) is fed to the page through Chromium's
geolocation override, one fix per second of the page's clock."""

import math
import random
import time

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
