// The parking API (docs/parking.md).
import { api } from "../../platform/api.js";

export const getLive = () => api("/api/parking/live");
export const getLots = () => api("/api/parking/lots");
/** The shortest walk between two points on the street network, through the Streets module's public route. */
export const getWalkingRoute = (from, to) =>
  api(`/api/streets/route?from=${from.lat.toFixed(6)},${from.lon.toFixed(6)}&to=${to.lat.toFixed(6)},${to.lon.toFixed(6)}`);
export const getLot = (id) => api(`/api/parking/lots/${id}`);
export const getTypical = (id, weekday) => api(`/api/parking/lots/${id}/typical?weekday=${weekday}`);
export const holdSpot = (spotId, device) => api(`/api/parking/spots/${spotId}/hold`, { method: "POST", body: { device } });
const holdHeaders = (token) => ({ "X-Hold-Token": token });
export const readHold = (id, token) => api(`/api/parking/holds/${id}`, { headers: holdHeaders(token) });
export const answerHold = (id, token, wasMe, permits) =>
  api(`/api/parking/holds/${id}/answer`, { method: "POST", body: { was_me: wasMe, permits }, headers: holdHeaders(token) });
export const releaseHold = (id, token) => api(`/api/parking/holds/${id}`, { method: "DELETE", headers: holdHeaders(token) });
export const getPermits = () => api("/api/parking/permits");
export const putPermits = (permits) => api("/api/parking/permits", { method: "PUT", body: { permits } });
export const getSchedule = () => api("/api/parking/schedule");
export const putSchedule = (blocks) => api("/api/parking/schedule", { method: "PUT", body: { blocks } });
export const getFeed = () => api("/api/parking/schedule/feed");
export const makeFeed = () => api("/api/parking/schedule/feed", { method: "POST" });
export const revokeFeed = () => api("/api/parking/schedule/feed", { method: "DELETE" });
