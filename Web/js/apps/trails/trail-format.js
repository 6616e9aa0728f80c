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
