// The trail map (Trailz 3.2.5): the trails of the visible area as lines coloured by difficulty (easy green,
// moderate yellow, hard orange) with trailhead icons, from `GET /api/trails?bbox=…` simplified for the zoom;
// holding a line two seconds opens its trail; holding an icon shows its coordinates; the search bar finds a
// trail (centres on its trailhead) or a city or place (centres there with its trails); Search for Trails lists
// up to 20 in view; the filter sheet narrows the lines and switches the overlays (scenic overlooks, waterfalls:
// the points of interest of the trails in view, kept on the device), whose icons show their name and trail on a
// tap; the Map Legend explains them.
/* global L */
import { h } from "../../../platform/dom.js";
import { api } from "../../../platform/api.js";
import { createBaseMap } from "../../../platform/map/base-map.js";
import { getSettings } from "../../../platform/settings.js";
import { openSheet } from "../../../platform/sheet.js";
import { formatDistance } from "../../../platform/units.js";
import { listTrails, mapTrails } from "../api.js";
import { openFilterSheet } from "../components/filter-sheet.js";
import { loadFilters, loadOverlays, saveFilters, saveOverlays } from "../filters.js";
import { onLongPress } from "../long-press.js";
import {
  difficultyColours, difficultyNames, filterCount, filterParams, overlayKinds, overlayOf, overlayPoints, poiKindNames,
} from "../trail-format.js";

