"""The `cairn` command as an operator meets it: start-up faults and graceful shutdown."""

import os
import signal
import socket
import subprocess
import tempfile
import time

from conftest import CAIRN, ROOT, free_port


def run(*args, env=None, timeout=60):
    environment = {key: value for key, value in os.environ.items() if key != "DATABASE_URL"}
    environment.setdefault("CAIRN_DATA_DIR", tempfile.mkdtemp(prefix="cairn-cli-"))
    environment.update(env or {})
    return subprocess.run([str(CAIRN), *args], cwd=ROOT, env=environment, capture_output=True, text=True,
                          timeout=timeout)


def one_clear_line(result):
    lines = [line for line in (result.stdout + result.stderr).splitlines() if line.strip()]
    assert result.returncode != 0
    assert len(lines) == 1, f"expected one line, got: {lines}"
    assert "Traceback" not in lines[0] and "Fatal error" not in lines[0]
    return lines[0]


def test_port_in_use_is_one_clear_line():
    with socket.socket() as blocker:
        blocker.bind(("127.0.0.1", 0))
        blocker.listen()
        port = blocker.getsockname()[1]

        line = one_clear_line(run("serve", "--port", str(port)))

    assert f"port {port} on 127.0.0.1 is already in use" in line
    assert "--port" in line


def test_unreachable_database_url_is_one_clear_line_without_the_password():
    line = one_clear_line(run("serve", "--port", str(free_port()),
                              env={"DATABASE_URL": f"postgres://cairn:hunter2@127.0.0.1:{free_port()}/cairn"}))

    assert "cannot reach the database" in line and "connection refused" in line
    assert "DATABASE_URL" in line
    assert "hunter2" not in line


def test_unwritable_data_dir_is_one_clear_line():
    line = one_clear_line(run("migrate", env={"CAIRN_DATA_DIR": "/proc/cairn"}))

    assert "/proc/cairn is not writable" in line and "CAIRN_DATA_DIR" in line


def test_missing_leaflet_is_one_clear_line():
    line = one_clear_line(run("serve", "--port", str(free_port()), env={"CAIRN_LEAFLET_DIR": "/nonexistent"}))

    assert "libjs-leaflet" in line and "CAIRN_LEAFLET_DIR" in line


def test_malformed_setting_is_one_clear_line():
    line = one_clear_line(run("migrate", env={"CAIRN_IDLE_TIMEOUT_SECONDS": "soon"}))

    assert "CAIRN_IDLE_TIMEOUT_SECONDS" in line


def test_sigterm_finishes_gracefully(start_server):
    server = start_server()
    status, _, _ = server.api("GET", "/healthz")
    assert status == 200

    server.process.send_signal(signal.SIGTERM)

    assert server.process.wait(timeout=20) == 0
    log = (server.data_dir / "server.log").read_text()
    assert "shutting down" in log


def test_sqlite_file_is_created_in_the_data_dir_in_wal_mode(server):
    database = server.data_dir / "cairn.sqlite"
    assert database.exists()
    with open(database, "rb") as file:
        header = file.read(20)
    assert header[:16] == b"SQLite format 3\x00"
    assert header[18] == 2 and header[19] == 2, "WAL mode sets the file format version bytes to 2"
