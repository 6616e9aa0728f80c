"""Cairn as two instances behind a proxy: nginx (Debian's package, run as an ordinary process with its own
prefix, configuration, pid and logs in a temporary folder, on a free loopback port) in front of two `cairn serve`
processes on one PostgreSQL database and one data folder (docs/operations.md, "Two instances behind a proxy").

`ProxyPair` answers like the single `Server` of conftest.py (`url`, `api`, `data_dir`, `run_cli`, `cleanup`), so
the module-scoped `server` fixture becomes a pair with `pytest --pair`; `served_by()` reads nginx's access log
to say which instance answered each request. By hand: `scripts/proxy-pair.sh` (this file as a program) prints
the address and stops everything on Ctrl-C.
"""

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path

from conftest import Server, free_port, wait_until_healthy

NGINX = os.environ.get("NGINX_BIN", "/usr/sbin/nginx")

# The largest body any route accepts (the field guide's CSV import, 32 MiB); each route's own smaller limit is
# Cairn's to enforce, with its problem+json 413.
MAX_BODY_MIB = 32

NGINX_CONF = """\
{user}
worker_processes 1;
daemon off;
pid {prefix}/nginx.pid;
error_log {prefix}/error.log notice;
events {{ worker_connections 1024; }}

http {{
    client_body_temp_path {prefix}/client_body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;
    # Which instance answered each request; tests mark the requests they count with an X-Pair-Label header.
    log_format pair '$upstream_addr $status $request_method $request_uri label=$http_x_pair_label';
    access_log {prefix}/access.log pair;

    # Plain round robin: consecutive requests go to alternate instances, whoever made the session.
    upstream cairn {{
{servers}
        keepalive 16;
    }}

    map $http_upgrade $connection_upgrade {{
        default upgrade;
        ''      '';
    }}

    server {{
        listen 127.0.0.1:{port};
        client_max_body_size {max_body_mib}m;
        # Above it nginx answers by itself: in Cairn's words (problem+json), not with nginx's HTML page.
        error_page 413 @too_large;
        location @too_large {{
            default_type application/problem+json;
            return 413 '{{"type":"about:blank","title":"Payload Too Large","status":413,"detail":"The request body is larger than this server accepts ({max_body_mib} MiB)."}}';
        }}
        location / {{
            proxy_pass http://cairn;
            proxy_http_version 1.1;
            # Keep-alive to the instances, and the WebSocket upgrade of /api/realtime (the only route that upgrades).
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            # Host with its port, so the same-site check compares the browser's Origin with the address it used.
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
            # Longer than two realtime pings (CAIRN_REALTIME_PING_SECONDS, 25 s) and than a long plan.
            proxy_read_timeout 120s;
            # A failed request is not sent again to the other instance: a test sees what the instance did.
            proxy_next_upstream off;
        }}
    }}
}}
"""


def vapid_private_key():
    """A new P-256 private key in PEM, the Web Push secret both instances sign with."""
    return subprocess.run(["openssl", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"],
                          check=True, capture_output=True, text=True).stdout


class ProxyPair:
    """nginx on a free loopback port in front of two `cairn serve` on `database` (a PostgreSQL URL)."""

    def __init__(self, database, env=None, seed_demo=False, streets=True, instances=2):
        self.prefix = Path(tempfile.mkdtemp(prefix="cairn-proxy-"))
        self.data_dir = Path(tempfile.mkdtemp(prefix="cairn-pair-data-"))
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.instances = []
        self.nginx = None
        shared = {
            "DATABASE_URL": database,
            "CAIRN_TRUST_PROXY": "true",
            "CAIRN_PUBLIC_URL": self.url,
            "CAIRN_VAPID_PRIVATE_KEY": vapid_private_key(),
            **(env or {}),
        }
        try:
            # One after the other: the first migrates the database, the second finds it migrated.
            for number in range(1, instances + 1):
                self.instances.append(Server(env=shared, seed_demo=seed_demo and number == 1, streets=streets,
                                             data_dir=self.data_dir, log_name=f"server-{number}.log"))
            self._start_nginx()
        except BaseException:
            self.cleanup()
            raise
        self.env = self.instances[0].env

    def _start_nginx(self):
        for folder in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (self.prefix / folder).mkdir()
        servers = "\n".join(f"        server 127.0.0.1:{instance.port} max_fails=0;" for instance in self.instances)
        # As root nginx's workers would switch to `nobody`, who cannot read this folder.
        user = "user root root;" if os.geteuid() == 0 else ""
        (self.prefix / "nginx.conf").write_text(NGINX_CONF.format(
            user=user, prefix=self.prefix, port=self.port, servers=servers, max_body_mib=MAX_BODY_MIB))
        self.nginx_log = open(self.prefix / "nginx.out", "w")
        self.nginx = subprocess.Popen([NGINX, "-p", str(self.prefix), "-c", str(self.prefix / "nginx.conf"),
                                       "-e", str(self.prefix / "error.log")],
                                      stdout=self.nginx_log, stderr=subprocess.STDOUT)
        wait_until_healthy(self.url, self.nginx, "nginx", lambda: (self.prefix / "error.log").read_text(), 20)

    def api(self, method, path, body=None, headers=None):
        """Calls the API through the proxy; returns (status, parsed JSON or None, headers)."""
        return Server.api(self, method, path, body, headers)

    def run_cli(self, *args, check=False, timeout=120):
        return self.instances[0].run_cli(*args, check=check, timeout=timeout)

    def served_by(self, label=None):
        """How many requests each instance answered so far, by its port (from nginx's access log, which has a
        request's line once its answer is sent); with `label`, only the requests sent with `X-Pair-Label: label`."""
        counts = Counter()
        log = self.prefix / "access.log"
        for line in (log.read_text().splitlines() if log.exists() else []):
            if label is not None and not line.endswith(f" label={label}"):
                continue
            for address in line.split(" ", 1)[0].split(","):
                match = re.fullmatch(r"127\.0\.0\.1:(\d+)", address.strip())
                if match:
                    counts[int(match.group(1))] += 1
        return {instance.port: counts[instance.port] for instance in self.instances}

    def stop(self):
        if self.nginx and self.nginx.poll() is None:
            self.nginx.send_signal(signal.SIGQUIT)
            try:
                self.nginx.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.nginx.kill()
                self.nginx.wait()
        if self.nginx:
            self.nginx_log.close()
        for instance in self.instances:
            instance.stop()

    def cleanup(self):
        self.stop()
        shutil.rmtree(self.prefix, ignore_errors=True)
        shutil.rmtree(self.data_dir, ignore_errors=True)


def main():
    from postgres import PostgresCluster

    cluster = PostgresCluster()
    pair = None
    try:
        pair = ProxyPair(cluster.create_database(), seed_demo="--demo" in sys.argv[1:])
        print(f"Cairn, two instances behind nginx: {pair.url}", flush=True)
        for number, instance in enumerate(pair.instances, 1):
            print(f"  instance {number}: {instance.url} (log {pair.data_dir}/server-{number}.log)", flush=True)
        print(f"  nginx: {pair.prefix} (access.log names the instance of each request); Ctrl-C stops everything",
              flush=True)
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
        while all(instance.process.poll() is None for instance in pair.instances) and pair.nginx.poll() is None:
            time.sleep(0.5)
        print("a process of the pair exited; stopping the rest", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 0
    finally:
        if pair:
            pair.cleanup()
        cluster.stop()


if __name__ == "__main__":
    sys.exit(main())