export async function render(container, _params, query) {
  const state = { filters: loadFilters(), overlays: loadOverlays(), inView: [], left: false, generation: 0 };
  const mapElement = h("div", { class: "map" });
  const status = h("p", { class: "map-status notice", role: "status", hidden: true });
  const search = h("input", { id: "trail-map-search", type: "search", placeholder: "Trail, city or place", autocomplete: "off" });
  const filterButton = h("button", { class: "button button--small", type: "button", onclick: () => chooseFilters() }, "Filters");
  const bar = h("form", { class: "trail-map-bar", role: "search", onsubmit: (event) => { event.preventDefault(); find(search.value.trim()); } },
    h("label", { for: "trail-map-search", class: "visually-hidden" }, "Search the map"),
    search,
    h("button", { class: "button button--small", type: "submit" }, "Search"));
  const tools = h("div", { class: "trail-map-tools" },
    h("button", { class: "button button--small", type: "button", onclick: () => listInView() }, "Search for Trails"),
    filterButton,
    h("a", { class: "button button--small button--secondary", href: "#/trails/legend" }, "Legend"));
  container.append(h("section", { class: "map-screen trail-map-screen" }, mapElement, bar, tools, status));

  const lat = Number(query?.get("lat"));
  const lon = Number(query?.get("lon"));
  const view = Number.isFinite(lat) && Number.isFinite(lon) && query?.get("lat") ? { center: [lat, lon], zoom: 16 } : undefined;
  const { map, destroy } = await createBaseMap(mapElement, { label: "Trail map", view });
  const renderer = L.svg({ padding: 0.5 });
  const lines = L.layerGroup().addTo(map);
  const heads = L.layerGroup().addTo(map);
  const pois = L.layerGroup().addTo(map);
  if (view) L.circleMarker(view.center, { radius: 7, color: "#7b2cbf" }).addTo(map);

  function showFilterButton() {
    const count = filterCount(state.filters) + Object.values(state.overlays).filter(Boolean).length;
    filterButton.textContent = count ? `Filters (${count})` : "Filters";
  }

  function say(text) {
    status.textContent = text;
    status.hidden = !text;
  }

  // What loading the map's trails last said: it clears only that, so a search's answer stays when the map
  // moves to it and reloads.
  let loadMessage = "";
  function sayOnLoad(text) {
    if (text || status.textContent === loadMessage) say(text);
    loadMessage = text;
  }

  async function load() {
    const generation = ++state.generation;
    const filters = filterParams(state.filters, getSettings().distance);
    delete filters.radius_km;
    let collection;
    try {
      collection = await mapTrails({
        bbox: map.getBounds().toBBoxString(), zoom: map.getZoom(), limit: 300, pois: overlayKinds(state.overlays), ...filters,
      });
    } catch (error) {
      if (generation === state.generation) sayOnLoad(error.status === 422 ? "Zoom in to see trails." : error.message);
      return;
    }
    if (state.left || generation !== state.generation) return;
    sayOnLoad(collection.features.length ? "" : "No trails in this area.");
    state.inView = collection.features;
    // The same trails at the same zoom are left as drawn (a press in progress keeps its line).
    const drawn = `${map.getZoom()}|${collection.features.map((feature) => feature.id).sort().join(",")}|${JSON.stringify(state.filters)}|${overlayKinds(state.overlays)}`;
    if (drawn === state.drawn) {
      mapElement.dataset.trailsZoom = String(map.getZoom());
      return;
    }
    state.drawn = drawn;
    lines.clearLayers();
    heads.clearLayers();
    drawOverlays(collection.features);
    for (const feature of collection.features) {
      const { name, difficulty, trailhead } = feature.properties;
      const layer = L.geoJSON(feature, {
        renderer, style: { color: difficultyColours[difficulty], weight: 6, opacity: 0.9, className: `trail-line trail-line--${difficulty}` },
      }).addTo(lines);
      layer.eachLayer((path) => {
        const element = path.getElement?.();
        if (!element) return;
        element.setAttribute("aria-label", `${name}, ${difficultyNames[difficulty]}`);
        element.dataset.trail = feature.id;
        onLongPress(element, () => { location.hash = `#/trails/${feature.id}`; });
      });
      const marker = L.marker([trailhead[1], trailhead[0]], {
        icon: L.divIcon({ className: "trailhead-marker", html: "▲", iconSize: [44, 44] }),
        title: `Trailhead of ${name}`, alt: `Trailhead of ${name}`, keyboard: true,
      }).addTo(heads);
      marker.bindPopup(() => h("div", {},
        h("strong", {}, name), h("br"), `${difficultyNames[difficulty]} · ${formatDistance(feature.properties.length_meters)}`, h("br"),
        h("a", { href: `#/trails/${feature.id}` }, "Open trail")));
      const icon = marker.getElement();
      if (icon) {
        onLongPress(icon, () => {
          marker.closePopup();
          L.popup().setLatLng(marker.getLatLng())
            .setContent(`${trailhead[1].toFixed(5)}, ${trailhead[0].toFixed(5)}`).openOn(map);
        });
      }
    }
    if (collection.truncated) sayOnLoad("More trails are here than the map shows: zoom in.");
    mapElement.dataset.trailsZoom = String(map.getZoom());
  }

  /** The overlays' icons: a tap shows the name and opens its trail; holding one shows its coordinates. */
  function drawOverlays(features) {
    pois.clearLayers();
    for (const point of overlayPoints(features)) {
      const overlay = overlayOf(point.kind);
      if (!overlay) continue;
      const kindName = poiKindNames[point.kind] ?? overlay.legend;
      const marker = L.marker([point.lat, point.lon], {
        icon: L.divIcon({
          className: "poi-marker", html: `<span class="poi-icon poi-icon--${overlay.kinds[0]}">${overlay.icon}</span>`, iconSize: [44, 44],
        }),
        title: `${kindName}: ${point.name}`, alt: `${kindName}: ${point.name}`, keyboard: true, zIndexOffset: 500,
      }).addTo(pois);
      marker.bindPopup(() => h("div", { class: "poi-popup" },
        h("strong", {}, point.name), h("br"), `${kindName} on ${point.trail.name}`, h("br"),
        h("a", { href: `#/trails/${point.trail.id}` }, `Open ${point.trail.name}`)));
      const element = marker.getElement();
      if (element) {
        element.setAttribute("aria-label", `${kindName}: ${point.name}`);
        onLongPress(element, () => {
          marker.closePopup();
          L.popup().setLatLng(marker.getLatLng()).setContent(`${point.lat.toFixed(5)}, ${point.lon.toFixed(5)}`).openOn(map);
        });
      }
    }
  }

  let timer = null;
  const reload = () => {
    clearTimeout(timer);
    timer = setTimeout(load, 250);
  };
  map.on("moveend", () => {
    delete mapElement.dataset.trailsZoom;
    reload();
  });

  async function chooseFilters() {
    const chosen = await openFilterSheet(state.filters, { distance: false, overlays: state.overlays });
    if (!chosen) return;
    const { overlays, ...filters } = chosen;
    state.filters = filters;
    state.overlays = overlays;
    saveFilters(filters);
    saveOverlays(overlays);
    showFilterButton();
    load();
  }

  async function find(text) {
    if (!text) return;
    say("Searching…");
    try {
      const found = await listTrails({ q: text, limit: 20 });
      if (found.trails.length === 1 || found.trails[0]?.name.toLowerCase() === text.toLowerCase()) {
        const trail = found.trails[0];
        map.setView([trail.trailhead.lat, trail.trailhead.lon], 15);
        say(`${trail.name}: its trailhead is in the middle of the map.`);
        return;
      }
      if (found.trails.length) {
        map.fitBounds(L.latLngBounds(found.trails.map((trail) => [trail.trailhead.lat, trail.trailhead.lon])), { padding: [40, 40], maxZoom: 15 });
        say(`${found.total} trails for “${text}”.`);
        return;
      }
      const places = await api(`/api/streets/suggestions?q=${encodeURIComponent(text)}&limit=1`);
      const place = places.suggestions?.[0];
      if (!place) {
        say(`No trail or place called “${text}”.`);
        return;
      }
      map.setView([place.lat, place.lon], 14);
      say(`${place.text}: trails around it are shown.`);
    } catch (error) {
      say(error.status === 503 ? `No trail called “${text}”, and places cannot be searched on this server.` : error.message);
    }
  }

  function listInView() {
    const trails = state.inView.slice(0, 20);
    const sheet = openSheet({
      title: trails.length ? `Trails in view (${trails.length})` : "Trails in view",
      content: [trails.length
        ? h("ul", { class: "list" }, ...trails.map((feature) => h("li", {},
          h("a", { href: `#/trails/${feature.id}`, onclick: () => sheet.close() },
            `${feature.properties.name} — ${difficultyNames[feature.properties.difficulty]}, ${formatDistance(feature.properties.length_meters)}`))))
        : h("p", { class: "muted" }, "No trails in this area. Move or zoom the map.")],
    });
  }

  showFilterButton();
  await load();
  return () => {
    state.left = true;
    clearTimeout(timer);
    destroy();
  };
}
