// Friends on the map, `#/location/map`: the people sharing their location with the person, drawn as their
// profile pictures (or initials) where they last were, live as positions arrive and re-read every minute
// (components/people-layer.js). A tap shows the name and when that was; a position older than two minutes says
// the signal was lost.
/* global L */
import { accountNeededPanel, loadAccount } from "../../../platform/account.js";
import { h } from "../../../platform/dom.js";
import { createBaseMap } from "../../../platform/map/base-map.js";
import { createPeopleLayer, describePosition } from "../components/people-layer.js";

export async function render(container) {
  const account = await loadAccount();
  if (!account) {
    container.append(accountNeededPanel("see your friends on the map"));
    return;
  }
  const mapElement = h("div", { class: "map" });
  const status = h("p", { class: "map-status notice notice--info", role: "status" });
  container.append(h("section", { class: "map-screen" }, mapElement, status));
  const { map, destroy } = await createBaseMap(mapElement, { label: "Friends on the map" });
  let fitted = false;

  const layer = createPeopleLayer({
    map,
    onChange({ positions, waiting }) {
      const waitingNames = waiting.map((share) => share.person.name);
      status.textContent = positions.length || waitingNames.length
        ? [positions.map((p) => describePosition(p)).join("; "), waitingNames.length ? `Waiting for ${waitingNames.join(", ")}'s first position.` : ""].filter(Boolean).join(" ")
        : "Nobody shares their location with you right now.";
      if (!fitted && positions.length) {
        fitted = true;
        map.fitBounds(L.latLngBounds(positions.map((p) => [p.lat, p.lon])).pad(0.3), { maxZoom: 16 });
      }
    },
  });
  try {
    await layer.load();
  } catch (error) {
    status.textContent = error.message;
  }
  return () => {
    layer.destroy();
    destroy();
  };
}
