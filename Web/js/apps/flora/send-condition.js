// Observations wait on the phone while the person chose "Wi-Fi only" and the phone says it is on a mobile
// network (Sync Status's setting); loaded at start-up by routes.js. When the phone changes networks (joins
// Wi-Fi), what waited goes at once rather than at the next retry.
import { outbox, registerSendCondition } from "../../platform/offline/outbox.js";
import { mayUploadNow } from "./sync-settings.js";

registerSendCondition("flora", () => mayUploadNow());
globalThis.navigator?.connection?.addEventListener?.("change", () => {
  if (mayUploadNow()) outbox.flush({ force: true });
});
