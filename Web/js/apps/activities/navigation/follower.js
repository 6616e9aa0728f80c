// Following a runner along a planned route on the device (run-route-planner 6, 7; NFR 6.3): the same rules
// as the Swift Navigation library (Sources/Navigation, docs/navigation.md), so a run needs no server while it
// lasts. Pure: no DOM, no clock of its own (each fix carries its time), unit-tested in Tests/WebTests.
//
//   const follower = createFollower(route, { startedAt });   // route: POST /api/activities/route's answer
//   const { events, progress } = follower.update({ lat, lon, accuracy, time });
//   events: { type: "announce", index } | { type: "offRoute" } | { type: "backOnRoute" } | { type: "arrived" }
//
// Rules (docs/navigation.md, "Following the fixes"):
// - Fixes less accurate than 50 m are set aside; so is a fix farther from the last kept one than a runner
//   can go (8 m/s × time + 40 m), unless four in a row agree (out of a tunnel).
// - The match looks only at a window of the route, from 30 m behind the progress to as far as the runner can
//   have gone since the last match (8 m/s × time + 40 m), so a loop that passes a street twice matches the
//   pass the runner is on. Progress never goes back.
// - Off the route after three fixes in a row farther than 50 m; back after two within 30 m.
// - An instruction is announced once the progress is within its announcement distance (50 m, less for a
//   pair) and the previous one has been passed; nothing is announced off the route.
// - Arrived when the progress is within 30 m of the end (or 60 m with the runner within 30 m of the
//   finish) and the distance covered is at least half the route.
// - Distance covered: on the route, the progress gained; off it, from the place it was left, the straight
//   steps between kept fixes of 5 m or more, and the way back to where the runner rejoins.

const maxAccuracyMeters = 50;
const offRouteMeters = 50;
const backOnRouteMeters = 30;
const fixesToLeave = 3;
const fixesToRejoin = 2;
const windowBehindMeters = 30;
const runnerSpeedLimit = 8;
const slackMeters = 40;
const arrivalMeters = 30;
const offStepMeters = 5;

/** A local flat projection around `origin` (metres east and north): good to centimetres over 50 km. */
export function projection(origin) {
  const metersPerDegreeLat = 111_132.954;
  const metersPerDegreeLon = 111_319.491 * Math.cos(origin.lat * Math.PI / 180);
  return {
    toXY: ({ lat, lon }) => ({ x: (lon - origin.lon) * metersPerDegreeLon, y: (lat - origin.lat) * metersPerDegreeLat }),
  };
}

/** Metres between two { lat, lon } (haversine). */
export function distanceMeters(a, b) {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const s = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6_371_008.8 * Math.asin(Math.min(1, Math.sqrt(s)));
}

/** The route's points projected, with metres along the route at each. */
export function prepareRoute(route) {
  const points = route.coordinates.map(([lon, lat]) => ({ lat, lon }));
  const plane = projection(points[0]);
  const xy = points.map(plane.toXY);
  const along = [0];
  for (let i = 1; i < xy.length; i += 1) along.push(along[i - 1] + Math.hypot(xy[i].x - xy[i - 1].x, xy[i].y - xy[i - 1].y));
  return { points, xy, along, length: along[along.length - 1], plane };
}

/** The nearest place on the route's segments whose stretch overlaps [from, to] metres: { along, distance }. */
export function matchInWindow(prepared, position, from, to) {
  const p = prepared.plane.toXY(position);
  let best = null;
  for (let i = 0; i + 1 < prepared.xy.length; i += 1) {
    const a0 = prepared.along[i], a1 = prepared.along[i + 1];
    if (a1 < from || a0 > to) continue;
    const a = prepared.xy[i], b = prepared.xy[i + 1];
    const dx = b.x - a.x, dy = b.y - a.y;
    const lengthSquared = dx * dx + dy * dy;
    let t = lengthSquared > 0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / lengthSquared : 0;
    // Only the part of the segment inside the window counts.
    const segment = a1 - a0;
    if (segment > 0) t = Math.min(Math.max(t, (from - a0) / segment), (to - a0) / segment);
    t = Math.min(1, Math.max(0, t));
    const distance = Math.hypot(a.x + t * dx - p.x, a.y + t * dy - p.y);
    if (!best || distance < best.distance) best = { along: a0 + t * segment, distance };
  }
  return best ?? { along: from, distance: Infinity };
}

/**
 * Whether `instruction` comes so soon after `previous` that it is said before the runner passes that one
 * ("Then right onto Kaivokatu"): within its announcement distance of it, and not named by it as `then`; or
 * named by it and naming the next one itself (a chain of three close maneuvers). The same rule as the
 * navigation library's `TurnInstruction.followsClosely(after:)`.
 */
function followsClosely(instruction, previous) {
  if (instruction.maneuver === "arrive") return false;
  if (previous.then_m != null) return instruction.then_m != null;
  return instruction.distance_m - previous.distance_m < (instruction.announcement_m ?? 50);
}

/**
 * Follows fixes along `route` ({ coordinates: [[lon, lat]], instructions: [{ text, distance_m,
 * announcement_m }] }). `state` restores a follower saved with `snapshot()` (a reload during a run).
 */
