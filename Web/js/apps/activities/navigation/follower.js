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
//   pass the runner is on. Progress never goes back. Off the route the match also weighs 0.05 per metre of
//   its distance along the route (beyond 20 m) from where the runner left it, so a runner coming back from a
//   wrong turn rejoins there, not at a later pass of the same streets nearby (RouteFollower's rejoinWeight).
// - Off the route after three fixes in a row farther than 50 m; back after two within 30 m.
// - An instruction is announced once the progress is within its announcement distance (50 m, less for a
//   pair) and the previous one has been passed; nothing is announced off the route.
// - Arrived when the progress is within 30 m of the end (or 60 m with the runner within 30 m of the
//   finish) and the distance covered is at least half the route.
// - Distance covered: on the route, the movement of the place along it (the latest match within 30 m):
//   forward, and back only when the runner truly runs back — the place moves back faster than 1 m/s and
//   their own velocity points back, at that speed, against the heading they had when it last moved forward
//   (NavigationSession's distance step), so a noisy fix pulling the match back onto the street just left at
//   a corner counts nothing, and the way on is not counted twice. Off the route, from the place it was left,
//   the straight steps between kept fixes of 5 m or more, and the way back to where the runner rejoins.
// - The runner's velocity comes from a constant-velocity Kalman filter of the kept fixes, as PositionFilter's.

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
const rejoinWeight = 0.05;
const expectationSlackMeters = 20;
const backwardsSpeed = 1;
const accelerationNoise = 0.6;
const accuracyPerSigma = 1.5;

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

/**
 * The best place on the route's segments whose stretch overlaps [from, to] metres: { along, distance }. Of
 * each segment's nearest point, the one minimising its distance + `weight` × how much farther than `slack`
 * along the route it lies from `expected`; equally good points go to the one nearer `expected` (as
 * NavigationRoute.match). With no weight, simply the nearest.
 */
export function matchInWindow(prepared, position, from, to, { expected = 0, weight = 0, slack = 0 } = {}) {
  const p = prepared.plane.toXY(position);
  let best = null;
  let bestCost = Infinity;
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
    const along = a0 + t * segment;
    const cost = distance + weight * Math.max(0, Math.abs(along - expected) - slack);
    if (cost < bestCost - 1e-9 || (Math.abs(cost - bestCost) <= 1e-9 && Math.abs(along - expected) < Math.abs(best.along - expected))) {
      best = { along, distance };
      bestCost = cost;
    }
  }
  return best ?? { along: from, distance: Infinity };
}

/**
 * The runner's motion after a kept fix at `position` ({ x, y } on the route's plane): PositionFilter's
 * constant-velocity Kalman filter with white-noise acceleration (each axis on its own, one shared covariance),
 * without its gate, since the follower sets spikes aside itself. `motion` is the state after the last fix,
 * null to start over (at rest, with a runner's speed as the uncertainty). Returns
 * { x, y, vx, vy, pp, pv, vv, time }: position, velocity east and north (m/s), covariance, time (ms).
 */
