"""Point-to-point routing peers for `make bench`: OSRM (the osrm-bindings wheel: osrm-extract with the foot
profile, then osrm-contract for its contraction hierarchy (CH) and/or osrm-partition and osrm-customize for its
multi-level Dijkstra (MLD), then the engine in this process) and Routino (Debian: planetsplitter
with the walking tagging rules, then libroutino in this process through ctypes), on the same OSM file and
the same query points that `cairn-bench pairs` wrote. Prints one JSON object that `cairn-bench routing
--peers FILE` turns into Cairn ÷ peer ratios.

Preprocessing is timed by the wall clock and its peak memory is the tool's own (`wait4` rusage); each query
by the CPU time of this thread (`time.thread_time_ns`), as Cairn's queries are. Peer code is never committed:
scripts/bench-peers.sh installs both.

Usage: python bench_peers.py --osm FILE --pairs PAIRS.json --work DIR [--only osrm|routino]
                             [--osrm-algorithms CH,MLD]
"""

import argparse
import ctypes
import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path


def run_tool(command, cwd):
    """Runs a preprocessing tool; returns (wall seconds, CPU seconds, peak resident MiB of that process)."""
    started = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    if status != 0:
        error = process.stderr.read().decode(errors="replace")[-2000:]
        sys.exit(f"{' '.join(map(str, command))} failed:\n{error}")
    return seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def resident_mib():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def percentile(values, p):
    ordered = sorted(values)
    if not ordered:
        return None
    rank = p / 100 * (len(ordered) - 1)
    low, high = math.floor(rank), math.ceil(rank)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def summary(name, steps, loaded_mib, times, distances):
    """`steps`: the (wall s, CPU s, peak MiB) of each preprocessing tool run."""
    answered = [d for d in distances if d is not None]
    return {
        "peer": name,
        "preprocessing_seconds": sum(step[0] for step in steps),
        "preprocessing_cpu_seconds": sum(step[1] for step in steps),
        "preprocessing_peak_mib": max(step[2] for step in steps),
        "query_memory_mib": loaded_mib,
        "queries": len(times),
        "answered": len(answered),
        "median_ms": percentile(times, 50),
        "p95_ms": percentile(times, 95),
        "distances_m": distances,
    }


def osrm_extract(osm, work):
    """Runs osrm-extract with the foot profile on `osm`; returns the data folder and the step's figures."""
    import osrm

    tools = Path(osrm.__file__).parent / "bin"
    profile = Path(osrm.__file__).parent / "share" / "profiles" / "foot.lua"
    folder = work / "osrm"
    folder.mkdir(parents=True, exist_ok=True)
    source = folder / ("graph" + "".join(Path(osm).suffixes))
    if source.exists() or source.is_symlink():
        source.unlink()
    source.symlink_to(Path(osm).resolve())
    return folder, run_tool([tools / "osrm-extract", "-p", profile, "-t", "1", source.name], folder)


# The preprocessing tools of each OSRM algorithm after osrm-extract, one thread each.
OSRM_STEPS = {"CH": ["osrm-contract"], "MLD": ["osrm-partition", "osrm-customize"]}


def osrm_peer(folder, extract, algorithm, pairs):
    """OSRM with `algorithm` (CH or MLD) on the data osrm-extract left in `folder`."""
    import osrm

    tools = Path(osrm.__file__).parent / "bin"
    steps = [extract] + [run_tool([tools / tool, "-t", "1", "graph.osrm"], folder) for tool in OSRM_STEPS[algorithm]]
    before = resident_mib()
    engine = osrm.OSRM(storage_config=str(folder / "graph.osrm"), algorithm=algorithm, use_shared_memory=False)
    loaded = resident_mib() - before
    times, distances = [], []
    for lat1, lon1, lat2, lon2 in pairs:
        parameters = osrm.RouteParameters(
            coordinates=[(lon1, lat1), (lon2, lat2)], overview="full", steps=False)
        started = time.thread_time_ns()
        try:
            answer = engine.Route(parameters)
            distance = float(answer["routes"][0]["distance"])
        except Exception:
            distance = None
        times.append((time.thread_time_ns() - started) / 1e6)
        distances.append(distance)
    return summary(f"OSRM ({algorithm}, foot profile)", steps, loaded, times, distances)


class RoutinoOutput(ctypes.Structure):
    pass


RoutinoOutput._fields_ = [
    ("next", ctypes.POINTER(RoutinoOutput)),
    ("lon", ctypes.c_float),
    ("lat", ctypes.c_float),
    ("dist", ctypes.c_float),
    ("time", ctypes.c_float),
    ("speed", ctypes.c_float),
    ("type", ctypes.c_int),
    ("turn", ctypes.c_int),
    ("bearing", ctypes.c_int),
    ("name", ctypes.c_char_p),
    ("desc1", ctypes.c_char_p),
    ("desc2", ctypes.c_char_p),
    ("desc3", ctypes.c_char_p),
]

