// The run planner's API calls and its one distance rule, shared by the planner and the planned-routes list.
import { api } from "../../platform/api.js";
import { getSettings } from "../../platform/settings.js";

/** The screen's words for any distance outside 1–30 km (run-route-planner 4.2.1.2), as the server says them. */
export const distanceMessage = "Enter a number between 1 and 30";

/** The distance typed in the field as km, or null when it is not a number from 1 to 30 (4.2.1.1). */
export function parseDistance(text) {
  const trimmed = String(text ?? "").trim().replace(",", ".");
  if (!/^\d+(\.\d+)?$|^\.\d+$/.test(trimmed)) return null;
  const km = Number(trimmed);
  return km >= 1 && km <= 30 ? km : null;
}

/** "3.02 km", with miles beside it for people who read miles. */
export function formatLength(meters) {
  const km = `${(meters / 1000).toFixed(2)} km`;
  return getSettings().distance === "mi" ? `${km} (${(meters / 1609.344).toFixed(2)} mi)` : km;
}

export function formatShare(share) {
  return `${Math.round(share * 100)} % sheltered`;
}

export function planRuns({ start, distanceKm, landmarkId, sheltered, seed }) {
  return api("/api/runs/plan", {
    method: "POST",
    body: { start: { lat: start.lat, lon: start.lon }, distance_km: distanceKm, landmark_id: landmarkId, sheltered, seed },
  });
}

export function validLandmarks(start, distanceKm, { signal } = {}) {
  const query = new URLSearchParams({ lat: start.lat.toFixed(6), lon: start.lon.toFixed(6), distance_km: String(distanceKm) });
  return api(`/api/runs/landmarks?${query}`, { signal });
}

/** Keeps `route` of `plan` in the user's planned routes. */
export function savePlannedRun(plan, route) {
  return api("/api/runs/planned", {
    method: "POST",
    body: {
      distance_km: plan.distance_km, sheltered: plan.sheltered, landmark_id: plan.landmark?.id ?? null,
      length_m: route.length_m, sheltered_m: route.sheltered_m, geometry: route.geometry,
      sheltered_segments: route.sheltered_segments,
    },
  });
}

export const listPlannedRuns = () => api("/api/runs/planned");
export const getPlannedRun = (id) => api(`/api/runs/planned/${encodeURIComponent(id)}`);
export const deletePlannedRun = (id) => api(`/api/runs/planned/${encodeURIComponent(id)}`, { method: "DELETE" });
