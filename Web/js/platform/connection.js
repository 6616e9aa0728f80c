// Whether Cairn can reach its server: the browser's online/offline events, corrected by what the last API
// request found (a phone can be "online" on a network that does not reach the server). The app-wide
// indicator and any screen read it; `api()` reports each request's outcome here.

let browserOnline = typeof navigator === "undefined" ? true : navigator.onLine;
let serverReached = true;
const listeners = new Set();

const notify = () => {
  for (const listener of listeners) listener(connectionState());
};

/** "online", "offline" (the device has no network) or "unreachable" (a network, but no answer from Cairn). */
export function connectionState() {
  if (!browserOnline) return "offline";
  return serverReached ? "online" : "unreachable";
}

/** Called by api() after each request: whether the server answered at all. */
export function reportServerReached(reached) {
  if (reached === serverReached) return;
  serverReached = reached;
  notify();
}

/** Calls `listener(state)` when the connection state changes; returns a function that stops it. */
export function onConnectionChange(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

if (typeof window !== "undefined") {
  window.addEventListener("online", () => {
    browserOnline = true;
    serverReached = true;
    notify();
  });
  window.addEventListener("offline", () => {
    browserOnline = false;
    notify();
  });
}
