// The one way Cairn makes a map: Leaflet with labelled controls, the offline street layer from the server's
// street network, and the installation's raster tiles while the browser is online. Screens add their own
// layers on top.
/* global L */
import { getClientConfig } from "../api.js";
import { createStreetLayer, getStreetNetwork } from "./street-layer.js";

/** Where maps open when the server has no street network: the centre of the demo extract (Helsinki). */
export const defaultView = { center: [60.1699, 24.9384], zoom: 15, name: "Helsinki" };

/**
 * Where maps open before anything better is known: the centre of the server's street network, named after
 * its extract ("Helsinki" for Helsinki.osm.pbf).
 */
export async function homeView() {
  const network = await getStreetNetwork();
  if (!network) return defaultView;
  const name = network.source.replace(/(-latest)?\.osm(\.pbf|\.bz2)?$/i, "").replace(/[-_]+/g, " ");
  return { center: [network.center[1], network.center[0]], zoom: 15, name };
}

/**
 * Creates a map in `element` (which gets role=region and `label`), opening on `view` or the street
 * network's centre. Resolves to { map, destroy }.
 */
export async function createBaseMap(element, { label = "Map", view } = {}) {
  element.setAttribute("role", "region");
  element.setAttribute("aria-label", label);
  const start = view ?? (await homeView());
  const map = L.map(element, { zoomControl: false, attributionControl: true }).setView(start.center, start.zoom);
  L.control.zoom({ position: "bottomright", zoomInTitle: "Zoom in", zoomOutTitle: "Zoom out" }).addTo(map);
  // The settled zoom level, for tests and assistive tools: Leaflet ignores a zoom asked for mid-animation.
  const showZoom = () => { element.dataset.zoom = String(map.getZoom()); };
  map.on("zoomend", showZoom);
  showZoom();
  map.attributionControl.setPrefix(false);

  const config = await getClientConfig();
  let tiles = null;
  if (config.tile_url) {
    tiles = L.tileLayer(config.tile_url, { attribution: config.tile_attribution, maxZoom: 19, crossOrigin: true });
  }
  const streets = createStreetLayer(map, { faint: () => Boolean(tiles && map.hasLayer(tiles)) });
  const syncTiles = () => {
    if (!tiles) return;
    if (navigator.onLine && !map.hasLayer(tiles)) tiles.addTo(map);
    if (!navigator.onLine && map.hasLayer(tiles)) map.removeLayer(tiles);
    streets.refresh();
  };
  syncTiles();
  window.addEventListener("online", syncTiles);
  window.addEventListener("offline", syncTiles);

  return {
    map,
    destroy() {
      window.removeEventListener("online", syncTiles);
      window.removeEventListener("offline", syncTiles);
      streets.destroy();
      map.remove();
    },
  };
}

/** A one-button Leaflet control with an accessible label. */
export function buttonControl({ label, iconPath, position = "bottomright", onClick }) {
  const Control = L.Control.extend({
    onAdd() {
      const bar = L.DomUtil.create("div", "leaflet-bar");
      const button = L.DomUtil.create("button", "map-control-button", bar);
      button.type = "button";
      button.title = label;
      button.setAttribute("aria-label", label);
      button.innerHTML = `<svg viewBox="0 0 24 24" aria-hidden="true"><path d="${iconPath}"/></svg>`;
      L.DomEvent.disableClickPropagation(bar);
      L.DomEvent.on(button, "click", (event) => {
        L.DomEvent.preventDefault(event);
        onClick();
      });
      return bar;
    },
  });
  return new Control({ position });
}
