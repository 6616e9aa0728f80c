// The trails API (docs/trails.md).
import { api } from "../../platform/api.js";

/** `params`: an object of query parameters; empty values are left out. */
function query(params) {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== "" && value !== false) search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : "";
}

export const listTrails = (params = {}) => api(`/api/trails${query(params)}`);
export const mapTrails = (params) => api(`/api/trails${query(params)}`);
export const getTrail = (id) => api(`/api/trails/${id}`);
export const favourites = () => api("/api/trails/favourites");
export const setFavourite = (id, on) => api(`/api/trails/${id}/favourite`, { method: on ? "PUT" : "DELETE" });
export const setFocalPoint = (id, point, on) => api(`/api/trails/${id}/scavenger/${encodeURIComponent(point)}`, { method: on ? "PUT" : "DELETE" });
export const rating = (id) => api(`/api/reviews?subject=trail:${id}&limit=1`);
export const gpxURL = (id) => `/api/trails/${id}.gpx`;
/** The shortest walk on the street network (Streets' public route): `{ length_m, geometry }`. */
export const walkingRoute = (from, to) =>
  api(`/api/streets/route?from=${from.lat.toFixed(6)},${from.lon.toFixed(6)}&to=${to.lat.toFixed(6)},${to.lon.toFixed(6)}`);
/** Admins: `PATCH /api/trails/{id}` with any of the trail's facts; answers the trail's page. */
export const editTrail = (id, body) => api(`/api/trails/${id}`, { method: "PATCH", body });
/** Admins: `{ photo, thumbnail }` (base64 data: URLs) as the photo at `place` (`trailhead`, `safety.0`, …). */
export const uploadTrailPhoto = (id, place, body) => api(`/api/trails/${id}/photos/${encodeURIComponent(place)}`, { method: "PUT", body });
/** Admins: a GPX or GeoJSON file as `POST /api/trails/import`'s body; answers `{ created, updated, trails }`. */
export const importTrailFile = (file, { demo = false } = {}) => api(`/api/trails/import${demo ? "?demo=true" : ""}`, {
  method: "POST", body: file,
  headers: { "Content-Type": /\.gpx$/i.test(file.name) ? "application/gpx+xml" : file.name ? "application/geo+json" : "application/octet-stream" },
});
