// The basemap's tile arithmetic and style tables (Web/js/platform/map/tile-math.js, basemap-style.js).
import assert from "node:assert/strict";
import { test } from "node:test";
import { areaColor, labelPriority, paletteTokens, poiSymbol, roadStyle } from "../../Web/js/platform/map/basemap-style.js";
import { dataTileFor, project, pyramid, tilesCovering, tileURL } from "../../Web/js/platform/map/tile-math.js";

const helsinki = [24.9351762, 60.164155, 24.9534145, 60.179113];

test("the tiles covering Helsinki's extract, zoom by zoom", () => {
  assert.deepEqual(tilesCovering(helsinki, 0), [{ z: 0, x: 0, y: 0 }]);
  assert.deepEqual(tilesCovering(helsinki, 10), [{ z: 10, x: 582, y: 296 }]);
  const z16 = tilesCovering(helsinki, 16);
  assert.ok(z16.length >= 20 && z16.length <= 30, `${z16.length} tiles`);
  assert.ok(z16.some((t) => t.x === 37310 && t.y === 18970), "the Market Square's tile");
  assert.equal(pyramid(helsinki, 0, 16).length, [...Array(17).keys()].reduce((n, z) => n + tilesCovering(helsinki, z).length, 0));
});

test("a coordinate's global pixel at a zoom", () => {
  const p = project(0, 0, 0);
  assert.deepEqual(p, { x: 128, y: 128 });
  const kauppatori = project(60.167, 24.9525, 16);
  assert.equal(Math.floor(kauppatori.x / 256), 37310);
  assert.equal(Math.floor(kauppatori.y / 256), 18970);
});

test("deeper than the data goes, a display tile is a quarter (or less) of a data tile", () => {
  assert.deepEqual(dataTileFor({ z: 15, x: 3, y: 4 }, 16), { z: 15, x: 3, y: 4, scale: 1, dx: 0, dy: 0 });
  assert.deepEqual(dataTileFor({ z: 18, x: 149243, y: 75883 }, 16), { z: 16, x: 37310, y: 18970, scale: 4, dx: 3072, dy: 3072 });
  assert.equal(tileURL("/t/v1/{z}/{x}/{y}.mvt", { z: 16, x: 37310, y: 18970 }), "/t/v1/16/37310/18970.mvt");
});

test("every area class has a colour token the stylesheet defines", () => {
  for (const [layer, kinds] of Object.entries({
    water: ["sea", "lake", "river"], building: ["building"],
    landcover: ["park", "garden", "grass", "meadow", "wood", "scrub", "wetland", "sand", "rock", "pitch", "playground", "cemetery", "allotments", "farmland"],
    landuse: ["residential", "commercial", "industrial", "education", "hospital", "railway", "parking", "pedestrian", "pier"],
  })) {
    for (const kind of kinds) assert.ok(paletteTokens.includes(areaColor(layer, kind)), `${layer} ${kind}`);
  }
});

test("main roads are wider than streets, streets wider than paths, and all grow with the zoom", () => {
  for (const zoom of [13, 15, 17, 19]) {
    assert.ok(roadStyle("primary", zoom).width > roadStyle("minor", zoom).width);
    assert.ok(roadStyle("minor", zoom).width > roadStyle("path", zoom).width);
  }
  assert.ok(roadStyle("minor", 18).width > roadStyle("minor", 15).width);
  assert.ok(roadStyle("path", 16).dash, "paths are dashed");
  for (const kind of ["motorway", "primary", "minor", "pedestrian", "path", "cycleway", "steps", "track"]) {
    const style = roadStyle(kind, 16);
    assert.ok(paletteTokens.includes(style.color) && (!style.casing || paletteTokens.includes(style.casingColor)), kind);
  }
});

test("stations come before cafés, places before everything, and every symbol has a colour", () => {
  assert.ok(labelPriority({ layer: "place", rank: 3 }) < labelPriority({ layer: "poi", rank: 1 }));
  assert.ok(labelPriority({ layer: "poi", rank: 1 }) < labelPriority({ layer: "poi", rank: 3 }));
  assert.ok(labelPriority({ layer: "road", kind: "primary" }) < labelPriority({ layer: "road", kind: "path" }));
  for (const kind of ["station", "cafe", "toilets", "drinking_water", "parking", "supermarket", "museum", "unknown"]) {
    assert.ok(paletteTokens.includes(poiSymbol(kind).group), kind);
  }
  assert.equal(poiSymbol("parking").glyph, "P");
  assert.equal(poiSymbol("toilets").glyph, "WC");
});
