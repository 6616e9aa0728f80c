// Every screen of the web app: its hash path, title, bottom-navigation tab and view module.
// Paths may hold parameters (":id"). A view module exports `render(container, params)`, which may return
// a cleanup function called when the user leaves the screen.

export const routes = [
  { path: "home", title: "Home", tab: "home", view: () => import("./views/home.js") },
  { path: "browse", title: "Browse", tab: "browse", view: () => import("./views/browse.js") },
  { path: "chat", title: "Chat", tab: "chat", view: () => import("./views/chat.js") },
  { path: "map", title: "Map", tab: "map", fullBleed: true, view: () => import("./views/map.js") },
  { path: "settings", title: "Settings", view: () => import("./views/settings.js") },
];

export const fallbackPath = "home";

/** The route matching a hash such as "#/runs/42", with its parameters; null when none matches. */
export function match(hash) {
  const parts = hash.replace(/^#\/?/, "").split("?")[0].split("/").filter(Boolean);
  for (const route of routes) {
    const pattern = route.path.split("/");
    if (pattern.length !== parts.length) continue;
    const params = {};
    const matches = pattern.every((segment, i) => {
      if (segment.startsWith(":")) {
        params[segment.slice(1)] = decodeURIComponent(parts[i]);
        return true;
      }
      return segment === parts[i];
    });
    if (matches) return { route, params };
  }
  return null;
}
