// Following a runner along a planned route on the device (run-route-planner 6, 7; NFR 6.3): the same rules
// as the Swift Navigation library (Sources/Navigation, docs/navigation.md), so a run needs no server while it
// lasts. Pure: no DOM, no clock of its own (each fix carries its time), unit-tested in Tests/WebTests.
//
//   const follower = createFollower(route, { startedAt });   // route: POST /api/activities/route's answer
//   const { events, progress } = follower.update({ lat, lon, accuracy, time });
//   events: { type: "announce", index } | { type: "offRoute" } | { type: "backOnRoute" } | { type: "arrived" }
//
// Rules (docs/navigation.md, "Following the fixes"; each mirrors the Swift type named):
// - Fixes less accurate than 50 m are set aside; so is a fix farther from the last kept one than a runner
//   can go (8 m/s × time + 40 m), unless four in a row agree (out of a tunnel).
// - The kept fixes go through a constant-velocity Kalman filter (PositionFilter): the filtered position is
//   matched, and its velocity is the runner's own.
// - GPS error (GPSErrorEstimator): on the route, a position's offset across the stretch matched is the error
//   in that direction, learnt east and north by a Kalman filter (one direction per street, both once the
//   route turns) while the runner does not move across the stretch; each position is corrected by it before
//   it is matched. At a corner the offset is taken across the next street instead where that lies nearer.
// - The match looks only at a window of the route, from 30 m behind the progress to as far as the runner can
//   have gone since the last match (8 m/s × time + 40 m), so a loop that passes a street twice matches the
//   pass the runner is on. Inside it the match minimises the distance + 0.3 × how far beyond 20 m it lies
//   from where the runner should be by now + up to 15 m for a stretch running across or against their
//   velocity (the other leg of an out-and-back, the street just left at a corner). Off the route it weighs
//   instead 0.05 per metre (beyond 20 m) of its distance along the route from where the runner left it, so
//   a runner coming back from a wrong turn rejoins there, not at a later pass of the same streets nearby
//   (RouteFollower, FollowingOptions.rejoinWeight); matched further along than where they left (a shortcut),
//   they are back only while moving along the route there at 1 m/s (GPS error can bring the way back from a
//   wrong turn within 30 m of a later stretch).
// - Matches within 30 m feed a one-dimensional Kalman filter of the place along the route (AlongRouteFilter):
//   one that jumps back against the runner's motion is set aside and the place carried on at their speed.
//   Progress is the farthest place so far; it never goes back.
// - Off the route after three fixes in a row farther than 50 m by both the position and the corrected one;
//   back after two nearer than 30 m.
// - An instruction is announced once the progress half a second from now (at the speed along the route) is
//   within its announcement distance (50 m, less for a pair) and the previous one has been passed; nothing
//   is announced off the route. Unlike RouteFollower, one whose turn the progress passed unannounced is
//   still said (not skipped).
// - Arrived when the progress is within 30 m of the end (or 60 m with the runner within 30 m of the
//   finish) and the distance covered is at least half the route; not while off the route.
// - Distance covered (NavigationSession): on the route, the movement of the place along it — forward, and
//   back only when the runner truly runs back: at every fix for 25 s the place moves back, faster than 1 m/s
//   and at 0.6 of their own speed, while their velocity points back against the heading they had when it last
//   moved forward (then the whole way back counts). GPS error holding the match on the street just left at
//   a sharp corner slides it back for 10–25 s, until it jumps forward again: that counts nothing, and the
//   stretch is not counted twice. Off the route, from the place last counted, the straight steps of 5 m or
//   more through the filtered positions since the place last moved forward, then on, and the way back to
//   where the runner rejoins.
// Not ported: PositionFilter's own outlier gate (the jump rule above stands for it).

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
const rejoinAheadSpeed = 1;
const expectationWeight = 0.3;
const headingPenaltyMeters = 15;
const announcementLeadSeconds = 0.5;
const expectationSlackMeters = 20;
const backwardsSpeed = 1;
const runningBackSeconds = 25;
const stallLimit = 120;
const backShareOfSpeed = 0.6;
const accelerationNoise = 0.6;
const accuracyPerSigma = 1.5;
const alongAccelerationNoise = 0.3;
const alongGate = 9;
const alongResetAfterRejections = 8;
const errorCorrelationSeconds = 120;
const errorPerAccuracy = 1 / 1.5;
const residualPerAccuracy = 0.3;
const errorGate = 3;
const errorLearningMaxAcrossSpeed = 1;
const cornerAheadMeters = 40;
const cornerTurnCosine = 0.866;

