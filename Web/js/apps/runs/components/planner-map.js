// The planner's map: the area whose streets the planner knows (outlined, so a start outside it is no
// surprise), the start before a plan, then the plan's routes in their colours, one highlighted (tap one to
// select it). The Leaflet map is made on the first update after the element is in the page.
/* global L */
import { h } from "../../../platform/dom.js";
import { createBaseMap } from "../../../platform/map/base-map.js";
import { createRouteLayers, token } from "./route-layers.js";

/**
 * Creates the map; `onSelect(index)` runs when a route is tapped. Returns { element, update({ start, plan,
 * selected, extent }), centre(), destroy() }; `extent` is [west, south, east, north] of the known streets, or
 * null; `centre()` is { lat, lon } of the map's centre, or null before it exists.
 */
export function createPlannerMap({ label, onSelect }) {
  const element = h("div", { class: "run-map" });
  let base = null;
  let layers = null;
  let startMarker = null;
  let extentOutline = null;
  let drawnExtent = null;
  let wanted = { start: null, plan: null, selected: null };
  let drawn = { start: null, plan: null, selected: null };
  let destroyed = false;
  let making = null;

  const draw = () => {
    const { start, plan, selected, extent = null } = wanted;
    if (extent !== drawnExtent) {
      drawnExtent = extent;
      extentOutline?.remove();
      extentOutline = extent ? L.rectangle([[extent[1], extent[0]], [extent[3], extent[2]]], {
        color: token("--map-coverage"), weight: 2, dashArray: "6 6", fill: false, interactive: false,
      }).addTo(base.map) : null;
      extentOutline?.getElement()?.setAttribute("aria-label", "Area with streets the planner knows");
    }
    if (plan !== drawn.plan) {
      startMarker?.remove();
      startMarker = null;
      if (plan) layers.show(plan.routes, { start: plan.start, landmark: plan.landmark });
      else layers.clear();
      drawn = { ...drawn, plan, selected: null };
    }
    if (plan && selected !== drawn.selected && selected !== null) layers.select(selected);
    if (!plan && start !== drawn.start) {
      startMarker?.remove();
      startMarker = start ? L.circleMarker([start.lat, start.lon], {
        radius: 8, weight: 3, color: "#fff", fillColor: token("--color-primary"), fillOpacity: 1, interactive: false,
      }).addTo(base.map) : null;
      startMarker?.getElement()?.setAttribute("aria-label", `Start: ${start.label}`);
      if (start) base.map.setView([start.lat, start.lon], Math.max(base.map.getZoom(), 15));
    }
    drawn = { start, plan, selected };
  };

  return {
    element,
    update(next) {
      wanted = next;
      if (base) draw();
      else if (!making && element.isConnected) {
        making = createBaseMap(element, { label }).then((made) => {
          if (destroyed) {
            made.destroy();
            return;
          }
          base = made;
          layers = createRouteLayers(base.map, { onSelect });
          draw();
        });
      }
    },
    centre() {
      if (!base) return null;
      const centre = base.map.getCenter();
      return { lat: centre.lat, lon: centre.lng };
    },
    destroy() {
      destroyed = true;
      base?.destroy();
    },
  };
}
