// Following a run on the device (Web/js/apps/activities/navigation/follower.js) and the activity figures
// (Web/js/apps/activities/figures.js), replayed on generated traces.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createFollower, distanceMeters } from "../../Web/js/apps/activities/navigation/follower.js";
import { decodePolyline, encodePolyline } from "../../Web/js/platform/map/polyline.js";
import {
  compactTrack, createRecorder, formatDuration, formatPace, formatStopwatch, kilocalories,
  stepLengthMeters,
} from "../../Web/js/apps/activities/figures.js";

const origin = { lat: 60.17, lon: 24.94 };
const metresPerDegreeLat = 111_132.954;
const metresPerDegreeLon = 111_319.491 * Math.cos(origin.lat * Math.PI / 180);
const at = (x, y) => ({ lat: origin.lat + y / metresPerDegreeLat, lon: origin.lon + x / metresPerDegreeLon });

/** A route through `corners` (metres east, north), with a turn instruction at every inner corner. */
function routeThrough(corners) {
  const coordinates = corners.map(([x, y]) => { const p = at(x, y); return [p.lon, p.lat]; });
  let along = 0;
  const instructions = [{ text: "Head north", maneuver: "depart:north", distance_m: 0, announcement_m: 50 }];
  for (let i = 1; i < corners.length; i += 1) {
    along += Math.hypot(corners[i][0] - corners[i - 1][0], corners[i][1] - corners[i - 1][1]);
    const last = i === corners.length - 1;
    instructions.push({ text: last ? "Finish back at the start" : `Turn ${i}`, maneuver: last ? "arrive" : "turn:right:plain", distance_m: along, announcement_m: 50 });
  }
  return { coordinates, instructions, length_m: along };
}

/** Points every `step` metres along `corners`, with `along` (metres) for each. */
function walk(corners, step = 3) {
  const points = [];
  let along = 0;
  for (let i = 1; i < corners.length; i += 1) {
    const [x0, y0] = corners[i - 1], [x1, y1] = corners[i];
    const length = Math.hypot(x1 - x0, y1 - y0);
    for (let d = 0; d < length; d += step) points.push({ x: x0 + (x1 - x0) * d / length, y: y0 + (y1 - y0) * d / length, along: along + d });
    along += length;
  }
  const [x, y] = corners[corners.length - 1];
  points.push({ x, y, along });
  return points;
}

