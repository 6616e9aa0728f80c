// What the planner screen says about routes and landmarks, in the person's units: the running pace they type,
// a route's estimated time at that pace, its kind (loop, lollipop, out and back), landmark categories and
// the landmark search, and the progress line while a plan is being made. Pure: no DOM, no storage.

const metersPerMile = 1609.344;

/** The pace a newcomer is assumed to run, seconds per kilometre (6:00 /km, an easy jog). */
export const defaultPaceSecondsPerKm = 360;

/** Paces the field accepts, seconds per kilometre: 2:30 to 15:00 per km. */
const paceRange = { min: 150, max: 900 };

/** "min/km" or "min/mi". */
export function paceUnit(unit) {
  return unit === "mi" ? "min/mi" : "min/km";
}

/**
 * The pace typed as "5:30" or "6" (minutes per km or mile in `unit`) in seconds per kilometre; null when it is
 * not a pace or outside 2:30–15:00 per km.
 */
export function parsePace(text, unit = "km") {
  const match = /^\s*(\d{1,2})(?:[:.,](\d{2}))?\s*$/.exec(String(text ?? ""));
  if (!match) return null;
  const seconds = Number(match[2] ?? 0);
  if (seconds >= 60) return null;
  const perUnit = Number(match[1]) * 60 + seconds;
  const perKm = unit === "mi" ? perUnit / (metersPerMile / 1000) : perUnit;
  if (perKm < paceRange.min || perKm > paceRange.max) return null;
  return Math.round(perKm * 10) / 10;
}

/** A pace in seconds per kilometre as "5:30" per km or per mile (`unit`). */
export function formatPace(secondsPerKm, unit = "km") {
  const perUnit = Math.round(unit === "mi" ? secondsPerKm * metersPerMile / 1000 : secondsPerKm);
  return `${Math.floor(perUnit / 60)}:${String(perUnit % 60).padStart(2, "0")}`;
}

/** The words under the pace field when it is not a pace. */
export function paceMessage(unit = "km") {
  return unit === "mi" ? "Enter a pace such as 9:40 (minutes per mile), from 4:01 to 24:08" : "Enter a pace such as 6:00 (minutes per km), from 2:30 to 15:00";
}

/** The time to run `lengthMeters` at `secondsPerKm`: "24 min", "1 h 05 min". */
export function formatDuration(lengthMeters, secondsPerKm) {
  const minutes = Math.max(1, Math.round(lengthMeters / 1000 * secondsPerKm / 60));
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, "0")} min`;
}

const kinds = { loop: "Loop", lollipop: "Lollipop", out_and_back: "Out and back" };

/** "Loop", "Lollipop" or "Out and back" for a route's `kind`. */
export function routeKindName(kind) {
  return kinds[kind] ?? "Loop";
}

const categoryNames = {
  attraction: "Sight", viewpoint: "Viewpoint", museum: "Museum", gallery: "Gallery", artwork: "Artwork", zoo: "Zoo",
  monument: "Monument", memorial: "Memorial", castle: "Castle", ruins: "Ruins", historic: "Historic site",
  archaeological_site: "Archaeological site", park: "Park", garden: "Garden", nature_reserve: "Nature reserve",
  fountain: "Fountain", clock: "Clock", place_of_worship: "Church", peak: "Peak", waterfall: "Waterfall",
  beach: "Beach", cave_entrance: "Cave", tower: "Tower", lighthouse: "Lighthouse", windmill: "Windmill",
  observatory: "Observatory",
};

/** A landmark category as people say it: "place_of_worship" → "Church". */
export function categoryName(category) {
  return categoryNames[category] ?? String(category).replaceAll("_", " ").replace(/^./, (c) => c.toUpperCase());
}

/** Lower case without accents, so "kaisaniemi" finds "Kaisaniemen puisto" and "ö" finds "o". */
export function folded(text) {
  return String(text).normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().trim();
}

/**
 * The landmarks whose name or category holds every word of `text` (any order, accents and case ignored),
 * in their order; all of them for empty text. The chosen one (`keepId`) always stays in the list.
 */
export function searchLandmarks(landmarks, text, keepId = "") {
  const words = folded(text).split(/\s+/).filter(Boolean);
  if (!words.length) return landmarks;
  return landmarks.filter((landmark) => {
    if (landmark.id === keepId) return true;
    const haystack = folded(`${landmark.name} ${categoryName(landmark.category)}`);
    return words.every((word) => haystack.includes(word));
  });
}

/**
 * The status line while planning: what is being planned, and after the first second how long it has taken
 * and that long runs take longer.
 */
export function planningText(distanceText, elapsedSeconds) {
  const what = `Planning three ${distanceText} routes…`;
  if (elapsedSeconds < 1) return what;
  return `${what} ${Math.floor(elapsedSeconds)} s. Long runs on dense streets take a few seconds.`;
}
