// The run planner (run-route-planner): plan three loops, and the routes a runner kept. Routes a guest
// saves join the account at sign-up and login: their collector is registered at start-up, here, since a
// guest may log in before opening any runs screen.
import "./guest-routes.js";

export const routes = [
  { path: "runs", title: "Run Planner", tab: "home", view: () => import("./views/planner.js") },
  { path: "runs/planned", title: "Planned Routes", tab: "home", view: () => import("./views/planned-runs.js") },
];
