// The route a runner chose to follow next, handed from the app that planned it (Runs) to the app that follows
// it (Activities), kept on the device until Start: { name, geometry, length_m, prepared? }.
import { offlineStore } from "./offline/store.js";

const store = offlineStore("activities");

export const nextRun = {
  get: async () => (await store.get("next-run"))?.value ?? null,
  set: (value) => store.set("next-run", value),
  clear: () => store.delete("next-run"),
};
