// Ski mountains (GoSki, issue 21; docs/ski.md): the ski main menu; Nearby (map and list by distance or by ticket
// price); Search by name; a mountain's page with weather, prices, pistes in the local convention, lifts, the
<<<<<<< HEAD
// favourite button, directions, ratings and its forum; Favourites; Best Moments (the community's photo forum).
=======
// favourite button, directions, ratings and its forum; Favourites; Tutorials by skill level.
>>>>>>> 8a9ba12b35029c015ece610687fd6439693db37b

export const routes = [
  { path: "ski", title: "GoSki", tab: "home", view: () => import("./views/home.js") },
  { path: "ski/nearby", title: "Nearby Mountains", tab: "home", parent: "ski", view: () => import("./views/nearby.js") },
  { path: "ski/search", title: "Search Mountains", tab: "home", parent: "ski", view: () => import("./views/search.js") },
  { path: "ski/tutorials", title: "Tutorials", tab: "home", parent: "ski", view: () => import("./views/tutorials.js") },
  { path: "ski/favourites", title: "Favourite Mountains", tab: "home", parent: "ski", view: () => import("./views/favourites.js") },
  { path: "ski/moments", title: "Best Moments", tab: "home", parent: "ski", view: () => import("./views/moments.js") },
  { path: "ski/mountains/:id", title: "Mountain", tab: "home", parent: "ski", view: () => import("./views/mountain.js") },
];
