import assert from "node:assert/strict";
import { test } from "node:test";
import { routes } from "../../Web/js/apps/trails/routes.js";
import { filterCount, filterParams, hasScavengerHunt, overlayKinds, overlayOf, overlayPoints, sections, stepsText } from "../../Web/js/apps/trails/trail-format.js";

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

test("the map's overlays ask for their kinds of points of interest, each drawn once", () => {
  assert.equal(overlayKinds({}), "");
  assert.equal(overlayKinds({ scenic: true }), "scenic_overlook,viewpoint");
  assert.equal(overlayKinds({ scenic: true, waterfalls: true }), "scenic_overlook,viewpoint,waterfall");
  assert.equal(overlayOf("viewpoint").id, "scenic");
  assert.equal(overlayOf("historic"), undefined);
  const falls = { name: "Falls", kind: "waterfall", position: [24.5, 60.1] };
  const points = overlayPoints([
    { id: "a", properties: { name: "Loop", points_of_interest: [falls] } },
    { id: "b", properties: { name: "Ridge", points_of_interest: [falls, { name: "View", kind: "viewpoint", position: [24.6, 60.2] }] } },
    { id: "c", properties: { name: "Plain" } },
  ]);
  assert.deepEqual(points, [
    { name: "Falls", kind: "waterfall", lat: 60.1, lon: 24.5, trail: { id: "a", name: "Loop" } },
    { name: "View", kind: "viewpoint", lat: 60.2, lon: 24.6, trail: { id: "b", name: "Ridge" } },
  ]);
});

test("the admin editor sends every fact, reads phone lists and places the server's errors on its fields", async () => {
  const { draftOf, editBody, editorField, focalID } = await import("../../Web/js/apps/trails/trail-edit.js");
  const trail = {
    summary: { id: "t", name: "Loop", city: "Espoo", region: null, difficulty: "easy", accessible: false, photo_url: null,
      trailhead: { lat: 60.3, lon: 24.5 }, hunting_area: false },
    description: "A loop.", fees: "Free.", season_hours: "", parking_rules: "", additional_fees: "", hunting_notice: null,
    demo_facts: true, amenities: ["restrooms"], rangers: [{ name: "Desk", phones: ["+358 1", "+358 2"] }],
    safety: [{ kind: "wildlife", name: "Adder", text: "Bites.", warning_signs: null, photo_url: null }],
    points_of_interest: [{ name: "Falls", kind: "waterfall", history: "", position: { lat: 60.31, lon: 24.51 }, photo_url: null }],
    focal_points: [{ id: "swan", kind: "animal", name: "Swan", text: "", photo_url: null, checked: true }],
  };
  const draft = draftOf(trail);
  assert.equal(draft.rangers[0].phones, "+358 1\n+358 2");
  draft.lat = "60.30x";
  draft.focal_points.push({ id: "", kind: "plant", name: "Wood anemone (Anemone nemorosa)", text: "", photo_url: "" });
  const body = editBody(draft);
  assert.deepEqual(body.trailhead, { lat: "60.30x", lon: 24.5 });
  assert.equal(body.photo_url, null);
  assert.equal(body.hunting_notice, null);
  assert.equal(body.region, "");
  assert.deepEqual(body.rangers, [{ name: "Desk", phones: ["+358 1", "+358 2"] }]);
  assert.deepEqual(body.safety, [{ kind: "wildlife", name: "Adder", text: "Bites." }]);
  assert.deepEqual(body.points_of_interest[0].position, { lat: 60.31, lon: 24.51 });
  assert.deepEqual(body.focal_points.map((point) => point.id), ["swan", "wood-anemone-anemone-nemorosa"]);
  assert.equal(focalID("!!!", 2), "point-3");
  assert.equal(editorField("rangers[0].phones[1]"), "rangers[0].phones");
  assert.equal(editorField("points_of_interest[2].position.lon"), "points_of_interest[2].lon");
  assert.equal(editorField("trailhead.lat"), "lat");
  assert.equal(editorField("name"), "name");
});

test("a refused walking route says whether the person, the trailhead or the network is the reason", async () => {
  const { walkRefusal, walkingMinutes, straightMeters } = await import("../../Web/js/apps/trails/trail-format.js");
  assert.match(walkRefusal(422, { from: "No walkable path near this point." }), /You are not near a path/);
  assert.match(walkRefusal(422, { to: "No walkable path near this point." }), /does not reach this trailhead/);
  assert.match(walkRefusal(422, { to: "No walkable route connects these points." }), /does not reach this trailhead/);
  assert.match(walkRefusal(503), /no street network/);
  assert.equal(walkRefusal(500), null);
  assert.equal(walkingMinutes(10), 1);
  assert.equal(walkingMinutes(1200), 15);
  assert.ok(Math.abs(straightMeters({ lat: 60, lon: 24 }, { lat: 60.01, lon: 24 }) - 1112) < 2);
});

test("photos chosen in the editor go up after the save, each to its place, a new focal point's by its new id", async () => {
  const { draftOf, editBody, photoUploads } = await import("../../Web/js/apps/trails/trail-edit.js");
  const trail = {
    summary: { id: "t", name: "Loop", city: "", region: "", difficulty: "easy", accessible: false, photo_url: "/api/trails/photos/a",
      trailhead: { lat: 60.3, lon: 24.5 }, hunting_area: false },
    description: "", fees: "", season_hours: "", parking_rules: "", additional_fees: "", hunting_notice: null,
    demo_facts: false, amenities: [], rangers: [],
    safety: [{ kind: "wildlife", name: "Adder", text: "Bites.", warning_signs: null, photo_url: null }],
    points_of_interest: [
      { name: "Falls", kind: "waterfall", history: "", position: { lat: 60.31, lon: 24.51 }, photo_url: null },
      { name: "Rock", kind: "peak", history: "", position: { lat: 60.32, lon: 24.52 }, photo_url: null },
    ],
    focal_points: [],
  };
  const draft = draftOf(trail);
  const picture = { photo: "data:image/jpeg;base64,AAAA", thumbnail: "data:image/jpeg;base64,BBBB", width: 4, height: 3 };
  draft.points_of_interest[1].pending_photo = picture;
  draft.focal_points.push({ id: "", kind: "animal", name: "Red squirrel", text: "", photo_url: "", pending_photo: picture });
  const body = editBody(draft);
  assert.equal(body.photo_url, "/api/trails/photos/a");
  assert.equal("pending_photo" in body.points_of_interest[1], false);
  const uploads = photoUploads(draft, body);
  assert.deepEqual(uploads.map((upload) => [upload.place, upload.field]), [
    ["points_of_interest.1", "points_of_interest[1].photo"],
    ["focal_points.red-squirrel", "focal_points[0].photo"],
  ]);
  assert.deepEqual(uploads[0].photo, { photo: picture.photo, thumbnail: picture.thumbnail });
  assert.equal(uploads[0].item, draft.points_of_interest[1]);
  draft.points_of_interest[1].pending_photo = null;
  draft.focal_points[0].pending_photo = null;
  assert.deepEqual(photoUploads(draft, body), []);
});
