#!/usr/bin/env python3
"""Re-measures what the probe of issue 13 measured, against a running `cairn serve` on loopback (seeded with
`cairn seed-demo`, street graph loaded): concurrent saves, parallel password guesses, sign-up floods, planning
and picture load while /healthz is timed, slow connections, enumeration probes. Prints one Markdown table.

Usage: scripts/probe-server.py http://127.0.0.1:8080 [--only NAME ...] [--slow-seconds 95]
       scripts/probe-server.py http://127.0.0.1:8081 --only hidden --outbox DATA_DIR/outbox
The `hidden` step needs a server started with CAIRN_RESET_UNKNOWN_EMAIL=hide and its outbox folder (it opens the
mailed sign-up link); every other step needs the default `tell`.
Every request goes to the given loopback server; clients are told apart by their loopback source address."""

import argparse
import email
import email.policy
import http.client
import json
import re
import socket
import statistics
import struct
import threading
import time
import uuid
import zlib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
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

    def call(self, method, path, body=None, raw=None, headers=None, source="127.0.0.1", timeout=300,
             with_headers=False):
        connection = http.client.HTTPConnection(self.host, self.port, timeout=timeout, source_address=(source, 0))
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        started = time.monotonic()
        try:
            connection.request(method, path, body=data,
                               headers={"Content-Type": "application/json", **(headers or {})})
            response = connection.getresponse()
            answer = (response.status, response.read(), time.monotonic() - started)
            return (*answer, response.getheaders()) if with_headers else answer
        except (ConnectionError, http.client.HTTPException, socket.timeout) as error:
            answer = (type(error).__name__, b"", time.monotonic() - started)
            return (*answer, []) if with_headers else answer
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

    def crash(self):
        """Issue 13 item 1: a planned route with a negative length ended the process."""
        _, token = self.sign_up()
        body = {"distance_km": 4, "sheltered": True, "length_m": -1, "sheltered_m": 0,
                "geometry": {"type": "LineString", "coordinates": [list(p) for p in SQUARE]}}
        status = self.call("POST", "/api/runs/planned", body, headers={"Authorization": f"Bearer {token}"})[0]
        alive = self.call("GET", "/healthz")[0]
        self.record("planned route with length_m -1, sheltered_m 0", f"{status}; /healthz then {alive}")

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


class HiddenSignUp:
    """Sign-up on a server with CAIRN_RESET_UNKNOWN_EMAIL=hide, reading the mailed link from its outbox folder."""

    def __init__(self, probe, outbox):
        self.probe, self.outbox = probe, Path(outbox)

    def form(self, username, address):
        return {"first_name": "Eve", "last_name": "E", "username": username, "email": address,
                "password": PASSWORD, "password_confirmation": PASSWORD}

    def link_token(self, address, timeout=20):
        deadline = time.time() + timeout
        while time.time() < deadline:
            for path in sorted(self.outbox.glob("*.eml"), reverse=True):
                message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
                if address in message["To"] and "Finish signing up" in str(message["Subject"]):
                    return re.search(r"confirm-sign-up/([A-Za-z0-9_-]+)", message.get_content()).group(1)
            time.sleep(0.1)
        raise AssertionError(f"no sign-up link for {address}")

    def run(self):
        probe = self.probe
        known = "k" + uuid.uuid4().hex[:11]
        status = probe.call("POST", "/api/account", self.form(known, f"{known}@example.org"),
                            source=probe.fresh_client())[0]
        assert status == 202, status
        status = probe.call("POST", "/api/account/sign-up-confirmation",
                            {"token": self.link_token(f"{known}@example.org"), "session": "token"})[0]
        assert status == 201, status

        def comparable(answer, address):
            status, body, _, headers = answer
            kept = sorted((name.lower(), value) for name, value in headers
                          if name.lower() not in ("date", "x-request-id"))
            return status, body.decode().replace(address, "X"), kept

        registered, new, same, times = [], [], 0, {"registered": [], "new": []}
        for round_number in range(20):
            unknown = "n" + uuid.uuid4().hex[:11]
            source = probe.fresh_client()
            a = probe.call("POST", "/api/account", self.form("a" + uuid.uuid4().hex[:11], f"{known}@example.org"),
                           source=source, with_headers=True)
            b = probe.call("POST", "/api/account", self.form("b" + uuid.uuid4().hex[:11], f"{unknown}@example.org"),
                           source=source, with_headers=True)
            registered.append(a[0])
            new.append(b[0])
            same += comparable(a, f"{known}@example.org") == comparable(b, f"{unknown}@example.org")
            times["registered"].append(a[2])
            times["new"].append(b[2])
        probe.record(
            "sign-up with a registered vs a new email, 20 pairs (CAIRN_RESET_UNKNOWN_EMAIL=hide)",
            f"registered: {probe.tally(registered)}; new: {probe.tally(new)}; status, body and headers identical "
            f"in {same} of 20 pairs; median {statistics.median(times['registered']) * 1000:.0f} ms vs "
            f"{statistics.median(times['new']) * 1000:.0f} ms")
        source = probe.fresh_client()
        answers = [probe.call("POST", "/api/password-reset/verify", {"email": f"{who}@example.org", "code": "123456"},
                              source=source) for who in [known, "nobody" + uuid.uuid4().hex[:6]] * 15]
        probe.record("30 reset-code probes (known/unknown alternating), one address (hide)",
                     f"known: {probe.tally(a[0] for a in answers[0::2])}; "
                     f"unknown: {probe.tally(a[0] for a in answers[1::2])}")


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
    parser.add_argument("--outbox", help="the outbox folder of a server with CAIRN_RESET_UNKNOWN_EMAIL=hide")
    args = parser.parse_args()
    probe = Probe(args.url)
    steps = {
        "crash": probe.crash,
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
        "hidden": lambda: HiddenSignUp(probe, args.outbox).run(),
    }
    print("| What | Result |\n| --- | --- |")
    for name, step in steps.items():
        if (not args.only and name != "hidden") or (args.only and name in args.only):
            step()


if __name__ == "__main__":
    main()
