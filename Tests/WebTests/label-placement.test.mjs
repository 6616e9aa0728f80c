// Where the map's names go (Web/js/platform/map/label-placement.js): never over each other, inside the view,
// most important first, a street's name once per stretch, along the straightest part of its way.
import assert from "node:assert/strict";
import { test } from "node:test";
import { CollisionIndex, lineAnchor, placeLabels, rotatedBoxes } from "../../Web/js/platform/map/label-placement.js";

const view = { width: 400, height: 300 };
const point = (text, x, y, priority, extra = {}) => ({ text, shape: "point", x, y, priority, width: 60, height: 12, ...extra });

const overlaps = (a, b) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;

test("the more important of two overlapping names wins", () => {
  const placed = placeLabels([point("Café", 100, 100, 40), point("Kamppi", 110, 102, 3)], view);

  assert.deepEqual(placed.map((p) => p.candidate.text), ["Kamppi"]);
});

test("names that do not overlap are all placed, and none leaves the view", () => {
  const placed = placeLabels([point("A", 50, 50, 1), point("B", 200, 50, 1), point("C", 395, 150, 1)], view);

  assert.deepEqual(placed.map((p) => p.candidate.text).sort(), ["A", "B"]);
});

test("a symbol's name goes right of it, else left, else the symbol stands alone", () => {
  const blocker = point("Block", 175, 100, 0, { width: 40 });
  const poi = { text: "Kahvila", shape: "point", x: 130, y: 100, priority: 5, width: 50, height: 12, icon: 16, iconAlone: true };

  const placed = placeLabels([blocker, poi], view);

  assert.equal(placed.find((p) => p.candidate === poi).side, "left");
  const crowded = placeLabels([blocker, point("Left", 90, 100, 0, { width: 40 }), poi], view);
  assert.equal(crowded.find((p) => p.candidate === poi).side, "none");
});

test("a street's name follows its straightest stretch and is upright", () => {
  // A street that runs right to left: the text must not read upside down.
  const points = [380, 200, 300, 200, 220, 200, 140, 150];

  const anchor = lineAnchor(points, 100);

  assert.ok(anchor);
  assert.equal(anchor.y, 200);
  assert.ok(anchor.x > 220 && anchor.x < 380);
  assert.ok(Math.abs(anchor.angle) < 1e-9);
  assert.equal(lineAnchor([0, 0, 10, 0, 10, 10], 30), null, "too short and too bent for the name");
});

test("a street's name is not repeated within a stretch of screen", () => {
  const street = (y) => ({ text: "Aleksanterinkatu", shape: "line", points: [20, y, 380, y], priority: 50, width: 100, height: 12 });

  const close = placeLabels([street(100), street(120)], view);
  const far = placeLabels([street(20), street(280)], { ...view, repeatDistance: 150 });

  assert.equal(close.length, 1);
  assert.equal(far.length, 2);
});

test("placed labels never overlap", () => {
  const candidates = [];
  for (let i = 0; i < 200; i += 1) candidates.push(point(`P${i}`, (i * 37) % 380 + 10, (i * 53) % 280 + 10, i % 7));
  const placed = placeLabels(candidates, view);
  const boxes = placed.map(({ x, y, candidate }) => ({ x0: x - candidate.width / 2, y0: y - 6, x1: x + candidate.width / 2, y1: y + 6 }));

  for (let a = 0; a < boxes.length; a += 1) {
    for (let b = a + 1; b < boxes.length; b += 1) assert.ok(!overlaps(boxes[a], boxes[b]), `${a} and ${b} overlap`);
  }
  assert.ok(placed.length > 10);
});

test("rotated text is covered by squares along it", () => {
  const boxes = rotatedBoxes(100, 100, Math.PI / 2, 60, 12);

  assert.equal(boxes.length, 5);
  assert.ok(boxes.every((b) => Math.abs((b.x0 + b.x1) / 2 - 100) < 1e-9));
  const index = new CollisionIndex();
  index.insert(boxes);
  assert.ok(index.collides([{ x0: 95, y0: 70, x1: 105, y1: 75 }]));
  assert.ok(!index.collides([{ x0: 120, y0: 70, x1: 130, y1: 75 }]));
});
