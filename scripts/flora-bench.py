"""Field guide benchmark (issue 17): CSV import of 10,000 generated species rows, then the filtered species
query with facet counts (GET /api/flora/species?exclusive=…&filter=…, the first page of 200) over HTTP on loopback, with 100,000
generated observations in the database. SQLite by default; PostgreSQL when DATABASE_URL (or
CAIRN_TEST_DATABASE_URL, as scripts/with-postgres.sh sets it) is set.

Usage: python3 scripts/flora-bench.py [--cairn .build/debug/cairn] [--species 10000] [--observations 100000]
       [--queries 1000]
       scripts/with-postgres.sh python3 scripts/flora-bench.py …
"""
import argparse, csv, json, os, random, shutil, socket, statistics, subprocess, sys, tempfile, time, uuid
import http.client

parser = argparse.ArgumentParser()
parser.add_argument("--cairn", default=".build/debug/cairn")
parser.add_argument("--species", type=int, default=10_000)
parser.add_argument("--observations", type=int, default=100_000)
parser.add_argument("--queries", type=int, default=1000)
args = parser.parse_args()

rng = random.Random(17)
work = tempfile.mkdtemp(prefix="cairn-flora-bench-")
colors = ["white", "yellow", "pink", "red", "purple", "blue", "green", "brown"]
habitats = ["fellfield", "dry-meadow", "moist-meadow", "wet-meadow", "snowbed", "talus", "krummholz", "stream-bank"]
groups = ["wildflower", "graminoid", "shrub-tree", "fern-ally"]
orders = [f"order-o{i}" for i in range(40)]
families = [f"F{i}aceae" for i in range(200)]
forms = [f"form-f{i}" for i in range(10)]


