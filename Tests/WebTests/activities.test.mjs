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

import { stalledPlaceFixes, stalledPlaceRoute } from "./support/stalled-place-trace.mjs";
import { at, random, routeThrough, walk } from "./support/traces.mjs";

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
  // Each within a fix's travel (3 m) of its announcement distance, plus the lead of half a fix (1.5 m).
  assert.ok(ahead(1) >= 44 && ahead(1) <= 52, `"Left, then U-turn" ${ahead(1).toFixed(0)} m ahead`);
  assert.ok(ahead(2) >= 40 && ahead(2) <= 48, `"Then U-turn, then left" ${ahead(2).toFixed(0)} m ahead`);
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

/** Follows `places` ([x, y] metres, one a second, accurate to 5 m) along `route`; returns the follower and its events. */
function follow(route, places) {
  const follower = createFollower(route);
  const events = places.flatMap(([x, y], second) => follower.update({ ...at(x, y), accuracy: 5, time: second * 1000 }).events);
  return { follower, events };
}

/** From `from` to `to` (metres) every `step`, both included. */
const range = (from, to, step) => Array.from({ length: Math.floor((to - from) / step) + 1 }, (_, i) => from + i * step);

/**
 * A wrong turn, one place a second: along Main Street (y = 0) to 100 m, up a dead end north to `end` m, standing
 * there `waitSeconds`, back down it and on along Main Street to 160 m.
 */
function wrongTurnUpADeadEnd(end, waitSeconds) {
  return [
    ...range(0, 100, 3).map((x) => [x, 0]),
    ...range(3, end, 3).map((y) => [100, y]),
    ...Array.from({ length: waitSeconds }, () => [100, end]),
    ...range(end - 3, 0, -3).map((y) => [100, y]),
    ...range(103, 160, 3).map((x) => [x, 0]),
  ];
}

test("a runner who leaves the route counts the way they took, not a straight line", () => {
  // 200 m along South Street, then off by a lane: 30 m north, 60 m west, 50 m north (RouteFollowingTests).
  // Within 50 m of the street the route still matches, so the prompt comes late; the way run meanwhile counts
  // through the positions, not straight from where they turned off (81 m for the first 115).
  const route = routeThrough([[0, 0], [200, 0], [400, 0]]);
  const places = [
    ...range(0, 200, 3).map((x) => [x, 0]), ...range(3, 30, 3).map((y) => [200, y]),
    ...range(-197, -140, 3).map((x) => [-x, 30]), ...range(33, 80, 3).map((y) => [140, y]),
  ];

  const { follower, events } = follow(route, places);

  assert.deepEqual(events.filter((e) => e.type === "offRoute").length, 1);
  const covered = follower.progress.coveredMeters;
  assert.ok(Math.abs(covered - 338) < 12, `covered ${covered.toFixed(0)} m of 338`);
});

test("a runner who turns round counts the way back once", () => {
  // Along South Street: out to 200 m, back to 100 m, then on to 340 m, at 3 m/s (RouteFollowingTests).
  const route = routeThrough([[0, 0], [200, 0], [400, 0]]);
  const places = [...range(0, 200, 3), ...range(197, 100, -3), ...range(103, 340, 3)].map((x) => [x, 0]);

  const { follower } = follow(route, places);

  // 200 out, 100 back, 240 on: the way back is run, and the 100 m run twice are counted twice.
  const covered = follower.progress.coveredMeters;
  assert.ok(Math.abs(covered - 540) < 20, `covered ${covered.toFixed(0)} m of 540`);
});

