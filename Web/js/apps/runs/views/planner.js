// The run planner (run-route-planner 4, 5, 8.3.1): a start (current location or an address), a distance in
// the person's unit, an optional landmark among those a loop of that distance can pass, shelter-optimised
// or standard; then three loops on the map in their colours with sheltered stretches in another, a legend,
// and cards to select one and keep it in the user's planned routes (through the outbox, so a save made
// offline is sent later). `#/runs?sheltered=1` opens in shelter mode (Home's rain banner links there); this
// screen's own rain banner switches the toggle in one tap.
//
// The screen's state lives in `state`; every change goes through `update()`, which hands it to the
// components (Web/js/apps/runs/components/).
import { requireAccount } from "../../../platform/account.js";
import { ApiError } from "../../../platform/api.js";
import { h, icon } from "../../../platform/dom.js";
import { form, submit } from "../../../platform/forms.js";
import { ensureLocationPermission, permissionState } from "../../../platform/location.js";
import { nextRun } from "../../../platform/next-run.js";
import { outbox, queueWrite } from "../../../platform/offline/outbox.js";
import { getSettings } from "../../../platform/settings.js";
import { formatDistance } from "../../../platform/units.js";
import { createRainBanner } from "../../../platform/weather/rain-banner.js";
import { plannedRunBody, plannedRunsPath, planRuns, validLandmarks } from "../api.js";
import { createAddressField } from "../components/address-field.js";
import { createDistanceField } from "../components/distance-field.js";
import { createLandmarkField } from "../components/landmark-field.js";
import { createPlanResults } from "../components/plan-results.js";
import { createPlannerMap } from "../components/planner-map.js";
import { createRouteTypeField } from "../components/route-type-field.js";
import { distanceMessage, parseDistance } from "../distance.js";
import { keepGuestRoute } from "../guest-routes.js";

const locateIcon = "M12 2v4 M12 18v4 M2 12h4 M18 12h4 M12 8a4 4 0 1 0 0.01 0";
const landmarkPrompt = "Choose a start and a distance to see the landmarks a run can pass.";

