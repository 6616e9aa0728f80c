# Cairn. The README names the two targets that matter: `make run` and `make test`.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := run

HOST ?= 127.0.0.1
PORT ?= 8080
CAIRN_DATA_DIR ?= $(CURDIR)/data
export CAIRN_DATA_DIR

# `make run` serves an optimised build; the tests (and e2e/, which runs .build/debug/cairn) use the debug one.
CAIRN := .build/release/cairn
OSM_DIR := var/osm
HELSINKI_GRAPH := var/graphs/helsinki.cairngraph
CAIRN_BENCH := .build/release/cairn-bench
VENV := .venv

# Debian packages: what serving needs, and what testing adds.
RUN_PACKAGES := libjs-leaflet zlib1g-dev libbz2-dev libsqlite3-dev libxml2 ca-certificates unzip
TEST_PACKAGES := $(RUN_PACKAGES) libxml2-dev postgresql chromium chromium-driver fonts-dejavu-core openssl nodejs nginx

# Every build checks that each target imports only what Package.swift lists for it.
SWIFT_BUILD := swift build --explicit-target-dependency-import-check error

.PHONY: run parking-sim deps build demo-data graphs test test-deps build-tests test-swift test-swift-sqlite test-swift-postgres \
	test-js test-browser test-browser-pair test-schemathesis lint bench bench-http bench-realtime bench-parking bench-trails bench-ski bench-messaging bench-load clean

## make run — install what is missing, build, migrate, load the demo and serve on http://$(HOST):$(PORT)
run: deps build demo-data graphs
	$(CAIRN) migrate
	$(CAIRN) seed-demo
	$(CAIRN) trails import $(OSM_DIR)/Helsinki.osm.pbf --demo --region Uusimaa
	@echo "Cairn is starting on http://localhost:$(PORT) (Ctrl-C stops it)"
	CAIRN_STREET_GRAPH=$(CURDIR)/$(HELSINKI_GRAPH) $(CAIRN) serve --hostname $(HOST) --port $(PORT)

## make parking-sim — while `make run` serves, sensor traffic for every demo lot through the real ingest endpoint
## (a new gateway each time; stops after PARKING_SIM_SECONDS).
PARKING_SIM_RATE ?= 5
PARKING_SIM_SECONDS ?= 3600
parking-sim:
	@out=$$($(CAIRN) parking gateway create --name simulator --lot P1 --lot P2 --lot P30 --lot P5 --lot P6 --lot P20 --lot P31); \
	gateway=$$(echo "$$out" | awk '/^gateway/ {print $$2}'); secret=$$(echo "$$out" | awk '/^secret/ {print $$2}'); \
	$(CAIRN) parking simulate --url http://$(HOST):$(PORT) --gateway $$gateway --secret $$secret \
		--rate $(PARKING_SIM_RATE) --duration $(PARKING_SIM_SECONDS)

deps:
	scripts/apt-install.sh $(RUN_PACKAGES)

build:
	$(SWIFT_BUILD) -c release --product cairn

## Demo data files (OpenStreetMap extracts, graphs) that `seed-demo` loads.
demo-data:
	scripts/fetch-osm-extracts.sh $(OSM_DIR)

## The walkable street graph of central Helsinki that the server loads (re-imported on every run: < 1 s).
graphs: demo-data build
	$(CAIRN) graph import $(OSM_DIR)/Helsinki.osm.pbf --out $(HELSINKI_GRAPH)

## make test — install test dependencies, then run every test: the Swift format lint, JavaScript units, Swift on
## SQLite, Swift on PostgreSQL, schemathesis against the OpenAPI document, browser. Warnings in Cairn's own targets
## are errors here (CI runs this).
test: test-deps lint build-tests
	@start=$$(date +%s); \
	$(MAKE) --no-print-directory test-js; \
	$(MAKE) --no-print-directory test-swift-sqlite; \
	$(MAKE) --no-print-directory test-swift-postgres; \
	$(MAKE) --no-print-directory test-schemathesis; \
	$(MAKE) --no-print-directory test-browser; \
	echo "All tests passed in $$(( $$(date +%s) - start )) s."

