"""A throwaway PostgreSQL cluster for end-to-end tests that run several `cairn serve` processes on one database
(the same recipe as scripts/with-postgres.sh: initdb in a temporary folder, a free loopback port, trust auth,
stopped and deleted at the end)."""

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from pathlib import Path


def _bin_dir():
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: [int(x) for x in Path(p).parent.name.split(".") if x.isdigit()])
    if not found or not os.access(f"{found[-1]}/initdb", os.X_OK):
        raise RuntimeError("PostgreSQL server binaries not found under /usr/lib/postgresql — run 'make test-deps'")
    return found[-1]


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PostgresCluster:
    def __init__(self):
        self.bin = _bin_dir()
        self.dir = Path(tempfile.mkdtemp(prefix="cairn-e2e-pg-"))
        self.port = _free_port()
        # initdb refuses to run as root: the server runs as the 'postgres' system user then.
        self.as_owner = []
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres")
            self.as_owner = ["runuser", "-u", "postgres", "--"]
        data = self.dir / "data"
        self._run([f"{self.bin}/initdb", "-D", str(data), "-U", "cairn", "-A", "trust", "-E", "UTF8", "--no-locale"])
        options = (f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c max_connections=400 "
                   "-c fsync=off -c synchronous_commit=off -c full_page_writes=off")
        self._run([f"{self.bin}/pg_ctl", "-D", str(data), "-l", str(self.dir / "server.log"), "-w", "-t", "30",
                   "start", "-o", options])

    def _run(self, command):
        result = subprocess.run(self.as_owner + command, capture_output=True, text=True, timeout=120)
        if result.returncode != 0:
            raise RuntimeError(f"{command[0]} failed: {result.stdout}{result.stderr}")

    def create_database(self):
        """A new empty database; its URL."""
        name = f"cairn_e2e_{uuid.uuid4().hex}"
        self._run([f"{self.bin}/psql", "-h", "127.0.0.1", "-p", str(self.port), "-U", "cairn", "-d", "postgres",
                   "-v", "ON_ERROR_STOP=1", "-c", f"CREATE DATABASE {name}"])
        return f"postgres://cairn@127.0.0.1:{self.port}/{name}"

    def stop(self):
        subprocess.run(self.as_owner + [f"{self.bin}/pg_ctl", "-D", str(self.dir / "data"), "-m", "immediate", "stop"],
                       capture_output=True, timeout=60)
        shutil.rmtree(self.dir, ignore_errors=True)
