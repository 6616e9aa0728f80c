// Formatting of measurements in the user's units.
import { getSettings } from "./settings.js";

const metersPerMile = 1609.344;

export function formatDistance(meters, settings = getSettings()) {
  if (settings.distance === "mi") {
    const miles = meters / metersPerMile;
    return `${miles.toFixed(miles < 10 ? 2 : 1)} mi`;
  }
  if (meters < 1000) return `${Math.round(meters)} m`;
  const km = meters / 1000;
  return `${km.toFixed(km < 10 ? 2 : 1)} km`;
}

/**
 * A short way to go, as a turn or a detour is said: metres under a kilometre, and for people who read miles,
 * feet under a tenth of a mile (in tens of feet: "160 ft", not "0.03 mi"); beyond, as `formatDistance`.
 */
export function formatShortDistance(meters, settings = getSettings()) {
  if (settings.distance === "mi" && meters < metersPerMile / 10) return `${Math.round(meters * 3.28084 / 10) * 10} ft`;
  return formatDistance(meters, settings);
}

export function formatTemperature(celsius, settings = getSettings()) {
  return settings.temperature === "F" ? `${Math.round(celsius * 9 / 5 + 32)}°F` : `${Math.round(celsius)}°C`;
}

export function formatElevation(meters, settings = getSettings()) {
  return settings.elevation === "ft" ? `${Math.round(meters * 3.28084)} ft` : `${Math.round(meters)} m`;
}

export function formatSpeed(kmh, settings = getSettings()) {
  return settings.distance === "mi" ? `${Math.round(kmh / 1.609344)} mph` : `${Math.round(kmh)} km/h`;
}
