// The app's one outbox: writes made on this device wait in IndexedDB until the server has them, so nothing
// is lost offline or by a reload. Each is sent with its client-made id as the Idempotency-Key (the server
// applies it once, however often it arrives), retried with backoff, when the connection comes back, when
// the app opens, and when the person asks. See docs/architecture.md ("Offline") and outbox-core.js.
import { accountIdHash } from "../account.js";
import { api } from "../api.js";
import { idbStore } from "./idb.js";
import { createOutbox } from "./outbox-core.js";

/** Per app, whether its writes may go now (the field guide's "Wi-Fi only"); apps without one always may. */
const sendConditions = new Map();

/** Holds `app`'s writes back while `mayGo()` is false; they go at the next flush after it turns true. */
export function registerSendCondition(app, mayGo) {
  sendConditions.set(app, mayGo);
}

export const outbox = createOutbox({
  store: idbStore("outbox"),
  send: (item) => api(item.request.path, {
    method: item.request.method,
    body: item.request.body,
    headers: { "Idempotency-Key": `"${item.id}"` },
  }),
  // A write goes to the account that made it, never to whoever is signed in later on this device.
  canSend: async (item) => item.owner === (await accountIdHash()) && (sendConditions.get(item.app)?.() ?? true),
  exclusive: (work) => (navigator.locks ? navigator.locks.request("cairn-outbox", work) : work()),
});

/** Queues a write of the signed-in person (see createOutbox's enqueue); it is sent only while they are signed in. */
export async function queueWrite({ app, kind, label, request }) {
  return outbox.enqueue({ app, kind, label, owner: await accountIdHash(), request });
}
