// The ski app's pure rules (Web/js/apps/ski/format.js): piste signs in each convention, the convention's default
// from the locale, prices, directions.
import assert from "node:assert/strict";
import { test } from "node:test";
import { defaultConvention, difficultyMark, directionLinks, formatCapacity, formatPrice, verticalDrop } from "../../Web/js/apps/ski/format.js";

test("North America marks pistes with green circles, blue squares and black diamonds", () => {
  const labels = ["novice", "easy", "intermediate", "advanced", "expert"].map((d) => difficultyMark(d, "north_america").label);
  assert.deepEqual(labels, ["Green circle", "Green circle", "Blue square", "Black diamond", "Double black diamond"]);
  assert.equal(difficultyMark("expert", "north_america").shape, "double-diamond");
});

test("Europe marks pistes green, blue, red and black", () => {
  const labels = ["novice", "easy", "intermediate", "advanced", "expert"].map((d) => difficultyMark(d, "europe").label);
  assert.deepEqual(labels, ["Green", "Blue", "Red", "Black", "Black"]);
  assert.deepEqual(difficultyMark("intermediate", "europe"), { label: "Red", shape: "dot", colour: "red" });
});

test("freeride is off-piste in both conventions", () => {
  assert.equal(difficultyMark("freeride", "europe").label, "Freeride (off-piste)");
  assert.equal(difficultyMark("freeride", "north_america").label, "Freeride (off-piste)");
});

test("the convention defaults from the locale's region", () => {
  assert.equal(defaultConvention("US"), "north_america");
  assert.equal(defaultConvention("ca"), "north_america");
  assert.equal(defaultConvention("FR"), "europe");
  assert.equal(defaultConvention("JP"), "europe");
  assert.equal(defaultConvention(""), "europe");
});

test("prices show in their own currency", () => {
  assert.equal(formatPrice({ amount: 52, currency: "USD" }, "en-US"), "$52.00");
  assert.equal(formatPrice({ amount: 9500, currency: "JPY" }, "en-US"), "¥9,500");
  assert.match(formatPrice({ amount: 92, currency: "CHF" }, "en-US"), /CHF\s?92\.00/);
});

test("directions hand off to the maps app with a geo: link", () => {
  const links = directionLinks({ lat: 43.0226, lon: -73.5437, name: "Willard Mountain" });
  assert.equal(links.geo, "geo:43.0226,-73.5437?q=43.0226,-73.5437(Willard%20Mountain)");
  assert.equal(links.web, "https://www.openstreetmap.org/directions?to=43.0226%2C-73.5437");
  assert.equal(verticalDrop({ base_altitude_m: 314, summit_altitude_m: 468 }), 154);
});

test("a piste whose difficulty the map does not give is marked as not known, not guessed", () => {
  for (const convention of ["europe", "north_america"]) {
    assert.deepEqual(difficultyMark("unknown", convention), { label: "Difficulty not known", shape: "unknown", colour: "grey" });
  }
  assert.equal(difficultyMark("extreme", "north_america").label, "Double black diamond");
  assert.equal(difficultyMark("extreme", "europe").label, "Black");
});

test("an altitude not known gives no vertical drop, and a lift's capacity reads in persons per hour", () => {
  assert.equal(verticalDrop({ base_altitude_m: 314 }), null);
  assert.equal(verticalDrop({ base_altitude_m: null, summit_altitude_m: 468 }), null);
  assert.equal(formatCapacity(1800, "en-US"), "1,800 persons/hour");
  assert.equal(formatCapacity(undefined), "");
});
