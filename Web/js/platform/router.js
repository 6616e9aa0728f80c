// The router: one table of screens, concatenated from every app's route table (Web/js/apps/index.js), and
// the matching of a location hash against it.
//
// A route is { path, title, view, tab?, top?, parent?, fullBleed? }: `path` may hold parameters (":id");
// `view` loads the screen's module, whose `render(container, params, query)` may return a cleanup function
// called when the person leaves the screen; `tab` marks a bottom-navigation tab as current; `top` marks a
// screen of the bottom navigation (every other screen gets a Back button, which goes to `parent` when
// there is no earlier screen to go back to); `fullBleed` lets the screen use the whole width (maps).

/** One table from the apps' tables, in order; a path registered twice is a mistake and throws. */
export function routeTable(...tables) {
  const table = tables.flat();
  const seen = new Set();
  for (const route of table) {
    if (typeof route.path !== "string" || typeof route.title !== "string" || typeof route.view !== "function") {
      throw new Error(`A route needs a path, a title and a view: ${JSON.stringify(route)}`);
    }
    if (seen.has(route.path)) throw new Error(`Two apps register the screen "${route.path}".`);
    seen.add(route.path);
  }
  return table;
}

/** The route of `table` matching a hash such as "#/runs/42?x=1", with its parameters; null when none matches. */
export function match(table, hash) {
  const parts = hash.replace(/^#\/?/, "").split("?")[0].split("/").filter(Boolean);
  for (const route of table) {
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

/** The query parameters of a hash such as "#/runs?sheltered=1". */
export function hashQuery(hash) {
  return new URLSearchParams(hash.split("?")[1] ?? "");
}

/**
 * Where Back leads from `route` when there is no earlier screen: its `parent`, else the path without its last
 * segment, else Home. Null for the top screens, which have no Back.
 */
export function parentPath(route) {
  if (route.top) return null;
  if (route.parent) return route.parent;
  const segments = route.path.split("/");
  return segments.length > 1 ? segments.slice(0, -1).join("/") : "home";
}
