// How the offline basemap looks: which colour token each class takes, line widths per zoom, the order areas
// and lines are drawn in, what a point of interest shows, and which names win when space is short. Pure (the
// colours come in as a palette read from the CSS tokens --map-*), so node --test runs it.

/** The CSS custom properties the palette is read from (app.css defines each for the light and dark theme). */
export const paletteTokens = [
  "land", "outside", "outside-hatch", "coverage", "water", "water-line", "park", "grass", "wood", "scrub", "wetland",
  "sand", "rock", "pitch", "cemetery", "farmland", "residential", "commercial", "industrial", "education", "hospital",
  "railway-area", "parking", "pedestrian", "pedestrian-line", "pier", "building", "building-line", "road", "road-casing",
  "road-major", "road-major-casing", "road-motorway", "road-motorway-casing", "path", "cycleway", "rail", "tunnel",
  "label", "label-halo", "label-water", "label-park", "label-place", "poi-transport", "poi-food", "poi-shop",
  "poi-amenity", "poi-culture", "poi-health", "poi-leisure", "poi-glyph",
];

/** The colour token of an area by layer and class; null draws nothing. */
export function areaColor(layer, kind) {
  if (layer === "water") return "water";
  if (layer === "building") return "building";
  if (layer === "landcover") {
    switch (kind) {
      case "park": case "garden": case "playground": return "park";
      case "grass": case "meadow": case "allotments": return "grass";
      case "wood": return "wood";
      case "scrub": return "scrub";
      case "wetland": return "wetland";
      case "sand": return "sand";
      case "rock": return "rock";
      case "pitch": return "pitch";
      case "cemetery": return "cemetery";
      case "farmland": return "farmland";
      default: return "grass";
    }
  }
  if (layer === "landuse") {
    switch (kind) {
      case "residential": return "residential";
      case "commercial": return "commercial";
      case "industrial": case "military": case "construction": return "industrial";
      case "education": return "education";
      case "hospital": return "hospital";
      case "railway": return "railway-area";
      case "parking": return "parking";
      case "pedestrian": case "bridge": return "pedestrian";
      case "pier": return "pier";
      default: return null;
    }
  }
  return null;
}

/**
 * The passes that draw a tile's areas, in order: land use under land cover under water; piers, squares and
 * bridges over the water; buildings last. Each pass is [layer, which classes] (null: every class).
 */
export const areaPasses = [
  ["landuse", (kind) => !["pier", "pedestrian", "bridge", "parking"].includes(kind)],
  ["landcover", null],
  ["water", null],
  ["landuse", (kind) => ["pier", "pedestrian", "bridge", "parking"].includes(kind)],
  ["building", null],
];

const majorRoads = new Set(["motorway", "trunk", "primary", "secondary"]);

/** Road widths in CSS pixels at zoom 16; other zooms scale by 2^((z − 16) × 0.75). */
const roadWidths16 = {
  motorway: 9, trunk: 8, primary: 7.5, secondary: 6.5, tertiary: 5.5, minor: 4.5, pedestrian: 4, service: 2.6,
  track: 1.6, path: 1.2, cycleway: 1.3, steps: 2.4,
};

/** How a road draws at `zoom`: { width, casing (0 for none), color, casingColor, dash } in CSS pixels. */
export function roadStyle(kind, zoom) {
  const scale = 2 ** ((Math.min(zoom, 20) - 16) * 0.75);
  const width = Math.max(0.6, (roadWidths16[kind] ?? 2) * scale);
  switch (kind) {
    case "motorway": case "trunk":
      return { width, casing: zoom >= 11 ? 1 : 0, color: "road-motorway", casingColor: "road-motorway-casing" };
    case "primary": case "secondary":
      return { width, casing: zoom >= 12 ? 1 : 0, color: "road-major", casingColor: "road-major-casing" };
    case "tertiary": case "minor": case "service":
      return { width, casing: zoom >= 14 ? 0.8 : 0, color: "road", casingColor: "road-casing" };
    case "pedestrian":
      return { width, casing: zoom >= 14 ? 0.8 : 0, color: "pedestrian", casingColor: "pedestrian-line" };
    case "track":
      return { width, casing: 0, color: "path", dash: [4, 2] };
    case "cycleway":
      return { width, casing: 0, color: "cycleway", dash: [3, 2] };
    case "steps":
      return { width, casing: 0, color: "path", dash: [1, 1.5] };
    default:
      return { width: Math.max(0.8, width), casing: 0, color: "path", dash: [3, 2] };
  }
}

