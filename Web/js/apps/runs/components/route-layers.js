// Planned loops on a Leaflet map (run-route-planner 5.4, 5.4.1, 5.7): each route in its own colour, its
// sheltered stretches as white dashes on top (not the map's own green of sheltered ways, which they would
// vanish into), the start and the landmark marked. One route is highlighted at a time: drawn wide and in
// front, the others thin and pale. Tapping a route selects it.
/* global L */

/** A design token's value (Leaflet needs real colours, not CSS variables). */
export function token(name) {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
}

/** The colour of the route at `index` in a plan: --color-route-1…3. */
export function routeColour(index) {
  return token(`--color-route-${(index % 3) + 1}`);
}

/** [lon, lat] positions (GeoJSON) as Leaflet [lat, lon] pairs. */
export function latLngs(positions) {
  return positions.map(([lon, lat]) => [lat, lon]);
}

/**
 * Layers for routes on `map`. `onSelect(index)` runs when a route is tapped on the map.
 * Returns { show(routes, { start, landmark }), select(index), clear() }.
 */
export function createRouteLayers(map, { onSelect = () => {} } = {}) {
  const group = L.layerGroup().addTo(map);
  let drawn = [];

  const style = (index, selected) => {
    const faded = selected !== null && index !== selected;
    return {
      route: { color: routeColour(index), weight: faded ? 4 : 8, opacity: faded ? 0.35 : 0.95 },
      sheltered: {
        color: token("--color-route-sheltered"), weight: faded ? 2 : 3, opacity: faded ? 0.4 : 1, dashArray: "2 8", lineCap: "round",
      },
    };
  };

  return {
    show(routes, { start = null, landmark = null } = {}) {
      group.clearLayers();
      drawn = routes.map((route, index) => {
        const colours = style(index, null);
        const line = L.polyline(latLngs(route.geometry.coordinates), { ...colours.route, lineJoin: "round" });
        // Leaflet cannot restyle an empty polyline, so a route without shelter gets no sheltered layer.
        const segments = route.sheltered_segments.coordinates;
        const sheltered = segments.length ? L.polyline(segments.map(latLngs), { ...colours.sheltered, lineJoin: "round" }) : null;
        for (const layer of [line, sheltered].filter(Boolean)) {
          layer.on("click", () => onSelect(index));
          layer.addTo(group);
        }
        const path = line.getElement?.();
        path?.setAttribute("aria-label", `Route ${index + 1}`);
        path?.setAttribute("data-route", String(index + 1));
        return { line, sheltered };
      });
      if (start) {
        L.circleMarker([start.lat, start.lon], {
          radius: 8, weight: 3, color: "#fff", fillColor: token("--color-primary"), fillOpacity: 1, interactive: false,
        }).addTo(group).bindTooltip("Start and finish");
      }
      if (landmark) {
        L.circleMarker([landmark.lat, landmark.lon], {
          radius: 7, weight: 3, color: token("--color-accent"), fillColor: "#fff", fillOpacity: 1,
        }).addTo(group).bindTooltip(landmark.name);
      }
      const bounds = L.featureGroup(drawn.map((d) => d.line)).getBounds();
      if (bounds.isValid()) map.fitBounds(bounds, { padding: [16, 16] });
    },
    select(index) {
      drawn.forEach(({ line, sheltered }, i) => {
        const colours = style(i, index);
        line.setStyle(colours.route);
        sheltered?.setStyle(colours.sheltered);
      });
      drawn[index]?.line.bringToFront();
      drawn[index]?.sheltered?.bringToFront();
    },
    clear() {
      group.clearLayers();
      drawn = [];
    },
  };
}
