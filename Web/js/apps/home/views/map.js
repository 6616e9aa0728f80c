/* global L */
import { h } from "../../../platform/dom.js";
import { ensureLocationPermission, watchLocation } from "../../../platform/location.js";
import { buttonControl, createBaseMap } from "../../../platform/map/base-map.js";
import { openKeepMapSheet } from "../../../platform/map/keep-map.js";
import { createLocationLayer } from "../../../platform/map/location-layer.js";
import { requestedMapPath } from "../../../platform/map/map-paths.js";
import { getStreetNetwork } from "../../../platform/map/street-layer.js";
import { getBasemapInfo } from "../../../platform/map/tile-store.js";

const crosshair = "M12 2v4 M12 18v4 M2 12h4 M18 12h4 M12 8a4 4 0 1 0 0.01 0";
const download = "M12 4v11 M7 10l5 5 5-5 M5 20h14";

export async function render(container, params, query) {
  const mapElement = h("div", { class: "map" });
  const status = h("p", { class: "map-status notice notice--info", role: "status" });
  container.append(h("section", { class: "map-screen" }, mapElement, status));

  const { map, destroy, hasBasemap } = await createBaseMap(mapElement, { label: "Map" });
  const me = createLocationLayer(map);
  let stopWatching = null;

  const start = async (force) => {
    const permission = await ensureLocationPermission({ force });
    if (permission !== "granted") {
      status.replaceChildren(
        permission === "dismissed" ? "Location is off, so your position is not shown. " : "Location is blocked. ",
        h("button", { class: "button button--secondary", type: "button", onclick: () => start(true) }, "Turn on location"),
      );
      return;
    }
    status.replaceChildren("Finding your location…");
    stopWatching?.();
    stopWatching = watchLocation(
      (fix) => {
        status.replaceChildren();
        me.update(fix);
      },
      (reason) => {
        if (reason === "denied") status.replaceChildren("Location is blocked. Turn it on in your device settings and reload.");
        else status.replaceChildren("Your location cannot be found right now. Moving outdoors helps.");
      },
    );
  };

  buttonControl({
    label: "Show my location",
    iconPath: crosshair,
    onClick: () => { if (!me.recenter()) start(true); },
  }).addTo(map);

  const basemap = await getBasemapInfo();
  if (basemap) {
    buttonControl({ label: "Keep the map offline", iconPath: download, onClick: () => openKeepMapSheet(basemap) }).addTo(map);
  }

  if (await getStreetNetwork()) {
    container.querySelector(".map-screen").append(
      h("ul", { class: "map-legend", "aria-label": "Map key" },
        // Over the basemap, streets and paths are drawn as such; the street layer adds only the sheltered ways.
        hasBasemap ? null : h("li", {}, h("span", { class: "map-legend__line map-legend__line--street", "aria-hidden": "true" }), "Walkable way"),
        h("li", {}, h("span", { class: "map-legend__line map-legend__line--sheltered", "aria-hidden": "true" }), "Sheltered way"),
      ),
    );
  }

  // `#/map?activity=ID` and the like: a line an app asks the Map to show (a recorded path, Trailz 3.2.3.7).
  const requested = requestedMapPath(query);
  if (requested) {
    try {
      const { name, points } = await requested.load();
      const path = L.polyline(points.map((p) => [p.lat, p.lon]), { color: "#d9480f", weight: 5 }).addTo(map);
      path.bindTooltip(name);
      map.fitBounds(path.getBounds(), { padding: [24, 24] });
      status.replaceChildren(`${name}: the recorded path`);
    } catch (error) {
      status.replaceChildren(`This path cannot be shown: ${error.message}`);
    }
  } else {
    start(false);
  }

  return () => {
    stopWatching?.();
    destroy();
  };
}
