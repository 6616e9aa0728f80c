"""Schemathesis against the served OpenAPI document (`make test-schemathesis`, its own step of `make test`).

A real `cairn serve` on loopback with the demo data and the Helsinki streets, rate limits off
(`CAIRN_RATE_LIMITS=off`: a limit would answer 429 to most generated requests before they reach validation),
is tested with every check schemathesis has, in its four phases (examples, coverage, fuzzing, stateful), with a
fixed seed and a bounded number of examples per operation: as a guest, signed in as the demo user (`cairn
seed-demo`'s, with kept routes, activities and friends) and signed in as a new member with nothing yet, each by a
bearer token. What one user may do to another's objects is the authorisation matrix's
(Tests/CairnServerTests), not this run's. A new route is covered by being in the document. Zero failures is the
only pass.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from accounts import sign_up_api
from conftest import Server, unique_name

SEED = int(os.environ.get("CAIRN_SCHEMATHESIS_SEED", "22"))
MAX_EXAMPLES = int(os.environ.get("CAIRN_SCHEMATHESIS_EXAMPLES", "5"))
SCHEMATHESIS = Path(sys.executable).parent / "st"


@pytest.fixture(scope="module")
def fuzzed_server():
    server = Server(seed_demo=True, env={"CAIRN_RATE_LIMITS": "off"})
    yield server
    server.cleanup()


DEMO_LOGIN, DEMO_PASSWORD = "demo", "Summit-Path-42!"  # DemoAccount in Sources/CairnAccounts/AccountsModule.swift


def sign_in_as_demo(server):
    status, body, _ = server.api(
        "POST", "/api/session", {"login": DEMO_LOGIN, "password": DEMO_PASSWORD, "session": "token"})
    assert status == 200, body
    return body["token"]


def schemathesis(server, run_dir, token=None):
    """Runs every check and phase; a signed-in run gives schemathesis the bearer token as the document's
    `bearerToken` scheme, so that its authentication checks (ignored_auth) can also leave it out."""
    config = (Path(__file__).parent / "schemathesis.toml").read_text()
    if token:
        config += f'\n[auth.openapi.bearerToken]\nbearer = "{token}"\n'
    config_file = run_dir / "schemathesis.toml"
    config_file.write_text(config)
    command = [
        str(SCHEMATHESIS), "--config-file", str(config_file), "run", f"{server.url}/openapi.json",
        "--checks", "all",
        "--phases", "examples,coverage,fuzzing,stateful",
        "--seed", str(SEED), "--max-examples", str(MAX_EXAMPLES),
        "--generation-database", "none",
        # One worker: with two, CPython 3.11's ast module (which hypothesis uses to describe lambdas) can fail
        # with "SystemError: AST constructor recursion depth mismatch" when two threads parse at once.
        "--request-timeout", "120", "--workers", "1",
        "--no-color", "--report", "junit", "--report-dir", str(run_dir / "report"),
    ]
    return subprocess.run(command, capture_output=True, text=True, timeout=900, cwd=run_dir)


def assert_no_failures(result):
    assert result.returncode == 0, result.stdout[-20000:] + result.stderr[-4000:]


def test_schemathesis_as_a_guest(fuzzed_server, tmp_path):
    assert_no_failures(schemathesis(fuzzed_server, tmp_path))


def test_schemathesis_signed_in_as_the_demo_user(fuzzed_server, tmp_path):
    token = sign_in_as_demo(fuzzed_server)
    assert_no_failures(schemathesis(fuzzed_server, tmp_path, token=token))


def test_schemathesis_signed_in_as_a_new_member(fuzzed_server, tmp_path):
    token = sign_up_api(fuzzed_server, unique_name("fuzzed"))["token"]
    assert_no_failures(schemathesis(fuzzed_server, tmp_path, token=token))
