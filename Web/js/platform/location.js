// Location permission and tracking (run-route-planner functional 3, non-functional 4).
// Before the browser's own prompt, a sheet says why Cairn needs the location and how it is used; on
// denial, a sheet says that location is needed and how to turn it on in the device settings. Once the
// person has read that sheet it is not shown again on its own, only when they ask for their location.
import { h } from "./dom.js";
import { openSheet } from "./sheet.js";

const dismissedKey = "cairn.location.notNow";
const deniedSeenKey = "cairn.location.deniedSeen";

/** The browser's current answer: "granted", "denied", "prompt" or "unsupported". */
export async function permissionState() {
  if (!("geolocation" in navigator)) return "unsupported";
  try {
    const status = await navigator.permissions.query({ name: "geolocation" });
    return status.state;
  } catch {
    return "prompt";
  }
}

/** Whether the user chose "Not now" in this session (so screens do not ask again unprompted). */
export function userDeferred() {
  return sessionStorage.getItem(dismissedKey) === "1";
}

/**
 * Makes sure location may be used, explaining first. Resolves to "granted", "denied", "dismissed" or
 * "unsupported". `force` asks again even after "Not now".
 */
export async function ensureLocationPermission({ force = false } = {}) {
  const state = await permissionState();
  if (state === "granted") {
    localStorage.removeItem(deniedSeenKey);
    return "granted";
  }
  if (state === "unsupported" || state === "denied") {
    if (force || localStorage.getItem(deniedSeenKey) !== "1") showDeniedSheet({ unsupported: state === "unsupported" });
    return state;
  }
  if (userDeferred() && !force) return "dismissed";
  const allowed = await showExplanationSheet();
  if (!allowed) {
    sessionStorage.setItem(dismissedKey, "1");
    return "dismissed";
  }
  sessionStorage.removeItem(dismissedKey);
  const outcome = await new Promise((resolve) => {
    navigator.geolocation.getCurrentPosition(
      () => resolve("granted"),
      (error) => resolve(error.code === error.PERMISSION_DENIED ? "denied" : "granted"),
      { enableHighAccuracy: true, timeout: 30000 },
    );
  });
  if (outcome === "denied") showDeniedSheet();
  return outcome;
}

/**
 * Follows the device's position. `onPosition` receives { lat, lon, accuracy, heading, speed, timestamp };
 * `onError` receives "denied", "unavailable" or "timeout". Returns a function that stops watching.
 */
export function watchLocation(onPosition, onError) {
  const id = navigator.geolocation.watchPosition(
    (position) => onPosition({
      lat: position.coords.latitude,
      lon: position.coords.longitude,
      accuracy: position.coords.accuracy,
      heading: position.coords.heading,
      speed: position.coords.speed,
      timestamp: position.timestamp,
    }),
    (error) => {
      if (error.code === error.PERMISSION_DENIED) {
        if (localStorage.getItem(deniedSeenKey) !== "1") showDeniedSheet();
        onError?.("denied");
      } else {
        onError?.(error.code === error.TIMEOUT ? "timeout" : "unavailable");
      }
    },
    { enableHighAccuracy: true, maximumAge: 5000, timeout: 60000 },
  );
  return () => navigator.geolocation.clearWatch(id);
}

function showExplanationSheet() {
  return new Promise((resolve) => {
    const sheet = openSheet({
      title: "Use your location?",
      content: [
        h("p", {}, "Cairn uses your location to:"),
        h("ul", {},
          h("li", {}, "show where you are on the map while you move;"),
          h("li", {}, "plan runs and hikes that start where you stand;"),
          h("li", {}, "guide you turn by turn and tell you when you leave the route;"),
          h("li", {}, "find parking, trails and mountains near you."),
        ),
        h("p", {}, "Your position is used on this device. It is sent to this Cairn server only when you plan a " +
          "route from it or choose to record an activity, and it is never shared with anyone else or sold."),
        h("p", { class: "muted small" }, "Next, your browser will ask for permission. You can change your mind at any time in your device settings."),
        h("div", { class: "button-row" },
          h("button", { class: "button", type: "button", onclick: () => sheet.close("allow") }, "Allow"),
          h("button", { class: "button button--secondary", type: "button", onclick: () => sheet.close() }, "Not now"),
        ),
      ],
      onClose: (result) => resolve(result === "allow"),
    });
  });
}

/** The sheet shown when location is blocked, with the way to turn it on. */
export function showDeniedSheet({ unsupported = false } = {}) {
  const sheet = openSheet({
    title: unsupported ? "Location is not available" : "Location access is needed",
    content: [
      h("p", {}, unsupported
        ? "This browser cannot share its location. The map, the run planner and navigation need it; try another browser or device."
        : "Cairn cannot see your location. The map, the run planner and navigation need it to show where you are."),
      unsupported ? null : h("div", {},
        h("p", {}, "To turn it on in your device settings:"),
        h("ul", {},
          h("li", {}, "iPhone or iPad: Settings › Privacy & Security › Location Services › your browser › While Using the App."),
          h("li", {}, "Android: Settings › Location › App location permissions › your browser › Allow; then tap the lock icon beside the address › Permissions › Location › Allow."),
          h("li", {}, "Computer: click the lock icon left of the address bar › Location › Allow."),
        ),
        h("p", {}, "Then come back and reload this page. Until then, you can type an address wherever Cairn asks for a place."),
      ),
      h("div", { class: "button-row" },
        h("button", { class: "button", type: "button", onclick: () => sheet.close() }, "OK"),
      ),
    ],
    onClose: () => localStorage.setItem(deniedSeenKey, "1"),
  });
}
