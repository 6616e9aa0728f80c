#!/usr/bin/env bash
# Installs the routing peers of `make bench` and runs them on one OSM file and the query points Cairn uses:
# OSRM through the osrm-bindings wheel from PyPI (engine and tools; it needs Python 3.12, which pyenv has on
# this machine kind), in a venv under var/peers/, and Routino from Debian. Writes scripts/bench_peers.py's
# JSON, which `cairn-bench routing --peers FILE` turns into Cairn ÷ peer ratios. Nothing of the peers is
# committed: they are installed here, their data built under var/peers/.
# Usage: scripts/bench-peers.sh OSM_FILE PAIRS_JSON OUT_JSON
# OSRM runs with both its algorithms (CH and MLD) unless BENCH_OSRM_ALGORITHMS names fewer (e.g. MLD).
set -euo pipefail

[ $# -eq 3 ] || { echo "usage: $0 OSM_FILE PAIRS_JSON OUT_JSON" >&2; exit 2; }
osm=$1 pairs=$2 out=$3
work=${BENCH_PEERS_DIR:-var/peers}
osrm_wheel="osrm-bindings==26.10.0"

"$(dirname "$0")/apt-install.sh" routino libroutino0

python=$(command -v python3.12 || true)
if [ -z "$python" ] && command -v pyenv >/dev/null; then
  python=$(ls "$(pyenv root)"/versions/3.12*/bin/python3.12 2>/dev/null | tail -1 || true)
fi
[ -n "$python" ] || { echo "error: OSRM's wheel needs Python 3.12 (python3.12 or a pyenv 3.12)" >&2; exit 1; }
venv=$work/osrm-venv
if ! "$venv/bin/python" -c "import osrm" 2>/dev/null; then
  echo "Installing $osrm_wheel into $venv"
  "$python" -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check "$osrm_wheel"
fi

# A folder named after the file without its extensions: OSRM refuses data under a folder called *.osm.pbf.
name=$(basename "$osm")
data="$work/${name%%.*}"
mkdir -p "$data"
echo "Peers on $osm (OSRM, Routino): preprocessing, then the queries of $pairs" >&2
"$venv/bin/python" "$(dirname "$0")/bench_peers.py" --osm "$osm" --pairs "$pairs" --work "$data" \
  --osrm-algorithms "${BENCH_OSRM_ALGORITHMS:-CH,MLD}" > "$out.part"
mv "$out.part" "$out"
