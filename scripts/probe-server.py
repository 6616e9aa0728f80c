#!/usr/bin/env python3
"""Re-measures what the probe of issue 13 measured, against a running `cairn serve` on loopback (seeded with
`cairn seed-demo`, street graph loaded): concurrent saves, parallel password guesses, sign-up floods, planning
and picture load while /healthz is timed, slow connections, enumeration probes. Prints one Markdown table.

Usage: scripts/probe-server.py http://127.0.0.1:8080 [--only NAME ...] [--slow-seconds 95]
Every request goes to the given loopback server; clients are told apart by their loopback source address."""

import argparse
import http.client
import json
import socket
import statistics
import struct
import threading
import time
import uuid
import zlib
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlparse

PASSWORD = "Trail-Mix-42!"
CENTRE = {"lat": 60.1699, "lon": 24.9384}
SQUARE = [(24.9384, 60.1699), (24.9384, 60.1789), (24.9564, 60.1789), (24.9564, 60.1699), (24.9384, 60.1699)]


class Probe:
    def __init__(self, base):
        url = urlparse(base)
        self.host, self.port = url.hostname, url.port or 80
        self.rows = []
        self.client_counter = 0

    def fresh_client(self):
        """A loopback source address not used before in this run."""
        self.client_counter += 1
        n = self.client_counter
        return f"127.{100 + n // 62_500 % 100}.{n // 250 % 250 + 1}.{n % 250 + 1}"

    def call(self, method, path, body=None, raw=None, headers=None, source="127.0.0.1", timeout=300):
        connection = http.client.HTTPConnection(self.host, self.port, timeout=timeout, source_address=(source, 0))
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        started = time.monotonic()
        try:
            connection.request(method, path, body=data,
                               headers={"Content-Type": "application/json", **(headers or {})})
            response = connection.getresponse()
            return response.status, response.read(), time.monotonic() - started
        except (ConnectionError, http.client.HTTPException, socket.timeout) as error:
            return type(error).__name__, b"", time.monotonic() - started
        finally:
            connection.close()

    def sign_up(self, source=None):
        name = "p" + uuid.uuid4().hex[:12]
        status, body, _ = self.call("POST", "/api/account", {
            "first_name": "Probe", "last_name": "P", "username": name, "email": f"{name}@example.org",
            "password": PASSWORD, "password_confirmation": PASSWORD, "session": "token",
        }, source=source or self.fresh_client())
        assert status == 201, (status, body)
        return name, json.loads(body)["token"]

    def record(self, what, result):
        self.rows.append((what, result))
        print(f"| {what} | {result} |", flush=True)

    @staticmethod
    def tally(statuses):
        counts = {}
        for status in statuses:
            counts[status] = counts.get(status, 0) + 1
        return ", ".join(f"{count} × {status}" for status, count in sorted(counts.items(), key=str))

    def parallel(self, calls):
        with ThreadPoolExecutor(max_workers=len(calls)) as pool:
            return list(pool.map(lambda call: self.call(*call[0], **call[1]), calls))

    # Measurements.

    def saves(self, count):
        users = [self.sign_up() for _ in range(min(count, 20))]
        body = {"distance_km": 4, "sheltered": True, "length_m": 4010.6, "sheltered_m": 0,
                "geometry": {"type": "LineString", "coordinates": [list(p) for p in SQUARE]}}
        line_length = sum(haversine(a, b) for a, b in zip(SQUARE, SQUARE[1:]))
        body["length_m"] = round(line_length, 1)
        results = self.parallel([(("POST", "/api/runs/planned", body),
                                  {"headers": {"Authorization": f"Bearer {users[i % len(users)][1]}"}})
                                 for i in range(count)])
        self.record(f"{count} concurrent saves of a planned route", self.tally(r[0] for r in results))

    def wrong_passwords(self):
        name, _ = self.sign_up()
        source = self.fresh_client()
        results = self.parallel([(("POST", "/api/session", {"login": name, "password": "Guess-Pass-1"}),
                                  {"source": source}) for _ in range(100)])
        self.record("100 parallel wrong passwords, one account", self.tally(r[0] for r in results))

    def right_password_among_guesses(self):
        name, _ = self.sign_up()
        source = self.fresh_client()
        calls = [(("POST", "/api/session", {"login": name, "password": "Guess-Pass-1"}), {"source": source})
                 for _ in range(60)]
        calls[39] = (("POST", "/api/session", {"login": name, "password": PASSWORD}), {"source": source})
        results = self.parallel(calls)
        self.record("right password as guess 40 of 60 (parallel)",
                    f"guess 40: {results[39][0]}; all: {self.tally(r[0] for r in results)}")

    def sign_up_flood(self):
        source = self.fresh_client()
        calls = []
        for _ in range(100):
            name = "f" + uuid.uuid4().hex[:12]
            calls.append((("POST", "/api/account", {
                "first_name": "Flood", "last_name": "F", "username": name, "email": f"{name}@example.org",
                "password": PASSWORD, "password_confirmation": PASSWORD}), {"source": source}))
        results = self.parallel(calls)
        self.record("100 parallel sign-ups from one address", self.tally(r[0] for r in results))

    def spray(self):
        names = [self.sign_up()[0] for _ in range(100)]
        source = self.fresh_client()
        results = self.parallel([(("POST", "/api/session", {"login": name, "password": "Guess-Pass-1"}),
                                  {"source": source}) for name in names])
        self.record("password spray over 100 accounts, one address", self.tally(r[0] for r in results))

    def under_load(self, what, load):
        """Runs `load()` while /healthz is asked every 0.2 s; records its median, max and answers over 1 s."""
        latencies, done = [], threading.Event()

        def probe():
            while not done.is_set():
                latencies.append(self.call("GET", "/healthz", timeout=120)[2])
                done.wait(0.2)

        thread = threading.Thread(target=probe)
        thread.start()
        outcome = load()
        done.set()
        thread.join()
        self.record(f"/healthz during {what}",
                    f"median {statistics.median(latencies) * 1000:.0f} ms, max {max(latencies) * 1000:.0f} ms, "
                    f"{sum(l > 1 for l in latencies)} of {len(latencies)} over 1 s; load: {outcome}")

    def plans(self, sources):
        body = {"start": CENTRE, "distance_km": 30, "sheltered": True}
        results = self.parallel([(("POST", "/api/runs/plan", body), {"source": s}) for s in sources])
        return self.tally(r[0] for r in results) + f" (slowest {max(r[2] for r in results):.1f} s)"

    def plan_rate(self, seconds=64):
        source, statuses, start = self.fresh_client(), [], time.monotonic()
        while time.monotonic() - start < seconds:
            began = time.monotonic()
            statuses.append(self.call("POST", "/api/runs/plan", {"start": CENTRE, "distance_km": 30, "sheltered": True,
                                                                  "seed": len(statuses)}, source=source)[0])
            time.sleep(max(0.0, 2.0 - (time.monotonic() - began)))
        return self.tally(statuses)

    def pictures(self):
        bomb = png(6324, 6324, 16)
        users = [self.sign_up() for _ in range(2)]
        results = self.parallel([(("PUT", "/api/account/avatar"), {"raw": bomb, "headers": {
            "Content-Type": "image/png", "Authorization": f"Bearer {token}"}}) for _, token in users])
        return f"{len(bomb) // 1024} KiB PNG declaring 6324 × 6324 16-bit RGBA, two in parallel: " + ", ".join(
            f"{r[0]} in {r[2] * 1000:.0f} ms" for r in results)

    def slow_connections(self, count=200, seconds=95):
        sockets = []
        for _ in range(count):
            connection = socket.create_connection((self.host, self.port), source_address=(self.fresh_client(), 0))
            connection.sendall(b"GET /healthz HTTP/1.1\r\nHost: probe\r\nX-Slow: ")
            sockets.append(connection)
        start = time.monotonic()
        while time.monotonic() - start < seconds:
            for connection in sockets:
                try:
                    connection.sendall(b"a")
                except OSError:
                    pass
            time.sleep(5)
        open_count = answered_408 = 0
        for connection in sockets:
            # Open means no end of stream yet; an answer before the end (408) is read through first.
            connection.setblocking(False)
            received = b""
            try:
                while True:
                    data = connection.recv(65536)
                    if not data:
                        break
                    received += data
            except BlockingIOError:
                open_count += 1
            except OSError:
                pass
            answered_408 += received.startswith(b"HTTP/1.1 408 ")
            connection.close()
        self.record(f"{count} connections sending a request head one byte every 5 s",
                    f"{open_count} open after {seconds} s ({answered_408} answered 408)")

    def enumeration(self):
        name, _ = self.sign_up()
        source = self.fresh_client()
        statuses = [self.call("POST", "/api/account", {
            "first_name": "Eve", "last_name": "E", "username": "eve" + uuid.uuid4().hex[:8],
            "email": f"{name}@example.org", "password": PASSWORD, "password_confirmation": PASSWORD},
            source=source)[0] for _ in range(300)]
        self.record("300 sign-up probes of a taken email, one address", self.tally(statuses))
        source = self.fresh_client()
        statuses = [self.call("POST", "/api/password-reset/verify", {"email": f"{email}@example.org", "code": "123456"},
                              source=source)[0] for email in [name, "nobody" + uuid.uuid4().hex[:6]] * 15]
        self.record("30 reset-code probes (known/unknown alternating), one address", self.tally(statuses))


