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
