// The run planner (run-route-planner): plan three loops, and the routes a runner kept.
export const routes = [
  { path: "runs", title: "Run Planner", tab: "home", view: () => import("./views/planner.js") },
  { path: "runs/planned", title: "Planned Routes", tab: "home", view: () => import("./views/planned-runs.js") },
];
