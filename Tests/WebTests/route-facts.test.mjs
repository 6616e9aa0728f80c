// What the planner screen says about routes (Web/js/apps/runs/route-facts.js): pace, time, kind, landmark
// categories and search, and the progress line.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  categoryName, formatDuration, formatPace, parsePace, planningText, routeKindName, searchLandmarks,
} from "../../Web/js/apps/runs/route-facts.js";

test("a pace is minutes and seconds per km or mile, kept as seconds per km", () => {
  assert.equal(parsePace("6:00", "km"), 360);
  assert.equal(parsePace("5", "km"), 300);
  assert.equal(parsePace(" 4.30 ", "km"), 270);
  assert.equal(parsePace("9:39", "mi"), 359.8);
  for (const text of ["", "abc", "6:75", "2:00", "16", "-5", "5:3", null]) assert.equal(parsePace(text, "km"), null, String(text));
  assert.equal(formatPace(360, "km"), "6:00");
  assert.equal(formatPace(360, "mi"), "9:39");
  assert.equal(formatPace(parsePace("8:05", "mi"), "mi"), "8:05");
});

test("the time of a route at a pace is whole minutes, hours past the hour", () => {
  assert.equal(formatDuration(2000, 360), "12 min");
  assert.equal(formatDuration(10_000, 330), "55 min");
  assert.equal(formatDuration(21_100, 300), "1 h 46 min");
  assert.equal(formatDuration(100, 300), "1 min");
});

test("kinds and categories are said in words", () => {
  assert.equal(routeKindName("loop"), "Loop");
  assert.equal(routeKindName("lollipop"), "Lollipop");
  assert.equal(routeKindName("out_and_back"), "Out and back");
  assert.equal(categoryName("place_of_worship"), "Church");
  assert.equal(categoryName("archaeological_site"), "Archaeological site");
  assert.equal(categoryName("something_new"), "Something new");
});

test("the landmark search matches every word in the name or the kind, ignoring case and accents", () => {
  const landmarks = [
    { id: "n1", name: "Kansallismuseo", category: "museum" },
    { id: "n2", name: "Kaisaniemen puisto", category: "park" },
    { id: "n3", name: "Tuomiokirkko", category: "place_of_worship" },
    { id: "n4", name: "Amos Rex", category: "gallery" },
  ];
  const ids = (text, keep) => searchLandmarks(landmarks, text, keep).map((item) => item.id);
  assert.deepEqual(ids(""), ["n1", "n2", "n3", "n4"]);
  assert.deepEqual(ids("MUSEUM"), ["n1"]);
  assert.deepEqual(ids("kaisan park"), ["n2"]);
  assert.deepEqual(ids("church"), ["n3"]);
  assert.deepEqual(ids("Kaisániemen"), ["n2"]);
  assert.deepEqual(ids("nothing here"), []);
  assert.deepEqual(ids("nothing here", "n4"), ["n4"], "the chosen one stays");
});

test("planning says what it plans, and after a second how long it has taken", () => {
  assert.equal(planningText("5.00 km", 0.4), "Planning three 5.00 km routes…");
  assert.equal(planningText("5.00 km", 2.7), "Planning three 5.00 km routes… 2 s. Long runs on dense streets take a few seconds.");
});
