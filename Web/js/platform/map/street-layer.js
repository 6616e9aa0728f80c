// The offline street layer: walkable ways of the server's street network (imported from OpenStreetMap),
// fetched for the visible box and drawn under everything else, so a map is useful without a tile server.
// Sheltered ways (arcades, covered passages, footway tunnels) get their own colour; over the offline basemap,
// which draws every street and path, only they are drawn.
/* global L */
import { api } from "../api.js";

let networkInfo;
/** The loaded street network's extent (`GET /api/streets`), or null when the server has none. Fetched once. */
export function getStreetNetwork() {
  networkInfo ??= api("/api/streets").catch(() => null);
  return networkInfo;
}

const minZoom = 13;

function token(name) {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
}

function weight(highway, zoom) {
  const major = ["primary", "secondary", "tertiary", "pedestrian", "living_street", "residential", "unclassified"];
  const base = major.includes(highway) ? 3 : 2;
  return zoom >= 17 ? base + 1.5 : zoom <= 14 ? base - 0.5 : base;
}

/**
 * Adds the street layer to `map` (in its own pane, under overlays). `faint()` says whether online tiles are
 * showing, in which case ways are drawn lighter; `shelteredOnly()` whether a basemap draws the streets and
 * paths already, in which case only the sheltered ways are drawn. Returns { refresh, destroy }.
 */
export function createStreetLayer(map, { faint = () => false, shelteredOnly = () => false } = {}) {
  const pane = map.createPane("streets");
  pane.style.zIndex = "250";
  const renderer = L.canvas({ pane: "streets", padding: 0.2 });
  let layer = null;
  let controller = null;
  let timer = null;
  let attributed = false;

  const style = (feature) => {
    const sheltered = feature.properties.sheltered;
    return {
      pane: "streets",
      renderer,
      color: token(sheltered ? "--color-street-sheltered" : "--color-street"),
      weight: weight(feature.properties.highway, map.getZoom()) + (sheltered && !shelteredOnly() ? 1 : 0),
      opacity: faint() && !sheltered ? 0.35 : 0.9,
      stroke: sheltered || !shelteredOnly(),
      interactive: false,
    };
  };

  async function load() {
    const network = await getStreetNetwork();
    if (!network || map.getZoom() < minZoom) {
      layer?.remove();
      layer = null;
      if (network) map.getContainer().dataset.streetFeatures = "0";
      return;
    }
    // A map not laid out yet (in a hidden panel, a card not shown) has no area to ask for: it loads on "resize".
    const size = map.getSize();
    if (!size.x || !size.y) return;
    controller?.abort();
    controller = new AbortController();
    const box = map.getBounds().pad(0.2);
    try {
      const data = await api(`/api/streets/layer?bbox=${box.toBBoxString()}`, { signal: controller.signal });
      const next = L.geoJSON(data, { style, pane: "streets" });
      layer?.remove();
      layer = next.addTo(map);
      map.getContainer().dataset.streetFeatures = String(data.features.length);
      map.getContainer().dataset.shelteredFeatures = String(data.features.filter((f) => f.properties.sheltered).length);
      if (!attributed && !shelteredOnly()) {
        map.attributionControl.addAttribution("Streets &copy; OpenStreetMap contributors");
        attributed = true;
      }
    } catch (error) {
      if (error.name !== "AbortError") console.warn("Street layer unavailable:", error.message);
    }
  }

  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(load, 150);
  };
  map.on("moveend resize", schedule);
  load();

  return {
    /** Redraws with the current style (after tiles come or go). */
    refresh() { layer?.setStyle(style); },
    destroy() {
      clearTimeout(timer);
      controller?.abort();
      map.off("moveend resize", schedule);
      layer?.remove();
    },
  };
}
