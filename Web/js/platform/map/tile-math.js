// Slippy-map tile arithmetic (Web Mercator, 256-pixel tiles): which tiles cover a box, where a coordinate falls.
// Pure, for node --test.

const maxLatitude = 85.0511287798066;

/** Global pixel position of a coordinate at `zoom` (the world is 256 × 2^zoom pixels). */
export function project(lat, lon, zoom) {
  const size = 256 * 2 ** zoom;
  const phi = (Math.max(-maxLatitude, Math.min(maxLatitude, lat)) * Math.PI) / 180;
  return {
    x: ((lon + 180) / 360) * size,
    y: ((1 - Math.log(Math.tan(phi) + 1 / Math.cos(phi)) / Math.PI) / 2) * size,
  };
}

/** The tiles of `zoom` covering bounds [west, south, east, north]. */
export function tilesCovering(bounds, zoom) {
  const [west, south, east, north] = bounds;
  const last = 2 ** zoom - 1;
  const a = project(north, west, zoom);
  const b = project(south, east, zoom);
  const x0 = Math.max(0, Math.min(last, Math.floor(a.x / 256)));
  const x1 = Math.max(0, Math.min(last, Math.floor(b.x / 256)));
  const y0 = Math.max(0, Math.min(last, Math.floor(a.y / 256)));
  const y1 = Math.max(0, Math.min(last, Math.floor(b.y / 256)));
  const tiles = [];
  for (let y = y0; y <= y1; y += 1) for (let x = x0; x <= x1; x += 1) tiles.push({ z: zoom, x, y });
  return tiles;
}

/** Every tile from `minZoom` to `maxZoom` covering bounds: what keeping a map for offline use fetches. */
export function pyramid(bounds, minZoom, maxZoom) {
  const tiles = [];
  for (let z = minZoom; z <= maxZoom; z += 1) tiles.push(...tilesCovering(bounds, z));
  return tiles;
}

/**
 * The data tile that draws display tile (z, x, y) when the data stops at `maxZoom`, and where the display
 * tile sits inside it: { z, x, y, scale, dx, dy } with dx, dy in data-tile units of `extent`.
 */
export function dataTileFor({ z, x, y }, maxZoom, extent = 4096) {
  if (z <= maxZoom) return { z, x, y, scale: 1, dx: 0, dy: 0 };
  const shift = z - maxZoom;
  const scale = 2 ** shift;
  const size = extent / scale;
  return {
    z: maxZoom,
    x: Math.floor(x / scale),
    y: Math.floor(y / scale),
    scale,
    dx: (x - Math.floor(x / scale) * scale) * size,
    dy: (y - Math.floor(y / scale) * scale) * size,
  };
}

/** Fills a URL template's {z}, {x}, {y}. */
export const tileURL = (template, { z, x, y }) => template.replace("{z}", z).replace("{x}", x).replace("{y}", y);
