import assert from "node:assert/strict";
import { test } from "node:test";
import { routes } from "../../Web/js/apps/trails/routes.js";
import { filterCount, filterParams, hasScavengerHunt, sections, stepsText } from "../../Web/js/apps/trails/trail-format.js";

test("filters become the list API's parameters, lengths converted from miles", () => {
  assert.deepEqual(filterParams({ difficulties: ["moderate", "easy"], minLength: "2", maxLength: "", accessible: true, distance: "10" }), {
    difficulty: "easy,moderate", min_length_km: 2, accessible: true, radius_km: 10,
  });
  assert.deepEqual(filterParams({ difficulties: [], minLength: "1", maxLength: "3", accessible: false, distance: "" }, "mi"), {
    min_length_km: 1.609, max_length_km: 4.828,
  });
  assert.deepEqual(filterParams({ difficulties: [], minLength: "abc" }), {});
  assert.equal(filterCount({ difficulties: ["hard"], minLength: "1", maxLength: "", accessible: true, distance: "" }), 3);
});

test("the scavenger hunt is for easy and moderate trails only", () => {
  assert.equal(hasScavengerHunt({ difficulty: "easy" }), true);
  assert.equal(hasScavengerHunt({ difficulty: "moderate" }), true);
  assert.equal(hasScavengerHunt({ difficulty: "hard" }), false);
});

test("steps are rounded to hundreds once in the thousands", () => {
  assert.equal(stepsText(812), "about 812 steps");
  assert.equal(stepsText(4_287), "about 4,300 steps");
});

test("the trail page links to the five sub-pages, and fixed paths come before the trail's id", () => {
  assert.deepEqual(sections.map((section) => section.id), ["additional", "emergency", "safety", "poi", "amenities"]);
  const paths = routes.map((route) => route.path);
  assert.ok(paths.indexOf("trails/map") < paths.indexOf("trails/:id"));
  assert.ok(paths.indexOf("trails/favorites") < paths.indexOf("trails/:id"));
});
