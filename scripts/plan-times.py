"""Times POST /api/runs/plan through the API for 5, 15 and 30 km on a running Cairn serving the Helsinki demo
graph (`make run`), one request at a time, three starts x two seeds per distance.

Usage: python3 scripts/plan-times.py http://127.0.0.1:8080
"""
import json, sys, time, urllib.request, statistics
base = sys.argv[1]
starts = [(60.1699, 24.9384), (60.1716, 24.9443), (60.1760, 24.9500)]  # station, centre of the extract, Kaisaniemi
results = {}
for km in (5, 15, 30):
    times = []
    for i, (lat, lon) in enumerate(starts):
        for seed in (0, 1):
            body = json.dumps({"start": {"lat": lat, "lon": lon}, "distance_km": km, "seed": seed}).encode()
            req = urllib.request.Request(base + "/api/runs/plan", data=body, method="POST",
                                         headers={"Content-Type": "application/json", "X-Forwarded-For": f"10.9.{km}.{i*2+seed}"})
            t0 = time.perf_counter()
            with urllib.request.urlopen(req, timeout=120) as resp:
                plan = json.loads(resp.read())
            dt = (time.perf_counter() - t0) * 1000
            times.append(dt)
            lengths = [round(r["length_m"] / 1000, 2) for r in plan["routes"]]
            print(f"{km} km from {lat},{lon} seed {seed}: {dt:.0f} ms, routes {lengths}", flush=True)
            time.sleep(2.1)  # stay under 30 plans a minute per client
    results[km] = times
for km, t in results.items():
    t = sorted(t)
    print(f"{km} km: n={len(t)} median {statistics.median(t):.0f} ms, min {t[0]:.0f}, max {t[-1]:.0f}")