test-deps:
	scripts/apt-install.sh $(TEST_PACKAGES)
	test -x $(VENV)/bin/python || python3 -m venv $(VENV)
	$(VENV)/bin/python -m pip install -q --disable-pip-version-check -r e2e/requirements.txt

# `swift test` reads Package.swift again, so the test targets keep the same settings as the build.
build-tests test-swift-sqlite test-swift-postgres: export CAIRN_WARNINGS_AS_ERRORS = 1

build-tests: demo-data
	$(SWIFT_BUILD) --build-tests

## Swift style: the repository's .swift-format, strictly (a finding fails).
lint:
	swift format lint --strict --recursive --parallel Package.swift Sources Tests

## The parking holds race (1,000 simultaneous requests for one spot, 20 rounds) runs on its own after the other
## tests: beside them it takes PostgreSQL's CPU and connections, and their connects time out.
ALONE_TESTS := aThousandSimultaneousHoldsOfOneSpotGiveExactlyOne201
## The HTTP server's timeouts, the realtime hub's heartbeats and the weather deadline are measured in wall-clock
## seconds: they run after the 700 others, not beside them, where a starved event loop stretches those seconds.
TIMING_TESTS := HTTPServerTests|RealtimeHubTests|slowServerTimesOut

test-swift-sqlite:
	@echo "== Swift tests on SQLite"
	env -u CAIRN_TEST_DATABASE_URL scripts/swift-test.sh --skip-build --skip '$(ALONE_TESTS)|$(TIMING_TESTS)'
	env -u CAIRN_TEST_DATABASE_URL scripts/swift-test.sh --skip-build --filter '$(TIMING_TESTS)'
	env -u CAIRN_TEST_DATABASE_URL scripts/swift-test.sh --skip-build --filter '$(ALONE_TESTS)'

test-swift-postgres:
	@echo "== Swift tests on PostgreSQL"
	scripts/with-postgres.sh scripts/swift-test.sh --skip-build --skip '$(ALONE_TESTS)|$(TIMING_TESTS)'
	scripts/with-postgres.sh scripts/swift-test.sh --skip-build --filter '$(TIMING_TESTS)'
	scripts/with-postgres.sh scripts/swift-test.sh --skip-build --filter '$(ALONE_TESTS)'

## The web app's pure modules (router, units, settings, distances, the outbox) under Node's own test runner.
test-js:
	@echo "== JavaScript unit tests (node --test)"
	node --test Tests/WebTests/

## Accounts, the run planner and PAIR_FLOWS run against the pair only (below); every other file against one server on
## SQLite.
test-browser:
	@echo "== Browser tests (Chromium, 390×844)"
	$(VENV)/bin/python -m pytest -q --durations=10 e2e --ignore=e2e/test_schemathesis.py \
		--ignore=e2e/test_accounts.py --ignore=e2e/test_runs.py $(addprefix --deselect=,$(PAIR_FLOWS:e2e/%=%))
	$(MAKE) --no-print-directory test-browser-pair

## The browser tests against two instances behind nginx on one PostgreSQL database (`pytest --pair`,
## e2e/proxy_pair.py, docs/operations.md "Two instances behind a proxy"): accounts and the run planner whole
## (its two tests with their own weather configuration start their own single server), and one flow of each other
## app whose file shares a server. Each file fails unless nginx's log shows both instances answered its requests.
PAIR_FLOWS := e2e/test_activities.py::test_the_privacy_zone_trims_what_others_see_of_a_run_from_home \
	e2e/test_community.py::test_two_people_befriend_and_chat_in_real_time \
	e2e/test_notifications.py::test_this_browser_cannot_receive_notifications_and_the_kind_switches_are_saved \
	e2e/test_offline.py::test_a_route_saved_offline_survives_a_reload_and_is_sent_exactly_once_back_online
