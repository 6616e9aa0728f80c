// The run planner (run-route-planner 4, 5, 8.3.1): a start (current location or an address), a distance of
// 1–30 km, an optional landmark among those a loop of that distance can pass, shelter-optimised or
// standard; then three loops on the map in their colours with sheltered stretches in another, a legend,
// and cards to select one and keep it in the user's planned routes. `#/runs?sheltered=1` opens in shelter
// mode (Home's rain banner links there); this screen's own rain banner switches the toggle in one tap.
import { handleSignInRequired, requireAccount } from "../../../platform/account.js";
/* global L */
import { h, icon } from "../../../platform/dom.js";
import { clearErrors, field, form, setFieldError, showError, submit } from "../../../platform/forms.js";
import { ensureLocationPermission, permissionState } from "../../../platform/location.js";
import { createBaseMap } from "../../../platform/map/base-map.js";
import { createAddressField } from "../components/address-field.js";
import { createRouteLayers, routeColour, token } from "../components/route-layers.js";
import {
  distanceMessage, formatLength, formatShare, parseDistance, planRuns, savePlannedRun, validLandmarks,
} from "../api.js";
import { createRainBanner } from "../../../platform/weather/rain-banner.js";

const locateIcon = "M12 2v4 M12 18v4 M2 12h4 M18 12h4 M12 8a4 4 0 1 0 0.01 0";

