// Location permission and tracking (run-route-planner functional 3, non-functional 4).
// Before the browser's own prompt, a sheet says why Cairn needs the location and how it is used; on
// denial, a sheet says that location is needed and how to turn it on in the device settings.
import { h } from "./dom.js";

const dismissedKey = "cairn.location.notNow";

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
  if (state === "granted") return "granted";
  if (state === "unsupported") {
    showDeniedSheet({ unsupported: true });
    return "unsupported";
  }
  if (state === "denied") {
    showDeniedSheet();
    return "denied";
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
        showDeniedSheet();
        onError?.("denied");
      } else {
        onError?.(error.code === error.TIMEOUT ? "timeout" : "unavailable");
      }
    },
    { enableHighAccuracy: true, maximumAge: 5000, timeout: 60000 },
  );
  return () => navigator.geolocation.clearWatch(id);
}

function openSheet(labelId, content) {
  document.querySelector(".overlay[data-sheet]")?.remove();
  const previousFocus = document.activeElement;
  const sheet = h("div", { class: "sheet", role: "dialog", "aria-modal": "true", "aria-labelledby": labelId }, content);
  const overlay = h("div", { class: "overlay", "data-sheet": labelId }, sheet);
  document.body.append(overlay);
  const close = () => {
    overlay.remove();
    previousFocus?.focus?.();
  };
  overlay.addEventListener("keydown", (event) => {
    if (event.key === "Escape") overlay.dispatchEvent(new CustomEvent("dismiss"));
  });
  requestAnimationFrame(() => sheet.querySelector("button")?.focus());
  return { overlay, close };
}

function showExplanationSheet() {
  return new Promise((resolve) => {
    const finish = (allowed) => {
      close();
      resolve(allowed);
    };
    const { overlay, close } = openSheet("location-why-title", [
      h("h2", { id: "location-why-title" }, "Use your location?"),
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
        h("button", { class: "button", type: "button", onclick: () => finish(true) }, "Allow"),
        h("button", { class: "button button--secondary", type: "button", onclick: () => finish(false) }, "Not now"),
      ),
    ]);
    overlay.addEventListener("dismiss", () => finish(false));
  });
}

/** The sheet shown when location is blocked, with the way to turn it on. */
export function showDeniedSheet({ unsupported = false } = {}) {
  const { overlay, close } = openSheet("location-denied-title", [
    h("h2", { id: "location-denied-title" }, unsupported ? "Location is not available" : "Location access is needed"),
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
      h("p", {}, "Then come back and reload this page."),
    ),
    h("div", { class: "button-row" },
      h("button", { class: "button", type: "button", onclick: () => close() }, "OK"),
    ),
  ]);
  overlay.addEventListener("dismiss", close);
}