PAIR_TESTS := e2e/test_accounts.py e2e/test_runs.py $(PAIR_FLOWS)
test-browser-pair:
	@echo "== Browser tests against two instances behind nginx"
	$(VENV)/bin/python -m pytest -q --durations=10 --pair $(PAIR_TESTS)

## Schemathesis against the served OpenAPI document: every check, its four phases, a fixed seed, bounded examples,
## as a guest and as the demo user (e2e/test_schemathesis.py; settings and their reasons in e2e/schemathesis.toml).
test-schemathesis:
	@echo "== Schemathesis (the API against its OpenAPI document)"
	$(VENV)/bin/python -m pytest -q --durations=10 e2e/test_schemathesis.py

## make bench — release build of the benchmark program (`cairn-bench`, not part of the production binary), then
## every benchmark on the Helsinki extract and generated cities. Each prints Markdown tables (kept in var/bench/)
## that docs/benchmarks.md quotes; about 15 min on 2 idle cores.
BENCH_EXTRACT := $(OSM_DIR)/Helsinki.osm.pbf
BENCH_NODES ?= 100000
BENCH_LARGE_NODES ?= 1000000
BENCH_LARGE_DIJKSTRA_QUERIES ?= 200
BENCH_STREETS ?= 1500 15000
BENCH_LOOP_NODES ?= 520000
# The same city with streets as dense as central Helsinki's (mean edge ~25 m instead of ~90 m).
BENCH_DENSE_BLOCK_METERS ?= 25
# Routing peers (OSRM, Routino; scripts/bench-peers.sh) run on the extract and on the first generated city,
# exported as OSM XML, with the same query points; the routing report gives Cairn ÷ peer ratios. OSRM runs both its
# algorithms on the extract and only MLD on the city: osrm-contract does not finish its hierarchy of the
# grid-like city in 15 minutes (docs/benchmarks.md "Routing peers").
BENCH_PEER_CITY := var/peers/synthetic-$(firstword $(BENCH_NODES)).osm
bench: demo-data
	$(SWIFT_BUILD) -c release --product cairn-bench
	mkdir -p var/bench var/peers
	$(CAIRN_BENCH) pairs --extract $(BENCH_EXTRACT) --out var/peers/pairs-extract.json
	$(CAIRN_BENCH) pairs --nodes $(firstword $(BENCH_NODES)) --out var/peers/pairs-city.json
	$(CAIRN_BENCH) export-osm --nodes $(firstword $(BENCH_NODES)) --out $(BENCH_PEER_CITY)
	scripts/bench-peers.sh $(BENCH_EXTRACT) var/peers/pairs-extract.json var/bench/peers-extract.json
	BENCH_OSRM_ALGORITHMS=MLD scripts/bench-peers.sh $(BENCH_PEER_CITY) var/peers/pairs-city.json var/bench/peers-city.json
	$(CAIRN_BENCH) routing --extract $(BENCH_EXTRACT) $(addprefix --nodes ,$(BENCH_NODES)) \
		--peers var/bench/peers-extract.json --peers var/bench/peers-city.json | tee var/bench/routing.md
	$(CAIRN_BENCH) routing $(addprefix --nodes ,$(BENCH_LARGE_NODES)) \
		--dijkstra-queries $(BENCH_LARGE_DIJKSTRA_QUERIES) | tee var/bench/routing-large.md
	$(CAIRN_BENCH) suggestions --extract $(BENCH_EXTRACT) $(addprefix --streets ,$(BENCH_STREETS)) \
		| tee var/bench/suggestions.md
	$(CAIRN_BENCH) loops --extract $(BENCH_EXTRACT) $(addprefix --nodes ,$(BENCH_LOOP_NODES)) \
		| tee var/bench/loops.md
	$(CAIRN_BENCH) loops $(addprefix --nodes ,$(BENCH_LOOP_NODES)) \
		--block-meters $(BENCH_DENSE_BLOCK_METERS) --planner-modes-only | tee var/bench/loops-dense.md
	$(CAIRN_BENCH) navigation --extract $(BENCH_EXTRACT) | tee var/bench/navigation.md
	node scripts/bench-follower.mjs | tee var/bench/follower.md
	$(CAIRN_BENCH) basemap --extract $(BENCH_EXTRACT) --extract $(OSM_DIR)/test.osm.pbf | tee var/bench/basemap.md
	$(MAKE) --no-print-directory bench-realtime
	$(MAKE) --no-print-directory bench-parking
	$(MAKE) --no-print-directory bench-http
	$(MAKE) --no-print-directory bench-ski
	$(MAKE) --no-print-directory bench-messaging
	$(MAKE) --no-print-directory bench-load

