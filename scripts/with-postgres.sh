#!/usr/bin/env bash
# Runs a command against a throwaway PostgreSQL cluster: initdb in a temporary folder, start it on a free
# loopback port, export CAIRN_TEST_DATABASE_URL, run the command, then stop the cluster and delete it.
# Usage: scripts/with-postgres.sh COMMAND [ARGS...]
set -euo pipefail

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
  echo "error: PostgreSQL server binaries not found under /usr/lib/postgresql — run 'make test-deps' (apt-get install postgresql)" >&2
  exit 1
fi

dir=$(mktemp -d /tmp/cairn-pg.XXXXXX)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

# initdb refuses to run as root; run the server as the 'postgres' system user then.
as_owner=()
if [ "$(id -u)" = "0" ]; then
  chown postgres: "$dir"
  as_owner=(runuser -u postgres --)
fi

cleanup() {
  "${as_owner[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap cleanup EXIT

"${as_owner[@]}" "$bin/initdb" -D "$dir/data" -U cairn -A trust -E UTF8 --no-locale >"$dir/initdb.log" 2>&1 \
  || { cat "$dir/initdb.log" >&2; exit 1; }
"${as_owner[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 start -o \
  "-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=1000 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
  >/dev/null || { cat "$dir/server.log" >&2; exit 1; }

export CAIRN_TEST_DATABASE_URL="postgres://cairn@127.0.0.1:$port/postgres"
echo "PostgreSQL $(basename "$(dirname "$bin")") running on 127.0.0.1:$port (throwaway cluster in $dir)"
"$@"
