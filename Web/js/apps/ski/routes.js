// Ski mountains (GoSki, issue 21; docs/ski.md): the ski main menu; Nearby (map and list by distance or by ticket
// price); Search by name; a mountain's page with weather, prices, pistes in the local convention, lifts, the
// favourite button, directions, ratings and its forum, and its admin editor; Favourites; Tutorials by skill level;
// Best Moments (the community's photo forum).

export const routes = [
  { path: "ski", title: "GoSki", tab: "home", view: () => import("./views/home.js") },
  { path: "ski/nearby", title: "Nearby Mountains", tab: "home", parent: "ski", view: () => import("./views/nearby.js") },
  { path: "ski/search", title: "Search Mountains", tab: "home", parent: "ski", view: () => import("./views/search.js") },
  { path: "ski/tutorials", title: "Tutorials", tab: "home", parent: "ski", view: () => import("./views/tutorials.js") },
  { path: "ski/favourites", title: "Favourite Mountains", tab: "home", parent: "ski", view: () => import("./views/favourites.js") },
  { path: "ski/moments", title: "Best Moments", tab: "home", parent: "ski", view: () => import("./views/moments.js") },
  { path: "ski/mountains/:id", title: "Mountain", tab: "home", parent: "ski", view: () => import("./views/mountain.js") },
  { path: "ski/mountains/:id/edit", title: "Edit Mountain", tab: "home", view: () => import("./views/mountain-edit.js") },
];
