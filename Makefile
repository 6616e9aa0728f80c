# Cairn. The README names the two targets that matter: `make run` and `make test`.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := run

HOST ?= 127.0.0.1
PORT ?= 8080
CAIRN_DATA_DIR ?= $(CURDIR)/data
export CAIRN_DATA_DIR

CAIRN := .build/debug/cairn
OSM_DIR := var/osm
HELSINKI_GRAPH := var/graphs/helsinki.cairngraph
CAIRN_RELEASE := .build/release/cairn
VENV := .venv

# Debian packages: what serving needs, and what testing adds.
RUN_PACKAGES := libjs-leaflet zlib1g-dev libsqlite3-dev ca-certificates unzip
TEST_PACKAGES := $(RUN_PACKAGES) postgresql chromium chromium-driver fonts-dejavu-core openssl

.PHONY: run deps build demo-data graphs test test-deps build-tests test-swift test-swift-sqlite test-swift-postgres \
	test-browser bench clean

## make run — install what is missing, build, migrate, load the demo and serve on http://$(HOST):$(PORT)
run: deps build demo-data graphs
	$(CAIRN) migrate
	$(CAIRN) seed-demo
	@echo "Cairn is starting on http://localhost:$(PORT) (Ctrl-C stops it)"
	CAIRN_STREET_GRAPH=$(CURDIR)/$(HELSINKI_GRAPH) $(CAIRN) serve --hostname $(HOST) --port $(PORT)

deps:
	scripts/apt-install.sh $(RUN_PACKAGES)

build:
	swift build --product cairn

## Demo data files (OpenStreetMap extracts, graphs) that `seed-demo` loads.
demo-data:
	scripts/fetch-osm-extracts.sh $(OSM_DIR)

## The walkable street graph of central Helsinki that the server loads (re-imported on every run: < 1 s).
graphs: demo-data build
	$(CAIRN) graph import $(OSM_DIR)/Helsinki.osm.pbf --out $(HELSINKI_GRAPH)

## make test — install test dependencies, then run every test: Swift on SQLite, Swift on PostgreSQL, browser
test: test-deps build-tests
	@start=$$(date +%s); \
	$(MAKE) --no-print-directory test-swift-sqlite; \
	$(MAKE) --no-print-directory test-swift-postgres; \
	$(MAKE) --no-print-directory test-browser; \
	echo "All tests passed in $$(( $$(date +%s) - start )) s."

test-deps:
	scripts/apt-install.sh $(TEST_PACKAGES)
	test -x $(VENV)/bin/python || python3 -m venv $(VENV)
	$(VENV)/bin/pip install -q --disable-pip-version-check -r e2e/requirements.txt

build-tests: demo-data
	swift build --build-tests

test-swift-sqlite:
	@echo "== Swift tests on SQLite"
	env -u CAIRN_TEST_DATABASE_URL swift test --skip-build

test-swift-postgres:
	@echo "== Swift tests on PostgreSQL"
	scripts/with-postgres.sh swift test --skip-build

test-browser:
	@echo "== Browser tests (Chromium, 390×844)"
	$(VENV)/bin/python -m pytest -q e2e

## make bench — release build, then every benchmark; results go to docs/benchmarks.md by hand
BENCH_NODES ?= 100000 1000000
BENCH_STREETS ?= 1500 15000
bench: demo-data
	swift build -c release --product cairn
	$(CAIRN_RELEASE) graph benchmark-import $(OSM_DIR)/Helsinki.osm.pbf
	$(CAIRN_RELEASE) graph benchmark-import --synthetic-nodes 1000000 --runs 3
	$(CAIRN_RELEASE) bench routing $(addprefix --nodes ,$(BENCH_NODES))
	$(CAIRN_RELEASE) bench suggestions $(addprefix --streets ,$(BENCH_STREETS))
	$(CAIRN_RELEASE) bench loops

clean:
	rm -rf .build var