export function trackMotion(motion, position, accuracy, time) {
  const r = (accuracy / accuracyPerSigma) ** 2;
  if (!motion) return { x: position.x, y: position.y, vx: 0, vy: 0, pp: r, pv: 0, vv: 9, time };
  const dt = (time - motion.time) / 1000;
  if (!(dt > 0)) return motion;
  const q = accelerationNoise;
  const pp = motion.pp + 2 * dt * motion.pv + dt * dt * motion.vv + q * dt ** 3 / 3;
  const pv = motion.pv + dt * motion.vv + q * dt * dt / 2;
  const vv = motion.vv + q * dt;
  const x = motion.x + motion.vx * dt, y = motion.y + motion.vy * dt;
  const ex = position.x - x, ey = position.y - y;
  const kp = pp / (pp + r), kv = pv / (pp + r);
  return {
    x: x + kp * ex, y: y + kp * ey, vx: motion.vx + kv * ex, vy: motion.vy + kv * ey,
    pp: (1 - kp) * pp, pv: (1 - kp) * pv, vv: vv - kv * pv, time,
  };
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
    place: 0, // metres along the route of the latest match within 30 m: where the runner is (may go back)
    placeTime: null,
    speedAlong: 0, // m/s along the route by the last two places; negative going back
    countedAlong: 0, // where along the route distance was last counted; null off the route
    forwardHeading: null, // { east, north }: the runner's heading when the place last moved forward
    motion: null, // trackMotion's state
    ...state,
  };
  // A run saved before the place was kept counts on from its progress.
  if (state.progress !== undefined && state.countedAlong === undefined) {
    s.place = s.progress;
    s.countedAlong = s.offRoute ? null : s.progress;
  }

  /** The route's point `along` metres from its start. */
  function pointAt(along) {
    const { along: at, points } = prepared;
    let i = 1;
    while (i < at.length - 1 && at[i] < along) i += 1;
    const span = at[i] - at[i - 1];
    const t = span > 0 ? Math.min(1, Math.max(0, (along - at[i - 1]) / span)) : 0;
    return { lat: points[i - 1].lat + (points[i].lat - points[i - 1].lat) * t, lon: points[i - 1].lon + (points[i].lon - points[i - 1].lon) * t };
  }

  /**
   * Whether the runner truly runs back along the route: the place moves back faster than `backwardsSpeed`
   * and their own velocity points back, at that speed, against the heading they had when the place last
   * moved forward. A match slipping back onto the street just left at a corner moves the place back while
   * the runner runs on (NavigationSession's isRunningBack).
   */
  function isRunningBack() {
    if (s.speedAlong > -backwardsSpeed || !s.forwardHeading) return false;
    return s.forwardHeading.east * s.motion.vx + s.forwardHeading.north * s.motion.vy <= -backwardsSpeed;
  }

  /** Metres covered on the route since the last fix: the place's movement, back only when running back. */
  function distanceStep() {
    const step = s.place - s.countedAlong;
    if (step < 0 && !isRunningBack()) return 0;
    const speed = Math.hypot(s.motion.vx, s.motion.vy);
    if (step > 0 && speed >= backwardsSpeed) s.forwardHeading = { east: s.motion.vx / speed, north: s.motion.vy / speed };
    s.countedAlong = s.place;
    return Math.abs(step);
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
    let jumped = false;
    if (s.lastKept) {
      const seconds = Math.max(0, (fix.time - s.lastKept.time) / 1000);
      jumped = distanceMeters(s.lastKept, fix) > runnerSpeedLimit * seconds + slackMeters + fix.accuracy;
      if (jumped && s.rejected < 3) {
        s.rejected += 1;
        return { events, progress: progressView(), kept: false };
      }
    }
    s.rejected = 0;
    // Four far fixes in a row: the runner really is there, and the motion starts over.
    s.motion = trackMotion(jumped ? null : s.motion, prepared.plane.toXY(fix), fix.accuracy, fix.time);

    const since = s.lastMatchTime === null ? 0 : Math.max(0, (fix.time - s.lastMatchTime) / 1000);
    const from = Math.max(0, s.progress - windowBehindMeters);
    const to = s.progress + runnerSpeedLimit * since + slackMeters;
    const rejoin = s.offRoute ? { expected: s.progress, weight: rejoinWeight, slack: expectationSlackMeters } : {};
    const match = matchInWindow(prepared, fix, from, to, rejoin);
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
      // Counted from where the runner left the route: the place last counted.
      s.offRoute = true;
      s.offAnchor = pointAt(s.countedAlong);
      s.countedAlong = null;
      events.push({ type: "offRoute" });
    } else if (s.offRoute && s.nearCount >= fixesToRejoin) {
      // Back: the way from the last counted point to where they rejoin, then on along the route from there
      // (a shortcut skips what it cut, and counts only what was run).
      s.covered += distanceMeters(s.offAnchor, pointAt(match.along));
      s.progress = Math.max(s.progress, match.along);
      s.place = match.along;
      s.placeTime = fix.time;
      s.speedAlong = 0;
      s.countedAlong = match.along;
      s.lastMatchTime = fix.time;
      s.offRoute = false;
      s.offAnchor = null;
      events.push({ type: "backOnRoute" });
    }

    // Progress and distance.
    if (!s.offRoute) {
      if (match.distance <= backOnRouteMeters) {
        const seconds = s.placeTime === null ? 0 : (fix.time - s.placeTime) / 1000;
        if (seconds > 0) s.speedAlong = (match.along - s.place) / seconds;
        s.place = match.along;
        s.placeTime = fix.time;
        s.progress = Math.max(s.progress, match.along);
        s.lastMatchTime = fix.time;
      }
      s.covered += distanceStep();
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
        const previousPassed = i === 0 || instructions[i - 1].distance_m <= s.progress + 1;
        if (previousPassed && instruction.distance_m - s.progress <= (instruction.announcement_m ?? 50)) {
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
