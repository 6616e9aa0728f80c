// Guest mode: what a guest does stays on this device until they sign up or log in, then joins the account.
//
// A module that keeps guest data registers a collector under its module key (the same key its server
// module reads in `CairnModule.adoptGuestData`):
//
//   registerGuestData("runs", { collect: () => savedRuns(), clear: () => forgetSavedRuns() });
//
// On sign-up and login the app sends `{ "runs": <collect()> }` as `guest_data`; once the server has
// accepted it, `clear()` runs so nothing is sent twice.

const collectors = new Map();

export function registerGuestData(key, { collect, clear = () => {} }) {
  collectors.set(key, { collect, clear });
}

/** Everything guests left on this device, by module key (modules with nothing to send are left out). */
export async function collectGuestData() {
  const data = {};
  for (const [key, { collect }] of collectors) {
    try {
      const value = await collect();
      if (value !== undefined && value !== null) data[key] = value;
    } catch (error) {
      console.warn("guest data", key, error);
    }
  }
  return data;
}

/** Called once the server has taken the guest data over. */
export async function clearGuestData() {
  for (const { clear } of collectors.values()) await clear();
}
