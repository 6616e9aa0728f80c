"""Disk full (issue 22): `cairn serve` keeps its data folder (the SQLite file and every uploaded file) on a
small tmpfs that real writes fill — observation photos (JPEG and PNG, with the PNG's thumbnail), forum photos,
GPX activity imports, sign-ups, planned routes and reviews. Every refused write is answered 507 (or 503) with a problem+json and a
human message, never a 500 or a dropped connection; the process stays up; every acknowledged write is still
there, refused ones left nothing behind (no row, no file, no partial file), `PRAGMA integrity_check` is ok;
and once a ballast file beside the data folder is deleted, the same writes succeed without a restart.

The server runs in a private mount namespace (`unshare -m`), so the tmpfs is seen by the server alone and goes
with it; the test reads the namespace's files through `/proc/<pid>/root`. Mounting needs root (CI runs as
root): without it the test fails, saying so. docs/operations.md, "Disk full", says what the operator does.

The JPEG photos are structurally valid JPEGs (tables, frame header, one scan) whose scan holds random bytes:
the server does not decode JPEG pixels (it drops metadata segments and copies the scan), and random bytes
do not compress, so each takes its full size on the disk."""

import base64
import http.client
import json
import math
import os
import random
import signal
import struct
import subprocess
import sys
import time
import uuid
import zlib
from pathlib import Path

import pytest
from accounts import PASSWORD
from conftest import CAIRN, ROOT, free_port, unique_name

DISK_BYTES = 48 << 20
#: What the ballast leaves free once the server has started: real writes fill the rest.
ROOM_BYTES = 6 << 20
SPECIES = "silene-acaulis"
SUBJECT = "community:general"
SADDLE = (40.0552, -105.5905)


def mount_namespace_works(folder):
    """Whether this process may mount a tmpfs in a private mount namespace (root, or CAP_SYS_ADMIN)."""
    probe = subprocess.run(
        ["unshare", "-m", "sh", "-c", 'mount -t tmpfs -o size=1m cairn-probe "$0"', str(folder)],
        capture_output=True, text=True, timeout=30)
    return probe.returncode == 0, (probe.stderr or probe.stdout).strip()


class DiskFullServer:
    """`cairn serve` on a tmpfs of `DISK_BYTES` mounted in its own mount namespace at `mount`; its data folder
    is `mount/data`, with the demo field guide's catalogue imported. `path(p)` is where the test reads `p` of that
    namespace."""

    def __init__(self, mount, log_path):
        self.mount = mount
        self.data = mount / "data"
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {key: value for key, value in os.environ.items() if key not in ("DATABASE_URL", "CAIRN_STREET_GRAPH")}
        env.update({
            "CAIRN_DATA_DIR": str(self.data), "CAIRN_WEB_DIR": str(ROOT / "Web"), "CAIRN_TILE_URL": "",
            "CAIRN_RATE_LIMITS": "off", "CAIRN_PASSWORD_HASH_COST": "4", "LOG_LEVEL": "notice",
        })
        demo = ROOT / "Sources" / "CairnFlora" / "Resources" / "demo"
        script = ('set -e; mount -t tmpfs -o size="$1" cairn-disk-full "$2"; mkdir "$2/data"; '
                  '"$3" flora import --species "$5/species.csv" --tags "$5/tags.csv" --filters "$5/filters.csv" '
                  '>/dev/null; exec "$3" serve --hostname 127.0.0.1 --port "$4"')
        self.log_path = log_path
        self.log = open(self.log_path, "w")
        self.process = subprocess.Popen(
            ["unshare", "-m", "sh", "-c", script, "sh", str(DISK_BYTES), str(mount), str(CAIRN), str(self.port),
             str(demo)],
            cwd=ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            assert self.process.poll() is None, f"the server exited at start: {self.log_path.read_text()}"
            try:
                if request(self, "GET", "/healthz", timeout=2)[0] == 200:
                    break
            except OSError:
                time.sleep(0.1)
        else:
            raise AssertionError(f"the server did not start: {self.log_path.read_text()}")

    def path(self, inside):
        return Path(f"/proc/{self.process.pid}/root") / Path(inside).relative_to("/")

    def free_bytes(self):
        stats = os.statvfs(self.path(self.mount))
        return stats.f_bavail * stats.f_frsize

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=30)
        self.log.close()