def haversine(a, b):
    from math import asin, cos, radians, sin, sqrt
    lon1, lat1, lon2, lat2 = map(radians, (*a, *b))
    h = sin((lat2 - lat1) / 2) ** 2 + cos(lat1) * cos(lat2) * sin((lon2 - lon1) / 2) ** 2
    return 2 * 6_371_008.8 * asin(sqrt(h))


def png(width, height, depth):
    """An RGBA PNG of zeros: a few hundred kilobytes at most, decoding to width × height pixels."""
    compressor = zlib.compressobj(9)
    row = bytes(1 + width * 4 * depth // 8)
    compressed = b"".join(compressor.compress(row) for _ in range(height)) + compressor.flush()

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, depth, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", compressed) + chunk(b"IEND", b"")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url")
    parser.add_argument("--only", nargs="*")
    parser.add_argument("--slow-seconds", type=int, default=95)
    args = parser.parse_args()
    probe = Probe(args.url)
    steps = {
        "saves": lambda: (probe.saves(20), probe.saves(100)),
        "passwords": lambda: (probe.wrong_passwords(), probe.right_password_among_guesses()),
        "signups": probe.sign_up_flood,
        "spray": probe.spray,
        "plans": lambda: (
            probe.under_load("4 parallel 30 km sheltered plans, one guest", lambda: probe.plans(["127.0.0.1"] * 4)),
            probe.under_load("4 parallel 30 km sheltered plans, four clients",
                             lambda: probe.plans([probe.fresh_client() for _ in range(4)]))),
        "plan-rate": lambda: probe.under_load("30 plans a minute for 64 s, one client", probe.plan_rate),
        "pictures": lambda: probe.under_load("picture decode bombs", probe.pictures),
        "enumeration": probe.enumeration,
        "slow": lambda: probe.slow_connections(seconds=args.slow_seconds),
    }
    print("| What | Result |\n| --- | --- |")
    for name, step in steps.items():
        if not args.only or name in args.only:
            step()


if __name__ == "__main__":
    main()