/** A seeded random number generator (mulberry32), so every run of the test sees the same noise. */
function random(seed) {
  let a = seed;
  return () => {
    a |= 0; a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Replays `points` one a second with a slowly wandering GPS error of about `noise` metres. */
function replay(route, points, { noise = 5, seed = 1 } = {}) {
  const next = random(seed);
  const follower = createFollower(route);
  let ex = 0, ey = 0;
  const said = [];
  const offRoute = [];
  let arrivedAt = null;
  points.forEach((point, second) => {
    ex = 0.9 * ex + (next() - 0.5) * noise * 0.9;
    ey = 0.9 * ey + (next() - 0.5) * noise * 0.9;
    const position = at(point.x + ex, point.y + ey);
    const { events, progress } = follower.update({ ...position, accuracy: noise + 3, time: second * 1000 });
    for (const event of events) {
      if (event.type === "announce") said.push({ index: event.index, ahead: route.instructions[event.index].distance_m - point.along });
      if (event.type === "offRoute" || event.type === "backOnRoute") offRoute.push({ type: event.type, second, progress: progress.alongMeters });
      if (event.type === "arrived" && arrivedAt === null) arrivedAt = second;
    }
  });
  return { follower, said, offRoute, arrivedAt };
}

const square = [[0, 0], [0, 400], [400, 400], [400, 0], [0, 0]];

test("every turn of a loop is announced 30–70 m before it, once, and the run ends at the finish", () => {
  const route = routeThrough(square);
  const points = walk(square);

  const { follower, said, offRoute, arrivedAt } = replay(route, points);

  assert.deepEqual(said.map((s) => s.index), [0, 1, 2, 3, 4]);
  for (const { index, ahead } of said.slice(1)) assert.ok(ahead >= 30 && ahead <= 70, `turn ${index} said ${ahead.toFixed(0)} m ahead`);
  assert.deepEqual(offRoute, []);
  assert.ok(arrivedAt !== null && arrivedAt >= points.length - 12, `arrived at ${arrivedAt} of ${points.length}`);
  const covered = follower.progress.coveredMeters;
  assert.ok(Math.abs(covered - 1600) / 1600 < 0.02, `covered ${covered.toFixed(0)} m of 1600`);
});

test("a turn 40 m after another is said as “Then …” 50 m before it, before the first is passed", () => {
  const corners = [[0, 0], [0, 300], [40, 300], [40, 600], [0, 600], [0, 0]];
  const route = routeThrough(corners);
  const points = walk(corners);

  const { said } = replay(route, points);

  const first = said.find((s) => s.index === 1), second = said.find((s) => s.index === 2);
  assert.ok(first.ahead >= 30 && first.ahead <= 70, `the first turn said ${first.ahead.toFixed(0)} m ahead`);
  assert.ok(second.ahead >= 30 && second.ahead <= 70, `the second said ${second.ahead.toFixed(0)} m ahead`);
  assert.ok(second.ahead < first.ahead + 40, "after the first");
  assert.ok(second.ahead > 40, "before the runner reaches the first turn");
});

test("in a chain of three maneuvers 8 m apart the middle one is said before the first is passed, the last after", () => {
  const line = [[0, 0], [0, 600]];
  const route = routeThrough(line);
  const turn = (distance, then, announcement) => ({ text: "", maneuver: "turn:left:plain", distance_m: distance, then_m: then, announcement_m: announcement });
  route.instructions.splice(1, 0, turn(300, 308, 46), turn(308, 316, 46), turn(316, null, 50));

  const { said } = replay(route, walk(line), { noise: 0 });

  const ahead = (index) => said.find((s) => s.index === index).ahead;
  assert.ok(ahead(1) >= 44 && ahead(1) <= 50, `"Left, then U-turn" ${ahead(1).toFixed(0)} m ahead`);
  assert.ok(ahead(2) >= 40 && ahead(2) <= 46, `"Then U-turn, then left" ${ahead(2).toFixed(0)} m ahead`);
  assert.ok(ahead(3) <= 8, `"Turn left" again once the U-turn is passed, ${ahead(3).toFixed(0)} m ahead`);
});

test("a loop that runs a street twice does not jump ahead to the second pass", () => {
  // Out along the street, round a block, and back along the same street.
  const corners = [[0, 0], [0, 300], [200, 300], [200, 500], [0, 500], [0, 300], [0, 0]];
  const route = routeThrough(corners);
  const points = walk(corners);
  const follower = createFollower(route);
  let worstJump = 0;
  for (const [second, point] of points.entries()) {
    const { progress } = follower.update({ ...at(point.x, point.y), accuracy: 5, time: second * 1000 });
    worstJump = Math.max(worstJump, progress.alongMeters - point.along);
  }
  assert.ok(worstJump < 15, `progress ran ${worstJump.toFixed(0)} m ahead of the runner`);
  assert.ok(follower.progress.arrived);
});

test("leaving the route by more than 50 m raises the prompt within seconds, and coming back clears it", () => {
  const route = routeThrough(square);
  // Along the first side to 200 m, 100 m west and back, then the rest of the loop.
  const detour = [[0, 0], [0, 200], [-100, 200], [0, 200], [0, 400], [400, 400], [400, 0], [0, 0]];
  const points = walk(detour);

  const { offRoute, arrivedAt, follower } = replay(route, points, { noise: 5 });

  assert.deepEqual(offRoute.map((e) => e.type), ["offRoute", "backOnRoute"]);
  const covered = follower.progress.coveredMeters;
  assert.ok(Math.abs(covered - 1800) / 1800 < 0.03, `covered ${covered.toFixed(0)} m of 1800 with the detour`);
  const leftAt = points.findIndex((p) => p.x < -50);
  assert.ok(offRoute[0].second - leftAt <= 10, `raised ${offRoute[0].second - leftAt} s after leaving by 50 m`);
  assert.ok(arrivedAt !== null);
});

test("noise alone never raises the prompt, and a spike is set aside", () => {
  const route = routeThrough(square);
  const points = walk(square);
  points.splice(100, 0, { ...points[100], x: points[100].x + 400 });

  for (const seed of [1, 2, 3, 4, 5]) {
    const { offRoute, follower } = replay(route, points, { noise: 15, seed });
    assert.deepEqual(offRoute, [], `seed ${seed}`);
    assert.ok(follower.progress.coveredMeters < 1600 * 1.05, `seed ${seed}`);
  }
});

test("a follower restored from its snapshot carries on where it was", () => {
  const route = routeThrough(square);
  const points = walk(square);
  const first = createFollower(route);
  points.slice(0, 200).forEach((p, s) => first.update({ ...at(p.x, p.y), accuracy: 5, time: s * 1000 }));

  const again = createFollower(route, first.snapshot());
  points.slice(200).forEach((p, i) => again.update({ ...at(p.x, p.y), accuracy: 5, time: (200 + i) * 1000 }));

  assert.ok(again.progress.arrived);
  assert.ok(Math.abs(again.progress.coveredMeters - 1600) < 32);
});

test("times read MM:SS, H:MM:SS past an hour; the hike stopwatch HH:MM:SS; pace per km or mile", () => {
  assert.equal(formatDuration(0), "00:00");
  assert.equal(formatDuration(754.6), "12:34");
  assert.equal(formatDuration(3600 + 5 * 60 + 9), "1:05:09");
  assert.equal(formatStopwatch(0), "00:00:00");
  assert.equal(formatStopwatch(3725), "01:02:05");
  assert.equal(formatPace(330, "km"), "5:30 /km");
  assert.equal(formatPace(330, "mi"), "8:51 /mi");
  assert.equal(formatPace(null, "km"), "–");
});

test("steps come from the stride; calories only with age, weight and height", () => {
  assert.equal(stepLengthMeters({ kind: "hike", heightCm: 180, speedMps: 1.3 }).toFixed(3), "0.745");
  assert.equal(stepLengthMeters({ kind: "hike", speedMps: 1.3 }).toFixed(3), "0.704");
  assert.equal(stepLengthMeters({ kind: "run", heightCm: 170, speedMps: 3.3 }).toFixed(3), "1.200");
  assert.equal(kilocalories({ profile: { age: 34, weight_kg: 62 }, kind: "run", distanceMeters: 5000, movingSeconds: 1800 }), null);
  const kcal = kilocalories({ profile: { age: 34, weight_kg: 62, height_cm: 168 }, kind: "run", distanceMeters: 5000, movingSeconds: 1800 });
  // 6 mph ≈ 9.8 MET × (10×62 + 6.25×168 − 5×34 − 78) / 24 kcal/h × 0.5 h ≈ 287 kcal.
  assert.ok(kcal > 250 && kcal < 320, `${kcal}`);
});

test("the recorder counts moving time only while moving, and the track survives the API's compact form", () => {
  const recorder = createRecorder({ kind: "hike", startedAt: 0, profile: null });
  for (let s = 1; s <= 120; s += 1) recorder.record({ ...at(0, s * 1.4), time: s * 1000 });
  for (let s = 121; s <= 240; s += 1) recorder.record({ ...at(0, 168), time: s * 1000 }); // a stop
  recorder.stop(240_000);

  const figures = recorder.figures(999_999);

  assert.equal(figures.elapsedSeconds, 240);
  assert.ok(figures.movingSeconds > 110 && figures.movingSeconds < 140, `${figures.movingSeconds}`);
  assert.ok(Math.abs(figures.distanceMeters - 166.6) < 5, `${figures.distanceMeters}`);
  const compact = compactTrack(recorder.track, 0);
  const decoded = decodePolyline(compact.polyline, 6);
  assert.equal(decoded.length, recorder.track.length);
  assert.ok(decoded.every((p, i) => distanceMeters(p, recorder.track[i]) < 0.2));
  assert.equal(compact.times.reduce((a, b) => a + b, 0), recorder.track[recorder.track.length - 1].time / 100);
  assert.equal(compact.elevations, null);
  assert.equal(encodePolyline([{ lat: 38.5, lon: -120.2 }, { lat: 40.7, lon: -120.95 }, { lat: 43.252, lon: -126.453 }], 5), "_p~iF~ps|U_ulLnnqC_mqNvxq`@");
});
