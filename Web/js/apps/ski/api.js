// The ski API (docs/ski.md).
import { api } from "../../platform/api.js";

/** `params`: an object of query parameters; empty values are left out. */
function query(params) {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== "") search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : "";
}

export const listMountains = (params = {}) => api(`/api/ski/mountains${query(params)}`);
export const getMountain = (id) => api(`/api/ski/mountains/${id}`);
export const favourites = () => api("/api/ski/favourites");
export const setFavourite = (id, on) => api(`/api/ski/mountains/${id}/favourite`, { method: on ? "PUT" : "DELETE" });
export const rating = (id) => api(`/api/reviews?subject=mountain:${id}&limit=1`);
export const editMountain = (id, facts) => api(`/api/ski/mountains/${id}`, { method: "PUT", body: facts });
export const putPrice = (id, priceID, price) => api(`/api/ski/mountains/${id}/prices/${priceID}`, { method: "PUT", body: price });
export const deletePrice = (id, priceID) => api(`/api/ski/mountains/${id}/prices/${priceID}`, { method: "DELETE" });
export const editPiste = (id, pisteID, change) => api(`/api/ski/mountains/${id}/pistes/${pisteID}`, { method: "PATCH", body: change });
export const editLift = (id, liftID, change) => api(`/api/ski/mountains/${id}/lifts/${liftID}`, { method: "PATCH", body: change });
export const reportConditions = (id, report) => api(`/api/ski/mountains/${id}/conditions`, { method: "POST", body: report });
export const tutorials = () => api("/api/ski/tutorials");
export const addTutorial = (tutorial) => api("/api/ski/tutorials", { method: "POST", body: tutorial });
export const editTutorial = (id, tutorial) => api(`/api/ski/tutorials/${id}`, { method: "PUT", body: tutorial });
export const deleteTutorial = (id) => api(`/api/ski/tutorials/${id}`, { method: "DELETE" });
