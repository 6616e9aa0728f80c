// Home, Browse, Chat and Map: the shell's own screens, one per bottom-navigation tab.
export const routes = [
  { path: "home", title: "Home", tab: "home", top: true, view: () => import("./views/home.js") },
  { path: "browse", title: "Browse", tab: "browse", top: true, view: () => import("./views/browse.js") },
  { path: "chat", title: "Chat", tab: "chat", top: true, view: () => import("./views/chat.js") },
  { path: "map", title: "Map", tab: "map", top: true, fullBleed: true, view: () => import("./views/map.js") },
];
