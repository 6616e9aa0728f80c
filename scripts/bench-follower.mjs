// The browser's route follower (Web/js/apps/activities/navigation/follower.js) on short sharp-cornered loops:
// the distance it counts against the distance run, at 5 m and 15 m of RMS GPS error.
//
//   node scripts/bench-follower.mjs [follower.js …]   (default: the web app's; several are compared side by side)
//
// Each shape (a square, 120° and 150° corners, a hairpin between streets 30 m apart, an out-and-back spur, a
// zigzag of 150° turns between streets 60 m apart) is walked at 3 m/s with one fix a second, 100 times with
// different seeds. The GPS error is the Swift simulation's (GPSNoiseModel without spikes or dropouts): a
// first-order Gauss–Markov process with a 60 s correlation time, smoothed over 8 s as a phone's fused position
// is, plus a little white jitter; the reported accuracy scatters around the RMS. The error of a run is the
// distance counted minus the distance walked until the follower said "arrived", over the loop's length.
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";
import { at, random, routeThrough, walk } from "../Tests/WebTests/support/traces.mjs";

const paths = process.argv.length > 2 ? process.argv.slice(2) : ["Web/js/apps/activities/navigation/follower.js"];
const followers = await Promise.all(paths.map((path) => import(pathToFileURL(resolve(path)).href)));
const seeds = Number(process.env.SEEDS ?? 100);

const gaussian = (next) => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());

const shapes = {
  "square": [[0, 0], [0, 400], [400, 400], [400, 0], [0, 0]],
  "120° corners": [[0, 0], [0, 400], [231, 0], [0, 0]],
  "150° corner": [[0, 0], [0, 400], [150, 140], [150, 0], [0, 0]],
  "hairpin, 30 m apart": [[0, 0], [0, 400], [30, 380], [30, 0], [200, 0], [60, -60], [0, 0]],
  "out-and-back spur": [[0, 0], [0, 300], [200, 300], [200, 400], [200, 300], [400, 300], [400, 0], [0, 0]],
  "zigzag, 60 m apart": [[0, 0], [300, 0], [40, 60], [300, 120], [40, 180], [0, 0]],
};

/** The error (% of the loop) of one run of `follower` along `corners` with `seed`'s GPS error of `rms` metres. */
function run(follower, corners, rms, seed) {
  const points = walk(corners);
  const next = random(seed);
  const f = follower.createFollower(routeThrough(corners));
  const axis = rms / Math.SQRT2, slow = axis * Math.sqrt(0.99), rawSigma = slow * Math.sqrt(68 / 60), jitter = axis * 0.1;
  const raw = [rawSigma * gaussian(next), rawSigma * gaussian(next)], smooth = [slow * gaussian(next), slow * gaussian(next)];
  const a = Math.exp(-1 / 60), b = Math.sqrt(1 - a * a), follow = 1 - Math.exp(-1 / 8);
  let walked = 0;
  points.forEach((p, second) => {
    if (second > 0) for (const i of [0, 1]) {
      raw[i] = a * raw[i] + b * rawSigma * gaussian(next);
      smooth[i] += follow * (raw[i] - smooth[i]);
    }
    const ex = smooth[0] + jitter * gaussian(next), ey = smooth[1] + jitter * gaussian(next);
    const accuracy = Math.max(1, rms * Math.exp(0.25 * gaussian(next)));
    if (!f.progress.arrived) walked = p.along;
    f.update({ ...at(p.x + ex, p.y + ey), accuracy, time: second * 1000 });
  });
  return ((f.progress.coveredMeters - walked) / points[points.length - 1].along) * 100;
}

console.log(`Distance counted by the browser's follower, ${seeds} runs per shape and noise (error: median / worst, runs beyond ±2 %)\n`);
console.log(`| Shape | RMS | ${paths.join(" | ")} |`);
console.log(`| --- | ---: |${paths.map(() => " --- |").join("")}`);
for (const [name, corners] of Object.entries(shapes)) for (const rms of [5, 15]) {
  const cells = followers.map((follower) => {
    const errors = Array.from({ length: seeds }, (_, i) => run(follower, corners, rms, i + 1)).sort((x, y) => x - y);
    const worst = errors.reduce((w, e) => (Math.abs(e) > Math.abs(w) ? e : w), 0);
    const beyond = errors.filter((e) => Math.abs(e) > 2).length;
    return `${errors[errors.length >> 1].toFixed(2)} % / ${worst.toFixed(2)} %, ${beyond}`;
  });
  console.log(`| ${name} | ${rms} m | ${cells.join(" | ")} |`);
}
