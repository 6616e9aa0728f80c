// When observations are uploaded: on any connection, or on Wi-Fi only where the browser says what the
// connection is (Network Information API; where it does not, every connection counts). Kept on the device.
const key = "cairn.flora.syncOn";

export const syncChoices = [
  { value: "any", label: "Any connection" },
  { value: "wifi", label: "Wi-Fi only" },
];

export function syncOn() {
  return localStorage.getItem(key) === "wifi" ? "wifi" : "any";
}

export function setSyncOn(value) {
  localStorage.setItem(key, value === "wifi" ? "wifi" : "any");
}

/** Whether uploads may go now under the setting: false on a connection the browser reports as not Wi-Fi. */
export function mayUploadNow(setting = syncOn(), connection = globalThis.navigator?.connection) {
  if (setting !== "wifi") return true;
  const type = connection?.type;
  if (!type || type === "unknown") return true;
  return type === "wifi" || type === "ethernet";
}
