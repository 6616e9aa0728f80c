// Trails (Trailz, issue 20; docs/trails.md): Browse with Suggested Trails, search and filters; the trail page
// with weather, facts, the favourite star, Directions, GPX and reviews, and its sub-pages; Favorites; the trail
// map with its legend; the scavenger hunt.

export const routes = [
  { path: "trails", title: "Trails", tab: "home", view: () => import("./views/browse.js") },
  { path: "trails/favorites", title: "Favorites", tab: "home", parent: "trails", view: () => import("./views/favourites.js") },
  { path: "trails/map", title: "Trail Map", tab: "home", parent: "trails", view: () => import("./views/map.js"), fullBleed: true },
  { path: "trails/import", title: "Add trails", tab: "home", parent: "trails", view: () => import("./views/import.js") },
  { path: "trails/legend", title: "Map Legend", tab: "home", parent: "trails/map", view: () => import("./views/legend.js") },
  { path: "trails/:id", title: "Trail", tab: "home", parent: "trails", view: () => import("./views/trail.js") },
  { path: "trails/:id/directions", title: "Directions", tab: "home", view: () => import("./views/directions.js") },
  { path: "trails/:id/edit", title: "Edit trail", tab: "home", view: () => import("./views/edit.js") },
  { path: "trails/:id/scavenger", title: "Scavenger Hunt", tab: "home", view: () => import("./views/scavenger.js") },
  { path: "trails/:id/:section", title: "Trail Information", tab: "home", view: () => import("./views/section.js") },
];