/** How a railway draws: { width, color, dash }. */
export function railStyle(kind, zoom) {
  const scale = 2 ** ((Math.min(zoom, 20) - 16) * 0.5);
  if (kind.startsWith("tram")) return { width: Math.max(0.6, 1.2 * scale), color: "rail", dash: null };
  if (kind === "subway") return { width: Math.max(0.6, 1.4 * scale), color: "rail", dash: [4, 3] };
  return { width: Math.max(0.8, (kind === "rail_minor" ? 1.2 : 2) * scale), color: "rail", dash: null };
}

/** Whether a road class is a main road (drawn with its name earlier). */
export const isMajorRoad = (kind) => majorRoads.has(kind) || kind === "tertiary";

/** What a point of interest shows: its colour group, and a glyph (a short text or a drawn symbol). */
export function poiSymbol(kind) {
  switch (kind) {
    case "station": return { group: "poi-transport", glyph: "train" };
    case "subway": case "subway_entrance": return { group: "poi-transport", glyph: "M" };
    case "tram_stop": return { group: "poi-transport", glyph: "tram" };
    case "bus_stop": return { group: "poi-transport", glyph: "bus" };
    case "ferry": return { group: "poi-transport", glyph: "ferry" };
    case "cafe": return { group: "poi-food", glyph: "cup" };
    case "restaurant": case "fast_food": return { group: "poi-food", glyph: "fork" };
    case "bar": return { group: "poi-food", glyph: "glass" };
    case "ice_cream": return { group: "poi-food", glyph: "cup" };
    case "toilets": return { group: "poi-amenity", glyph: "WC" };
    case "drinking_water": return { group: "poi-amenity", glyph: "drop" };
    case "shelter": return { group: "poi-amenity", glyph: "roof" };
    case "parking": return { group: "poi-amenity", glyph: "P" };
    case "bicycle_parking": case "bicycle_rental": return { group: "poi-amenity", glyph: "bike" };
    case "fuel": case "charging_station": return { group: "poi-amenity", glyph: "fuel" };
    case "pharmacy": case "hospital": case "doctor": return { group: "poi-health", glyph: "cross" };
    case "supermarket": case "convenience": case "bakery": case "mall": case "outdoor_shop": case "shop":
      return { group: "poi-shop", glyph: "bag" };
    case "museum": case "attraction": case "theatre": case "monument": case "artwork": case "place_of_worship":
    case "library": case "townhall":
      return { group: "poi-culture", glyph: "star" };
    case "viewpoint": case "peak": case "lighthouse": return { group: "poi-culture", glyph: "eye" };
    case "information": return { group: "poi-culture", glyph: "i" };
    case "hotel": case "camp_site": return { group: "poi-culture", glyph: "bed" };
    case "playground": case "sports": case "picnic_site": return { group: "poi-leisure", glyph: "star" };
    case "post_office": case "bank": case "police": case "school": return { group: "poi-amenity", glyph: "dot" };
    default: return { group: "poi-amenity", glyph: "dot" };
  }
}

/**
 * The order names are placed in (lower first): places, stations, main roads, the names of large areas, other
 * streets, points people look for, small areas, paths. A label placed first keeps its space.
 */
export function labelPriority(candidate) {
  const rank = candidate.rank ?? 5;
  switch (candidate.layer) {
    case "place": return 0 + rank;
    case "poi": return rank <= 1 ? 10 : 40 + rank * 2;
    case "label": return (candidate.kind === "water" || candidate.kind === "park" ? 24 : 60) + rank;
    case "road":
      if (isMajorRoad(candidate.kind)) return 20;
      if (candidate.kind === "minor" || candidate.kind === "pedestrian") return 32;
      return 70;
    default: return 90;
  }
}

/** Whether a point of interest shows its name beside its symbol at `zoom`. */
export const poiShowsName = (rank, zoom) => zoom >= 17 || (rank <= 2 && zoom >= 15) || (rank <= 3 && zoom >= 16);
