// Measurements in the person's units (Web/js/platform/units.js).
import assert from "node:assert/strict";
import { test } from "node:test";
import { formatDistance, formatElevation, formatShortDistance, formatSpeed, formatTemperature } from "../../Web/js/platform/units.js";

const metric = { distance: "km", temperature: "C", elevation: "m" };
const imperial = { distance: "mi", temperature: "F", elevation: "ft" };

test("distances: metres under a kilometre, two decimals under ten, one above", () => {
  assert.equal(formatDistance(850, metric), "850 m");
  assert.equal(formatDistance(3020, metric), "3.02 km");
  assert.equal(formatDistance(12345, metric), "12.3 km");
});

test("distances in miles never mention kilometres", () => {
  assert.equal(formatDistance(5000, imperial), "3.11 mi");
  assert.equal(formatDistance(20000, imperial), "12.4 mi");
  assert.doesNotMatch(formatDistance(5000, imperial), /km/);
});

test("temperatures, heights and speeds follow the chosen units", () => {
  assert.equal(formatTemperature(20, metric), "20°C");
  assert.equal(formatTemperature(20, imperial), "68°F");
  assert.equal(formatTemperature(-0.4, metric), "0°C");
  assert.equal(formatElevation(100, metric), "100 m");
  assert.equal(formatElevation(100, imperial), "328 ft");
  assert.equal(formatSpeed(16, metric), "16 km/h");
  assert.equal(formatSpeed(16.09344, imperial), "10 mph");
});

test("short distances in miles are said in feet, as a turn ahead is", () => {
  assert.equal(formatShortDistance(50, imperial), "160 ft");
  assert.equal(formatShortDistance(12, imperial), "40 ft");
  assert.equal(formatShortDistance(400, imperial), "0.25 mi");
  assert.equal(formatShortDistance(50, metric), "50 m");
  assert.equal(formatShortDistance(1500, metric), "1.50 km");
});
