// The figures of a run or hike on the device (Trailz 3.2.3.2; run-route-planner 6.2), by the rules of the
// Navigation library (docs/navigation.md, "Activity figures"), and the compact track the API takes. Pure.
import { encodePolyline } from "../../platform/map/polyline.js";

/** `1:05:09` past an hour, else `MM:SS` (run-route-planner 6.2.1). */
export function formatDuration(seconds) {
  const total = Math.max(0, Math.floor(seconds));
  const h = Math.floor(total / 3600), m = Math.floor((total % 3600) / 60), s = total % 60;
  const two = (n) => String(n).padStart(2, "0");
  return h > 0 ? `${h}:${two(m)}:${two(s)}` : `${two(m)}:${two(s)}`;
}

/** The hike stopwatch, always `HH:MM:SS` (Trailz 3.2.3.2.1: "00:00:00"). */
export function formatStopwatch(seconds) {
  const total = Math.max(0, Math.floor(seconds));
  const two = (n) => String(n).padStart(2, "0");
  return `${two(Math.floor(total / 3600))}:${two(Math.floor((total % 3600) / 60))}:${two(total % 60)}`;
}

/** Pace per kilometre or mile: `5:32 /km`; `–` when too little has been covered. */
export function formatPace(secondsPerKm, unit = "km") {
  if (!Number.isFinite(secondsPerKm) || secondsPerKm <= 0) return "–";
  const perUnit = unit === "mi" ? secondsPerKm * 1.609344 : secondsPerKm;
  const rounded = Math.round(perUnit);
  return `${Math.floor(rounded / 60)}:${String(rounded % 60).padStart(2, "0")} /${unit}`;
}

/**
 * Step length in metres: walking 0.414 × height; running the length a cadence of 165 steps/min gives at the
 * speed, never shorter than walking's. Height 170 cm when the profile has none.
 */
export function stepLengthMeters({ kind, heightCm, speedMps }) {
  const walking = 0.414 * (heightCm ?? 170) / 100;
  if (kind !== "run" || !(speedMps > 0)) return walking;
  return Math.max(walking, speedMps * 60 / 165);
}

/** METs at a speed (2011 Compendium: walking 2–5 mph 2.8–8.3, running 4–14 mph 6.0–23.0, linear between). */
export function metsAt(speedMps, kind) {
  const mph = speedMps * 2.236936;
  const walk = [[2, 2.8], [2.5, 3.0], [3, 3.5], [3.5, 4.3], [4, 5.0], [4.5, 7.0], [5, 8.3]];
  const run = [[4, 6.0], [5, 8.3], [6, 9.8], [7, 11.0], [8, 11.8], [9, 12.8], [10, 14.5], [11, 16.0], [12, 19.0], [13, 19.8], [14, 23.0]];
  const table = kind === "run" && mph >= 4 ? run : walk;
  if (mph <= table[0][0]) return table[0][1];
  for (let i = 1; i < table.length; i += 1) {
    if (mph <= table[i][0]) {
      const [x0, y0] = table[i - 1], [x1, y1] = table[i];
      return y0 + (y1 - y0) * (mph - x0) / (x1 - x0);
    }
  }
  return table[table.length - 1][1];
}

/** kcal = MET × resting rate (Mifflin–St Jeor, sex term −78) × hours; null without age, weight and height. */
export function kilocalories({ profile, kind, distanceMeters, movingSeconds }) {
  const { age, weight_kg: weight, height_cm: height } = profile ?? {};
  if (!age || !weight || !height || !(movingSeconds > 0)) return null;
  const restingPerHour = (10 * weight + 6.25 * height - 5 * age - 78) / 24;
  return metsAt(distanceMeters / movingSeconds, kind) * restingPerHour * movingSeconds / 3600;
}

/**
 * Records an activity's figures from fixes: elapsed time from Start, moving time (the last 15 s moving at
 * 0.5 m/s or more), distance (given by the follower for a run, else from kept fixes), speed, pace, steps,
 * calories. `state` restores one saved with `snapshot()`.
 */
export function createRecorder({ kind, startedAt, profile }, state = {}) {
  const s = { kind, startedAt, profile, track: [], distance: 0, moving: 0, stoppedAt: null, lastTime: startedAt, ...state };

  function windowSpeed(time) {
    const recent = s.track.filter((point) => time - point.time <= 15_000);
    if (recent.length < 2) return 0;
    let meters = 0;
    for (let i = 1; i < recent.length; i += 1) meters += planar(recent[i - 1], recent[i]);
    const seconds = (recent[recent.length - 1].time - recent[0].time) / 1000;
    return seconds > 0 ? meters / seconds : 0;
  }

  return {
    /** Adds a kept fix; `distance` (metres covered so far) when a follower measures it. */
    record(fix, distance) {
      if (s.stoppedAt) return;
      const last = s.track[s.track.length - 1];
      if (last && fix.time <= last.time) return;
      s.track.push({ lat: fix.lat, lon: fix.lon, time: fix.time, altitude: fix.altitude ?? null });
      if (distance !== undefined) s.distance = Math.max(s.distance, distance);
      else if (last) {
        const step = planar(last, fix);
        if (step >= 3 || fix.time - last.time >= 10_000) s.distance += step;
        else s.track.pop(); // too close to the last to say anything: keep the line light
      }
      const gap = (fix.time - s.lastTime) / 1000;
      if (gap > 0 && gap <= 30 && windowSpeed(fix.time) >= 0.5) s.moving += gap;
      s.lastTime = fix.time;
    },
    stop(time) {
      if (!s.stoppedAt) s.stoppedAt = time;
    },
    figures(now) {
      const end = s.stoppedAt ?? now;
      const elapsed = Math.max(0, (end - s.startedAt) / 1000);
      const moving = Math.min(s.moving, elapsed);
      const speed = moving > 0 ? s.distance / moving : 0;
      const current = s.stoppedAt ? 0 : windowSpeed(now);
      const step = stepLengthMeters({ kind: s.kind, heightCm: s.profile?.height_cm, speedMps: speed });
      return {
        elapsedSeconds: elapsed,
        movingSeconds: moving,
        distanceMeters: s.distance,
        averageSpeedMps: speed,
        currentSpeedMps: current,
        paceSecondsPerKm: s.distance >= 10 ? moving / s.distance * 1000 : null,
        steps: Math.round(s.distance / step),
        kcal: kilocalories({ profile: s.profile, kind: s.kind, distanceMeters: s.distance, movingSeconds: moving }),
      };
    },
    get track() { return s.track; },
    get stopped() { return s.stoppedAt !== null; },
    snapshot: () => JSON.parse(JSON.stringify(s)),
  };
}

function planar(a, b) {
  const rad = Math.PI / 180;
  const x = (b.lon - a.lon) * rad * Math.cos(((a.lat + b.lat) / 2) * rad);
  const y = (b.lat - a.lat) * rad;
  return Math.hypot(x, y) * 6_371_008.8;
}

/** The compact track of `POST /api/activities`: polyline, tenths of a second between points, decimetres. */
export function compactTrack(track, startedAt) {
  let previous = 0;
  const times = track.map((point) => {
    const tenths = Math.max(previous, Math.round((point.time - startedAt) / 100));
    const delta = tenths - previous;
    previous = tenths;
    return delta;
  });
  const hasAltitude = track.some((point) => point.altitude !== null && point.altitude !== undefined);
  return {
    polyline: encodePolyline(track, 6),
    times,
    elevations: hasAltitude ? track.map((point) => (point.altitude === null || point.altitude === undefined ? null : Math.round(point.altitude * 10))) : null,
  };
}
