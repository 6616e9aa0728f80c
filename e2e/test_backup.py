"""`cairn backup` and `cairn restore` on the real binary: a running server's data backed up while writes go on,
restored into an empty folder, compared table by table and file by file, and served again."""

import hashlib
import sqlite3
import struct
import subprocess
import threading
import urllib.request
import zlib
from pathlib import Path

from accounts import PASSWORD, sign_up_api
from conftest import CAIRN, ROOT, unique_name


def png(width, height):
    compressed = zlib.compress(bytes(1 + width * 4) * height, 9)

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", compressed) + chunk(b"IEND", b""))


def sign_up(server, username):
    return sign_up_api(server, username, last_name="Keeper")["token"]


def cli(env, *args):
    return subprocess.run([str(CAIRN), *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)


def tables(path):
    """Every table's rows, sorted, by table name (SQLite's own tables left out)."""
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        names = [row[0] for row in connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")]
        return {name: sorted(map(repr, connection.execute(f'SELECT * FROM "{name}"'))) for name in names}
    finally:
        connection.close()


def files(folder):
    """The data folder's files (not the live database) by relative path, with their SHA-256."""
    skip = {"cairn.sqlite", "cairn.sqlite-wal", "cairn.sqlite-shm", "server.log"}
    return {str(path.relative_to(folder)): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(folder.rglob("*")) if path.is_file() and str(path.relative_to(folder)) not in skip}


def test_a_backup_of_a_running_server_restores_into_an_empty_folder_with_the_same_data(start_server, tmp_path):
    server = start_server(seed_demo=True)
    names = [unique_name("keeper") for _ in range(3)]
    tokens = [sign_up(server, name) for name in names]
    request = urllib.request.Request(f"{server.url}/api/account/avatar", data=png(64, 64), method="PUT",
                                     headers={"Authorization": f"Bearer {tokens[0]}", "Content-Type": "image/png"})
    with urllib.request.urlopen(request, timeout=60) as response:
        assert response.status == 200

    # Writes go on while the backup is made: the copy is one committed moment, whole.
    stop = threading.Event()
    written = []

    def write():
        while not stop.is_set():
            name = unique_name("during")
            sign_up(server, name)
            written.append(name)

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    archive = tmp_path / "cairn-backup.tar.gz"
    result = cli(server.env, "backup", "--to", str(archive))
    stop.set()
    writer.join(timeout=60)
    assert result.returncode == 0, result.stderr
    assert "Backed up the database" in result.stdout
    assert archive.stat().st_size > 0
    assert written, "no write ran during the backup"

    # A second backup to the same file is refused: nothing is overwritten.
    again = cli(server.env, "backup", "--to", str(archive))
    assert again.returncode != 0
    assert "exists already" in again.stderr

    # Stop the server and back up once more, now that nothing changes, to compare exactly.
    server.stop()
    final = tmp_path / "final.tar.gz"
    assert cli(server.env, "backup", "--to", str(final)).returncode == 0

    restored = tmp_path / "restored"
    env = {**server.env, "CAIRN_DATA_DIR": str(restored)}
    result = cli(env, "restore", "--from", str(final))
    assert result.returncode == 0, result.stderr
    assert "integrity check" in result.stdout
    assert tables(restored / "cairn.sqlite") == tables(server.data_dir / "cairn.sqlite")
    assert files(restored) == files(server.data_dir)
    assert any(name.startswith("users/") for name in files(restored)), files(restored)

    # The first backup, made under writes, restores whole too, with every account that it holds signing in.
    during = tmp_path / "during"
    result = cli({**server.env, "CAIRN_DATA_DIR": str(during)}, "restore", "--from", str(archive))
    assert result.returncode == 0, result.stderr
    connection = sqlite3.connect(during / "cairn.sqlite")
    assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    connection.close()

    # Restoring over data is refused, and leaves the data as it was.
    before = files(restored)
    refused = cli(env, "restore", "--from", str(final))
    assert refused.returncode != 0
    assert "is not empty" in refused.stderr
    assert files(restored) == before

    # The restored folder serves: the accounts sign in.
    again = start_server(data_dir=restored)
    for name in names:
        status, body, _ = again.api("POST", "/api/session", {"login": name, "password": PASSWORD, "session": "token"})
        assert status == 200, body


def test_a_file_that_is_not_a_backup_is_refused_and_nothing_is_written(tmp_path):
    junk = tmp_path / "junk.tar.gz"
    junk.write_bytes(b"not an archive")
    target = tmp_path / "data"
    env = {"PATH": "/usr/bin:/bin", "CAIRN_DATA_DIR": str(target), "CAIRN_WEB_DIR": str(ROOT / "Web")}
    result = cli(env, "restore", "--from", str(junk))
    assert result.returncode != 0
    assert "not a Cairn backup" in result.stderr
    assert not (target / "cairn.sqlite").exists()


def test_on_postgresql_backup_says_how_to_use_pg_dump(tmp_path):
    env = {"PATH": "/usr/bin:/bin", "CAIRN_DATA_DIR": str(tmp_path),
           "DATABASE_URL": "postgres://cairn@127.0.0.1:1/cairn"}
    result = cli(env, "backup", "--to", str(tmp_path / "x.tar.gz"))
    assert result.returncode != 0
    assert "pg_dump" in result.stderr and "pg_restore" in result.stderr
    assert not (tmp_path / "x.tar.gz").exists()
