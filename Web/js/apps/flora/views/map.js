// A species' distribution map (niwot-field-guide 4): its sightings as pins, blue when a researcher verified
// them and red when not; tapping a pin draws a straight line from where the person stands and gives the
// distance, and the photo once they are within range. The map's data is kept on the device for the ridge
// and refreshed whenever there is a connection.
/* global L */
import { h } from "../../../platform/dom.js";
import { ensureLocationPermission, watchLocation } from "../../../platform/location.js";
import { createBaseMap } from "../../../platform/map/base-map.js";
import { offlineStore } from "../../../platform/offline/store.js";
import { formatDistance } from "../../../platform/units.js";
import { getSpeciesMap } from "../api.js";
import { speciesEntry } from "../catalogue.js";

const colours = { verified: "#1d4ed8", unverified: "#dc2626" };
/** Niwot Ridge's Saddle, where the map opens when a species has no sightings. */
const niwot = { center: [40.0552, -105.5905], zoom: 14 };

export async function render(container, params) {
  const state = { me: null, chosen: null, data: null, left: false };
  const found = await speciesEntry(params.id).catch(() => undefined);
  const name = found?.entry.species.common_name ?? "this plant";
  const status = h("p", { class: "muted small", role: "status" }, "Loading sightings…");
  const detail = h("div", { class: "flora-pin", "aria-live": "polite" });
  const mapElement = h("div", { class: "run-map flora-map" });
  container.append(
    h("h2", {}, `Sightings of ${name}`),
    h("p", { class: "map-legend" },
      h("span", { class: "flora-dot flora-dot--verified" }), " Verified  ",
      h("span", { class: "flora-dot flora-dot--unverified" }), " Not verified yet"),
    mapElement, status, detail);
  const { map, destroy } = await createBaseMap(mapElement, { label: `Map of sightings of ${name}`, view: niwot });
  const pins = L.layerGroup().addTo(map);
  const line = L.polyline([], { color: "#111827", weight: 3, dashArray: "6 6" }).addTo(map);
  let meMarker = null;

  function drawDetail() {
    if (!state.chosen) {
      detail.replaceChildren(h("p", { class: "muted" }, "Tap a pin to see how far it is."));
      line.setLatLngs([]);
      return;
    }
    const { properties, lat, lon } = state.chosen;
    const range = state.data?.photo_range_m ?? 0;
    const distance = state.me ? L.latLng(state.me.lat, state.me.lon).distanceTo([lat, lon]) : null;
    line.setLatLngs(state.me ? [[state.me.lat, state.me.lon], [lat, lon]] : []);
    const photo = properties.thumbnail_url && distance !== null && distance <= range;
    detail.replaceChildren(...[
      h("p", {}, h("strong", {}, properties.verified ? "Verified sighting" : "Sighting not verified yet"),
        ` · ${new Date(properties.observed_at).toLocaleDateString()} · ${properties.recorded_by}`),
      h("p", {}, distance === null
        ? "Your position is not known yet, so no distance."
        : `${formatDistance(distance)} from you in a straight line.`),
      properties.generalised ? h("p", { class: "muted small" }, "Generalised place (sensitive species).") : null,
      photo ? h("img", { class: "flora-preview", src: properties.thumbnail_url, alt: `Photo of this sighting of ${name}` })
        : properties.thumbnail_url ? h("p", { class: "muted small" }, `The photo shows within ${formatDistance(range)} of the plant.`) : null,
    ].filter(Boolean));
  }

  function drawPins() {
    pins.clearLayers();
    const features = state.data?.features ?? [];
    for (const feature of features) {
      const [lon, lat] = feature.geometry.coordinates;
      const colour = feature.properties.verified ? colours.verified : colours.unverified;
      const marker = L.circleMarker([lat, lon], { radius: 9, color: "#fff", weight: 2, fillColor: colour, fillOpacity: 1 });
      marker.on("click", () => {
        state.chosen = { properties: feature.properties, lat, lon };
        drawDetail();
      });
      marker.bindTooltip(feature.properties.verified ? "Verified sighting" : "Unverified sighting");
      marker.addTo(pins);
      const path = marker.getElement?.();
      if (path) {
        path.setAttribute("role", "button");
        path.setAttribute("aria-label", `${feature.properties.verified ? "Verified" : "Unverified"} sighting of ${new Date(feature.properties.observed_at).toLocaleDateString()}`);
        path.dataset.status = feature.properties.status;
      }
    }
    if (features.length) {
      map.fitBounds(L.latLngBounds(features.map((f) => [f.geometry.coordinates[1], f.geometry.coordinates[0]])), { padding: [24, 24], maxZoom: 16 });
    }
  }

  try {
    const { value, offline, savedAt } = await offlineStore("flora").load(`map/${params.id}`, () => getSpeciesMap(params.id));
    if (state.left) return destroy;
    state.data = value;
    const count = value.features.length;
    status.textContent = `${count} ${count === 1 ? "sighting" : "sightings"}` +
      (offline ? `, as downloaded on ${new Date(savedAt).toLocaleDateString()} (no connection).` : ".");
    drawPins();
  } catch (error) {
    status.textContent = error.status === 0
      ? "This map has not been downloaded yet; open it once with a connection to have it on the ridge."
      : error.message;
  }
  drawDetail();

  let stopWatching = null;
  ensureLocationPermission().then((permission) => {
    if (permission !== "granted" || state.left) return;
    stopWatching = watchLocation((fix) => {
      state.me = fix;
      if (!meMarker) meMarker = L.circleMarker([fix.lat, fix.lon], { radius: 7, color: "#fff", weight: 2, fillColor: "#111827", fillOpacity: 1 }).addTo(map);
      else meMarker.setLatLng([fix.lat, fix.lon]);
      drawDetail();
    });
  });

  return () => {
    state.left = true;
    stopWatching?.();
    destroy();
  };
}