/** A local flat projection around `origin` (metres east and north): good to centimetres over 50 km. */
export function projection(origin) {
  const metersPerDegreeLat = 111_132.954;
  const metersPerDegreeLon = 111_319.491 * Math.cos(origin.lat * Math.PI / 180);
  return {
    toXY: ({ lat, lon }) => ({ x: (lon - origin.lon) * metersPerDegreeLon, y: (lat - origin.lat) * metersPerDegreeLat }),
    fromXY: ({ x, y }) => ({ lat: origin.lat + y / metersPerDegreeLat, lon: origin.lon + x / metersPerDegreeLon }),
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
 * The best place on the route's segments whose stretch overlaps [from, to] metres for `p` ({ x, y } on the
 * route's plane): { along, distance, segment, x, y }. Of each segment's nearest point, the one minimising its
 * distance + `weight` × how much farther than `slack` along the route it lies from `expected` + up to
 * `headingPenalty` as the segment turns away from `velocity` ({ east, north }, m/s; ignored below 1 m/s):
 * none along it, half across it, all of it against it. Equally good points go to the one nearer `expected`
 * (NavigationRoute.match). With no options, simply the nearest.
 */
export function matchInWindow(prepared, p, from, to, { expected = 0, weight = 0, slack = 0, velocity = null, headingPenalty = 0 } = {}) {
  const speed = velocity ? Math.hypot(velocity.east, velocity.north) : 0;
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
    let cost = distance + weight * Math.max(0, Math.abs(along - expected) - slack);
    if (speed >= 1 && headingPenalty > 0 && segment > 0) {
      cost += headingPenalty * (1 - (dx * velocity.east + dy * velocity.north) / (Math.sqrt(lengthSquared) * speed)) / 2;
    }
    if (cost < bestCost - 1e-9 || (Math.abs(cost - bestCost) <= 1e-9 && Math.abs(along - expected) < Math.abs(best.along - expected))) {
      best = { along, distance, segment: i, x: a.x + t * dx, y: a.y + t * dy };
      bestCost = cost;
    }
  }
  return best ?? { along: from, distance: Infinity, segment: 0, x: 0, y: 0 };
}

/**
 * The stretch whose offset is taken for GPS error (RouteFollower's stretchForError): `match`, or a segment
 * further along within `cornerAheadMeters`, turned from it by more than 30°, that lies nearer `p`. At a corner
 * the match holds on the street just left for a few fixes while the runner is already on the next one; their
 * way along it, read across the old street, would be learnt as an error pointing forward along the new one.
 */
export function stretchForError(prepared, p, match) {
  const matched = segmentTangent(prepared, match.segment);
  let best = match;
  for (let i = match.segment + 1; i + 1 < prepared.xy.length && prepared.along[i] <= match.along + cornerAheadMeters; i += 1) {
    const tangent = segmentTangent(prepared, i);
    if (tangent.x * matched.x + tangent.y * matched.y >= cornerTurnCosine) continue;
    const a = prepared.xy[i];
    const t = Math.min(tangent.length, Math.max(0, (p.x - a.x) * tangent.x + (p.y - a.y) * tangent.y));
    const x = a.x + t * tangent.x, y = a.y + t * tangent.y;
    const distance = Math.hypot(p.x - x, p.y - y);
    if (distance < best.distance) best = { along: prepared.along[i] + t, distance, segment: i, x, y };
  }
  return best;
}

/** The unit direction { x, y } of the route's segment `i`, and its `length` (NavigationRoute's tangent). */
function segmentTangent(prepared, i) {
  const [a, b] = [prepared.xy[i], prepared.xy[i + 1]];
  const length = Math.hypot(b.x - a.x, b.y - a.y);
  return { x: (b.x - a.x) / (length || 1), y: (b.y - a.y) / (length || 1), length };
}

/** The runner's speed (m/s) forward along the route's segment `segment`, from `motion`'s velocity. */
function speedAlong(prepared, segment, motion) {
  const tangent = segmentTangent(prepared, segment);
  return tangent.x * motion.vx + tangent.y * motion.vy;
}

/**
 * The GPS error (east, north) expected at `time` by `error` (learnError's state): what is known decays
 * towards none.
 */
function predictedError(error, time) {
  if (!error) return { east: 0, north: 0 };
  const decay = Math.exp(-Math.max(0, (time - error.time) / 1000) / errorCorrelationSeconds);
  return { east: error.east * decay, north: error.north * decay };
}

/**
 * The slowly wandering GPS error after a fix that lies `across` metres from the route along the unit
 * vector `normal` ({ x, y }), reported with `accuracy`: GPSErrorEstimator's Kalman filter on the error's two
 * components, a first-order Gauss–Markov process observed one direction at a time (Groves 2013, §9.4). An
 * offset beyond three standard deviations of the prediction (a turn not seen yet) is not used. `error` is
 * the state so far, or null; returns { east, north, ee, en, nn, time }.
 */
export function learnError(error, across, normal, accuracy, time) {
  const variance = (accuracy * errorPerAccuracy) ** 2;
  const dt = error ? Math.max(0, (time - error.time) / 1000) : 0;
  const a = Math.exp(-dt / errorCorrelationSeconds);
  const prior = error ?? { east: 0, north: 0, ee: variance, en: 0, nn: variance };
  let east = prior.east * a, north = prior.north * a;
  let ee = a * a * prior.ee + variance * (1 - a * a);
  let en = a * a * prior.en;
  let nn = a * a * prior.nn + variance * (1 - a * a);
  const r = Math.max(1, accuracy * residualPerAccuracy) ** 2;
  const phx = ee * normal.x + en * normal.y, phy = en * normal.x + nn * normal.y;
  const innovationVariance = normal.x * phx + normal.y * phy + r;
  const innovation = across - (normal.x * east + normal.y * north);
  if (innovation * innovation <= errorGate * errorGate * innovationVariance) {
    const kx = phx / innovationVariance, ky = phy / innovationVariance;
    east += kx * innovation;
    north += ky * innovation;
    ee -= kx * phx;
    en -= kx * phy;
    nn -= ky * phy;
  }
  return { east, north, ee, en, nn, time };
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
 * The place and speed along the route after a match `match` metres along it, uncertain by `sigma` metres:
 * AlongRouteFilter's one-dimensional constant-velocity Kalman filter. A match beyond three standard deviations
 * of the prediction (GPS error near a corner pulling it back onto the street just left) is set aside and the
 * place carried forward at the runner's speed; after eight in a row the matches are trusted again (keeping
 * the speed). A match beyond the gate but ahead, no farther than `reachable` (as far as the runner can have
 * come by their own running), is trusted at once: the place had stalled behind them. `along` is the state so
 * far, null to start over at the match (the first, or a rejoin). Returns
 * { along: { meters, speed, pp, pv, vv, time, rejections }, used }.
 */
export function trackAlong(along, match, sigma, time, reachable = -Infinity) {
  const restart = (speed) => ({ meters: match, speed, pp: sigma * sigma, pv: 0, vv: 9, time, rejections: 0 });
  if (!along) return { along: restart(0), used: true };
  const dt = (time - along.time) / 1000;
  if (!(dt > 0)) return { along, used: false };
  const q = alongAccelerationNoise;
  const predicted = along.meters + along.speed * dt;
  const pp = along.pp + 2 * dt * along.pv + dt * dt * along.vv + q * dt ** 3 / 3;
  const pv = along.pv + dt * along.vv + q * dt * dt / 2;
  const vv = along.vv + q * dt;
  const innovation = match - predicted;
  if (innovation * innovation / (pp + sigma * sigma) > alongGate) {
    if (along.rejections + 1 >= alongResetAfterRejections || (innovation > 0 && match <= reachable)) {
      return { along: restart(along.speed), used: true };
    }
    return { along: { meters: predicted, speed: along.speed, pp, pv, vv, time, rejections: along.rejections + 1 }, used: false };
  }
  const kp = pp / (pp + sigma * sigma), kv = pv / (pp + sigma * sigma);
  return {
    along: {
      meters: predicted + kp * innovation, speed: along.speed + kv * innovation,
      pp: (1 - kp) * pp, pv: (1 - kp) * pv, vv: vv - kv * pv, time, rejections: 0,
    },
    used: true,
  };
}

/** Where the runner should be along the route at `time` by `along` (trackAlong's state). */
function predictedAlong(along, time) {
  return along ? along.meters + along.speed * Math.max(0, (time - along.time) / 1000) : 0;
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
    along: null, // trackAlong's state: where the runner is along the route (may go back) and how fast
    countedAlong: 0, // where along the route distance was last counted; null off the route
    forwardHeading: null, // { east, north }: the runner's heading when the place last moved forward
    backSince: null, // when (ms) the runner began to run back without a pause; null when not running back
    lastPlace: null, // the place along the route at the last fix on it
    stalled: [], // the positions since the place last moved forward, on the route (at most stallLimit)
    motion: null, // trackMotion's state
    ranSinceProgress: 0, // metres the filtered position has moved since the progress last moved forward
    lastPosition: null, // { x, y } of the filtered position at the last fix
    error: null, // learnError's state
    ...state,
  };
  // A run saved before the place along the route was kept counts on from its progress.
  if (state.progress !== undefined && state.countedAlong === undefined) s.countedAlong = s.offRoute ? null : s.progress;

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
   * Whether the runner runs back along the route at this fix: the place moves back faster than
   * `backwardsSpeed` and at `backShareOfSpeed` of their own speed, and their velocity points back, at that
   * speed, against the heading they had when the place last moved forward. A match slipping back onto the
   * street just left at a corner moves the place back while the runner runs on (NavigationSession's
   * isRunningBack).
   */
  function isRunningBack() {
    if (!s.along || s.along.speed > -backwardsSpeed || !s.forwardHeading) return false;
    const speed = Math.hypot(s.motion.vx, s.motion.vy);
    if (-s.along.speed < backShareOfSpeed * speed) return false;
    return s.forwardHeading.east * s.motion.vx + s.forwardHeading.north * s.motion.vy <= -backwardsSpeed;
  }

  /**
   * Metres covered on the route since the last fix at `time`: the place's movement forward beyond where it
   * was counted, and back once the runner has run back for `runningBackSeconds`.
   */
  function distanceStep(time, position) {
    const place = s.along?.meters ?? s.countedAlong;
    const step = place - s.countedAlong;
    // Only a place that moved back since the last fix: one no match updated keeps its last speed.
    const movedBack = s.lastPlace != null && place < s.lastPlace;
    s.lastPlace = place;
    if (step <= 0) {
      // If the runner turns out to have left, their way from where they were last counted runs through these.
      if (s.stalled.length < stallLimit) s.stalled.push(position);
      if (step === 0 || !movedBack || !isRunningBack()) {
        s.backSince = null;
        return 0;
      }
      s.backSince ??= time;
      if (time - s.backSince < runningBackSeconds * 1000) return 0;
      s.countedAlong = place;
      s.stalled = [];
      return -step;
    }
    s.stalled = [];
    s.backSince = null;
    const speed = Math.hypot(s.motion.vx, s.motion.vy);
    if (speed >= backwardsSpeed) s.forwardHeading = { east: s.motion.vx / speed, north: s.motion.vy / speed };
    s.countedAlong = place;
    return step;
  }

  /** Off the route: the straight step from the last position counted to `position`, once it is 5 m or more. */
  function offStep(position) {
    const step = distanceMeters(s.offAnchor, position);
    if (step < offStepMeters) return 0;
    s.offAnchor = position;
    return step;
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
    if (s.lastPosition) s.ranSinceProgress += Math.hypot(s.motion.x - s.lastPosition.x, s.motion.y - s.lastPosition.y);
    s.lastPosition = { x: s.motion.x, y: s.motion.y };
    // Once the place has stalled (the runner has run `slackMeters` more than the progress moved), as far along
    // the route as their own running reaches (RouteFollower's reachable); null while it moves.
    const reachable = s.ranSinceProgress > slackMeters ? s.progress + s.ranSinceProgress + slackMeters : null;

    const since = s.lastMatchTime === null ? 0 : Math.max(0, (fix.time - s.lastMatchTime) / 1000);
    const from = Math.max(0, s.progress - windowBehindMeters);
    const to = Math.max(s.progress, predictedAlong(s.along, fix.time)) + runnerSpeedLimit * since + slackMeters;
    const weighing = s.offRoute
      ? { expected: s.progress, weight: rejoinWeight, slack: expectationSlackMeters }
      : {
        expected: predictedAlong(s.along, fix.time), weight: expectationWeight, slack: expectationSlackMeters,
        velocity: { east: s.motion.vx, north: s.motion.vy }, headingPenalty: headingPenaltyMeters,
      };
    // The filtered position, and as corrected by the GPS error learnt so far.
    const position = prepared.plane.fromXY(s.motion);
    const error = predictedError(s.error, fix.time);
    const heldAtWindowStart = (m) => from > 0 && m.along <= from + 0.01;
    // Held at the window's back while the place stalls, the runner is further on (the street's other pass): the
    // nearest point between the progress and as far as their own running reaches (RouteFollower's bestMatch).
    const bestMatch = (p) => {
      const weighed = matchInWindow(prepared, p, from, to, weighing);
      if (s.offRoute || !heldAtWindowStart(weighed) || reachable === null) return weighed;
      const ahead = matchInWindow(prepared, p, s.progress, Math.max(s.progress, reachable), {
        velocity: { east: s.motion.vx, north: s.motion.vy }, headingPenalty: headingPenaltyMeters,
      });
      return ahead.distance < weighed.distance ? ahead : weighed;
    };
    const match = bestMatch({ x: s.motion.x - error.east, y: s.motion.y - error.north });
    // Off the route by both: neither GPS error alone nor an error learnt wrong raises the prompt.
    const offBy = Math.min(match.distance, bestMatch(s.motion).distance);
    const sigma = Math.max(5, 2 * Math.sqrt(s.motion.pp));
    s.lastDistance = offBy;

    // Off the route, and back.
    if (s.offRoute) {
      // Further along than where they left (a shortcut): back only while moving along the route there
      // (RouteFollower's rejoinAheadSpeedMetersPerSecond).
      const ahead = match.along > s.progress + expectationSlackMeters;
      const rejoins = match.distance < backOnRouteMeters
        && (!ahead || speedAlong(prepared, match.segment, s.motion) >= rejoinAheadSpeed);
      s.nearCount = rejoins ? s.nearCount + 1 : 0;
    } else {
      s.farCount = offBy > offRouteMeters ? s.farCount + 1 : 0;
    }
    if (!s.offRoute && s.farCount >= fixesToLeave) {
      // Counted from where the runner left the route: the place last counted.
      s.offRoute = true;
      s.offAnchor = pointAt(s.countedAlong);
      // The way from there: through the positions since the place last moved forward.
      for (const stalled of s.stalled) s.covered += offStep(stalled);
      s.stalled = [];
      s.countedAlong = null;
      s.nearCount = 0;
      events.push({ type: "offRoute" });
    } else if (s.offRoute && s.nearCount >= fixesToRejoin) {
      // Back: the way from the last counted point to where they rejoin, then on along the route from there
      // (a shortcut skips what it cut, and counts only what was run).
      s.covered += distanceMeters(s.offAnchor, pointAt(match.along));
      s.progress = Math.max(s.progress, match.along);
      s.along = trackAlong(null, match.along, sigma, fix.time).along;
      s.countedAlong = match.along;
      s.lastPlace = match.along;
      s.ranSinceProgress = 0;
      s.offRoute = false;
      s.farCount = 0;
      s.offAnchor = null;
      events.push({ type: "backOnRoute" });
    }

    // Progress and distance. A match held at the back of the window (the runner farther back along the street
    // than it reaches, as on an out-and-back cut short) is no evidence of their place: taken, it would keep the
    // window from growing to where they are (RouteFollower's heldAtWindowStart).
    if (!s.offRoute) {
      if (match.distance <= backOnRouteMeters && !heldAtWindowStart(match)) {
        // Across the stretch matched, the position's offset is the GPS error in that direction (or across the
        // next street, nearer, at a corner); not while the runner moves across it (turning, or leaving the route).
        const stretch = stretchForError(prepared, { x: s.motion.x - error.east, y: s.motion.y - error.north }, match);
        const tangent = segmentTangent(prepared, stretch.segment);
        const normal = { x: -tangent.y, y: tangent.x };
        const across = normal.x * (s.motion.x - stretch.x) + normal.y * (s.motion.y - stretch.y);
        if (Math.abs(normal.x * s.motion.vx + normal.y * s.motion.vy) < errorLearningMaxAcrossSpeed) {
          s.error = learnError(s.error, across, normal, Math.max(1, fix.accuracy), fix.time);
        }
        const { along, used } = trackAlong(s.along, match.along, sigma, fix.time, reachable ?? -Infinity);
        s.along = along;
        if (used) s.lastMatchTime = fix.time;
        if (along.meters > s.progress) {
          s.progress = along.meters;
          s.ranSinceProgress = 0;
        }
      }
      s.covered += distanceStep(fix.time, position);
    } else {
      s.covered += offStep(position);
    }
    s.lastKept = { lat: fix.lat, lon: fix.lon, time: fix.time };

    // Nothing is announced, nor arrived at, off the route.
    if (s.offRoute) return { events, progress: progressView(), kept: true };

    // Announcements, by the progress half a fix from now. One whose turn the progress passed before it was said
    // is said at once (RouteFollower skips it): the progress can pass two turns a few metres apart in one fix
    // while the runner has still to take the second.
    const lead = Math.max(0, s.along?.speed ?? 0) * announcementLeadSeconds;
    for (let i = 0; i < instructions.length; i += 1) {
      const instruction = instructions[i];
      if (s.announced.includes(i)) continue;
      const previousDone = i === 0 || instructions[i - 1].distance_m <= s.progress + 1
        || followsClosely(instruction, instructions[i - 1]);
      if (previousDone && instruction.distance_m - s.progress - lead <= (instruction.announcement_m ?? 50)) {
        s.announced.push(i);
        events.push({ type: "announce", index: i });
      }
    }

    // Arrival.
    const toFinish = distanceMeters(position, prepared.points[prepared.points.length - 1]);
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
