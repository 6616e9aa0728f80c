// Home, Browse and Map: the shell's own screens, tabs of the bottom navigation (Messages, the Chat tab, is the
// community app's).
export const routes = [
  { path: "home", title: "Home", tab: "home", top: true, view: () => import("./views/home.js") },
  { path: "browse", title: "Browse", tab: "browse", top: true, view: () => import("./views/browse.js") },
  { path: "map", title: "Map", tab: "map", top: true, fullBleed: true, view: () => import("./views/map.js") },
];
