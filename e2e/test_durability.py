"""Durability: `cairn serve` on SQLite is killed with SIGKILL at random moments while clients write (sign-ups,
kept planned routes); after every kill the server starts again on the same data folder, every write it had
acknowledged is there, and SQLite's `PRAGMA integrity_check` is clean. docs/operations.md, "Durability",
says what the `synchronous` setting promises beyond a killed process."""

import json
import math
import random
import sqlite3
import threading
import urllib.error
import urllib.request
import uuid

from accounts import PASSWORD
from conftest import Server, unique_name

KILLS = 22
SEED = 22


def square_loop(lat, lon, side_m):
    """A closed square line (GeoJSON) of four sides of `side_m` metres around (lat, lon), and its length."""
    dlat = side_m / 111_320
    dlon = side_m / (111_320 * math.cos(math.radians(lat)))
    corners = [(lon, lat), (lon + dlon, lat), (lon + dlon, lat + dlat), (lon, lat + dlat), (lon, lat)]

    def metres(a, b):
        (lon1, lat1), (lon2, lat2) = a, b
        p1, p2 = math.radians(lat1), math.radians(lat2)
        h = (math.sin((p2 - p1) / 2) ** 2
             + math.cos(p1) * math.cos(p2) * math.sin(math.radians(lon2 - lon1) / 2) ** 2)
        return 2 * 6_371_008.8 * math.asin(math.sqrt(h))

    length = sum(metres(a, b) for a, b in zip(corners, corners[1:]))
    return {"type": "LineString", "coordinates": [list(c) for c in corners]}, length


def request(url, method, path, body=None, token=None, headers=None):
    data = json.dumps(body).encode() if body is not None else None
    all_headers = {"Content-Type": "application/json", **(headers or {})}
    if token:
        all_headers["Authorization"] = f"Bearer {token}"
    call = urllib.request.Request(f"{url}{path}", data=data, method=method, headers=all_headers)
    try:
        with urllib.request.urlopen(call, timeout=30) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


class Writer(threading.Thread):
    """Signs up one account, then keeps planned routes until the server goes away; records what was
    acknowledged (201) only."""

    def __init__(self, url, rng, acknowledged):
        super().__init__(daemon=True)
        self.url, self.rng, self.acknowledged = url, rng, acknowledged

    def run(self):
        try:
            name = unique_name("durable")
            status, body = request(self.url, "POST", "/api/account", {
                "first_name": "Dur", "last_name": "Able", "username": name, "email": f"{name}@example.org",
                "password": PASSWORD, "password_confirmation": PASSWORD, "session": "token"})
            if status != 201:
                return
            token = body["token"]
            self.acknowledged["accounts"].append((name, token))
            while True:
                side = self.rng.uniform(240, 260)
                line, length = square_loop(60.17 + self.rng.uniform(-0.01, 0.01), 24.94, side)
                status, body = request(self.url, "POST", "/api/runs/planned", {
                    "distance_km": 1, "length_m": round(length, 1), "sheltered_m": 0, "geometry": line,
                }, token=token, headers={"Idempotency-Key": str(uuid.uuid4())})
                assert status == 201, body
                self.acknowledged["runs"].append((token, body["id"], name))
        except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
            return  # the server was killed: what was in flight is neither acknowledged nor required


def test_every_acknowledged_write_survives_sigkill_at_random_moments(tmp_path):
    rng = random.Random(SEED)
    data = tmp_path / "data"
    data.mkdir()
    acknowledged = {"accounts": [], "runs": []}
    killed_in_flight = 0
    checked = {"accounts": 0, "runs": 0}
    for round_number in range(KILLS):
        server = Server(data_dir=data, streets=False, env={"CAIRN_RATE_LIMITS": "off"})
        check_acknowledged(server, acknowledged, since=checked)
        checked = {key: len(values) for key, values in acknowledged.items()}
        writers = [Writer(server.url, random.Random(rng.random()), acknowledged) for _ in range(3)]
        for writer in writers:
            writer.start()
        threading.Event().wait(rng.uniform(0.4, 1.5))  # a random moment of the write load
        server.process.kill()
        server.process.wait(timeout=30)
        for writer in writers:
            writer.join(timeout=60)
            assert not writer.is_alive()
        killed_in_flight += 1
        server.log.close()
        assert integrity(data / "cairn.sqlite") == "ok", f"after kill {round_number + 1}"

    assert killed_in_flight == KILLS
    print(f"{KILLS} kills; acknowledged {len(acknowledged['accounts'])} accounts, {len(acknowledged['runs'])} routes")
    assert len(acknowledged["accounts"]) >= KILLS and len(acknowledged["runs"]) >= KILLS, acknowledged
    # Each write was read back through the API after the restart that followed it; after the last kill, one
    # query of the database finds every one of them still there, each route with its owner.
    assert stored(data / "cairn.sqlite") >= expected(acknowledged)
    final = Server(data_dir=data, streets=False, env={"CAIRN_RATE_LIMITS": "off"})
    try:
        check_acknowledged(final, acknowledged, since=checked)
        for name, _ in random.Random(SEED).sample(acknowledged["accounts"], 5):
            status, body = request(final.url, "POST", "/api/session",
                                   {"login": name, "password": PASSWORD, "session": "token"})
            assert status == 200, (name, body)
    finally:
        final.cleanup()


def check_acknowledged(server, acknowledged, since=None):
    """Every acknowledged account (from `since`'s counts on) answers its own session token with itself, every
    acknowledged route answers its owner."""
    since = since or {"accounts": 0, "runs": 0}
    for name, token in acknowledged["accounts"][since["accounts"]:]:
        status, body = request(server.url, "GET", "/api/account", token=token)
        assert status == 200 and body["username"] == name, (name, body)
    for token, run_id, name in acknowledged["runs"][since["runs"]:]:
        status, body = request(server.url, "GET", f"/api/runs/planned/{run_id}", token=token)
        assert status == 200, (name, run_id, body)


def expected(acknowledged):
    """The acknowledged accounts and routes as `stored` gives them: {("account", name)} | {("route", id, owner)}."""
    accounts = {("account", name) for name, _ in acknowledged["accounts"]}
    return accounts | {("route", uuid.UUID(run_id).hex, name) for _, run_id, name in acknowledged["runs"]}


def stored(path):
    """Every account and planned route in the SQLite database, as `expected` lists them."""
    connection = sqlite3.connect(path)
    hex_id = "CASE typeof(r.id) WHEN 'blob' THEN lower(hex(r.id)) ELSE lower(replace(r.id, '-', '')) END"
    try:
        accounts = {("account", name) for (name,) in connection.execute("SELECT username FROM users")}
        routes = {("route", run_id, name) for run_id, name in connection.execute(
            f"SELECT {hex_id}, u.username FROM planned_runs r JOIN users u ON u.id = r.user_id")}
        return accounts | routes
    finally:
        connection.close()


def integrity(path):
    connection = sqlite3.connect(path)
    try:
        return connection.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        connection.close()