export async function render(container) {
  const query = new URLSearchParams(location.hash.split("?")[1] ?? "");
  const state = { start: null, plan: null, selected: null, saved: new Map(), seed: 0, left: false };
  let landmarkRequest = null;
  let landmarkTimer = null;
  // The map is created once the screen is in the page; a start chosen before then is drawn when it is.
  let mapReady = false;

  const banner = createRainBanner({
    actionLabel: "Use a sheltered route",
    onChoose: () => {
      setSheltered(true);
      if (state.plan) planForm.requestSubmit();
    },
  });

  // Start: current location or an address.
  const address = createAddressField({
    name: "start", label: "Start", placeholder: "Type an address or a place",
    hint: "Use your location, or type an address and choose a suggestion.",
    near: () => state.start ?? mapCentre(),
    onChoose: (place) => setStart({ lat: place.lat, lon: place.lon, label: place.text }),
  });
  const locateButton = h("button", { class: "button button--secondary", type: "button", onclick: () => useMyLocation() },
    icon(locateIcon), "Use my location");
  address.element.insertBefore(h("div", { class: "button-row run-start__locate" }, locateButton), address.element.querySelector(".field-hint"));

  const distance = field("distance_km", "Distance (km)", { inputmode: "decimal", hint: "From 1 to 30 km.", autocomplete: "off" });
  const distanceInput = distance.querySelector("input");

  const landmarkSelect = h("select", { id: "run-landmark", name: "landmark_id", "aria-describedby": "run-landmark-hint run-landmark-error" },
    h("option", { value: "" }, "No landmark"));
  const landmarkHint = h("p", { class: "field-hint", id: "run-landmark-hint" }, "Choose a start and a distance to see the landmarks a run can pass.");
  const landmark = h("div", { class: "field", dataset: { field: "landmark_id" } },
    h("label", { for: "run-landmark" }, "Landmark"),
    landmarkSelect,
    landmarkHint,
    h("p", { class: "field-error", id: "run-landmark-error", "aria-live": "polite" }),
  );

  const modeOptions = [["sheltered", "Shelter-optimised"], ["standard", "Standard"]];
  const mode = h("fieldset", { class: "segmented" },
    h("legend", {}, "Route type"),
    h("div", { class: "segmented__options" },
      modeOptions.map(([value, text]) => h("label", { for: `run-mode-${value}` },
        h("input", { id: `run-mode-${value}`, type: "radio", name: "mode", value, "aria-label": text }),
        h("span", { "aria-hidden": "true" }, text)))),
    h("p", { class: "field-hint" }, "Shelter-optimised routes run under arcades, covered ways and passages where they can."),
  );
  const setSheltered = (sheltered) => {
    mode.querySelector(`input[value="${sheltered ? "sheltered" : "standard"}"]`).checked = true;
  };
  const isSheltered = () => mode.querySelector("input:checked")?.value === "sheltered";
  setSheltered(query.get("sheltered") === "1");

  const planButton = submit("Plan routes");
  const planForm = form(planRoutes, address.element, distance, landmark, mode, planButton);

  // Results.
  const mapElement = h("div", { class: "run-map" });
  const progress = h("p", { class: "muted small", role: "status" });
  const results = h("div", { class: "run-results", "aria-live": "polite" });
  const resultsSection = h("section", { class: "run-results-section", "aria-labelledby": "run-results-title" },
    h("h3", { id: "run-results-title" }, "Routes"),
    progress,
    mapElement,
    results,
  );

  container.append(
    banner.element,
    h("div", { class: "run-header" },
      h("h2", {}, "Plan a run"),
      h("a", { href: "#/runs/planned" }, "My planned routes")),
    h("p", { class: "muted" }, "Three loops that start and end where you choose, each within 0.5 km of your distance."),
    planForm,
    resultsSection,
  );

  let startMarker = null;
  const { map, destroy } = await createBaseMap(mapElement, { label: "Planned routes map" });
  const layers = createRouteLayers(map, { onSelect: (index) => select(index) });
  mapReady = true;
  if (state.start) drawStart(state.start);
  progress.textContent = "Plan a run to see its routes here.";

  distanceInput.addEventListener("input", () => {
    if (parseDistance(distanceInput.value) !== null) clearFieldError("distance_km");
    scheduleLandmarks();
  });
  distanceInput.addEventListener("change", () => {
    if (distanceInput.value.trim() && parseDistance(distanceInput.value) === null) setFieldError(planForm, "distance_km", distanceMessage);
  });
  landmarkSelect.addEventListener("change", () => clearFieldError("landmark_id"));
  mode.addEventListener("change", () => { if (state.plan) markStale(); });

  if (await permissionState() === "granted") useMyLocation({ quiet: true });

  return () => {
    state.left = true;
    clearTimeout(landmarkTimer);
    landmarkRequest?.abort();
    banner.destroy();
    destroy();
  };

  function mapCentre() {
    if (!mapReady) return null;
    const centre = map.getCenter();
    return { lat: centre.lat, lon: centre.lng };
  }

  async function useMyLocation({ quiet = false } = {}) {
    const permission = quiet ? "granted" : await ensureLocationPermission({ force: true });
    if (permission !== "granted") {
      address.setError("Location is off. Type an address instead, or turn location on.");
      return;
    }
    locateButton.disabled = true;
    const fix = await new Promise((resolve) => {
      navigator.geolocation.getCurrentPosition(
        (position) => resolve({ lat: position.coords.latitude, lon: position.coords.longitude }),
        () => resolve(null),
        { enableHighAccuracy: true, maximumAge: 60 * 1000, timeout: 15000 },
      );
    });
    locateButton.disabled = false;
    if (state.left) return;
    if (!fix) {
      if (!quiet) address.setError("Your location cannot be found right now. Type an address instead.");
      return;
    }
    if (quiet && state.start) return;
    address.setText("Your location");
    setStart({ ...fix, label: "Your location" });
  }

  function setStart(start) {
    state.start = start;
    address.setError("");
    if (mapReady) drawStart(start);
    banner.setLocation({ lat: start.lat, lon: start.lon });
    if (state.plan) markStale();
    scheduleLandmarks(0);
  }

  function drawStart(start) {
    startMarker?.remove();
    startMarker = L.circleMarker([start.lat, start.lon], {
      radius: 8, weight: 3, color: "#fff", fillColor: token("--color-primary"), fillOpacity: 1, interactive: false,
    }).addTo(map);
    startMarker.getElement()?.setAttribute("aria-label", `Start: ${start.label}`);
    if (!state.plan) map.setView([start.lat, start.lon], Math.max(map.getZoom(), 15));
  }

  function scheduleLandmarks(delay = 300) {
    clearTimeout(landmarkTimer);
    landmarkTimer = setTimeout(refreshLandmarks, delay);
  }

  /** Lists only the landmarks a loop of the distance can pass from the start (4.3.1.1), plus "No landmark". */
  async function refreshLandmarks() {
    const km = parseDistance(distanceInput.value);
    landmarkRequest?.abort();
    if (!state.start || km === null) {
      fillLandmarks([], "Choose a start and a distance to see the landmarks a run can pass.");
      return;
    }
    landmarkRequest = new AbortController();
    landmarkHint.textContent = "Finding landmarks…";
    try {
      const answer = await validLandmarks(state.start, km, { signal: landmarkRequest.signal });
      const count = answer.landmarks.length;
      fillLandmarks(answer.landmarks, count
        ? `${count} ${count === 1 ? "landmark" : "landmarks"} you can reach and come back from within ${km} km.`
        : `No landmark can be reached and left within ${km} km of this start.`);
    } catch (error) {
      if (error.name === "AbortError") return;
      fillLandmarks([], "Landmarks cannot be listed right now.");
      if (error.fieldErrors?.start) address.setError(error.fieldErrors.start);
    }
  }

  function fillLandmarks(landmarks, hint) {
    const chosen = landmarkSelect.value;
    landmarkSelect.replaceChildren(
      h("option", { value: "" }, "No landmark"),
      ...landmarks.map((item) => h("option", { value: item.id, dataset: { lat: item.lat, lon: item.lon } },
        `${item.name} · ${(item.distance_m / 1000).toFixed(1)} km there and back`)),
    );
    landmarkSelect.value = landmarks.some((item) => item.id === chosen) ? chosen : "";
    landmarkHint.textContent = chosen && !landmarkSelect.value
      ? `${hint} The landmark you chose is out of reach now.`
      : hint;
  }

  function clearFieldError(name) {
    const box = planForm.querySelector(`[data-field="${name}"]`);
    box.querySelector(".field-error").textContent = "";
    box.querySelector("input, select")?.removeAttribute("aria-invalid");
  }

  async function planRoutes(element, { seed = 0 } = {}) {
    const km = parseDistance(distanceInput.value);
    const problems = [];
    if (!state.start) problems.push(["start", "Choose where the run starts: use your location, or type an address and choose a suggestion."]);
    if (km === null) problems.push(["distance_km", distanceMessage]);
    if (problems.length) {
      for (const [name, message] of problems) setFieldError(element, name, message);
      element.querySelector(`[data-field="${problems[0][0]}"] input`)?.focus();
      return;
    }
    planButton.textContent = "Planning…";
    resultsSection.setAttribute("aria-busy", "true");
    progress.textContent = "Planning three routes…";
    try {
      const plan = await planRuns({
        start: state.start, distanceKm: km, landmarkId: landmarkSelect.value || null, sheltered: isSheltered(), seed,
      });
      if (state.left) return;
      state.plan = plan;
      state.seed = seed;
      state.saved = new Map();
      showPlan();
      resultsSection.scrollIntoView({ behavior: "smooth", block: "start" });
    } catch (error) {
      if (!state.plan) progress.textContent = "Plan a run to see its routes here.";
      throw error;
    } finally {
      planButton.textContent = "Plan routes";
      resultsSection.setAttribute("aria-busy", "false");
    }
  }

  function markStale() {
    progress.textContent = "You changed the start or the route type: plan again to see matching routes.";
  }

  function showPlan() {
    const plan = state.plan;
    state.selected = null;
    startMarker?.remove();
    startMarker = null;
    layers.show(plan.routes, { start: plan.start, landmark: plan.landmark });
    const routeType = plan.sheltered ? "Shelter-optimised" : "Standard";
    progress.textContent = `${plan.routes.length} ${plan.routes.length === 1 ? "route" : "routes"} of ${plan.distance_km} km · ${routeType}` +
      (plan.landmark ? ` · via ${plan.landmark.name}` : "");
    results.replaceChildren(...[
      plan.shortfall ? h("p", { class: "notice notice--info", role: "note" }, plan.shortfall.message) : null,
      legend(plan),
      h("ul", { class: "route-cards", "aria-label": "Planned routes" }, plan.routes.map((route, index) => routeCard(route, index))),
      h("div", { class: "button-row" },
        h("button", { class: "button button--secondary", type: "button", onclick: () => otherRoutes() }, "Show other routes")),
      h("p", { class: "run-save-notice", role: "status" }),
    ].filter(Boolean));
  }

  function legend(plan) {
    return h("ul", { class: "route-legend", "aria-label": "Legend" },
      plan.routes.map((route, index) => h("li", {},
        h("span", { class: "route-legend__swatch", style: `background:${routeColour(index)}`, "aria-hidden": "true" }),
        `Route ${index + 1} · ${formatLength(route.length_m)}`)),
      h("li", {},
        h("span", { class: "route-legend__swatch", style: `background:${token("--color-sheltered")}`, "aria-hidden": "true" }),
        "Sheltered sections"),
      plan.landmark ? h("li", {}, h("span", { class: "route-legend__dot", "aria-hidden": "true" }), plan.landmark.name) : null,
    );
  }

  function routeCard(route, index) {
    return h("li", { class: "route-card", style: `--route-colour:${routeColour(index)}` },
      h("button", { class: "route-card__select", type: "button", "aria-pressed": "false", onclick: () => select(index) },
        h("span", { class: "route-card__title" }, `Route ${index + 1}`),
        h("span", { class: "route-card__length" }, formatLength(route.length_m)),
        h("span", { class: "route-card__detail" }, formatShare(route.sheltered_share))));
  }

  /** Selects a route (5.7): on the map and in its card, which then offers to keep it. */
  function select(index) {
    state.selected = index;
    layers.select(index);
    const cards = results.querySelectorAll(".route-cards > li");
    cards.forEach((card, i) => {
      const selected = i === index;
      card.classList.toggle("route-card--selected", selected);
      card.querySelector(".route-card__select").setAttribute("aria-pressed", String(selected));
      card.querySelector(".route-card__save")?.remove();
      if (!selected) return;
      const saved = state.saved.has(i);
      card.append(h("button", {
        class: "button route-card__save", type: "button", disabled: saved,
        onclick: (event) => save(i, event.currentTarget),
      }, saved ? "Saved to my planned routes" : "Save this route"));
    });
  }

  async function save(index, button) {
    if (!(await requireAccount("save a planned route"))) return;
    const status = results.querySelector(".run-save-notice");
    button.disabled = true;
    try {
      const saved = await savePlannedRun(state.plan, state.plan.routes[index]);
      state.saved.set(index, saved.id);
      button.textContent = "Saved to my planned routes";
      status.replaceChildren(`Route ${index + 1} is in your planned routes. `, h("a", { href: "#/runs/planned" }, "See my planned routes"));
    } catch (error) {
      button.disabled = false;
      if (!handleSignInRequired(error, "save a planned route")) status.textContent = error.message;
    }
  }

  async function otherRoutes() {
    clearErrors(planForm);
    planButton.disabled = true;
    try {
      await planRoutes(planForm, { seed: state.seed + 1 });
    } catch (error) {
      showError(planForm, error);
    } finally {
      planButton.disabled = false;
    }
  }
}
