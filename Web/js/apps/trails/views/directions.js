// Directions to a trail (Trailz 3.2.5.11): hand-off to the phone's maps app or the web with the trailhead, and
// the walking route from where the person is to the trailhead on this Cairn's street network
// (`GET /api/streets/route`), drawn on a map with its distance and time — or why none can be shown.
/* global L */
import { h } from "../../../platform/dom.js";
import { ensureLocationPermission, permissionState } from "../../../platform/location.js";
import { createBaseMap } from "../../../platform/map/base-map.js";
import { formatDistance } from "../../../platform/units.js";
import { walkingRoute } from "../api.js";
import { knownPosition } from "../position.js";
import { loadTrailPage } from "../trail-data.js";
import { straightMeters, walkingMinutes, walkRefusal } from "../trail-format.js";

export async function render(container, params) {
  const trail = (await loadTrailPage(container, params.id))?.value;
  if (!trail) return;
  const summary = trail.summary;
  const trailhead = { lat: summary.trailhead.lat, lon: summary.trailhead.lon };
  const { lat, lon } = trailhead;
  const state = { left: false, generation: 0 };
  const status = h("p", { class: "trail-walk", role: "status" }, "Finding where you are…");
  const locate = h("button", { class: "button button--secondary", type: "button", hidden: true, onclick: () => show({ ask: true }) }, "Use my location");
  const mapElement = h("div", { class: "walk-map" });

  container.append(
    h("p", {}, h("a", { href: `#/trails/${summary.id}` }, summary.name)),
    h("section", { "aria-labelledby": "handoff-title" },
      h("h2", { id: "handoff-title" }, "To the trailhead"),
      h("p", { class: "muted" }, `Trailhead: ${lat.toFixed(5)}, ${lon.toFixed(5)}`),
      h("div", { class: "button-row" },
        h("a", { class: "button", href: `geo:${lat},${lon}?q=${lat},${lon}(${encodeURIComponent(summary.name)})` }, "Open in your maps app"),
        h("a", { class: "button button--secondary", href: `https://www.openstreetmap.org/directions?to=${lat}%2C${lon}`, target: "_blank", rel: "noopener" }, "Directions on the web"))),
    h("section", { "aria-labelledby": "walk-title" },
      h("h2", { id: "walk-title" }, "Walking route"),
      status, locate, mapElement));

  const { map, destroy } = await createBaseMap(mapElement, { label: `Walking route to ${summary.name}`, view: { center: [lat, lon], zoom: 15 } });
  const walkLayer = L.layerGroup().addTo(map);
  L.circleMarker([lat, lon], { radius: 8, color: "#1b4332", fillColor: "#fff", fillOpacity: 1, weight: 3 })
    .bindTooltip("Trailhead").addTo(map);

  async function show({ ask = false } = {}) {
    const generation = ++state.generation;
    locate.hidden = true;
    walkLayer.clearLayers();
    delete mapElement.dataset.walk;
    if (ask) await ensureLocationPermission({ force: true });
    const permission = await permissionState();
    const here = permission === "granted" ? await knownPosition() : null;
    if (state.left || generation !== state.generation) return;
    if (!here) {
      status.textContent = permission === "denied"
        ? "Your position is unknown: location is blocked for this site, so no walking route can be drawn. Allow it in your browser's settings, or use your maps app."
        : "Your position is unknown, so no walking route can be drawn. Use my location to see it, or use your maps app.";
      locate.hidden = permission === "denied" || permission === "unsupported";
      return;
    }
    L.circleMarker([here.lat, here.lon], { radius: 7, color: "#fff", fillColor: "#1d4ed8", fillOpacity: 1, weight: 2 })
      .bindTooltip("You").addTo(walkLayer);
    status.textContent = "Finding a walking route to the trailhead…";
    try {
      const route = await walkingRoute(here, trailhead);
      if (state.left || generation !== state.generation) return;
      L.geoJSON(route.geometry, { style: () => ({ color: "#1d4ed8", weight: 5, opacity: 0.85, className: "walk-line" }) }).addTo(walkLayer);
      map.fitBounds(L.latLngBounds([[here.lat, here.lon], [lat, lon], ...route.geometry.coordinates.map(([x, y]) => [y, x])]),
        { padding: [30, 30], maxZoom: 17 });
      status.textContent = `Walking route to the trailhead: ${formatDistance(route.length_m)}, about ${walkingMinutes(route.length_m)} min.`;
      mapElement.dataset.walk = "shown";
    } catch (error) {
      if (state.left || generation !== state.generation) return;
      const reason = walkRefusal(error.status, error.fieldErrors ?? {}) ?? `No walking route: ${error.message}`;
      status.textContent = `${reason} The trailhead is ${formatDistance(straightMeters(here, trailhead))} away in a straight line.`;
      map.fitBounds(L.latLngBounds([[here.lat, here.lon], [lat, lon]]), { padding: [30, 30], maxZoom: 16 });
      mapElement.dataset.walk = "none";
    }
  }

  await show();
  return () => {
    state.left = true;
    destroy();
  };
}
