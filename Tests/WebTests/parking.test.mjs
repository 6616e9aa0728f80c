// The parking screens' pure rules (Web/js/apps/parking/congestion.js).
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  ageText, blockColour, clockText, dragRange, hourly, isoWeekday, permitNeeded, spotState, stepWeekday,
} from "../../Web/js/apps/parking/congestion.js";

const lot = {
  permit: "green",
  permit_windows: [{ weekdays: [1, 2, 3, 4], start: "07:00", end: "20:00" }, { weekdays: [5], start: "07:00", end: "16:00" }],
};

test("a held free spot is yellow only while the hold lasts", () => {
  const now = Date.parse("2026-05-04T16:00:00Z");
  assert.equal(spotState({ status: "free", held_until: "2026-05-04T16:05:00Z" }, now), "held");
  assert.equal(spotState({ status: "free", held_until: "2026-05-04T15:59:00Z" }, now), "free");
  assert.equal(spotState({ status: "occupied", held_until: null }, now), "occupied");
  assert.equal(spotState({ status: "unknown" }, now), "unknown");
});

test("half hours fold into hourly means, gaps stay empty", () => {
  const blocks = Array.from({ length: 48 }, (_, i) => ({ start_minute: i * 30, occupancy: i < 2 ? null : i === 16 ? 0.8 : i === 17 ? 0.6 : 0.1 }));
  const hours = hourly(blocks);
  assert.equal(hours.length, 24);
  assert.equal(hours[0], null);
  assert.ok(Math.abs(hours[8] - 0.7) < 1e-9);
});

test("weekdays are ISO and wrap around the week", () => {
  assert.equal(isoWeekday(new Date("2026-05-04T15:47:00Z"), "America/Los_Angeles"), 1);
  assert.equal(isoWeekday(new Date("2026-05-04T03:00:00Z"), "America/Los_Angeles"), 7);
  assert.equal(stepWeekday(7, 1), 1);
  assert.equal(stepWeekday(1, -1), 7);
});

test("permit windows and schedule colours", () => {
  assert.equal(permitNeeded(lot, 1, 7 * 60), true);
  assert.equal(permitNeeded(lot, 5, 17 * 60), false);
  assert.equal(permitNeeded(lot, 6, 10 * 60), false);
  const block = { weekday: 1, start_minute: 480 };
  assert.equal(blockColour(block, lot, [], 0.2), "red");
  assert.equal(blockColour(block, lot, ["green"], 0.9), "yellow");
  assert.equal(blockColour(block, lot, ["green"], 0.84), "green");
  assert.equal(blockColour({ weekday: 6, start_minute: 480 }, lot, [], 0.5), "green");
  assert.equal(blockColour(block, null, [], null), "none");
});

test("a drag stops at a taken cell", () => {
  const taken = (row) => row === 20;
  assert.deepEqual(dragRange(16, 24, taken), [16, 19]);
  assert.deepEqual(dragRange(24, 16, taken), [21, 24]);
  assert.deepEqual(dragRange(5, 5, taken), [5, 5]);
});

test("ages and clock times", () => {
  const now = Date.parse("2026-05-04T16:00:00Z");
  assert.equal(ageText(now - 20_000, now), "just now");
  assert.equal(ageText(now - 12 * 60_000, now), "12 minutes ago");
  assert.equal(ageText(now - 3 * 3_600_000, now), "3 hours ago");
  assert.equal(clockText(450), "7:30");
});
