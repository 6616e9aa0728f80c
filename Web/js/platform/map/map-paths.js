// Lines an app can ask the home Map to show: `#/map?<param>=<id>` draws the line the app's loader gives for
// that id. Apps register their loader at start-up (from their routes.js), so the Map depends on the platform
// only, never on an app:
//
//   registerMapPath("activity", async (id) => ({ name: "Morning run", points: [{ lat, lon }, …] }));

const loaders = new Map();

/** Registers the loader of `#/map?<param>=<id>`: `load(id)` resolves `{ name, points: [{ lat, lon }] }`. */
export function registerMapPath(param, load) {
  loaders.set(param, load);
}

/** The path the Map's query asks for, as `{ param, id, load }`, or null when it asks for none. */
export function requestedMapPath(query) {
  for (const [param, load] of loaders) {
    const id = query?.get(param);
    if (id) return { param, id, load: () => load(id) };
  }
  return null;
}