test("a runner who turns round for a few seconds counts the route once, and one who runs back for longer counts the way back", () => {
  // Out to 200 m, back 24 m (8 s), then on to 340 m: within 30 m behind the progress the route still matches.
  // A way back this short cannot be told from GPS error at a sharp corner, which slips the match back for
  // 10–25 s: it counts nothing, so the route counts once (340 m).
  const route = routeThrough([[0, 0], [200, 0], [400, 0]]);
  const brief = [...range(0, 200, 3), ...range(197, 176, -3), ...range(179, 340, 3)].map((x) => [x, 0]);
  const briefRun = follow(route, brief);
  assert.deepEqual(briefRun.events.filter((e) => e.type === "offRoute"), []);
  assert.ok(Math.abs(briefRun.follower.progress.coveredMeters - 340) < 10, `covered ${briefRun.follower.progress.coveredMeters.toFixed(0)} m of 340`);

  // Out to 300 m and home along the route (100 s back): everything is counted, the way back once it has lasted 25 s.
  const home = [...range(0, 300, 3), ...range(297, 0, -3)].map((x) => [x, 0]);
  const homeRun = follow(route, home);
  assert.ok(Math.abs(homeRun.follower.progress.coveredMeters - 600) < 20, `covered ${homeRun.follower.progress.coveredMeters.toFixed(0)} m of 600`);
});

test("GPS error at a sharp corner pulling the match back onto the street just left does not count the way twice", () => {
  // North 400 m, then a 150° turn to the south-east. With this seed the wandering error (25 m) holds the
  // matches on the street just left for half a minute after the corner, and they slip back along it while the
  // runner runs on; counting that slip as running back, and then the way on again, added 115 m. (At 25 m of
  // error the corner can cost a few dozen metres the other way: 24 m short since the error learnt across
  // the streets is forgotten over two minutes rather than five.)
  const corners = [[0, 0], [0, 400], [150, 140], [150, 0], [0, 0]];
  const points = walk(corners);

  const { follower, arrivedAt } = replay(routeThrough(corners), points, { noise: 25, seed: 241 });

  assert.ok(arrivedAt !== null);
  const covered = follower.progress.coveredMeters;
  const run = points[arrivedAt].along;
  assert.ok(covered - run < 20 && covered - run > -30, `covered ${covered.toFixed(0)} m of ${run.toFixed(0)}`);
});

test("an error learnt on one street is forgotten within a minute or two on the next, not held for minutes", () => {
  // North 300 m with every fix 20 m east of the runner (learnt: it lies across the street), then 900 m east,
  // where that error fades in the first 20 s, as a phone's error changes from one minute to the next
  // (GPSErrorFollowingTests). Trusted for five minutes, the error learnt before the corner held the place
  // behind the runner and the turn 850 m after the corner was said 42 m ahead of it.
  const corners = [[0, 0], [0, 300], [900, 300], [900, 0]];
  const route = routeThrough(corners);
  const follower = createFollower(route);
  let ahead = null;

  walk(corners).forEach((point, second) => {
    const east = 20 * Math.min(1, Math.max(0, 1 - (point.along - 300) / 60));
    const { events } = follower.update({ ...at(point.x + east, point.y), accuracy: 15, time: second * 1000 });
    if (events.some((e) => e.type === "announce" && e.index === 2)) ahead = 1200 - point.along;
  });

  assert.ok(ahead !== null && ahead >= 44 && ahead <= 56, `the turn said ${ahead?.toFixed(0)} m ahead`);
});

test("a corner does not teach an error that holds the place behind along the next street", () => {
  // Fixes exactly on the runner, 15 m accuracy: 300 m north, then east along a long street. For a few fixes
  // after the corner the match holds on the street just left while the runner is on the next one; their way
  // east, read across the first street, would be learnt as an error to the east, which then lies along the
  // second and holds the place behind the runner (0.5 m on average here, 0.8 m at worst; GPSErrorFollowingTests).
  // Across the second, the nearer, it is no error.
  const corners = [[0, 0], [0, 300], [600, 300]];
  const follower = createFollower(routeThrough(corners));
  const behind = [];

  walk(corners, 3.5).forEach((point, second) => {
    const { progress } = follower.update({ ...at(point.x, point.y), accuracy: 15, time: second * 1000 });
    if (point.along >= 360 && point.along <= 500) behind.push(point.along - progress.alongMeters);
  });

  const mean = behind.reduce((sum, value) => sum + value, 0) / behind.length;
  assert.ok(behind.length > 0 && Math.abs(mean) < 0.4 && Math.max(...behind) < 0.6, behind.map((b) => b.toFixed(2)).join(" "));
});

