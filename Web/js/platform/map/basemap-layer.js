// The offline basemap: vector tiles from the server's own OpenStreetMap import (GET /api/streets/basemap),
// drawn on canvas tiles (a Leaflet GridLayer) — land, water and the sea, parks and woods, buildings, roads
// by class, paths and railways — with the names (places, streets along their ways, parks and water, points
// people look for with their symbols) on one label canvas above, placed so they never overlap. Outside the
// covered area the tiles are hatched and an outline marks where the data ends. Colours come from the
// --map-* tokens of app.css, so the light and dark themes each have theirs. Tiles are kept on the device
// (tile-store.js) and draw with the network cut.
/* global L */
import { drawSymbol } from "./basemap-glyphs.js";
import { areaColor, areaPasses, labelPriority, paletteTokens, poiShowsName, poiSymbol, railStyle, roadStyle } from "./basemap-style.js";
import { placeLabels } from "./label-placement.js";
import { dataTileFor, project, tileURL } from "./tile-math.js";
import { fetchTile } from "./tile-store.js";
import { decodeVectorTile } from "./vector-tile.js";

const tileSize = 256;
const maxRatio = 2;
const labelPad = 0.25;

/** The palette: every --map-* token of the current theme. */
function readPalette() {
  const style = getComputedStyle(document.documentElement);
  return Object.fromEntries(paletteTokens.map((name) => [name, style.getPropertyValue(`--map-${name}`).trim() || "#888"]));
}

/** Decoded data tiles shared by every map of the page (a small LRU of promises). */
const dataTiles = new Map();
function loadDataTile(url) {
  if (dataTiles.has(url)) {
    const hit = dataTiles.get(url);
    dataTiles.delete(url);
    dataTiles.set(url, hit);
    return hit;
  }
  const load = fetchTile(url).then((bytes) => (bytes.byteLength ? decodeVectorTile(bytes) : {}));
  load.catch(() => dataTiles.delete(url));
  dataTiles.set(url, load);
  while (dataTiles.size > 160) dataTiles.delete(dataTiles.keys().next().value);
  return load;
}

/** Traces the parts of a feature as canvas subpaths through `point(x, y)` → [px, py]. */
function trace(ctx, parts, transform, close) {
  for (const part of parts) {
    for (let i = 0; i < part.length; i += 2) {
      const x = transform.x(part[i]);
      const y = transform.y(part[i + 1]);
      if (i === 0) ctx.moveTo(x, y);
      else ctx.lineTo(x, y);
    }
    if (close) ctx.closePath();
  }
}

/**
 * Adds the basemap described by `info` (the TileJSON) to `map`. `element` (the map's element) gets the
 * counts of what was drawn as data-basemap-* attributes and a `basemapProbe` for tests. Returns
 * { setLabelsVisible(visible), refresh(), destroy() }.
 */
