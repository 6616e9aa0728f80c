// Observations wait on the phone while the person chose "Wi-Fi only" and the phone says it is on a mobile
// network (Sync Status's setting); loaded at start-up by routes.js.
import { registerSendCondition } from "../../platform/offline/outbox.js";
import { mayUploadNow } from "./sync-settings.js";

registerSendCondition("flora", () => mayUploadNow());