def request(server, method, path, body=None, token=None, headers=None, timeout=60):
    """One request on a fresh connection: (status, headers, raw body). A dropped connection raises. `body` is
    sent as JSON, or as it is when it is bytes."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=timeout)
    try:
        all_headers = {"Content-Type": "application/json", **(headers or {})}
        if token:
            all_headers["Authorization"] = f"Bearer {token}"
        data = body if isinstance(body, bytes) or body is None else json.dumps(body).encode()
        connection.request(method, path, body=data, headers=all_headers)
        response = connection.getresponse()
        return response.status, response.headers, response.read()
    finally:
        connection.close()


def jpeg(size, rng):
    """A JPEG of `size` bytes or so: quantisation table, 1024 × 768 frame header, one scan of random bytes."""
    quantisation = b"\xff\xdb" + struct.pack(">H", 67) + b"\x00" + bytes(range(1, 65))
    frame = b"\xff\xc0" + struct.pack(">HBHHB", 17, 8, 768, 1024, 3) + b"\x01\x11\x00\x02\x11\x00\x03\x11\x00"
    scan = b"\xff\xda" + struct.pack(">HB", 12, 3) + b"\x01\x00\x02\x11\x03\x11\x00\x3f\x00"
    data = rng.randbytes(size).replace(b"\xff", b"\xfe")
    return b"\xff\xd8" + quantisation + frame + scan + data + b"\xff\xd9"


def png(side, rng):
    """A `side` × `side` PNG of noise (it stays as large when the server writes it afresh)."""
    rows = b"".join(b"\x00" + rng.randbytes(side * 3) for _ in range(side))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows, 1)) + chunk(b"IEND", b""))


def gpx_track(rng, points):
    """A GPX 1.1 run of `points` track points a second apart, heading north-east from central Helsinki."""
    start = 1_776_000_000 + rng.randrange(1_000_000)
    lat, lon = 60.17 + rng.uniform(-0.01, 0.01), 24.94
    trkpts = "".join(
        f'<trkpt lat="{lat + i * 0.00003:.6f}" lon="{lon + i * 0.00005:.6f}"><ele>{10 + i // 10}</ele>'
        f'<time>{time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(start + i))}</time></trkpt>\n'
        for i in range(points))
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" creator="A watch" '
            'xmlns="http://www.topografix.com/GPX/1/1"><trk><name>Evening run</name><trkseg>\n'
            f"{trkpts}</trkseg></trk></gpx>\n").encode()


def square_loop(rng, points_per_side):
    """A closed square of about 250 m a side near Helsinki with many positions, and its length in metres."""
    lat, lon, side = 60.17 + rng.uniform(-0.01, 0.01), 24.94, 250
    dlat, dlon = side / 111_320, side / (111_320 * math.cos(math.radians(lat)))
    corners = [(lon, lat), (lon + dlon, lat), (lon + dlon, lat + dlat), (lon, lat + dlat), (lon, lat)]
    line = []
    for (x1, y1), (x2, y2) in zip(corners, corners[1:]):
        line += [[x1 + (x2 - x1) * i / points_per_side, y1 + (y2 - y1) * i / points_per_side]
                 for i in range(points_per_side)]
    line.append(list(corners[-1]))

    def metres(a, b):
        p1, p2 = math.radians(a[1]), math.radians(b[1])
        h = (math.sin((p2 - p1) / 2) ** 2
             + math.cos(p1) * math.cos(p2) * math.sin(math.radians(b[0] - a[0]) / 2) ** 2)
        return 2 * 6_371_008.8 * math.asin(math.sqrt(h))

    return {"type": "LineString", "coordinates": line}, sum(metres(a, b) for a, b in zip(line, line[1:]))


class Write:
    """One write as a client sends it (again, unchanged, when it was refused), and how to find it afterwards."""

    def __init__(self, kind, method, path, body, token=None, headers=None, created=(201,)):
        self.kind, self.method, self.path, self.body = kind, method, path, body
        self.token, self.headers, self.created = token, headers or {}, created
        self.answer = None
        self.photo = None

    def send(self, server):
        status, headers, raw = request(server, self.method, self.path, self.body, self.token, self.headers)
        self.answer = (status, headers.get("Content-Type", ""), raw)
        return status


class Run:
    """The writes of the test, by what became of them."""

    def __init__(self, server, rng):
        self.server, self.rng = server, rng
        self.acknowledged, self.refused = [], []

    def send(self, write):
        status = write.send(self.server)
        if status in write.created:
            self.acknowledged.append(write)
        else:
            assert_refused_clearly(write)
            self.refused.append(write)
        return status in write.created

    def sign_up(self):
        name = unique_name("full")
        write = Write("account", "POST", "/api/account", {
            "first_name": "Disk", "last_name": "Full", "username": name, "email": f"{name}@example.org",
            "password": PASSWORD, "password_confirmation": PASSWORD, "session": "token"})
        write.username = name
        return write

    def observation(self, token, photo, thumbnail_expected):
        id = str(uuid.uuid4())
        write = Write("observation", "PUT", f"/api/flora/observations/{id}", {
            "species_id": SPECIES, "latitude": SADDLE[0], "longitude": SADDLE[1], "accuracy_m": 5,
            "observed_at": "2026-07-14T10:30:00Z", "comment": "Pink cushion on the saddle",
            "photo": base64.b64encode(photo).decode()}, token=token)
        write.id, write.photo, write.thumbnail = id, photo, thumbnail_expected
        return write

    def forum_topic(self, token, photo):
        id = str(uuid.uuid4())
        write = Write("topic", "POST", f"/api/forums/{SUBJECT}/topics", {
            "id": id, "title": "Snow on the saddle", "text": "Still deep above the tree line.",
            "photo": base64.b64encode(photo).decode()}, token=token)
        write.id, write.photo = id, photo
        return write

    def planned_route(self, token):
        line, length = square_loop(self.rng, 150)
        write = Write("route", "POST", "/api/runs/planned", {
            "distance_km": 1, "length_m": round(length, 1), "sheltered_m": 0, "geometry": line},
            token=token, headers={"Idempotency-Key": str(uuid.uuid4())})
        return write

    def activity(self, token):
        return Write("activity", "POST", "/api/activities/import?kind=run", gpx_track(self.rng, 300), token=token,
                     headers={"Content-Type": "application/gpx+xml", "Idempotency-Key": str(uuid.uuid4())})

    def review(self, token, rating):
        return Write("review", "PUT", f"/api/reviews/{SUBJECT}", {"rating": rating, "text": "Quiet trails."},
                     token=token, created=(200, 201))


def assert_refused_clearly(write):
    status, content_type, raw = write.answer
    assert status in (503, 507), (write.kind, status, raw[:300])
    assert content_type.startswith("application/problem+json"), (write.kind, content_type)
    problem = json.loads(raw)
    assert problem["status"] == status and len(problem["detail"]) > 20, problem
    assert "Nothing was changed" in problem["detail"] or status == 503, problem


def token_of(write):
    return json.loads(write.answer[2])["token"]


def test_a_full_data_disk_refuses_writes_clearly_keeps_what_it_acknowledged_and_recovers(tmp_path):
    mount = tmp_path / "disk"
    mount.mkdir()
    works, why = mount_namespace_works(mount)
    if not works:
        pytest.fail("this test mounts a small tmpfs in a private mount namespace (unshare -m, mount -t tmpfs), "
                    f"which needs root or CAP_SYS_ADMIN; it was refused: {why}")
    server = DiskFullServer(mount, tmp_path / "server.log")
    rng = random.Random(22)
    run = Run(server, rng)
    try:
        # Setup: three people, then a ballast file beside the data folder that leaves ROOM_BYTES free.
        people = []
        for _ in range(3):
            write = run.sign_up()
            assert run.send(write), write.answer
            people.append(token_of(write))
        ballast = server.path(mount / "ballast")
        with open(ballast, "wb") as file:
            file.write(b"\0" * max(0, server.free_bytes() - ROOM_BYTES))
        assert server.free_bytes() <= ROOM_BYTES + (1 << 20)
        before = rows(server)

        # Act: photos of shrinking sizes until even the small ones are refused, then ordinary writes until the
        # database itself is refused.
        rounds = 0
        for size in (1 << 20, 128 << 10, 16 << 10, 2 << 10):
            refused_in_a_row = 0
            while refused_in_a_row < 2:
                rounds += 1
                token = rng.choice(people)
                uploads = [run.observation(token, jpeg(size, rng), False), run.forum_topic(token, jpeg(size, rng))]
                if size >= 128 << 10:
                    uploads.append(run.observation(token, png(int(math.sqrt(min(size, 512 << 10) / 3)), rng), True))
                ordinary = [run.planned_route(token), run.activity(token), run.review(token, 1 + rounds % 5)]
                if rounds % 3 == 1:
                    ordinary.append(run.sign_up())
                refused_in_a_row = refused_in_a_row + 1 if not any([run.send(w) for w in uploads]) else 0
                for write in ordinary:
                    run.send(write)
        photo_refusals = {w.kind for w in run.refused if w.photo is not None}
        assert photo_refusals == {"observation", "topic"}, photo_refusals

        makers = [lambda token: run.planned_route(token), lambda token: run.activity(token),
                  lambda token: run.review(token, 3), lambda _: run.sign_up()]
        for attempt in range(300):
            run.send(makers[attempt % len(makers)](people[attempt % len(people)]))
            if {"route", "account"} <= {w.kind for w in run.refused}:
                break
        assert {"route", "account"} <= {w.kind for w in run.refused}, "the database never refused a write"
        assert server.free_bytes() < 64 << 10
        acknowledged_kinds = {w.kind for w in run.acknowledged}
        assert acknowledged_kinds == {"account", "observation", "topic", "route", "activity", "review"}, \
            acknowledged_kinds

        # Check: still serving, everything acknowledged there, nothing refused left behind, the file clean.
        assert server.process.poll() is None, server.log_path.read_text()
        health = request(server, "GET", "/healthz")
        assert (health[0], json.loads(health[2])["disk"]) == (503, "full"), health
        assert_acknowledged_present(server, run.acknowledged)
        assert_refused_absent(server, run.refused)
        assert_no_stray_files(server, run.acknowledged)
        assert integrity(server) == "ok"
        counts = {kind: sum(1 for w in run.acknowledged if w.kind == kind) for kind in TABLES}
        counts["review"] = len({w.token for w in run.acknowledged if w.kind == "review"})  # one a person
        counts["account"] -= len(people)
        assert {kind: n - before[kind] for kind, n in rows(server).items()} == counts, "a refused write left a row"
        print(f"acknowledged {counts}; refused {len(run.refused)} "
              f"({sorted({(w.kind, w.answer[0]) for w in run.refused})})")

        # Act: the operator frees space; the same writes, sent again unchanged, now succeed — no restart.
        os.remove(ballast)
        assert request(server, "GET", "/healthz")[0] == 200
        retried = [write for kind, limit in (("account", 3), ("observation", 4), ("topic", 3), ("route", 3),
                                             ("activity", 2), ("review", 1))
                   for write in [w for w in run.refused if w.kind == kind][:limit]]
        assert {"account", "observation", "topic", "route"} <= {w.kind for w in retried}
        for write in retried:
            status = write.send(server)
            assert status in write.created, (write.kind, write.answer[:2], write.answer[2][:300])
        assert_acknowledged_present(server, retried)
        assert_no_stray_files(server, run.acknowledged + retried)
        assert integrity(server) == "ok"
        assert server.process.poll() is None
    finally:
        server.stop()
    assert server.process.returncode == 0, server.log_path.read_text()[-3000:]
    log = server.log_path.read_text()
    assert "unhandled error" not in log
    assert log.count("storage full, answered 507") >= len(run.refused), log[-3000:]


def assert_acknowledged_present(server, writes):
    tokens = {}
    for write in writes:
        if write.kind == "account":
            tokens[write.username] = token_of(write)
            status, _, raw = request(server, "GET", "/api/account", token=token_of(write))
            assert status == 200 and json.loads(raw)["username"] == write.username, raw
        elif write.kind == "observation":
            status, _, raw = request(server, "GET", f"{write.path}/photo", token=write.token)
            assert status == 200 and same_picture(raw, write.photo), (write.path, status)
            if write.thumbnail:
                assert request(server, "GET", f"{write.path}/thumbnail", token=write.token)[0] == 200
        elif write.kind == "topic":
            status, _, raw = request(server, "GET", f"/api/forum-topics/{write.id}")
            assert status == 200, raw
            status, _, raw = request(server, "GET", f"/api/forum-posts/{write.id}/photo", token=write.token)
            assert status == 200 and raw == write.photo, (write.id, status)
        elif write.kind == "route":
            route = json.loads(write.answer[2])
            assert request(server, "GET", f"/api/runs/planned/{route['id']}", token=write.token)[0] == 200
        elif write.kind == "activity":
            activity = json.loads(write.answer[2])
            assert request(server, "GET", f"/api/activities/{activity['id']}", token=write.token)[0] == 200
        elif write.kind == "review":
            status, _, raw = request(server, "GET", f"/api/reviews?subject={SUBJECT}", token=write.token)
            mine = json.loads(raw).get("mine")
            assert status == 200 and mine, raw


def same_picture(stored, sent):
    """A JPEG is kept byte for byte (it has no metadata to drop); a PNG is drawn afresh, so only its kind."""
    return stored == sent if sent.startswith(b"\xff\xd8") else stored.startswith(b"\x89PNG\r\n\x1a\n")


def assert_refused_absent(server, writes):
    for write in writes:
        if write.kind == "observation":
            assert request(server, "GET", write.path, token=write.token)[0] == 404, write.path
        elif write.kind == "topic":
            assert request(server, "GET", f"/api/forum-topics/{write.id}")[0] == 404, write.id


def assert_no_stray_files(server, acknowledged):
    """No partial file anywhere, and every stored photo belongs to an acknowledged observation or post."""
    ids = {w.id for w in acknowledged if w.kind in ("observation", "topic")}
    data = server.path(server.data)
    for path in data.rglob("*"):
        assert not path.name.endswith(".partial"), path
        if path.is_file() and path.parent.name in ("flora", "community"):
            name = path.stem.removeprefix("forum-").removesuffix("-thumb")
            assert name in ids, f"{path.name} belongs to no acknowledged write"


TABLES = {"account": "users", "observation": "flora_observations", "topic": "community_forum_topics",
          "route": "planned_runs", "activity": "activities", "review": "community_reviews"}


def in_database(server, *statements):
    """The first value of each statement's first row, run inside the server's mount namespace (SQLite resolves
    the symbolic link /proc/<pid>/root, so it cannot open the file through it from outside)."""
    script = ("import json, sqlite3, sys; connection = sqlite3.connect(f'file:{sys.argv[1]}?mode=ro', uri=True); "
              "print(json.dumps([connection.execute(s).fetchone()[0] for s in sys.argv[2:]]))")
    result = subprocess.run(
        ["nsenter", f"--target={server.process.pid}", "--mount", "--", sys.executable, "-c", script,
         str(server.data / "cairn.sqlite"), *statements], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def integrity(server):
    return in_database(server, "PRAGMA integrity_check")[0]


def rows(server):
    """How many rows each kind of write has in its table."""
    counts = in_database(server, *(f"SELECT COUNT(*) FROM {table}" for table in TABLES.values()))
    return dict(zip(TABLES, counts))
