// The activity on the move, kept on the device from Start until the server has it: a reload, a closed tab
// or a lost connection loses nothing (run-route-planner 6; Trailz 3.2.3). Also the activities a guest chose
// to save (sent at sign-up or login as `guest_data.activities`, adopted by the server's Activities module).
import { registerGuestData } from "../../platform/guest.js";
import { offlineStore } from "../../platform/offline/store.js";

const store = offlineStore("activities");

/** The activity in progress or waiting to be saved (one at a time per kind: "run", "hike"). */
export function currentActivity(kind) {
  const key = `current-${kind}`;
  return {
    get: async () => (await store.get(key))?.value ?? null,
    set: (value) => store.set(key, value),
    clear: () => store.delete(key),
  };
}

const guestKey = "guest-activities";

/** Keeps the body of an activity a guest saved, for the account to come. */
export async function keepGuestActivity(body) {
  const kept = (await store.get(guestKey))?.value ?? [];
  await store.set(guestKey, [...kept.filter((item) => item.id !== body.id), body]);
}

registerGuestData("activities", {
  async collect() {
    const kept = (await store.get(guestKey))?.value ?? [];
    return kept.length ? { activities: kept } : undefined;
  },
  clear: () => store.delete(guestKey),
});
