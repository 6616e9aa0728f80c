// The run planner's API calls, shared by the planner and the planned-routes list. Saving a route goes
// through the platform outbox (offline-safe, idempotent): see saveRoute in views/planner.js.
import { api } from "../../platform/api.js";

/** "62 % sheltered". */
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

/** The loaded street network: its `bbox` [west, south, east, north] is the area the planner knows (GET /api/streets). */
export const networkExtent = () => api("/api/streets");

/** The place suggestions for typed text, nearest `near` first (GET /api/streets/suggestions). */
export function placeSuggestions(text, near, { signal, limit = 8 } = {}) {
  const params = new URLSearchParams({ q: text, limit: String(limit) });
  if (near) {
    params.set("lat", near.lat.toFixed(5));
    params.set("lon", near.lon.toFixed(5));
  }
  return api(`/api/streets/suggestions?${params}`, { signal });
}

/** The body of POST /api/runs/planned that keeps `route` of `plan`. */
export function plannedRunBody(plan, route) {
  return {
    distance_km: plan.distance_km, sheltered: plan.sheltered, landmark_id: plan.landmark?.id ?? null,
    length_m: route.length_m, sheltered_m: route.sheltered_m, geometry: route.geometry,
    sheltered_segments: route.sheltered_segments,
  };
}

export const plannedRunsPath = "/api/runs/planned";
export const listPlannedRuns = () => api(plannedRunsPath);
export const getPlannedRun = (id) => api(`${plannedRunsPath}/${encodeURIComponent(id)}`);
export const deletePlannedRun = (id) => api(`${plannedRunsPath}/${encodeURIComponent(id)}`, { method: "DELETE" });