## make bench-http — the HTTP servers alone (part of `make bench`): Cairn's against Vapor's and osrm-routed, one
## keep-alive client on loopback, release builds (`cairn-bench http`; needs the OSRM data of bench-peers.sh).
BENCH_OSRM_ROUTED := var/peers/osrm-venv/lib/python3.12/site-packages/osrm/bin/osrm-routed
bench-http: demo-data
	$(SWIFT_BUILD) -c release --product cairn
	$(SWIFT_BUILD) -c release --product cairn-bench
	mkdir -p var/bench var/peers
	test -f var/peers/pairs-extract.json || $(CAIRN_BENCH) pairs --extract $(BENCH_EXTRACT) --out var/peers/pairs-extract.json
	test -f var/bench/peers-extract.json || \
		scripts/bench-peers.sh $(BENCH_EXTRACT) var/peers/pairs-extract.json var/bench/peers-extract.json
	.build/release/cairn graph import $(BENCH_EXTRACT) --out var/bench/helsinki.cairngraph > /dev/null
	$(CAIRN_BENCH) http --cairn .build/release/cairn --graph var/bench/helsinki.cairngraph \
		--pairs var/peers/pairs-extract.json \
		--osrm-routed $(BENCH_OSRM_ROUTED) --osrm-data var/peers/Helsinki/osrm/graph.osrm | tee var/bench/http.md

## The realtime hub: publish → WebSocket delivery latency with $(BENCH_REALTIME_CLIENTS) clients on release `cairn serve`
## processes — SQLite, PostgreSQL, and two instances on one PostgreSQL (a throwaway cluster); about 5 min.
BENCH_REALTIME_CLIENTS ?= 1000
BENCH_REALTIME := --cairn .build/release/cairn --clients $(BENCH_REALTIME_CLIENTS) --rate 20 --rate 50 --seconds 15
bench-realtime:
	$(SWIFT_BUILD) -c release --product cairn
	$(SWIFT_BUILD) -c release --product cairn-bench
	mkdir -p var/bench
	$(CAIRN_BENCH) realtime $(BENCH_REALTIME) | tee var/bench/realtime-sqlite.md
	scripts/with-postgres.sh sh -c '$(CAIRN_BENCH) realtime $(BENCH_REALTIME) --database-url "$$CAIRN_TEST_DATABASE_URL" \
		&& $(CAIRN_BENCH) realtime $(BENCH_REALTIME) --database-url "$$CAIRN_TEST_DATABASE_URL" --instances 2 \
		&& $(CAIRN_BENCH) realtime --cairn .build/release/cairn --clients $(BENCH_REALTIME_CLIENTS) --rate 20 \
			--seconds 15 --payload-bytes 16000 --database-url "$$CAIRN_TEST_DATABASE_URL" --instances 2 \
			--label "PostgreSQL, 2 instances, payload read from the table"' | tee var/bench/realtime-postgres.md

## Campus parking: sustained ingest (events/s, p99 per request) on SQLite and PostgreSQL, and event → WebSocket
## latency with 1,000 clients, on a release `cairn serve` with the demo campus; about 3 min.
BENCH_PARKING := --cairn .build/release/cairn --rate 2000 --rate 5000 --rate 10000 --seconds 10 --clients 1000
bench-parking:
	$(SWIFT_BUILD) -c release --product cairn
	$(SWIFT_BUILD) -c release --product cairn-bench
	mkdir -p var/bench
	$(CAIRN_BENCH) parking $(BENCH_PARKING) | tee var/bench/parking-sqlite.md
	scripts/with-postgres.sh sh -c '$(CAIRN_BENCH) parking $(BENCH_PARKING) --database-url "$$CAIRN_TEST_DATABASE_URL"' \
		| tee var/bench/parking-postgres.md

