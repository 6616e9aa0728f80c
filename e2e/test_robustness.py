"""What a probe of the running server found (issue 13), checked against the real binary: heavy work from
several clients never stalls `/healthz`, a picture that declares a huge image costs nothing, a compressed
body that inflates too far gets an answer, and a request that used to trap leaves the process running.

Clients are told apart by their address: each load thread connects from its own loopback address
(127.0.0.2, 127.0.0.3, …), as people behind different networks would."""

import http.client
import json
import statistics
import struct
import threading
import time
import zlib

import pytest
from accounts import PASSWORD
from conftest import Server

CENTRE = {"lat": 60.1699, "lon": 24.9384}


@pytest.fixture(scope="module")
def shared_server():
    server = Server()
    yield server
    server.cleanup()


def call(server, method, path, body=None, raw=None, headers=None, source="127.0.0.1", timeout=180):
    """One request on a fresh connection from `source`; returns (status, body bytes, seconds taken)."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=timeout, source_address=(source, 0))
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    started = time.monotonic()
    try:
        connection.request(method, path, body=data, headers={"Content-Type": "application/json", **(headers or {})})
        response = connection.getresponse()
        return response.status, response.read(), time.monotonic() - started
    finally:
        connection.close()


def sign_up(server, username, source):
    status, body, _ = call(server, "POST", "/api/account", {
        "first_name": "Ada", "last_name": "Load", "username": username, "email": f"{username}@example.org",
        "password": PASSWORD, "password_confirmation": PASSWORD, "session": "token",
    }, source=source)
    assert status == 201, body
    return json.loads(body)["token"]


class HealthProbe(threading.Thread):
    """Asks `/healthz` every 0.2 s until stopped and keeps each answer's time."""

    def __init__(self, server):
        super().__init__(daemon=True)
        self.server = server
        self.latencies = []
        self.failures = []
        self.done = threading.Event()

    def run(self):
        while not self.done.is_set():
            status, body, seconds = call(self.server, "GET", "/healthz", timeout=60)
            self.latencies.append(seconds)
            if status != 200:
                self.failures.append((status, body))
            self.done.wait(0.2)

    def stop(self):
        self.done.set()
        self.join(timeout=90)


def assert_healthy_throughout(probe):
    assert not probe.failures, probe.failures
    assert len(probe.latencies) >= 10
    assert statistics.median(probe.latencies) < 0.5, sorted(probe.latencies)[-10:]
    assert max(probe.latencies) < 3.0, sorted(probe.latencies)[-10:]


def test_thirty_km_sheltered_plans_from_four_clients_leave_healthz_answering(shared_server):
    statuses = []
    lock = threading.Lock()
    deadline = time.monotonic() + 8

    def plan_repeatedly(source, seed):
        while time.monotonic() < deadline:
            status, _, _ = call(shared_server, "POST", "/api/runs/plan", {
                "start": CENTRE, "distance_km": 30, "sheltered": True, "seed": seed,
            }, source=source)
            with lock:
                statuses.append(status)
            seed += 1

    probe = HealthProbe(shared_server)
    probe.start()
    workers = [threading.Thread(target=plan_repeatedly, args=(f"127.0.0.{index + 2}", index * 1000))
               for index in range(4)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=240)
    probe.stop()

    assert statuses.count(200) >= 2, statuses
    assert set(statuses) <= {200, 429, 503}, statuses
    assert_healthy_throughout(probe)


def png(width, height, depth):
    """An RGBA PNG of zeros: a few kilobytes that decode to width × height pixels."""
    row_bytes = 1 + width * 4 * depth // 8
    compressor = zlib.compressobj(9)
    row = bytes(row_bytes)
    compressed = b"".join(compressor.compress(row) for _ in range(height)) + compressor.flush()

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, depth, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", compressed) + chunk(b"IEND", b"")


def test_picture_bombs_cost_nothing_and_picture_work_leaves_healthz_answering(shared_server):
    bomb = png(6324, 6324, 16)
    picture = png(1024, 1024, 8)
    uploads = [(bomb, "127.0.1.1"), (bomb, "127.0.1.2"), (picture, "127.0.1.3"), (picture, "127.0.1.4")]
    tokens = [sign_up(shared_server, f"painter{index}", source) for index, (_, source) in enumerate(uploads)]
    results = [None] * len(uploads)

    def upload(index):
        data, source = uploads[index]
        results[index] = call(shared_server, "PUT", "/api/account/avatar", raw=data, source=source, headers={
            "Content-Type": "image/png", "Authorization": f"Bearer {tokens[index]}"})

    probe = HealthProbe(shared_server)
    probe.start()
    time.sleep(1)
    threads = [threading.Thread(target=upload, args=(index,)) for index in range(len(uploads))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=240)
    time.sleep(1)
    probe.stop()

    assert len(bomb) < 400_000
    for status, body, seconds in results[:2]:
        assert status == 413, body
        assert b"4096" in body
        assert seconds < 5
    for status, body, _ in results[2:]:
        assert status == 200, body
    assert_healthy_throughout(probe)


def test_a_gzip_body_that_inflates_too_far_is_answered_413(shared_server):
    flood = zlib.compressobj(9, zlib.DEFLATED, 31)
    body = flood.compress(b" " * 4_000_000) + flood.flush()

    status, answer, _ = call(shared_server, "POST", "/api/session", raw=body, headers={"Content-Encoding": "gzip"})

    assert status == 413
    assert "once decompressed" in json.loads(answer)["detail"]


def test_a_negative_route_length_is_refused_and_the_server_keeps_running(shared_server):
    token = sign_up(shared_server, "trapper", "127.0.2.1")

    status, answer, _ = call(shared_server, "POST", "/api/runs/planned", {"length_m": -1, "sheltered_m": 0},
                             headers={"Authorization": f"Bearer {token}"}, source="127.0.2.1")

    assert status == 422, answer
    assert shared_server.process.poll() is None
    assert call(shared_server, "GET", "/healthz")[0] == 200