export async function render(container, params, query) {
  const unit = getSettings().distance;
  const state = {
    start: null, // { lat, lon, label }: the start chosen (a suggestion or the device's position)
    startText: "", // what the start field shows; typed text that is not `start.label` is resolved on planning
    startError: "",
    locating: false,
    distanceText: "",
    distanceError: "",
    landmarks: [],
    landmarkId: "",
    landmarkHint: landmarkPrompt,
    landmarkError: "",
    sheltered: query.get("sheltered") === "1",
    planning: false,
    plan: null,
    seed: 0,
    stale: false,
    selected: null,
    saves: new Map(), // route index → its outbox item, or { state: "guest" }
    otherError: "",
    left: false,
  };
  let landmarkTimer = null;
  let landmarkRequest = null;

  const banner = createRainBanner({
    actionLabel: "Use a sheltered route",
    onChoose: () => {
      state.sheltered = true;
      update();
      if (state.plan) planForm.requestSubmit();
    },
  });
  const locateButton = h("button", { class: "button button--secondary", type: "button", onclick: () => useMyLocation() },
    icon(locateIcon), "Use my location");
  const startField = createAddressField({
    name: "start", label: "Start", placeholder: "Type an address or a place",
    hint: "Use your location, or type an address and choose a suggestion.",
    actions: [locateButton],
    near: () => state.start ?? plannerMap.centre(),
    onType: (text) => {
      state.startText = text;
      if (state.start && text.trim() !== state.start.label) {
        state.start = null;
        if (state.plan) state.stale = true;
        scheduleLandmarks();
      }
      state.startError = "";
      update();
    },
    onChoose: (place) => setStart({ lat: place.lat, lon: place.lon, label: place.text }),
  });
  const distanceField = createDistanceField({
    unit,
    onInput: (text) => {
      state.distanceText = text;
      if (parseDistance(text, unit) !== null) state.distanceError = "";
      update();
      scheduleLandmarks();
    },
    onChange: (text) => {
      if (text.trim() && parseDistance(text, unit) === null) state.distanceError = distanceMessage(unit);
      update();
    },
  });
  const landmarkField = createLandmarkField({
    onChange: (id) => {
      state.landmarkId = id;
      state.landmarkError = "";
      update();
    },
  });
  const routeTypeField = createRouteTypeField({
    onChange: (sheltered) => {
      state.sheltered = sheltered;
      if (state.plan) state.stale = true;
      update();
    },
  });
  const planButton = submit("Plan routes");
  const planForm = form((element) => planRoutes({ seed: 0 }),
    startField.element, distanceField.element, landmarkField.element, routeTypeField.element, planButton);

  const progress = h("p", { class: "muted small", role: "status" });
  const plannerMap = createPlannerMap({ label: "Planned routes map", onSelect: (index) => select(index) });
  const results = createPlanResults({
    onSelect: (index) => select(index),
    onSave: (index) => save(index),
    onRetry: (index) => outbox.retry(state.saves.get(index).id),
    onStart: (index) => startRun(index),
    onOtherRoutes: () => otherRoutes(),
  });
  const resultsSection = h("section", { class: "run-results-section", "aria-labelledby": "run-results-title" },
    h("h3", { id: "run-results-title" }, "Routes"), progress, plannerMap.element, results.element);

  container.append(
    banner.element,
    h("div", { class: "run-header" },
      h("h2", {}, "Plan a run"),
      h("span", { class: "run-header__links" },
        h("a", { href: "#/runs/planned" }, "My planned routes"),
        h("a", { href: "#/activities" }, "My activities"))),
    h("p", { class: "muted" }, `Three loops that start and end where you choose, each within ${formatDistance(500)} of your distance.`),
    planForm,
    resultsSection,
  );

  const stopWatchingOutbox = outbox.subscribe((item) => {
    for (const [index, save] of state.saves) {
      if (save.id === item.id) state.saves.set(index, item);
    }
    update();
  });
  update();
  if (await permissionState() === "granted") useMyLocation({ quiet: true });

  return () => {
    state.left = true;
    clearTimeout(landmarkTimer);
    landmarkRequest?.abort();
    stopWatchingOutbox();
    for (const component of [banner, startField, distanceField, landmarkField, routeTypeField, plannerMap, results]) component.destroy();
  };

  /** Hands the state to every component. */
  function update() {
    if (state.left) return;
    startField.update({ text: state.startText, error: state.startError });
    locateButton.disabled = state.locating;
    distanceField.update({ error: state.distanceError });
    landmarkField.update({ landmarks: state.landmarks, chosen: state.landmarkId, hint: state.landmarkHint, error: state.landmarkError });
    routeTypeField.update({ sheltered: state.sheltered });
    planButton.textContent = state.planning ? "Planning…" : "Plan routes";
    progress.textContent = progressText();
    resultsSection.setAttribute("aria-busy", String(state.planning));
    plannerMap.update({ start: state.start, plan: state.plan, selected: state.selected });
    results.update({ plan: state.plan, selected: state.selected, saves: state.saves, otherError: state.otherError, busy: state.planning });
  }

  function progressText() {
    if (state.planning) return "Planning three routes…";
    const plan = state.plan;
    if (!plan) return "Plan a run to see its routes here.";
    if (state.stale) return "You changed the start or the route type: plan again to see matching routes.";
    const count = `${plan.routes.length} ${plan.routes.length === 1 ? "route" : "routes"}`;
    return `${count} of ${formatDistance(plan.distance_km * 1000)} · ${plan.sheltered ? "Shelter-optimised" : "Standard"}` +
      (plan.landmark ? ` · via ${plan.landmark.name}` : "");
  }

  async function useMyLocation({ quiet = false } = {}) {
    const permission = quiet ? "granted" : await ensureLocationPermission({ force: true });
    if (permission !== "granted") {
      state.startError = "Location is off. Type an address instead, or turn location on.";
      return update();
    }
    state.locating = true;
    update();
    const fix = await new Promise((resolve) => {
      navigator.geolocation.getCurrentPosition(
        (position) => resolve({ lat: position.coords.latitude, lon: position.coords.longitude }),
        () => resolve(null),
        { enableHighAccuracy: true, maximumAge: 60 * 1000, timeout: 15000 },
      );
    });
    state.locating = false;
    if (!fix) {
      if (!quiet) state.startError = "Your location cannot be found right now. Type an address instead.";
      return update();
    }
    // Opening the screen fills in the position only when the person has not chosen or typed a start.
    if (quiet && (state.start || state.startText.trim())) return update();
    setStart({ ...fix, label: "Your location" });
  }

  function setStart(start) {
    state.start = start;
    state.startText = start.label;
    state.startError = "";
    if (state.plan) state.stale = true;
    banner.update({ location: { lat: start.lat, lon: start.lon } });
    update();
    scheduleLandmarks(0);
  }

  function scheduleLandmarks(delay = 300) {
    clearTimeout(landmarkTimer);
    landmarkTimer = setTimeout(refreshLandmarks, delay);
  }

  /** Lists only the landmarks a loop of the distance can pass from the start (4.3.1.1), plus "No landmark". */
  async function refreshLandmarks() {
    const km = parseDistance(state.distanceText, unit);
    landmarkRequest?.abort();
    if (!state.start || km === null) {
      showLandmarks([], landmarkPrompt);
      return;
    }
    landmarkRequest = new AbortController();
    state.landmarkHint = "Finding landmarks…";
    update();
    try {
      const answer = await validLandmarks(state.start, km, { signal: landmarkRequest.signal });
      const count = answer.landmarks.length;
      const within = `${state.distanceText.trim()} ${unit}`;
      showLandmarks(answer.landmarks, count
        ? `${count} ${count === 1 ? "landmark" : "landmarks"} you can reach and come back from within ${within}.`
        : `No landmark can be reached and left within ${within} of this start.`);
    } catch (error) {
      if (error.name === "AbortError") return;
      if (error.fieldErrors?.start) state.startError = error.fieldErrors.start;
      showLandmarks([], "Landmarks cannot be listed right now.");
    }
  }

  function showLandmarks(landmarks, hint) {
    const lost = state.landmarkId && !landmarks.some((item) => item.id === state.landmarkId);
    state.landmarks = landmarks;
    if (lost) state.landmarkId = "";
    state.landmarkHint = lost ? `${hint} The landmark you chose is out of reach now.` : hint;
    update();
  }

  /** Resolves a start typed but not chosen to its best suggestion, or says it cannot. True when there is a start. */
  async function resolveTypedStart() {
    if (state.start) return true;
    const typed = state.startText.trim();
    if (!typed) {
      state.startError = "Choose where the run starts: use your location, or type an address and choose a suggestion.";
      return false;
    }
    const best = await startField.bestMatch();
    if (!best) {
      state.startError = `No place matches “${typed}”. Check the spelling, or choose one of the suggestions.`;
      return false;
    }
    setStart({ lat: best.lat, lon: best.lon, label: best.text });
    return true;
  }

  async function planRoutes({ seed }) {
    Object.assign(state, { startError: "", distanceError: "", landmarkError: "", otherError: "" });
    const km = parseDistance(state.distanceText, unit);
    if (km === null) state.distanceError = distanceMessage(unit);
    const started = await resolveTypedStart();
    if (!started || km === null) {
      update();
      if (!started) startField.focus();
      else planForm.querySelector('[data-field="distance_km"] input').focus();
      return;
    }
    state.planning = true;
    update();
    try {
      const plan = await planRuns({
        start: state.start, distanceKm: km, landmarkId: state.landmarkId || null, sheltered: state.sheltered, seed,
      });
      if (state.left) return;
      Object.assign(state, { plan, seed, stale: false, selected: null, saves: new Map() });
      update();
      resultsSection.scrollIntoView({ behavior: "smooth", block: "start" });
    } catch (error) {
      const fields = error instanceof ApiError ? error.fieldErrors : {};
      state.startError = fields.start ?? "";
      state.distanceError = fields.distance_km ? distanceMessage(unit) : "";
      state.landmarkError = fields.landmark_id ?? "";
      if (!Object.keys(fields).length) throw error;
    } finally {
      state.planning = false;
      update();
    }
  }

  /** Selects a route (5.7): on the map and in its card, which then offers to keep it. */
  function select(index) {
    state.selected = index;
    update();
  }

  /** Keeps a route: through the outbox for an account; on the device, for the account to come, for a guest. */
  async function save(index) {
    const route = state.plan.routes[index];
    const body = plannedRunBody(state.plan, route);
    if (!(await requireAccount("save a planned route"))) {
      await keepGuestRoute(body);
      state.saves.set(index, { state: "guest" });
      return update();
    }
    const item = await queueWrite({
      app: "runs", kind: "planned-run", label: `Route ${index + 1} · ${formatDistance(route.length_m)}`,
      request: { method: "POST", path: plannedRunsPath, body },
    });
    state.saves.set(index, item);
    const latest = await outbox.item(item.id);
    if (latest && latest.updatedAt >= state.saves.get(index).updatedAt) state.saves.set(index, latest);
    update();
  }

  /** Follows the route now (run-route-planner 6): the run screen takes it from the device. */
  async function startRun(index) {
    const route = state.plan.routes[index];
    await nextRun.set({ name: `Route ${index + 1} · ${formatDistance(route.length_m)}`, geometry: route.geometry, length_m: route.length_m });
    location.hash = "#/activities/run";
  }

  async function otherRoutes() {
    state.otherError = "";
    try {
      await planRoutes({ seed: state.seed + 1 });
    } catch (error) {
      state.otherError = error.message;
      update();
    }
  }
}

