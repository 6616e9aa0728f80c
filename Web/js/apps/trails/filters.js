// The chosen filters, shared by Browse and the map for the session (sessionStorage).
const key = "cairn.trails.filters";

export function loadFilters() {
  try {
    return { difficulties: [], minLength: "", maxLength: "", accessible: false, distance: "", ...JSON.parse(sessionStorage.getItem(key) || "{}") };
  } catch {
    return { difficulties: [], minLength: "", maxLength: "", accessible: false, distance: "" };
  }
}

export function saveFilters(filters) {
  sessionStorage.setItem(key, JSON.stringify(filters));
}

// The map's overlays (scenic overlooks, waterfalls) are kept on the device (localStorage): they stay after a reload
// and the next visit, as a map layer choice does.
const overlaysKey = "cairn.trails.overlays";

export function loadOverlays() {
  try {
    const saved = JSON.parse(localStorage.getItem(overlaysKey) || "{}");
    return { scenic: saved.scenic === true, waterfalls: saved.waterfalls === true };
  } catch {
    return { scenic: false, waterfalls: false };
  }
}

export function saveOverlays(overlays) {
  localStorage.setItem(overlaysKey, JSON.stringify({ scenic: !!overlays.scenic, waterfalls: !!overlays.waterfalls }));
}
