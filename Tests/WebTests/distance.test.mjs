// The planner's distance as typed (Web/js/apps/runs/distance.js), in kilometres and in miles.
import assert from "node:assert/strict";
import { test } from "node:test";
import { distanceHint, distanceMessage, distanceRange, parseDistance } from "../../Web/js/apps/runs/distance.js";

test("kilometres from 1 to 30 are taken as they are, with a comma or a point", () => {
  assert.equal(parseDistance("1", "km"), 1);
  assert.equal(parseDistance(" 30 ", "km"), 30);
  assert.equal(parseDistance("5,5", "km"), 5.5);
  assert.equal(parseDistance("12.25", "km"), 12.25);
});

test("anything else is refused with the server's own words", () => {
  for (const text of ["", "0", "0.9", "31", "abc", "-3", "3 km", "1e1", null, undefined]) {
    assert.equal(parseDistance(text, "km"), null, String(text));
  }
  assert.equal(distanceMessage("km"), "Enter a number between 1 and 30");
  assert.equal(distanceHint("km"), "From 1 to 30 km.");
});

test("miles are converted to kilometres, rounded to the metre, inside 1–30 km", () => {
  assert.equal(parseDistance("3", "mi"), 4.828);
  assert.equal(parseDistance("0.7", "mi"), 1.127);
  assert.equal(parseDistance("18.6", "mi"), 29.934);
  assert.equal(parseDistance("0.6", "mi"), null);
  assert.equal(parseDistance("19", "mi"), null);
  const { min, max } = distanceRange("mi");
  assert.ok(min * 1.609344 >= 1 && max * 1.609344 <= 30);
  assert.equal(distanceMessage("mi"), "Enter a number between 0.7 and 18.6");
  assert.equal(distanceHint("mi"), "From 0.7 to 18.6 mi.");
});
