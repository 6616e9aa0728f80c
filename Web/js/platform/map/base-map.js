// The one way Cairn makes a map: Leaflet with labelled controls, the offline basemap drawn from the server's
// own OpenStreetMap import (basemap-layer.js), the street layer of walkable ways, and the installation's
// raster tiles on top while the browser is online. Outside the covered area the map says so. Screens add
// their own layers on top.
/* global L */
import { getClientConfig } from "../api.js";
import { h } from "../dom.js";
import { createBasemap } from "./basemap-layer.js";
import { createStreetLayer, getStreetNetwork } from "./street-layer.js";
import { getBasemapInfo } from "./tile-store.js";

/** Where maps open when the server has no street network: the centre of the demo extract (Helsinki). */
export const defaultView = { center: [60.1699, 24.9384], zoom: 15, name: "Helsinki" };

/**
 * Where maps open before anything better is known: the centre of the server's street network, named after
 * its extract ("Helsinki" for Helsinki.osm.pbf).
 */
export async function homeView() {
  const network = await getStreetNetwork();
  if (!network) {
    // Offline, the basemap kept on the device still knows where the map is.
    const basemap = await getBasemapInfo();
    return basemap ? { center: [basemap.center[1], basemap.center[0]], zoom: 15, name: basemap.name } : defaultView;
  }
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
  const map = L.map(element, { zoomControl: false, attributionControl: true, minZoom: 3, maxZoom: 19 })
    .setView(start.center, start.zoom);
  L.control.zoom({ position: "bottomright", zoomInTitle: "Zoom in", zoomOutTitle: "Zoom out" }).addTo(map);
  // The settled zoom level, for tests and assistive tools: Leaflet ignores a zoom asked for mid-animation.
  const showZoom = () => { element.dataset.zoom = String(map.getZoom()); };
  map.on("zoomend", showZoom);
  showZoom();
  map.attributionControl.setPrefix(false);

  const [config, info] = await Promise.all([getClientConfig(), getBasemapInfo()]);
  let basemap = null;
  let coverage = null;
  if (info) {
    basemap = createBasemap(map, info, { element });
    map.attributionControl.addAttribution(`Map data &copy; OpenStreetMap contributors`);
    coverage = createCoverageNotice(map, info);
    element.dataset.basemap = "on";
  } else {
    element.dataset.basemap = "none";
  }
  let tiles = null;
  // Online tiles carry their own names, so the basemap's are hidden while they draw — but a server on a LAN
  // without internet is "online" with every tile failing: then the basemap keeps its names.
  let tilesLoaded = 0;
  let tilesFailed = 0;
  const syncLabels = () => basemap?.setLabelsVisible(!(tiles && map.hasLayer(tiles) && tilesLoaded > tilesFailed));
  if (config.tile_url) {
    tiles = L.tileLayer(config.tile_url, { attribution: config.tile_attribution, maxZoom: 19, crossOrigin: true, zIndex: 1 });
    tiles.on("tileload", () => { tilesLoaded += 1; syncLabels(); });
    tiles.on("tileerror", () => { tilesFailed += 1; syncLabels(); });
  }
  const streets = createStreetLayer(map, {
    faint: () => Boolean(tiles && map.hasLayer(tiles)),
    shelteredOnly: () => Boolean(basemap),
  });
  const syncTiles = () => {
    if (!tiles) return;
    if (navigator.onLine && !map.hasLayer(tiles)) tiles.addTo(map);
    if (!navigator.onLine && map.hasLayer(tiles)) map.removeLayer(tiles);
    syncLabels();
    streets.refresh();
  };
  syncTiles();
  window.addEventListener("online", syncTiles);
  window.addEventListener("offline", syncTiles);

  return {
    map,
    /** Whether the offline basemap draws under this map (its streets and paths need no key of their own). */
    hasBasemap: Boolean(basemap),
    destroy() {
      window.removeEventListener("online", syncTiles);
      window.removeEventListener("offline", syncTiles);
      streets.destroy();
      coverage?.destroy();
      basemap?.destroy();
      map.remove();
    },
  };
}

/**
 * Says so when the map shows a place with no data: "No map data here — this Cairn covers Helsinki.", with a
 * button back to the covered area. Shown while the view's centre is outside the covered area.
 */
function createCoverageNotice(map, info) {
  const [west, south, east, north] = info.bounds;
  const covered = L.latLngBounds([south, west], [north, east]);
  const back = h("button", { class: "button button--secondary", type: "button" }, `Show ${info.name}`);
  // A live region, but not a status: a screen's own status line (location, planning) stays the one it has.
  const notice = h("div", { class: "map-coverage-notice", "aria-live": "polite", hidden: true },
    h("p", {}, `No map data here — this Cairn covers ${info.name}.`), back);
  L.DomEvent.disableClickPropagation(notice);
  L.DomEvent.disableScrollPropagation(notice);
  back.addEventListener("click", () => map.flyToBounds(covered, { maxZoom: 15, duration: 0.6 }));
  map.getContainer().append(notice);
  const element = map.getContainer();
  const update = () => {
    const outside = !covered.contains(map.getCenter());
    notice.hidden = !outside;
    element.dataset.coverage = outside ? "outside" : "inside";
    const nw = map.latLngToContainerPoint(covered.getNorthWest());
    const se = map.latLngToContainerPoint(covered.getSouthEast());
    element.dataset.coverageWidth = String(Math.round(se.x - nw.x));
  };
  map.on("moveend", update);
  update();
  return {
    destroy() {
      map.off("moveend", update);
      notice.remove();
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