export function createFollower(route, state = {}) {
  const prepared = prepareRoute(route);
  const instructions = route.instructions ?? [];
  const s = {
    progress: 0, // metres along the route, never back
    covered: 0, // metres covered
    lastKept: null, // { lat, lon, time } of the last fix kept
    lastMatchTime: null,
    rejected: 0,
    offRoute: false,
    farCount: 0,
    nearCount: 0,
    offAnchor: null, // where the runner left the route: off-route distance counts from here
    announced: [], // instruction indexes said
    arrived: false,
    lastDistance: 0, // metres from the route at the last fix
    ...state,
  };

  /** The route's point `along` metres from its start. */
  function pointAt(along) {
    const { along: at, points } = prepared;
    let i = 1;
    while (i < at.length - 1 && at[i] < along) i += 1;
    const span = at[i] - at[i - 1];
    const t = span > 0 ? Math.min(1, Math.max(0, (along - at[i - 1]) / span)) : 0;
    return { lat: points[i - 1].lat + (points[i].lat - points[i - 1].lat) * t, lon: points[i - 1].lon + (points[i].lon - points[i - 1].lon) * t };
  }

  function nextInstructionIndex() {
    const index = instructions.findIndex((instruction, i) => i > 0 && instruction.distance_m > s.progress + 1);
    return index === -1 ? instructions.length - 1 : index;
  }

  function progressView() {
    const next = instructions.length ? nextInstructionIndex() : -1;
    return {
      alongMeters: s.progress,
      remainingMeters: Math.max(0, prepared.length - s.progress),
      coveredMeters: s.covered,
      nextInstructionIndex: next,
      metersToNext: next >= 0 ? Math.max(0, instructions[next].distance_m - s.progress) : null,
      offRoute: s.offRoute,
      distanceFromRouteMeters: s.lastDistance,
      arrived: s.arrived,
    };
  }

  function update(fix) {
    const events = [];
    if (s.arrived) return { events, progress: progressView(), kept: false };
    if (!(fix.accuracy <= maxAccuracyMeters)) return { events, progress: progressView(), kept: false };
    if (s.lastKept) {
      const seconds = Math.max(0, (fix.time - s.lastKept.time) / 1000);
      const jump = distanceMeters(s.lastKept, fix);
      if (jump > runnerSpeedLimit * seconds + slackMeters + fix.accuracy && s.rejected < 3) {
        s.rejected += 1;
        return { events, progress: progressView(), kept: false };
      }
    }
    s.rejected = 0;

    const since = s.lastMatchTime === null ? 0 : Math.max(0, (fix.time - s.lastMatchTime) / 1000);
    const from = Math.max(0, s.progress - windowBehindMeters);
    const to = s.progress + runnerSpeedLimit * since + slackMeters;
    const match = matchInWindow(prepared, fix, from, to);
    s.lastDistance = match.distance;

    // Off the route, and back.
    if (match.distance > offRouteMeters) {
      s.farCount += 1;
      s.nearCount = 0;
    } else if (match.distance <= backOnRouteMeters) {
      s.nearCount += 1;
      s.farCount = 0;
    } else {
      s.farCount = 0;
      s.nearCount = 0;
    }
    if (!s.offRoute && s.farCount >= fixesToLeave) {
      // Counted from where the runner left the route: its place at the progress.
      s.offRoute = true;
      s.offAnchor = pointAt(s.progress);
      events.push({ type: "offRoute" });
    } else if (s.offRoute && s.nearCount >= fixesToRejoin) {
      // Back: the way from the last counted point to where they rejoin, then on along the route from there
      // (a shortcut skips what it cut, and counts only what was run).
      const rejoin = pointAt(match.along);
      s.covered += distanceMeters(s.offAnchor, rejoin);
      s.progress = Math.max(s.progress, match.along);
      s.lastMatchTime = fix.time;
      s.offRoute = false;
      s.offAnchor = null;
      events.push({ type: "backOnRoute" });
    }

    // Progress and distance.
    if (!s.offRoute) {
      if (match.distance <= backOnRouteMeters) {
        if (match.along > s.progress) {
          s.covered += match.along - s.progress;
          s.progress = match.along;
        }
        s.lastMatchTime = fix.time;
      }
    } else {
      const step = distanceMeters(s.offAnchor, fix);
      if (step >= offStepMeters) {
        s.covered += step;
        s.offAnchor = { lat: fix.lat, lon: fix.lon };
      }
    }
    s.lastKept = { lat: fix.lat, lon: fix.lon, time: fix.time };

    // Announcements (nothing off the route).
    if (!s.offRoute) {
      for (let i = 0; i < instructions.length; i += 1) {
        if (s.announced.includes(i)) continue;
        const instruction = instructions[i];
        const previousDone = i === 0 || instructions[i - 1].distance_m <= s.progress + 1
          || followsClosely(instruction, instructions[i - 1]);
        if (previousDone && instruction.distance_m - s.progress <= (instruction.announcement_m ?? 50)) {
          s.announced.push(i);
          events.push({ type: "announce", index: i });
        }
      }
    }

    // Arrival.
    const toFinish = distanceMeters(fix, prepared.points[prepared.points.length - 1]);
    const remaining = prepared.length - s.progress;
    const enoughDone = s.covered >= prepared.length / 2;
    if (enoughDone && (remaining <= arrivalMeters || (remaining <= 2 * arrivalMeters && toFinish <= arrivalMeters))) {
      s.arrived = true;
      events.push({ type: "arrived" });
    }
    return { events, progress: progressView(), kept: true };
  }

  return {
    update,
    get progress() { return progressView(); },
    get length() { return prepared.length; },
    /** The state to restore with createFollower(route, state) after a reload. */
    snapshot: () => JSON.parse(JSON.stringify(s)),
  };
}