## Community (issue 19): message send → the other members' sockets at 50 messages/s and live location from 1,000 sharers
## every 60 s, with 1,000 signed-in WebSocket clients in circles of ten, against the hub's own echo at the same rate
## and fan-out; release `cairn serve` on SQLite and PostgreSQL, everything through the public API; about 6 min.
BENCH_MESSAGING := --cairn .build/release/cairn --people 1000 --circle 10 --rate 50 --seconds 30 --location-period 60
bench-messaging:
	$(SWIFT_BUILD) -c release --product cairn
	$(SWIFT_BUILD) -c release --product cairn-bench
	mkdir -p var/bench
	$(CAIRN_BENCH) messaging $(BENCH_MESSAGING) | tee var/bench/messaging-sqlite.md
	scripts/with-postgres.sh sh -c '$(CAIRN_BENCH) messaging $(BENCH_MESSAGING) --database-url "$$CAIRN_TEST_DATABASE_URL"' \
		| tee var/bench/messaging-postgres.md

## Open-model load (issue 22): a signed-in person's mix of reads and writes across the apps at 25, 100, 200, 400 and
## 600 requests/s (each 5 s warm-up + 30 s measured, latency from each request's due time) and logins apart at 2 and 5/s,
## on release `cairn serve` — SQLite, PostgreSQL, and two instances on one PostgreSQL (requests alternate between them);
## about 4 min each. Against servers already running (the proxy pair): `cairn-bench load --url http://HOST:PORT`.
BENCH_LOAD := --cairn .build/release/cairn --extract $(BENCH_EXTRACT) --rate 25 --rate 100 --rate 200 --rate 400 --rate 600
bench-load: demo-data
	$(SWIFT_BUILD) -c release --product cairn
	$(SWIFT_BUILD) -c release --product cairn-bench
	mkdir -p var/bench
	$(CAIRN_BENCH) load $(BENCH_LOAD) | tee var/bench/load-sqlite.md
	scripts/with-postgres.sh sh -c '$(CAIRN_BENCH) load $(BENCH_LOAD) --database-url "$$CAIRN_TEST_DATABASE_URL" \
		&& $(CAIRN_BENCH) load $(BENCH_LOAD) --database-url "$$CAIRN_TEST_DATABASE_URL" --instances 2' \
		| tee var/bench/load-postgres.md

clean:
	rm -rf .build var

## make bench-ski — ski Nearby (by distance, by price) and name search with 10,000 generated mountains around real ski
## regions on a release `cairn serve`, SQLite and PostgreSQL (p95 goal 10 ms), against a full scan in the same run.
bench-ski:
	$(SWIFT_BUILD) -c release --product cairn
	$(SWIFT_BUILD) -c release --product cairn-bench
	mkdir -p var/bench
	$(CAIRN_BENCH) ski | tee var/bench/ski-sqlite.md
	scripts/with-postgres.sh sh -c '$(CAIRN_BENCH) ski --database-url "$$CAIRN_TEST_DATABASE_URL"' \
		| tee var/bench/ski-postgres.md

## make bench-trails — the trail map's bbox query with 10,000 generated trails on a release `cairn serve`, SQLite and
## PostgreSQL (p95 goal 10 ms), and the bytes of a city-sized view.
bench-trails:
	$(SWIFT_BUILD) -c release --product cairn
	$(SWIFT_BUILD) -c release --product cairn-bench
	mkdir -p var/bench
	$(CAIRN_BENCH) trails | tee var/bench/trails-sqlite.md
	scripts/with-postgres.sh sh -c '$(CAIRN_BENCH) trails --database-url "$$CAIRN_TEST_DATABASE_URL"' \
		| tee var/bench/trails-postgres.md
