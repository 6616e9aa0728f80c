// Runs and hikes on the move (issue 18): following a planned run turn by turn, the summary, the history of
// activities with route images, and My Hikes (the current hike, its history, All Trails). Activities a
// guest saves join the account at sign-up and login: their collector is registered at start-up, here.
import "./current.js";
import { registerMapPath } from "../../platform/map/map-paths.js";
import { decodePolyline } from "../../platform/map/polyline.js";
import { offlineStore } from "../../platform/offline/store.js";
import { getActivity } from "./api.js";

// `#/map?activity=ID`: the Map draws a recorded path (Trailz 3.2.3.7), kept on the device once seen.
registerMapPath("activity", async (id) => {
  const { value } = await offlineStore("activities").load(`activity/${id}`, () => getActivity(id));
  return { name: value.name, points: decodePolyline(value.track.polyline, 6) };
});

export const routes = [
  { path: "activities/run", title: "Run", tab: "home", parent: "runs", view: () => import("./views/run.js") },
  { path: "activities", title: "My Activities", tab: "home", view: () => import("./views/history.js") },
  { path: "activities/:id", title: "Activity", tab: "home", view: () => import("./views/activity.js") },
  { path: "hikes", title: "My Hikes", tab: "home", view: () => import("./views/hikes.js") },
  { path: "hikes/all", title: "All Trails", tab: "home", view: () => import("./views/all-hikes.js") },
];