def write(name, header, rows):
    path = os.path.join(work, name)
    with open(path, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(header)
        writer.writerows(rows)
    return path


tags = write("tags.csv", ["id", "name", "kind", "parent_id"],
             [[o, o, "order", ""] for o in orders]
             + [[f"family-{f.lower()}", f, "family", orders[i % len(orders)]] for i, f in enumerate(families)]
             + [[f, f, "form", ""] for f in forms])
filters = [["g-" + g, "Plant group", g, "yes", "group", g, ""] for g in groups]
filters += [["c-" + c, "Flower colour", c, "no", "color", c, "g-wildflower;g-shrub-tree"] for c in colors]
filters += [[f"m-{m}", "In bloom", str(m), "no", "month", str(m), ""] for m in range(5, 10)]
filters += [["h-" + h, "Habitat", h, "no", "habitat", h, ""] for h in habitats]
filters += [["t-" + o, "Family", o, "no", "tag", o, ""] for o in orders]
filters += [["t-" + f, "Growth form", f, "no", "tag", f, ""] for f in forms]
filter_path = write("filters.csv", ["id", "group", "label", "exclusive", "field", "value", "applies_to"], filters)
species_ids = [f"species-{i}" for i in range(args.species)]
species_rows = []
for i, sid in enumerate(species_ids):
    months = sorted(rng.sample(range(5, 10), rng.randint(1, 3)))
    species_rows.append([sid, f"Genus{i} species{i}", f"Plant {i}", rng.choice(families), rng.choice(groups),
                         ";".join(rng.sample(colors, rng.randint(1, 2))), ";".join(map(str, months)),
                         ";".join(rng.sample(habitats, rng.randint(1, 3))), 3000, 4000,
                         "yes" if rng.random() < 0.02 else "", ";".join(rng.sample(forms, rng.randint(0, 2))), "",
                         "A generated plant for the benchmark, with a description of ordinary length."])
species_path = write("species.csv", ["id", "scientific_name", "common_name", "family", "group", "flower_colors",
                                     "flowering_months", "habitats", "elevation_min_m", "elevation_max_m", "sensitive",
                                     "tags", "image", "description"], species_rows)
observation_path = write("observations.csv",
                         ["id", "species_id", "latitude", "longitude", "accuracy_m", "observed_at", "recorded_by",
                          "status", "comment"],
                         ([str(uuid.UUID(int=rng.getrandbits(128), version=4)), rng.choice(species_ids),
                           f"{40.05 + rng.random() * 0.02:.6f}", f"{-105.62 + rng.random() * 0.05:.6f}", 5,
                           "2024-07-14T10:30:00Z", "Generated", rng.choice(["verified", "unverified"]), ""]
                          for _ in range(args.observations)))

env = dict(os.environ)
env["CAIRN_DATA_DIR"] = os.path.join(work, "data")
env["LOG_LEVEL"] = "error"
env.pop("CAIRN_STREET_GRAPH", None)
database = env.get("DATABASE_URL") or env.get("CAIRN_TEST_DATABASE_URL")
if database:
    env["DATABASE_URL"] = database
label = "PostgreSQL" if database else "SQLite"


def cairn(*cli):
    started = time.perf_counter()
    result = subprocess.run([args.cairn, *cli], env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    if result.returncode != 0:
        sys.exit(f"cairn {' '.join(cli)} failed: {result.stderr}")
    return elapsed, result.stdout.strip()


cairn("migrate")
first, output = cairn("flora", "import", "--tags", tags, "--filters", filter_path, "--species", species_path)
again, output_again = cairn("flora", "import", "--tags", tags, "--filters", filter_path, "--species", species_path)
observations_time, _ = cairn("flora", "import", "--observations", observation_path)
print(f"## Field guide on {label}: {args.species} species, {args.observations} observations")
print(f"- import of {args.species} species rows (with tags, filters; process start included): {first:.2f} s")
print(f"- the same files again (nothing changes): {again:.2f} s — {output_again.splitlines()[1]}")
print(f"- import of {args.observations} observation rows: {observations_time:.2f} s")

port = (lambda s: (s.bind(("127.0.0.1", 0)), s.getsockname()[1], s.close())[1])(socket.socket())
server = subprocess.Popen([args.cairn, "serve", "--hostname", "127.0.0.1", "--port", str(port)], env=env,
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
try:
    for _ in range(300):
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            connection.request("GET", "/healthz")
            if connection.getresponse().status == 200:
                break
        except OSError:
            time.sleep(0.2)
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    exclusives = ["g-" + g for g in groups]
    others = [f[0] for f in filters if f[3] == "no"]

    def query():
        parts = []
        exclusive = rng.choice(exclusives + [None])
        if exclusive:
            parts.append(f"exclusive={exclusive}")
        for fid in rng.sample(others, rng.randint(1, 3)):
            row = next(f for f in filters if f[0] == fid)
            if exclusive and row[6] and exclusive not in row[6].split(";"):
                continue
            parts.append(f"filter={fid}")
        return "/api/flora/species?" + "&".join(parts)

    for _ in range(20):  # warm-up: the catalogue is loaded into memory by the first query
        connection.request("GET", query())
        connection.getresponse().read()
    times, sizes = [], []
    for _ in range(args.queries):
        path = query()
        started = time.perf_counter()
        connection.request("GET", path)
        response = connection.getresponse()
        body = response.read()
        times.append((time.perf_counter() - started) * 1000)
        assert response.status == 200, body[:300]
        sizes.append(json.loads(body)["count"])
    times.sort()
    pick = lambda q: times[min(len(times) - 1, int(q * len(times)))]
    print(f"- filtered query with facets, {args.queries} queries, one at a time over keep-alive HTTP: "
          f"p50 {pick(0.5):.1f} ms, p95 {pick(0.95):.1f} ms, p99 {pick(0.99):.1f} ms, max {times[-1]:.1f} ms; "
          f"species per answer: median {statistics.median(sizes):.0f}, max {max(sizes)}")
finally:
    server.terminate()
    server.wait(timeout=30)
    shutil.rmtree(work, ignore_errors=True)
