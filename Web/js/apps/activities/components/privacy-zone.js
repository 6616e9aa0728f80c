// The privacy zone around home: tracks and route images anyone but their owner sees start and end outside
// it (docs/activities.md). Home is the device's position when the person sets it.
import { api } from "../../../platform/api.js";
import { h } from "../../../platform/dom.js";
import { ensureLocationPermission } from "../../../platform/location.js";
import { formatDistance } from "../../../platform/units.js";

const radii = [0, 200, 500, 1000, 2000];

/** Returns { element, destroy }; loads the zone and saves changes itself. */
export function createPrivacyZone() {
  const status = h("p", { class: "small", role: "status" }, "Loading…");
  const select = h("select", { id: "privacy-radius" }, radii.map((r) => h("option", { value: String(r) }, r ? formatDistance(r) : "Off")));
  const error = h("p", { class: "notice notice--error", role: "alert", hidden: true });
  const saveButton = h("button", { class: "button button--secondary", type: "button", onclick: save }, "Save privacy zone");
  const element = h("section", { class: "privacy-zone", "aria-labelledby": "privacy-zone-title" },
    h("h3", { id: "privacy-zone-title" }, "Privacy zone"),
    h("p", { class: "muted small" }, "If you share an activity later, its track starts and ends outside this distance around your home. Home is where you are when you save."),
    status,
    h("div", { class: "field" }, h("label", { for: "privacy-radius" }, "Hide around home"), select),
    saveButton, error);
  let zone = null;

  api("/api/activities/privacy").then((answer) => show(answer)).catch((failure) => { status.textContent = failure.message; });

  function show(answer) {
    zone = answer;
    select.value = String(radii.includes(answer.radius_m) ? answer.radius_m : 0);
    status.textContent = answer.radius_m ? `On: ${formatDistance(answer.radius_m)} around your home.` : "Off: your tracks are shown whole.";
  }

  async function save() {
    error.hidden = true;
    const radius = Number(select.value);
    let home = zone?.home ?? null;
    if (radius > 0) {
      if ((await ensureLocationPermission({ force: true })) !== "granted") {
        error.hidden = false;
        error.textContent = "Your location is needed to set where home is.";
        return;
      }
      home = await new Promise((resolve) => navigator.geolocation.getCurrentPosition(
        (position) => resolve({ lat: position.coords.latitude, lon: position.coords.longitude }), () => resolve(null),
        { enableHighAccuracy: true, timeout: 15000 }));
      if (!home) {
        error.hidden = false;
        error.textContent = "Your location cannot be found right now: try again outdoors.";
        return;
      }
    }
    try {
      show(await api("/api/activities/privacy", { method: "PUT", body: { home: radius ? home : null, radius_m: radius } }));
    } catch (failure) {
      error.hidden = false;
      error.textContent = failure.message;
    }
  }

  return { element, update() {}, destroy() {} };
}