export function createBasemap(map, info, { element }) {
  const [west, south, east, north] = info.bounds;
  const template = info.tiles[0];
  const maxDataZoom = info.maxzoom;
  let palette = readPalette();
  const tiles = new Map();
  const unloaded = new WeakSet();
  let labelsVisible = true;

  const coverageAt = (zoom) => {
    const a = project(north, west, zoom);
    const b = project(south, east, zoom);
    return { x0: a.x, y0: a.y, x1: b.x, y1: b.y };
  };

  function hatch(ctx) {
    const pattern = document.createElement("canvas");
    pattern.width = 8;
    pattern.height = 8;
    const p = pattern.getContext("2d");
    p.fillStyle = palette.outside;
    p.fillRect(0, 0, 8, 8);
    p.strokeStyle = palette["outside-hatch"];
    p.lineWidth = 1.5;
    p.beginPath();
    p.moveTo(-2, 10);
    p.lineTo(10, -2);
    p.moveTo(-2, 2);
    p.lineTo(2, -2);
    p.moveTo(6, 10);
    p.lineTo(10, 6);
    p.stroke();
    return ctx.createPattern(pattern, "repeat");
  }

  /** Draws one display tile; resolves to what it drew, per category. */
  async function drawTile(canvas, coords, ratio) {
    const ctx = canvas.getContext("2d");
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    const z = coords.z;
    const origin = { x: coords.x * tileSize, y: coords.y * tileSize };
    const cover = coverageAt(z);
    const inside = {
      x0: Math.max(0, cover.x0 - origin.x), y0: Math.max(0, cover.y0 - origin.y),
      x1: Math.min(tileSize, cover.x1 - origin.x), y1: Math.min(tileSize, cover.y1 - origin.y),
    };
    const covered = inside.x0 < inside.x1 && inside.y0 < inside.y1;
    const stats = { water: 0, green: 0, buildings: 0, roads: 0, pois: 0 };
    const paintBackground = () => {
      ctx.fillStyle = hatch(ctx);
      ctx.fillRect(0, 0, tileSize, tileSize);
      if (covered) {
        ctx.fillStyle = palette.land;
        ctx.fillRect(inside.x0, inside.y0, inside.x1 - inside.x0, inside.y1 - inside.y0);
      }
    };
    if (!covered) {
      paintBackground();
      return { stats, layers: null };
    }
    const data = dataTileFor(coords, maxDataZoom);
    let layers;
    try {
      layers = await loadDataTile(new URL(tileURL(template, data), location.href).href);
    } catch (error) {
      // Offline, a tile never fetched is plain land: the app bar says the device is offline.
      paintBackground();
      throw error;
    }
    paintBackground();
    const extent = Object.values(layers)[0]?.extent ?? 4096;
    const k = (data.scale * tileSize) / extent;
    const transform = { x: (u) => (u - data.dx) * k, y: (v) => (v - data.dy) * k };
    ctx.save();
    ctx.beginPath();
    ctx.rect(inside.x0, inside.y0, inside.x1 - inside.x0, inside.y1 - inside.y0);
    ctx.clip();

    // Areas, pass by pass.
    for (const [layerName, accept] of areaPasses) {
      const layer = layers[layerName];
      if (!layer) continue;
      for (const feature of layer.features) {
        if (feature.type !== "polygon") continue;
        const kind = feature.properties.class;
        if (accept && !accept(kind)) continue;
        const color = areaColor(layerName, kind);
        if (!color) continue;
        ctx.beginPath();
        trace(ctx, feature.parts, transform, true);
        ctx.fillStyle = palette[color];
        ctx.fill("evenodd");
        if (layerName === "building" && z >= 15) {
          ctx.strokeStyle = palette["building-line"];
          ctx.lineWidth = 0.7;
          ctx.stroke();
          stats.buildings += 1;
        } else if (layerName === "building") {
          stats.buildings += 1;
        } else if (layerName === "water") {
          stats.water += 1;
        } else if (layerName === "landcover") {
          stats.green += 1;
        } else if (kind === "pier" || kind === "pedestrian") {
          ctx.strokeStyle = palette["pedestrian-line"];
          ctx.lineWidth = 0.6;
          if (z >= 16) ctx.stroke();
        }
      }
      // Piers drawn as lines sit on the water too.
      if (layerName === "water" && layers.waterway) {
        for (const feature of layers.waterway.features) {
          if (feature.properties.brunnel === "tunnel") continue;
          const widths = { river: 5, canal: 4, stream: 1.6, drain: 1, ditch: 1 };
          ctx.beginPath();
          trace(ctx, feature.parts, transform, false);
          ctx.strokeStyle = palette["water-line"];
          ctx.lineWidth = Math.max(0.6, (widths[feature.properties.class] ?? 1) * 2 ** ((Math.min(z, 19) - 16) * 0.6));
          ctx.lineCap = "round";
          ctx.stroke();
          stats.water += 1;
        }
      }
      if (layerName === "water" && layers.landuse) {
        for (const feature of layers.landuse.features) {
          if (feature.type !== "line" || feature.properties.class !== "pier") continue;
          ctx.beginPath();
          trace(ctx, feature.parts, transform, false);
          ctx.strokeStyle = palette.pier;
          ctx.lineWidth = Math.max(1, 3 * 2 ** ((Math.min(z, 19) - 16) * 0.75));
          ctx.stroke();
        }
      }
    }

    // Ways: tunnels, then the ground, then bridges; casings under fills within each.
    const ways = [];
    for (const feature of layers.road?.features ?? []) ways.push({ feature, rail: false });
    for (const feature of layers.railway?.features ?? []) ways.push({ feature, rail: true });
    const level = ({ feature }) => {
      const brunnel = feature.properties.brunnel;
      return brunnel === "tunnel" ? 0 : brunnel === "bridge" || (feature.properties.layer ?? 0) > 0 ? 2 : 1;
    };
    ctx.lineJoin = "round";
    for (const stage of [0, 1, 2]) {
      const here = ways.filter((way) => level(way) === stage);
      for (const pass of ["casing", "fill"]) {
        for (const { feature, rail } of here) {
          const kind = feature.properties.class;
          ctx.beginPath();
          trace(ctx, feature.parts, transform, false);
          if (rail) {
            if (pass !== "fill") continue;
            const style = railStyle(kind, z);
            ctx.setLineDash(style.dash ?? []);
            ctx.lineCap = "butt";
            ctx.strokeStyle = palette.rail;
            ctx.globalAlpha = stage === 0 ? 0.35 : 1;
            ctx.lineWidth = style.width;
            ctx.stroke();
            ctx.globalAlpha = 1;
            continue;
          }
          const style = roadStyle(kind, z);
          if (pass === "casing") {
            if (!style.casing || stage === 0) continue;
            ctx.setLineDash([]);
            ctx.lineCap = stage === 2 ? "butt" : "round";
            ctx.strokeStyle = palette[style.casingColor];
            ctx.lineWidth = style.width + 2 * style.casing;
            ctx.stroke();
            continue;
          }
          ctx.setLineDash(style.dash ?? []);
          ctx.lineCap = style.dash ? "butt" : "round";
          ctx.strokeStyle = stage === 0 ? palette.tunnel : palette[style.color];
          ctx.lineWidth = style.width;
          ctx.stroke();
          stats.roads += 1;
        }
      }
    }
    ctx.setLineDash([]);
    ctx.restore();
    stats.pois = layers.poi?.features.length ?? 0;
    return { stats, layers, data, transform };
  }

  // --- The tile layer -------------------------------------------------------------------------------------

  const GridLayer = L.GridLayer.extend({
    createTile(coords, done) {
      const canvas = L.DomUtil.create("canvas", "basemap-tile");
      const ratio = Math.min(window.devicePixelRatio || 1, maxRatio);
      canvas.width = tileSize * ratio;
      canvas.height = tileSize * ratio;
      const key = `${coords.z}/${coords.x}/${coords.y}`;
      drawTile(canvas, coords, ratio).then(
        (drawn) => {
          // A tile scrolled away while its data came is not kept.
          if (!unloaded.has(canvas)) tiles.set(key, { coords: { ...coords }, canvas, ratio, ...drawn });
          scheduleLabels();
          done(null, canvas);
        },
        (error) => {
          console.warn("Basemap tile unavailable:", error.message);
          done(error, canvas);
        },
      );
      return canvas;
    },
  });
  const grid = new GridLayer({
    tileSize, minZoom: 0, maxZoom: 20, zIndex: 0, updateWhenZooming: false, keepBuffer: 1, className: "basemap-tiles",
  });
  grid.on("tileunload", (event) => {
    unloaded.add(event.tile);
    const key = `${event.coords.z}/${event.coords.x}/${event.coords.y}`;
    if (tiles.get(key)?.canvas === event.tile) tiles.delete(key);
  });
  grid.addTo(map);

  // --- Labels, symbols and the outline of the covered area ------------------------------------------------

  const pane = map.getPane("basemapLabels") ?? map.createPane("basemapLabels");
  pane.style.zIndex = "390";
  pane.style.pointerEvents = "none";
  const labelCanvas = L.DomUtil.create("canvas", "basemap-labels", pane);
  labelCanvas.setAttribute("aria-hidden", "true");
  let placedNames = [];
  let labelTimer = null;

  function scheduleLabels() {
    clearTimeout(labelTimer);
    labelTimer = setTimeout(drawLabels, 40);
  }

  function candidatesFrom(zoom, view, ctx) {
    const candidates = [];
    const measure = (text, font) => {
      ctx.font = font;
      return ctx.measureText(text).width;
    };
    for (const tile of tiles.values()) {
      if (tile.coords.z !== zoom || !tile.layers) continue;
      const ox = tile.coords.x * tileSize - view.x;
      const oy = tile.coords.y * tileSize - view.y;
      const at = (part, i) => [ox + tile.transform.x(part[i]), oy + tile.transform.y(part[i + 1])];
      for (const layerName of ["place", "poi", "label"]) {
        for (const feature of tile.layers[layerName]?.features ?? []) {
          const [x, y] = at(feature.parts[0], 0);
          // A point belongs to the data tile; with overzoom it appears in several display tiles.
          if (x < ox || y < oy || x >= ox + tileSize || y >= oy + tileSize) continue;
          const { name, class: kind, rank } = feature.properties;
          const candidate = { layer: layerName, kind, rank, text: name ?? "", x, y, shape: "point" };
          if (layerName === "poi") {
            const symbol = poiSymbol(kind);
            candidate.symbol = symbol;
            candidate.icon = zoom >= 17 ? 18 : 15;
            candidate.iconAlone = true;
            if (!name || !poiShowsName(rank ?? 5, zoom)) candidate.text = "";
            candidate.font = "500 11px system-ui, sans-serif";
          } else if (layerName === "place") {
            candidate.font = rank <= 2 ? "700 15px system-ui, sans-serif" : "600 13px system-ui, sans-serif";
            candidate.text = kind === "suburb" || kind === "quarter" ? (name ?? "").toUpperCase() : name ?? "";
          } else {
            candidate.font = kind === "water" ? "italic 500 12px system-ui, sans-serif" : "500 12px system-ui, sans-serif";
          }
          if (!candidate.text && !candidate.icon) continue;
          candidate.width = candidate.text ? measure(candidate.text, candidate.font) : 0;
          candidate.height = layerName === "place" ? 16 : 13;
          candidate.priority = labelPriority(candidate);
          candidates.push(candidate);
        }
      }
      if (zoom >= 14) {
        for (const feature of tile.layers.road?.features ?? []) {
          const { name, class: kind } = feature.properties;
          if (!name || (zoom < 16 && ["path", "cycleway", "steps", "track", "service"].includes(kind))) continue;
          const font = ["primary", "secondary", "trunk", "motorway"].includes(kind) ? "600 12px system-ui, sans-serif" : "500 11px system-ui, sans-serif";
          for (const part of feature.parts) {
            const points = [];
            for (let i = 0; i < part.length; i += 2) points.push(...at(part, i));
            candidates.push({
              layer: "road", kind, text: name, shape: "line", points, font,
              width: measure(name, font), height: 13, priority: labelPriority({ layer: "road", kind }),
            });
          }
        }
      }
    }
    return candidates;
  }

  function drawLabels() {
    clearTimeout(labelTimer);
    const size = map.getSize();
    const pad = { x: Math.round(size.x * labelPad), y: Math.round(size.y * labelPad) };
    const ratio = Math.min(window.devicePixelRatio || 1, maxRatio);
    labelCanvas.width = (size.x + 2 * pad.x) * ratio;
    labelCanvas.height = (size.y + 2 * pad.y) * ratio;
    labelCanvas.style.width = `${size.x + 2 * pad.x}px`;
    labelCanvas.style.height = `${size.y + 2 * pad.y}px`;
    L.DomUtil.setPosition(labelCanvas, map.containerPointToLayerPoint([-pad.x, -pad.y]));
    labelCanvas.style.visibility = labelsVisible ? "visible" : "hidden";
    const ctx = labelCanvas.getContext("2d");
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, size.x + 2 * pad.x, size.y + 2 * pad.y);
    const zoom = Math.round(map.getZoom());
    const bounds = map.getPixelBounds();
    // Canvas coordinates: the view's top-left is at (pad.x, pad.y).
    const view = { x: bounds.min.x - pad.x, y: bounds.min.y - pad.y };

    // The covered area's outline, and a marker where it is too small to see.
    const cover = coverageAt(zoom);
    const rect = { x: cover.x0 - view.x, y: cover.y0 - view.y, w: cover.x1 - cover.x0, h: cover.y1 - cover.y0 };
    ctx.strokeStyle = palette.coverage;
    ctx.lineWidth = 2;
    ctx.setLineDash([8, 5]);
    ctx.strokeRect(rect.x, rect.y, rect.w, rect.h);
    ctx.setLineDash([]);
    const small = Math.max(rect.w, rect.h) < 28;
    if (small) {
      const cx = rect.x + rect.w / 2;
      const cy = rect.y + rect.h / 2;
      ctx.beginPath();
      ctx.arc(cx, cy, 9, 0, Math.PI * 2);
      ctx.fillStyle = palette.coverage;
      ctx.globalAlpha = 0.25;
      ctx.fill();
      ctx.globalAlpha = 1;
      ctx.lineWidth = 2;
      ctx.stroke();
    }

    const candidates = labelsVisible ? candidatesFrom(zoom, view, ctx) : [];
    if (small) {
      const font = "700 13px system-ui, sans-serif";
      ctx.font = font;
      const text = `${info.name} map`;
      candidates.push({
        layer: "place", kind: "coverage", text, font, shape: "point", priority: -1,
        x: rect.x + rect.w / 2, y: rect.y + rect.h / 2 - 20, width: ctx.measureText(text).width, height: 16,
      });
    }
    const placed = placeLabels(candidates, { width: size.x + 2 * pad.x, height: size.y + 2 * pad.y });
    ctx.textBaseline = "middle";
    ctx.lineJoin = "round";
    const names = [];
    for (const { candidate: original, x, y, angle, side } of placed) {
      const layer = original.layer;
      if (original.symbol) {
        drawSymbol(ctx, x, y, original.icon, original.symbol.glyph, palette[original.symbol.group], palette["poi-glyph"], palette["label-halo"]);
      }
      if (!original.text || side === "none") continue;
      ctx.font = original.font;
      ctx.save();
      ctx.translate(x, y);
      ctx.rotate(angle);
      let tx = 0;
      ctx.textAlign = "center";
      if (side === "right") { ctx.textAlign = "left"; tx = original.icon / 2 + 3; }
      if (side === "left") { ctx.textAlign = "right"; tx = -original.icon / 2 - 3; }
      const color = layer === "place" ? (original.kind === "coverage" ? palette.coverage : palette["label-place"])
        : layer === "label" && original.kind === "water" ? palette["label-water"]
          : layer === "label" && (original.kind === "park" || original.kind === "green") ? palette["label-park"]
            : palette.label;
      ctx.strokeStyle = palette["label-halo"];
      ctx.lineWidth = 3;
      ctx.strokeText(original.text, tx, 0);
      ctx.fillStyle = color;
      ctx.fillText(original.text, tx, 0);
      ctx.restore();
      names.push(original.text);
    }
    placedNames = names;
    updateStats(zoom, bounds);
  }

  function updateStats(zoom, bounds) {
    const totals = { water: 0, green: 0, buildings: 0, roads: 0, pois: 0 };
    let count = 0;
    for (const tile of tiles.values()) {
      if (tile.coords.z !== zoom) continue;
      const x = tile.coords.x * tileSize;
      const y = tile.coords.y * tileSize;
      if (x + tileSize < bounds.min.x || x > bounds.max.x || y + tileSize < bounds.min.y || y > bounds.max.y) continue;
      count += 1;
      for (const key of Object.keys(totals)) totals[key] += tile.stats[key];
    }
    element.dataset.basemapTiles = String(count);
    for (const [key, value] of Object.entries(totals)) element.dataset[`basemap${key[0].toUpperCase()}${key.slice(1)}`] = String(value);
    element.dataset.basemapLabels = String(placedNames.length);
    element.dataset.basemapNames = placedNames.slice(0, 80).join(" | ");
  }

  const hideLabels = () => { labelCanvas.style.visibility = "hidden"; };
  map.on("zoomstart", hideLabels);
  map.on("moveend", scheduleLabels);
  map.on("resize", scheduleLabels);

  const darkScheme = window.matchMedia?.("(prefers-color-scheme: dark)");
  const themeChanged = () => {
    palette = readPalette();
    grid.redraw();
    scheduleLabels();
  };
  darkScheme?.addEventListener?.("change", themeChanged);

  // Non-visual hooks for tests: the colour drawn at a coordinate, and a palette colour as RGB.
  element.basemapProbe = {
    view(lat, lon, zoom) { map.setView([lat, lon], zoom, { animate: false }); },
    pixel(lat, lon, which = "tiles") {
      const zoom = Math.round(map.getZoom());
      const point = project(lat, lon, zoom);
      if (which === "labels") {
        const bounds = map.getPixelBounds();
        const size = map.getSize();
        const ratio = labelCanvas.width / (size.x + 2 * Math.round(size.x * labelPad));
        const x = (point.x - bounds.min.x + Math.round(size.x * labelPad)) * ratio;
        const y = (point.y - bounds.min.y + Math.round(size.y * labelPad)) * ratio;
        return Array.from(labelCanvas.getContext("2d").getImageData(Math.floor(x), Math.floor(y), 1, 1).data);
      }
      const tile = tiles.get(`${zoom}/${Math.floor(point.x / tileSize)}/${Math.floor(point.y / tileSize)}`);
      if (!tile) return null;
      const x = (point.x - tile.coords.x * tileSize) * tile.ratio;
      const y = (point.y - tile.coords.y * tileSize) * tile.ratio;
      return Array.from(tile.canvas.getContext("2d").getImageData(Math.floor(x), Math.floor(y), 1, 1).data);
    },
    color(token) {
      const probe = document.createElement("canvas").getContext("2d");
      probe.fillStyle = palette[token];
      probe.fillRect(0, 0, 1, 1);
      return Array.from(probe.getImageData(0, 0, 1, 1).data);
    },
  };

  return {
    setLabelsVisible(visible) {
      labelsVisible = visible;
      scheduleLabels();
    },
    refresh: scheduleLabels,
    destroy() {
      clearTimeout(labelTimer);
      map.off("zoomstart", hideLabels);
      map.off("moveend", scheduleLabels);
      map.off("resize", scheduleLabels);
      darkScheme?.removeEventListener?.("change", themeChanged);
      grid.remove();
      labelCanvas.remove();
      delete element.basemapProbe;
    },
  };
}
