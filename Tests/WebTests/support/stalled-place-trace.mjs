// A stretch of a benchmark run at 15 m of noise on central Helsinki, the same file the Swift tests replay
// (Tests/NavigationTests/Fixtures/stalled-place-trace.txt): up a spur and back down it, then on, with the phone's
// error lying the fixes on the way up while the runner runs down.

import { readFileSync } from "node:fs";

const [points, fixes] = readFileSync(new URL("../../NavigationTests/Fixtures/stalled-place-trace.txt", import.meta.url), "utf8")
  .split("\n\n")
  .map((section) => section.split("\n").filter((line) => line && !line.startsWith("#")).map((line) => line.split(" ").map(Number)));

/** The route's points, [lon, lat]. */
export const stalledPlaceRoute = points.map(([lat, lon]) => [lon, lat]);

/** One fix a second: [seconds, lat, lon, accuracy in metres]. */
export const stalledPlaceFixes = fixes;
