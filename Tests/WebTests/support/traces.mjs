// Generated traces on a local plane for the follower's tests and its benchmark (scripts/bench-follower.mjs):
// routes through corners given in metres east and north, points along them, and a seeded random source.

const origin = { lat: 60.17, lon: 24.94 };
const metresPerDegreeLat = 111_132.954;
const metresPerDegreeLon = 111_319.491 * Math.cos(origin.lat * Math.PI / 180);
export const at = (x, y) => ({ lat: origin.lat + y / metresPerDegreeLat, lon: origin.lon + x / metresPerDegreeLon });

/** A route through `corners` (metres east, north), with a turn instruction at every inner corner. */
export function routeThrough(corners) {
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
export function walk(corners, step = 3) {
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
export function random(seed) {
  let a = seed;
  return () => {
    a |= 0; a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
