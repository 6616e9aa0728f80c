// The activities API (Sources/CairnActivities, docs/activities.md): the route made ready to follow, the
// history, one activity, deleting it. Saving goes through the outbox (views/run.js).
import { api } from "../../platform/api.js";

export const activitiesPath = "/api/activities";

/** The planned `geometry` (GeoJSON LineString) with its turn instructions, matched onto the street network. */
export const prepareRoute = (geometry) => api(`${activitiesPath}/route`, { method: "POST", body: { geometry } });
export const listActivities = ({ sort = "date", kind, limit = 100, offset = 0 } = {}) => {
  const query = new URLSearchParams({ sort, limit: String(limit), offset: String(offset) });
  if (kind) query.set("kind", kind);
  return api(`${activitiesPath}?${query}`);
};
export const getActivity = (id) => api(`${activitiesPath}/${encodeURIComponent(id)}`);
export const deleteActivity = (id) => api(`${activitiesPath}/${encodeURIComponent(id)}`, { method: "DELETE" });
