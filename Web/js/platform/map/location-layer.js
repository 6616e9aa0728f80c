// The user's live position on a map: a dot that moves with them and a circle showing the fix's accuracy.
/* global L */

export function createLocationLayer(map) {
  let marker = null;
  let circle = null;
  let following = true;
  map.on("dragstart", () => { following = false; });

  return {
    /** Moves the dot to a fix from `watchLocation`. The first fix centres the map; later ones keep it in view while following. */
    update({ lat, lon, accuracy }) {
      const latLng = [lat, lon];
      if (!marker) {
        circle = L.circle(latLng, { radius: accuracy, weight: 1, color: "#1a73e8", fillOpacity: 0.12, interactive: false }).addTo(map);
        marker = L.marker(latLng, {
          icon: L.divIcon({ className: "location-dot", iconSize: [18, 18] }),
          keyboard: false,
          interactive: false,
          zIndexOffset: 1000,
        }).addTo(map);
        const element = marker.getElement();
        element.setAttribute("role", "img");
        element.setAttribute("aria-label", "Your location");
        map.setView(latLng, Math.max(map.getZoom(), 16));
      } else {
        marker.setLatLng(latLng);
        circle.setLatLng(latLng).setRadius(accuracy);
        if (following && !map.getBounds().pad(-0.2).contains(latLng)) map.panTo(latLng);
      }
      const element = marker.getElement();
      element.dataset.lat = lat.toFixed(6);
      element.dataset.lon = lon.toFixed(6);
      element.dataset.accuracy = Math.round(accuracy);
    },
    /** Centres the map on the last fix and follows again; false when there is none yet. */
    recenter() {
      if (!marker) return false;
      following = true;
      map.setView(marker.getLatLng(), Math.max(map.getZoom(), 16));
      return true;
    },
    get latLng() { return marker?.getLatLng() ?? null; },
  };
}
