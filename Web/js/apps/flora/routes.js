// The alpine field guide (niwot-field-guide): the guide and its filters, species pages, recording
// observations offline, their sync status, distribution maps, and the researchers' review and import.

// The upload condition (Wi-Fi only) is registered in the browser at start-up; node's tests load this table
// without a browser.
if (typeof window !== "undefined") import("./send-condition.js");

export const routes = [
  { path: "flora", title: "Field Guide", tab: "home", view: () => import("./views/guide.js") },
  { path: "flora/species/:id", title: "Plant", tab: "home", parent: "flora", view: () => import("./views/species.js") },
  { path: "flora/species/:id/map", title: "Sightings Map", tab: "home", parent: "flora", view: () => import("./views/map.js"), fullBleed: false },
  { path: "flora/record", title: "Record a Sighting", tab: "home", parent: "flora", view: () => import("./views/record.js") },
  { path: "flora/sync", title: "Sync Status", tab: "home", parent: "flora", view: () => import("./views/sync.js") },
  { path: "flora/review", title: "Review Observations", tab: "home", parent: "flora", view: () => import("./views/review.js") },
  { path: "flora/import", title: "Import CSV", tab: "home", parent: "flora", view: () => import("./views/import.js") },
];
