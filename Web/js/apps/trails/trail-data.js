// A trail's page data, kept on the device once opened (and for every favourite), so it opens offline.
import { h } from "../../platform/dom.js";
import { offlineStore } from "../../platform/offline/store.js";
import { getTrail } from "./api.js";

export const trailStore = () => offlineStore("trails");

export function loadTrail(id) {
  return trailStore().load(`trail/${id}`, () => getTrail(id));
}

/** The trail's page data (`loadTrail`'s answer), or null after saying in `container` why there is none. */
export async function loadTrailPage(container, id) {
  try {
    return await loadTrail(id);
  } catch (error) {
    container.append(h("p", { class: "notice notice--error", role: "alert" },
      error.status === 0 ? "No connection, and this trail has not been opened on this device before." : error.message));
    return null;
  }
}
