// A trail's page data, kept on the device once opened (and for every favourite), so it opens offline.
import { offlineStore } from "../../platform/offline/store.js";
import { getTrail } from "./api.js";

export const trailStore = () => offlineStore("trails");

export function loadTrail(id) {
  return trailStore().load(`trail/${id}`, () => getTrail(id));
}
