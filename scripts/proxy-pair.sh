#!/usr/bin/env bash
# Cairn as two instances behind a proxy, by hand: nginx on a free loopback port in front of two `cairn serve`
# (.build/debug/cairn, or CAIRN_BIN) on one throwaway PostgreSQL database and one data folder. Prints the
# address; Ctrl-C stops everything and deletes the temporary folders. `--demo` seeds the demo data first.
# The browser tests use the same pair: `pytest --pair e2e/test_accounts.py` (e2e/proxy_pair.py).
# Needs Debian's nginx and postgresql and the e2e virtualenv (`make test-deps`).
set -euo pipefail
cd "$(dirname "$0")/.."
exec .venv/bin/python e2e/proxy_pair.py "$@"
