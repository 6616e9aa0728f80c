// The basemap's vector tile decoder (Web/js/platform/map/vector-tile.js), on tiles written here by hand in
// protobuf wire format, and on the geometry examples of the Mapbox Vector Tile 2.1 specification.
import assert from "node:assert/strict";
import { test } from "node:test";
import { decodeGeometry, decodeVectorTile } from "../../Web/js/platform/map/vector-tile.js";

// A tiny protobuf writer for the test tiles.
const varint = (n) => {
  const out = [];
  while (n >= 0x80) { out.push((n & 0x7f) | 0x80); n = Math.floor(n / 128); }
  out.push(n);
  return out;
};
const key = (field, wire) => varint(field * 8 + wire);
const bytes = (field, payload) => [...key(field, 2), ...varint(payload.length), ...payload];
const text = (field, string) => bytes(field, [...new TextEncoder().encode(string)]);
const uint = (field, n) => [...key(field, 0), ...varint(n)];
const packed = (field, values) => bytes(field, values.flatMap(varint));
const zz = (n) => (n < 0 ? -2 * n - 1 : 2 * n);

function layer(name, features, keys, values, extent = 4096) {
  return bytes(3, [
    ...uint(15, 2), ...text(1, name),
    ...features.flatMap((f) => bytes(2, [...packed(2, f.tags), ...uint(3, f.type), ...packed(4, f.geometry)])),
    ...keys.flatMap((k) => text(3, k)),
    ...values.flatMap((v) => bytes(4, typeof v === "string" ? text(1, v) : typeof v === "boolean" ? uint(7, v ? 1 : 0) : uint(6, zz(v)))),
    ...uint(5, extent),
  ]);
}

test("the specification's geometry examples decode to their points", () => {
  assert.deepEqual(decodeGeometry([9, 50, 34]), [[25, 17]]);
  assert.deepEqual(decodeGeometry([17, 10, 14, 3, 9]), [[5, 7], [3, 2]]);
  assert.deepEqual(decodeGeometry([9, 4, 4, 18, 0, 16, 16, 0]), [[2, 2, 2, 10, 10, 10]]);
  assert.deepEqual(decodeGeometry([9, 6, 12, 18, 10, 12, 24, 44, 15]), [[3, 6, 8, 12, 20, 34]]);
});

test("a tile's layers come back with their features, properties and extent", () => {
  const tile = new Uint8Array([
    ...layer("road", [
      { tags: [0, 0, 1, 1, 2, 2], type: 2, geometry: [9, zz(100), zz(200), 10, zz(50), zz(-20)] },
      { tags: [0, 3], type: 2, geometry: [9, 0, 0, 10, 2, 2] },
    ], ["class", "name", "layer"], ["primary", "Mannerheimintie", -2, "path"]),
    ...layer("water", [
      { tags: [0, 0], type: 3, geometry: [9, 0, 0, 26, 20, 0, 0, 20, 19, 0, 15] },
    ], ["class"], ["sea"], 512),
    ...layer("poi", [{ tags: [0, 0, 1, 1], type: 1, geometry: [9, zz(7), zz(9)] }], ["class", "open"], ["café ☕", true]),
  ]);

  const layers = decodeVectorTile(tile.buffer);

  assert.deepEqual(Object.keys(layers), ["road", "water", "poi"]);
  assert.equal(layers.road.extent, 4096);
  assert.deepEqual(layers.road.features[0], {
    type: "line", properties: { class: "primary", name: "Mannerheimintie", layer: -2 }, parts: [[100, 200, 150, 180]],
  });
  assert.equal(layers.road.features[1].properties.class, "path");
  assert.equal(layers.water.extent, 512);
  assert.deepEqual(layers.water.features[0].parts, [[0, 0, 10, 0, 10, 10, 0, 10]]);
  assert.equal(layers.water.features[0].type, "polygon");
  assert.deepEqual(layers.poi.features[0], { type: "point", properties: { class: "café ☕", open: true }, parts: [[7, 9]] });
});

test("an empty tile has no layers, and a cut one is refused", () => {
  assert.deepEqual(decodeVectorTile(new ArrayBuffer(0)), {});
  const whole = new Uint8Array(layer("road", [{ tags: [], type: 2, geometry: [9, 0, 0, 10, 2, 2] }], [], []));
  assert.throws(() => decodeVectorTile(whole.slice(0, whole.length - 6)), /vector tile/);
  assert.throws(() => decodeGeometry([10, 2, 2]), /LineTo before MoveTo/);
});
