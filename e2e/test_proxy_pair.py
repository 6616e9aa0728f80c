"""Two instances behind nginx (e2e/proxy_pair.py, issue 22): requests alternate between the instances, and what
must not depend on the instance does not — a session, a rate limit, an uploaded picture, a live-update socket,
the client address nginx forwards and the body sizes it lets through. The browser files run against the same
pair with `pytest --pair` (the Makefile's test-browser-pair)."""

import http.client
import json
import struct
import time
import urllib.error
import urllib.request
import zlib

import pytest

from accounts import PASSWORD
from conftest import postgres_cluster, unique_name
from proxy_pair import ProxyPair
from realtime_client import RealtimeClient


@pytest.fixture(scope="module")
def pair():
    running = ProxyPair(postgres_cluster().create_database(), env={"CAIRN_REALTIME_ECHO": "on"}, streets=False)
    yield running
    running.cleanup()


def sign_up(pair, prefix):
    """A new account made through the proxy; (its username, the Authorization header of its session)."""
    username = unique_name(prefix)
    status, body, _ = pair.api("POST", "/api/account", {
        "first_name": "Pia", "last_name": "Pair", "username": username, "email": f"{username}@example.org",
        "password": PASSWORD, "password_confirmation": PASSWORD, "session": "token"})
    assert status == 201, body
    return username, {"Authorization": f"Bearer {body['token']}"}


def labelled():
    """A header that marks requests for `served`."""
    return {"X-Pair-Label": unique_name("label")}


def served(pair, label, requests):
    """Which instances answered the `requests` sent with `label`: their counts, sorted, once all are logged."""
    deadline = time.time() + 10
    while sum((counts := pair.served_by(label["X-Pair-Label"])).values()) < requests and time.time() < deadline:
        time.sleep(0.05)
    return sorted(counts.values())


def raw(pair, method, path, data, headers):
    request = urllib.request.Request(f"{pair.url}{path}", data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def png(width, height):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(bytes(1 + width * 4) * height, 9)) + chunk(b"IEND", b""))


def test_consecutive_requests_alternate_between_the_instances(pair):
    label = labelled()

    statuses = [pair.api("GET", "/healthz", headers=label)[0] for _ in range(6)]

    assert statuses == [200] * 6
    assert served(pair, label, 6) == [3, 3]


def test_a_session_made_on_one_instance_is_known_to_both(pair):
    username, auth = sign_up(pair, "pair")
    label = labelled()

    answers = [pair.api("GET", "/api/account", headers={**auth, **label}) for _ in range(4)]

    assert [status for status, _, _ in answers] == [200] * 4
    assert {body["username"] for _, body, _ in answers} == {username}
    assert served(pair, label, 4) == [2, 2]


def log_in_from(pair, source, body, headers=None):
    """POST /api/session through nginx on a connection from the loopback address `source`; the status."""
    connection = http.client.HTTPConnection("127.0.0.1", pair.port, timeout=30, source_address=(source, 0))
    try:
        connection.request("POST", "/api/session", body=json.dumps(body),
                           headers={"Content-Type": "application/json", **(headers or {})})
        return connection.getresponse().status
    finally:
        connection.close()


def test_failed_logins_count_on_both_instances_per_address_nginx_saw(pair):
    username, _ = sign_up(pair, "guess")
    wrong = {"login": username, "password": "not-the-password"}

    # Five failures are allowed per account and client address (AccountsRateLimits), here spread over both
    # instances. The address is the one nginx saw and appended to X-Forwarded-For: one the client sends itself
    # does not make it a new client.
    first = [log_in_from(pair, "127.0.0.2", wrong, {"X-Forwarded-For": f"203.0.113.{n}"}) for n in range(5)]
    sixth = log_in_from(pair, "127.0.0.2", wrong, {"X-Forwarded-For": "198.51.100.7"})
    elsewhere = log_in_from(pair, "127.0.0.3", wrong)

    assert first == [401] * 5
    assert sixth == 429
    assert elsewhere == 401, "another address behind the same proxy is another client (CAIRN_TRUST_PROXY)"


def test_a_picture_uploaded_through_one_instance_is_served_by_both(pair):
    _, auth = sign_up(pair, "pic")
    status, _, answer = raw(pair, "PUT", "/api/account/avatar", png(64, 48), {**auth, "Content-Type": "image/png"})
    assert status == 200, answer
    _, account, _ = pair.api("GET", "/api/account", headers=auth)
    label = labelled()

    pictures = [raw(pair, "GET", account["profile"]["avatar_url"], None, label) for _ in range(2)]

    assert [status for status, _, _ in pictures] == [200, 200]
    assert pictures[0][2] == pictures[1][2] and pictures[0][2].startswith(b"\x89PNG")
    assert served(pair, label, 2) == [1, 1]


def test_bodies_pass_nginx_up_to_the_largest_route_limit_and_cairn_refuses_with_its_own_problem(pair):
    _, auth = sign_up(pair, "big")
    headers = {**auth, "Content-Type": "image/png"}

    # 6 MiB: over the avatar's 5 MiB, under nginx's 32 MiB — Cairn's answer, not nginx's page.
    status, answer_headers, answer = raw(pair, "PUT", "/api/account/avatar", bytes(6 << 20), headers)

    assert status == 413
    assert answer_headers["Content-Type"].startswith("application/problem+json"), answer[:200]

    # 33 MiB: over nginx's own limit — nginx answers, in the same problem+json.
    status, answer_headers, answer = raw(pair, "PUT", "/api/account/avatar", bytes(33 << 20), headers)

    assert status == 413
    assert answer_headers["Content-Type"].startswith("application/problem+json"), answer[:200]
    assert json.loads(answer)["status"] == 413


def test_live_updates_cross_the_proxy_and_the_instances(pair):
    label = labelled()
    header = [f"X-Pair-Label: {label['X-Pair-Label']}"]
    first, second = RealtimeClient(pair, headers=header), RealtimeClient(pair, headers=header)
    first.subscribe("realtime.echo.pair")
    second.subscribe("realtime.echo.pair")

    first.publish("realtime.echo.pair", {"said": "across"})
    received = second.next_of("event")
    first.close()
    second.close()

    assert received["payload"] == {"said": "across"}
    # The two sockets' upgrades went one to each instance (nginx logs a socket when it closes).
    assert served(pair, label, 2) == [1, 1]
