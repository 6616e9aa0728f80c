// Pure helpers of the trails app: names and colours of difficulties, amenities and kinds, the filter state in a
// query, and the trail page's section list (node --test: Tests/WebTests/trails.test.mjs).

export const difficultyNames = { easy: "Easy", moderate: "Moderate", hard: "Hard" };
/** The map's line colours (Trailz 3.2.5): easy green, moderate yellow, hard orange. */
export const difficultyColours = { easy: "#2e9d44", moderate: "#e8c30e", hard: "#f07b12" };

export const amenityNames = {
  restrooms: "Restrooms", trailhead_map: "Trailhead map", water_fountains: "Water fountains", fire_pits: "Fire pits",
  trail_markers: "Trail markers", information_center: "Information center", campsites: "Campsites",
  picnic_tables: "Picnic tables", illuminated: "Illuminated trail",
};

export const poiKindNames = {
  scenic_overlook: "Scenic overlook", waterfall: "Waterfall", historic: "Historic site", viewpoint: "Viewpoint",
  lake: "Lake", peak: "Peak", other: "Point of interest",
};

export const safetyKindNames = {
  wildlife: "Predatory wildlife", dangerous_plant: "Dangerous plants", edible_plant: "Edible plants", equipment: "Hiking equipment",
};

export const focalKindNames = { plant: "Plants", animal: "Animals", poi: "Points of interest" };

/** The trail page's sub-pages, in the order of its buttons (Trailz 3.2.1.10). */
export const sections = [
  { id: "additional", label: "Additional Information" },
  { id: "emergency", label: "Emergency Contact Information" },
  { id: "safety", label: "Safety Guidelines" },
  { id: "poi", label: "Points of Interest" },
  { id: "amenities", label: "Amenities" },
];

/** The scavenger hunt is for easy and moderate trails only (Trailz 3.2.6.7). */
export const hasScavengerHunt = (trail) => trail.difficulty !== "hard";

/** Filters as the list API takes them, from the Filter screen's choices (lengths in the person's unit). */
export function filterParams({ difficulties = [], minLength = "", maxLength = "", accessible = false, distance = "" }, unit = "km") {
  const factor = unit === "mi" ? 1.609344 : 1;
  const number = (text) => (text === "" || text === null || Number.isNaN(Number(text)) ? null : Number(text) * factor);
  const params = {};
  if (difficulties.length) params.difficulty = [...difficulties].sort().join(",");
  if (number(minLength) !== null) params.min_length_km = Math.round(number(minLength) * 1000) / 1000;
  if (number(maxLength) !== null) params.max_length_km = Math.round(number(maxLength) * 1000) / 1000;
  if (accessible) params.accessible = true;
  if (number(distance) !== null) params.radius_km = Math.max(0.1, Math.round(number(distance) * 1000) / 1000);
  return params;
}

/** How many filters are chosen, for the Filters button's label. */
export function filterCount(filters) {
  return (filters.difficulties?.length ? 1 : 0) + (filters.minLength ? 1 : 0) + (filters.maxLength ? 1 : 0)
    + (filters.accessible ? 1 : 0) + (filters.distance ? 1 : 0);
}

/** A rounded count of steps: "about 4,300 steps". */
export function stepsText(steps) {
  const rounded = steps >= 1000 ? Math.round(steps / 100) * 100 : steps;
  return `about ${rounded.toLocaleString("en-US")} steps`;
}

/**
 * The map's overlays (Trailz 3.2.5.7): each switch on the Filter screen, the kinds of points of interest it
 * shows (an OSM viewpoint is a scenic overlook too), its icon and its legend text.
 */
export const mapOverlays = [
  { id: "scenic", label: "Scenic overlooks", kinds: ["scenic_overlook", "viewpoint"], icon: "◉", legend: "Scenic overlook" },
  { id: "waterfalls", label: "Waterfalls", kinds: ["waterfall"], icon: "≋", legend: "Waterfall" },
];

/** The `pois` parameter of the map's request for the switched-on overlays, or "" when none is on. */
export function overlayKinds(overlays = {}) {
  return mapOverlays.filter((overlay) => overlays[overlay.id]).flatMap((overlay) => overlay.kinds).sort().join(",");
}

/** The overlay a point of interest's kind belongs to, or undefined. */
export const overlayOf = (kind) => mapOverlays.find((overlay) => overlay.kinds.includes(kind));

/**
 * The points of interest to draw from the map's GeoJSON: one per name and place (two trails may share one),
 * each `{ name, kind, lat, lon, trail: { id, name } }`.
 */
export function overlayPoints(features = []) {
  const seen = new Set();
  const points = [];
  for (const feature of features) {
    for (const poi of feature.properties?.points_of_interest ?? []) {
      const [lon, lat] = poi.position;
      const key = `${poi.name}|${lat.toFixed(6)}|${lon.toFixed(6)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      points.push({ name: poi.name, kind: poi.kind, lat, lon, trail: { id: feature.id, name: feature.properties.name } });
    }
  }
  return points;
}

/** A hiker's walking pace on streets and paths to a trailhead: 4.8 km/h. */
export const walkMetersPerMinute = 80;

/** Whole minutes of walking for `meters`, at least one. */
export const walkingMinutes = (meters) => Math.max(1, Math.round(meters / walkMetersPerMinute));

/** Great-circle distance in metres between two `{ lat, lon }` (haversine). */
export function straightMeters(a, b) {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const s = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6_371_008.8 * Math.asin(Math.min(1, Math.sqrt(s)));
}

/**
 * Why no walking route is shown, for a refused `GET /api/streets/route` (`status`, its field errors): the person
 * or the trailhead off the street network, no path between them, or no network on this server.
 */
export function walkRefusal(status, fieldErrors = {}) {
  if (status === 503) return "This Cairn has no street network loaded, so it cannot find a walking route. Use your maps app.";
  if (status === 0) return "No connection: the walking route cannot be found now. Try again when you are online.";
  if (status !== 422) return null;
  if (fieldErrors.from && fieldErrors.to) return "Neither you nor the trailhead is near a path of our street network. Use your maps app.";
  if (fieldErrors.from) return "You are not near a path of our street network (it covers this Cairn's area only). Use your maps app.";
  if (fieldErrors.to) return "Our street network does not reach this trailhead. Use your maps app.";
  return "Our street network has no walking path from where you are to this trailhead. Use your maps app.";
}