ROUTINO_ROUTE_SHORTEST = 0
ROUTINO_ROUTE_LIST_TEXT_ALL = 1024
ROUTINO_SHARE = Path("/usr/share/routino")


def routino_peer(osm, pairs, work):
    folder = work / "routino"
    folder.mkdir(parents=True, exist_ok=True)
    split = run_tool(
        [
            "planetsplitter",
            f"--dir={folder}",
            "--prefix=graph",
            f"--tagging={ROUTINO_SHARE / 'tagging.xml'}",
            str(Path(osm).resolve()),
        ],
        folder,
    )
    library = ctypes.CDLL("libroutino.so.0")
    library.Routino_LoadDatabase.restype = ctypes.c_void_p
    library.Routino_LoadDatabase.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
    library.Routino_GetProfile.restype = ctypes.c_void_p
    library.Routino_GetTranslation.restype = ctypes.c_void_p
    library.Routino_ValidateProfile.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    library.Routino_FindWaypoint.restype = ctypes.c_void_p
    library.Routino_FindWaypoint.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_double, ctypes.c_double]
    library.Routino_CalculateRoute.restype = ctypes.POINTER(RoutinoOutput)
    library.Routino_CalculateRoute.argtypes = [
        ctypes.c_void_p,
        ctypes.c_void_p,
        ctypes.c_void_p,
        ctypes.POINTER(ctypes.c_void_p),
        ctypes.c_int,
        ctypes.c_int,
        ctypes.c_void_p,
    ]
    library.Routino_DeleteRoute.argtypes = [ctypes.POINTER(RoutinoOutput)]
    before = resident_mib()
    database = library.Routino_LoadDatabase(str(folder).encode(), b"graph")
    if not database:
        sys.exit("Routino could not load its database")
    if library.Routino_ParseXMLProfiles(str(ROUTINO_SHARE / "profiles.xml").encode()) != 0:
        sys.exit("Routino could not read its profiles")
    if library.Routino_ParseXMLTranslations(str(ROUTINO_SHARE / "translations.xml").encode()) != 0:
        sys.exit("Routino could not read its translations")
    profile = library.Routino_GetProfile(b"foot")
    translation = library.Routino_GetTranslation(b"en")
    if library.Routino_ValidateProfile(database, profile) != 0:
        sys.exit("Routino's foot profile does not fit the database")
    loaded = resident_mib() - before
    times, distances = [], []
    options = ROUTINO_ROUTE_SHORTEST | ROUTINO_ROUTE_LIST_TEXT_ALL
    for lat1, lon1, lat2, lon2 in pairs:
        started = time.thread_time_ns()
        first = library.Routino_FindWaypoint(database, profile, lat1, lon1)
        second = library.Routino_FindWaypoint(database, profile, lat2, lon2)
        distance = None
        if first and second:
            waypoints = (ctypes.c_void_p * 2)(first, second)
            route = library.Routino_CalculateRoute(database, profile, translation, waypoints, 2, options, None)
            if route:
                last = route
                while last.contents.next:
                    last = last.contents.next
                distance = float(last.contents.dist) * 1000
                library.Routino_DeleteRoute(route)
        times.append((time.thread_time_ns() - started) / 1e6)
        distances.append(distance)
    return summary("Routino (shortest, foot profile)", [split], loaded, times, distances)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--osm", required=True, help="the OSM file (.osm.pbf or .osm) Cairn measured")
    parser.add_argument("--pairs", required=True, help="query points from `cairn-bench pairs` (JSON)")
    parser.add_argument("--work", required=True, help="a folder for the peers' data")
    parser.add_argument("--only", choices=["osrm", "routino"])
    parser.add_argument(
        "--osrm-algorithms", default="CH,MLD",
        help="OSRM's algorithms, comma-separated (CH: osrm-contract; MLD: osrm-partition + osrm-customize)")
    arguments = parser.parse_args()
    with open(arguments.pairs) as file:
        query = json.load(file)
    pairs = query["pairs"]
    work = Path(arguments.work).resolve()
    work.mkdir(parents=True, exist_ok=True)
    peers = []
    if arguments.only in (None, "osrm"):
        folder, extract = osrm_extract(arguments.osm, work)
        for algorithm in arguments.osrm_algorithms.split(","):
            peers.append(osrm_peer(folder, extract, algorithm, pairs))
    if arguments.only in (None, "routino"):
        peers.append(routino_peer(arguments.osm, pairs, work))
    json.dump({"graph": query["graph"], "osm": str(arguments.osm), "peers": peers}, sys.stdout)


if __name__ == "__main__":
    main()
