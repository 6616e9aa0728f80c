"""Slow clients against the real `cairn serve` (issue 13 item 7, issue 22): connections that trickle a request
head or body a byte at a time are answered 408 and closed by the read timeouts while `/healthz` keeps its
latency; an idle keep-alive connection closes after the idle timeout (HTTPServerTests, in Swift, also hold a
request longer than the idle timeout and check that it is answered).

Timeouts are shortened through the documented settings so that the tests take seconds, not minutes."""

import http.client
import select
import socket
import statistics
import threading
import time

import pytest
from conftest import Server
from test_robustness import HealthProbe, assert_healthy_throughout

SETTINGS = {
    "CAIRN_HEADER_TIMEOUT_SECONDS": "2",
    "CAIRN_BODY_TIMEOUT_SECONDS": "2",
    "CAIRN_BODY_MIN_BYTES_PER_SECOND": "1000",
    "CAIRN_IDLE_TIMEOUT_SECONDS": "2",
}


@pytest.fixture(scope="module")
def slow_server():
    server = Server(env=SETTINGS)
    yield server
    server.cleanup()


class Trickler:
    """`count` connections that each send `opening`, then one byte of `padding` every `every` seconds, and
    record what they receive and when they are closed."""

    def __init__(self, server, count, opening, every=0.5):
        self.connections = []
        for index in range(count):
            # Each from its own loopback address, as many different clients would be.
            source = f"127.0.{10 + index // 200}.{1 + index % 200}"
            connection = socket.create_connection(("127.0.0.1", server.port), source_address=(source, 0))
            connection.sendall(opening)
            self.connections.append(connection)
        self.received = {connection: b"" for connection in self.connections}
        self.closed_after = {}
        self.every = every
        self.started = time.monotonic()
        self.done = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        next_byte = time.monotonic()
        while not self.done.is_set() and len(self.closed_after) < len(self.connections):
            open_ones = [c for c in self.connections if c not in self.closed_after]
            if time.monotonic() >= next_byte:
                for connection in open_ones:
                    try:
                        connection.send(b"a")
                    except OSError:
                        self.closed_after.setdefault(connection, time.monotonic() - self.started)
                next_byte += self.every
            readable, _, _ = select.select(open_ones, [], [], 0.05)
            for connection in readable:
                try:
                    data = connection.recv(65536)
                except OSError:
                    data = b""
                if data:
                    self.received[connection] += data
                else:
                    self.closed_after.setdefault(connection, time.monotonic() - self.started)

    def wait(self, seconds):
        self.thread.join(timeout=seconds)
        self.done.set()
        self.thread.join(timeout=5)
        for connection in self.connections:
            connection.close()
        return self


def test_trickled_request_heads_are_closed_while_healthz_keeps_its_latency(slow_server):
    probe = HealthProbe(slow_server)
    probe.start()
    time.sleep(1)
    trickler = Trickler(slow_server, 200, b"GET /healthz HTTP/1.1\r\nHost: cairn\r\nX-Slow: ")
    trickler.wait(8)
    time.sleep(1)
    probe.stop()

    assert len(trickler.closed_after) == 200, f"{len(trickler.closed_after)} of 200 closed"
    assert max(trickler.closed_after.values()) < 4.5, sorted(trickler.closed_after.values())[-5:]
    assert all(data.startswith(b"HTTP/1.1 408 ") for data in trickler.received.values())
    assert b"application/problem+json" in next(iter(trickler.received.values()))
    assert_healthy_throughout(probe)
    print(f"200 trickling heads closed after {statistics.median(trickler.closed_after.values()):.2f} s median, "
          f"{max(trickler.closed_after.values()):.2f} s at most; /healthz median "
          f"{statistics.median(probe.latencies) * 1000:.1f} ms, max {max(probe.latencies) * 1000:.1f} ms")


def test_trickled_request_bodies_are_answered_408_and_closed(slow_server):
    probe = HealthProbe(slow_server)
    probe.start()
    time.sleep(1)
    trickler = Trickler(slow_server, 50, b"POST /api/session HTTP/1.1\r\nHost: cairn\r\n"
                                         b"Content-Type: application/json\r\nContent-Length: 5000\r\n\r\n")
    trickler.wait(8)
    time.sleep(1)
    probe.stop()

    assert len(trickler.closed_after) == 50
    assert max(trickler.closed_after.values()) < 4.5
    assert all(data.startswith(b"HTTP/1.1 408 ") and b"too slowly" in data for data in trickler.received.values())
    assert_healthy_throughout(probe)


def test_an_idle_keep_alive_connection_serves_requests_then_closes_after_the_idle_timeout(slow_server):
    connection = http.client.HTTPConnection("127.0.0.1", slow_server.port, timeout=10)
    connection.request("GET", "/healthz")
    assert connection.getresponse().read()
    time.sleep(1)
    connection.request("GET", "/api/client-config")
    assert connection.getresponse().status == 200
    started = time.monotonic()
    connection.sock.settimeout(10)
    assert connection.sock.recv(1) == b""  # the server closed the idle connection
    idle_for = time.monotonic() - started
    connection.close()

    assert 1.8 < idle_for < 4.5, idle_for
