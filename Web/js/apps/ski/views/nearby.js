// Nearby (GoSki UC4, UC5, functionality 1): the skier's position and the mountains around it on a map, and the
// same mountains as a list sorted by distance or by adult day ticket price (each increasing; mountains with no
// known price last, saying so). Each row and each marker opens the mountain's page.
/* global L */
import { h } from "../../../platform/dom.js";
import { createBaseMap } from "../../../platform/map/base-map.js";
import { formatDistance } from "../../../platform/units.js";
import { listMountains } from "../api.js";
import { createMountainList } from "../components/mountain-list.js";
import { formatPrice } from "../format.js";
import { currentPosition } from "../position.js";

const sortKey = "cairn.ski.nearbySort";

export async function render(container) {
  const state = { sort: sessionStorage.getItem(sortKey) === "price" ? "price" : "distance", position: null, mountains: [], left: false };
  const status = h("p", { class: "muted small ski-status", role: "status" }, "Finding where you are…");
  const mapElement = h("div", { class: "map ski-nearby-map" });
  const list = createMountainList("Nearby mountains");
  const sortButtons = ["distance", "price"].map((key) => h("button", {
    class: "segmented__option", type: "button", "aria-pressed": String(state.sort === key),
    onclick: () => choose(key),
  }, key === "distance" ? "Distance" : "Price"));
  const retry = h("button", { class: "button", type: "button", hidden: true, onclick: () => locate() }, "Use my location");
  container.append(
    h("section", { "aria-label": "Map of nearby mountains" }, mapElement),
    h("div", { class: "ski-sort", role: "group", "aria-label": "Sort by" }, h("span", { class: "ski-sort__label" }, "Sort by"), ...sortButtons),
    status, retry,
    h("p", { class: "muted small" }, "Not near the snow? ", h("a", { href: "#/ski/search" }, "Search mountains by name")),
    list.element);

  const { map, destroy } = await createBaseMap(mapElement, { label: "Nearby mountains map", view: { center: [46.5, 8], zoom: 4 } });
  const markers = L.layerGroup().addTo(map);
  const me = L.layerGroup().addTo(map);

  function choose(key) {
    state.sort = key;
    sessionStorage.setItem(sortKey, key);
    sortButtons.forEach((button, index) => button.setAttribute("aria-pressed", String(["distance", "price"][index] === key)));
    load();
  }

  function draw() {
    markers.clearLayers();
    me.clearLayers();
    const { lat, lon } = state.position;
    L.circleMarker([lat, lon], { radius: 9, color: "#fff", weight: 3, fillColor: "var(--color-location)", fillOpacity: 1, className: "ski-me" })
      .bindTooltip("You are here").addTo(me);
    const points = [[lat, lon]];
    for (const mountain of state.mountains) {
      const marker = L.marker([mountain.lat, mountain.lon], {
        title: mountain.name, alt: mountain.name, keyboard: true,
        icon: L.divIcon({ className: "ski-marker", html: "<span aria-hidden=\"true\">▲</span>", iconSize: [44, 44], iconAnchor: [22, 36] }),
      });
      marker.bindPopup(() => h("div", {},
        h("strong", {}, mountain.name), h("br"),
        `${formatDistance(mountain.distance_m)} away · ${mountain.price ? formatPrice(mountain.price) : "No price known"}`, h("br"),
        h("a", { href: `#/ski/mountains/${mountain.id}` }, "Open the mountain")));
      marker.addTo(markers);
      points.push([mountain.lat, mountain.lon]);
    }
    mapElement.dataset.mountains = String(state.mountains.length);
    if (points.length > 1) map.fitBounds(points, { padding: [24, 24], maxZoom: 11 });
    else map.setView([lat, lon], 9);
  }

  async function load() {
    if (!state.position) return;
    status.textContent = "Loading nearby mountains…";
    try {
      const answer = await listMountains({ near: `${state.position.lat.toFixed(5)},${state.position.lon.toFixed(5)}`, sort: state.sort, limit: 50 });
      if (state.left) return;
      state.mountains = answer.mountains;
      list.update(answer.mountains);
      const unpriced = answer.mountains.filter((mountain) => !mountain.price).length;
      status.textContent = answer.mountains.length
        ? `${answer.mountains.length === 1 ? "1 mountain" : `${answer.mountains.length} mountains`} near you, by ${state.sort === "price" ? "adult day ticket price, cheapest first" : "distance, nearest first"}.`
          + (state.sort === "price" && unpriced ? ` ${unpriced === 1 ? "1 has" : `${unpriced} have`} no known price and ${unpriced === 1 ? "comes" : "come"} last.` : "")
        : "No ski mountain within 300 km of you. Search by name to find one further away.";
      draw();
    } catch (error) {
      status.textContent = error.status === 0 ? "No connection: nearby mountains cannot be loaded." : error.message;
    }
  }

  async function locate() {
    retry.hidden = true;
    status.textContent = "Finding where you are…";
    const position = await currentPosition({ ask: true });
    if (state.left) return;
    if (!position) {
      status.textContent = "Nearby needs your location. Allow location for this site, or search mountains by name.";
      retry.hidden = false;
      return;
    }
    state.position = position;
    load();
  }

  locate();
  return () => {
    state.left = true;
    destroy();
  };
}