test("a runner coming back from a wrong turn rejoins where they left, not at a later pass of the route", () => {
  // Out along Main Street and back along the footway 12 m north of it; at 100 m the runner takes the spur
  // north by mistake, waits at its end and comes back down it, meeting the footway (the route's way back,
  // 512 m along) before Main Street (RouteFollowingTests).
  const route = routeThrough([[0, 0], [100, 0], [300, 0], [300, 12], [100, 12], [0, 12]]);
  const places = wrongTurnUpADeadEnd(90, 90);

  const { follower, events } = follow(route, places);

  assert.deepEqual(events.filter((e) => e.type === "offRoute" || e.type === "backOnRoute").map((e) => e.type), ["offRoute", "backOnRoute"]);
  // On the way out at 160 m, not on the footway (about 450 m).
  const { alongMeters, coveredMeters } = follower.progress;
  assert.ok(Math.abs(alongMeters - 160) < 20, `at ${alongMeters.toFixed(0)} m along`);
  // 100 out, 90 up the spur and 90 back, 60 on.
  assert.ok(Math.abs(coveredMeters - 340) < 20, `covered ${coveredMeters.toFixed(0)} m of 340`);
});

test("a runner on the way back from a wrong turn is not put on a later stretch they pass near", () => {
  // Round a block of 300 × 200 m; at 100 m the runner takes a dead end north by mistake, to 20 m short of
  // North Street (the route's third side, 700 m along), waits there and comes back down it. Standing 20 m from
  // North Street, they were taken back on the route there, 600 m ahead (RouteFollowingTests).
  const route = routeThrough([[0, 0], [300, 0], [300, 200], [0, 200], [0, 0]]);
  const places = wrongTurnUpADeadEnd(180, 60);

  const { follower, events } = follow(route, places);

  assert.deepEqual(events.filter((e) => e.type === "offRoute" || e.type === "backOnRoute").map((e) => e.type), ["offRoute", "backOnRoute"]);
  const { alongMeters } = follower.progress;
  assert.ok(Math.abs(alongMeters - 160) < 20, `at ${alongMeters.toFixed(0)} m along`);
});

test("a place stalled where the route comes back along its street does not raise the prompt on the route", () => {
  // A benchmark run at 15 m of noise: up a spur and back down it, then on. The phone's error lies the fixes on
  // the way up while the runner runs down; the place stalled at the back of the window and the prompt came on
  // the route, twice. Once the runner has run 40 m more than the progress moved, they are sought as far on as
  // their own running reaches (RouteFollowingTests, StalledPlaceTrace).
  const follower = createFollower({ coordinates: stalledPlaceRoute, instructions: [] });
  const events = [];
  for (const [second, lat, lon, accuracy] of stalledPlaceFixes) {
    events.push(...follower.update({ lat, lon, accuracy, time: second * 1000 }).events);
  }

  assert.deepEqual(events.filter((e) => e.type === "offRoute"), [], "on the route all along");
  assert.ok(follower.progress.alongMeters > follower.length - 80, `at ${follower.progress.alongMeters.toFixed(0)} m`);
});

test("a run saved by an older app, before the place along the route was kept, carries on from its progress", () => {
  const route = routeThrough(square);
  const points = walk(square);
  const first = createFollower(route);
  points.slice(0, 200).forEach((p, s) => first.update({ ...at(p.x, p.y), accuracy: 5, time: s * 1000 }));
  const saved = first.snapshot();
  for (const key of ["along", "countedAlong", "forwardHeading", "motion", "error"]) delete saved[key];

  const again = createFollower(route, saved);
  points.slice(200).forEach((p, i) => again.update({ ...at(p.x, p.y), accuracy: 5, time: (200 + i) * 1000 }));

  assert.ok(again.progress.arrived);
  assert.ok(Math.abs(again.progress.coveredMeters - 1600) < 32, `covered ${again.progress.coveredMeters.toFixed(0)} m of 1600`);
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
