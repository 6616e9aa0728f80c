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
