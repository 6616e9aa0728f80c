// The field guide's API calls (docs/flora.md).
import { api, ApiError } from "../../platform/api.js";
import { reportServerReached } from "../../platform/connection.js";

export const getCatalogue = () => api("/api/flora/catalogue");
export const getSpeciesMap = (id) => api(`/api/flora/species/${encodeURIComponent(id)}/observations`);
export const myObservations = () => api("/api/flora/observations");
export const reviewQueue = () => api("/api/flora/review");
export const verifyObservation = (id, status, reason) =>
  api(`/api/flora/observations/${id}/verification`, { method: "POST", body: reason ? { status, reason } : { status } });

/** The path an observation is uploaded to (PUT, its device-made id). */
export const observationPath = (id) => `/api/flora/observations/${id}`;

/** Sends CSV files (FormData with species, tags, filters, observations) to the importer. */
export async function importFiles(formData) {
  let response;
  try {
    response = await fetch("/api/flora/import", {
      method: "POST", credentials: "same-origin", body: formData,
      headers: { Accept: "application/json", "X-Cairn-Request": "1" },
    });
  } catch {
    reportServerReached(false);
    throw new ApiError(0, { detail: "Cannot reach the Cairn server. Check your connection and try again." });
  }
  reportServerReached(true);
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}
