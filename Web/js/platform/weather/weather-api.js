// The weather API, shared by the weather card and the rain banner. Locations are rounded to 0.01° (about
// 1 km) before they leave the device — the precision the server caches and asks its providers at — and
// answers are remembered for a minute, so a card and a banner for one place make one request each.
import { api } from "../api.js";

const rememberMs = 60 * 1000;
const remembered = new Map();

/** GET /api/weather/{kind} ("nowcast", "current" or "forecast") for { lat, lon }; resolves to the envelope. */
export function fetchWeather(kind, { lat, lon }, params = {}) {
  const query = new URLSearchParams({ lat: lat.toFixed(2), lon: lon.toFixed(2), ...params });
  const url = `/api/weather/${kind}?${query}`;
  const hit = remembered.get(url);
  if (hit && Date.now() - hit.at < rememberMs) return hit.promise;
  const promise = api(url).catch((error) => {
    remembered.delete(url);
    throw error;
  });
  remembered.set(url, { at: Date.now(), promise });
  return promise;
}

/** An envelope standing for a request that failed before the server could answer (offline, 5xx). */
export function unreachable(error) {
  return { status: "unavailable", stale: false, message: `Weather is unavailable: ${error.message}`, report: null };
}

/** "just now", "12 min ago", "3 h ago". */
export function ageText(seconds) {
  if (seconds < 90) return "just now";
  if (seconds < 90 * 60) return `${Math.round(seconds / 60)} min ago`;
  return `${Math.round(seconds / 3600)} h ago`;
}

/** "14:30" in the device's own clock. */
export function clockTime(iso) {
  return new Date(iso).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}
