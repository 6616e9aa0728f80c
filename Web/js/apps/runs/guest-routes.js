// Routes a guest chose to save: kept on the device until they sign up or log in, then sent with
// `guest_data.runs` (platform/guest.js) and adopted by the server's Runs module into their planned routes.
import { registerGuestData } from "../../platform/guest.js";
import { offlineStore } from "../../platform/offline/store.js";

const store = offlineStore("runs");
const key = "guest-planned-runs";

/** Keeps the body of a planned route (see plannedRunBody) for the account the guest is about to have. */
export async function keepGuestRoute(body) {
  const kept = (await store.get(key))?.value ?? [];
  await store.set(key, [...kept, body]);
}

registerGuestData("runs", {
  async collect() {
    const kept = (await store.get(key))?.value ?? [];
    return kept.length ? { planned_runs: kept } : undefined;
  },
  clear: () => store.delete(key),
});
