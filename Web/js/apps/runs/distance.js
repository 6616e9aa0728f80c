// The run distance as the person types it, in their unit (run-route-planner 4.2.1): 1–30 km, which is
// 0.7–18.6 mi for people who read miles (both ends inside the server's 1–30 km). Pure: no DOM, no storage.

const metersPerMile = 1609.344;

/** The accepted range in `unit` ("km" or "mi"). */
export function distanceRange(unit) {
  return unit === "mi" ? { min: 0.7, max: 18.6 } : { min: 1, max: 30 };
}

/** The screen's words for a distance outside the range (4.2.1.2); in km they are the server's own. */
export function distanceMessage(unit) {
  const { min, max } = distanceRange(unit);
  return `Enter a number between ${min} and ${max}`;
}

/** The field's hint: "From 1 to 30 km." */
export function distanceHint(unit) {
  const { min, max } = distanceRange(unit);
  return `From ${min} to ${max} ${unit}.`;
}

/**
 * The distance typed in the field, in `unit`, as kilometres for the API (rounded to metres); null when it is
 * not a number inside the range (4.2.1.1). A decimal comma is read as a point.
 */
export function parseDistance(text, unit = "km") {
  const trimmed = String(text ?? "").trim().replace(",", ".");
  if (!/^\d+(\.\d+)?$|^\.\d+$/.test(trimmed)) return null;
  const value = Number(trimmed);
  const { min, max } = distanceRange(unit);
  if (value < min || value > max) return null;
  const km = unit === "mi" ? value * metersPerMile / 1000 : value;
  return Math.round(km * 1000) / 1000;
}
