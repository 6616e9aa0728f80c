// The run planner (run-route-planner 4, 5, 8.3.1), made for a phone: map first. The form — a start (current
// location or an address), a distance in the person's unit, an optional landmark among those a loop of that
// distance can pass (searchable, one per name, with its kind and round trip), shelter-optimised or standard,
// and the person's pace — sits in a sheet, open on arrival and behind "Change plan" once there is a plan. The
// plan's routes fill the map, one highlighted at a time (the first at once; a tap on a card or a line picks
// another), with the area the planner knows outlined; each card gives the distance, the time at the person's
// pace, the sheltered share and what the route repeats, and the highlighted one offers Start and Save (through
// the outbox, so a save made offline is sent later). A shortfall says why and what to change; a plan that
// takes over a second shows how long it has been running. `#/runs?sheltered=1` opens in shelter mode (Home's
// rain banner links there); this screen's own rain banner switches to shelter and plans again in one tap.
//
// The screen's state lives in `state`; every change goes through `update()`, which hands it to the
// components (Web/js/apps/runs/components/).
import { requireAccount } from "../../../platform/account.js";
import { ApiError } from "../../../platform/api.js";
import { h, icon } from "../../../platform/dom.js";
import { field, form, submit } from "../../../platform/forms.js";
import { ensureLocationPermission, permissionState } from "../../../platform/location.js";
import { nextRun } from "../../../platform/next-run.js";
import { outbox, queueWrite } from "../../../platform/offline/outbox.js";
import { getSettings } from "../../../platform/settings.js";
import { openSheet } from "../../../platform/sheet.js";
import { formatDistance } from "../../../platform/units.js";
import { createRainBanner } from "../../../platform/weather/rain-banner.js";
import { networkExtent, plannedRunBody, plannedRunsPath, planRuns, validLandmarks } from "../api.js";
import { createAddressField } from "../components/address-field.js";
import { createDistanceField } from "../components/distance-field.js";
import { createLandmarkField } from "../components/landmark-field.js";
import { createPlanResults } from "../components/plan-results.js";
import { createPlannerMap } from "../components/planner-map.js";
import { createRouteTypeField } from "../components/route-type-field.js";
import { distanceMessage, parseDistance } from "../distance.js";
import { keepGuestRoute } from "../guest-routes.js";
import { formatPace, paceMessage, paceUnit, parsePace, planningText } from "../route-facts.js";
import { loadPace, savePace } from "../pace.js";

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
    paceSecondsPerKm: loadPace(),
    paceText: "",
    paceError: "",
    planning: false,
    planningSince: 0,
    planningDistance: "",
    extent: null, // [west, south, east, north] of the streets the planner knows
    plan: null,
    seed: 0,
    stale: false,
    selected: null,
    saves: new Map(), // route index → its outbox item, or { state: "guest" }
    otherError: "",
    left: false,
  };
  state.paceText = formatPace(state.paceSecondsPerKm, unit);
  let landmarkTimer = null;
  let landmarkRequest = null;
  let planningTicker = null;
  let formSheet = null;

  const banner = createRainBanner({
    actionLabel: "Use a sheltered route",
    onChoose: () => {
      state.sheltered = true;
      update();
      if (state.plan) planRoutes({ seed: 0 });
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
  const paceField = field("pace", `Your pace (${paceUnit(unit)})`, {
    inputmode: "decimal", autocomplete: "off", hint: "Each route shows how long it takes at this pace.",
  });
  const paceInput = paceField.querySelector("input");
  const paceError = paceField.querySelector(".field-error");
  paceInput.value = state.paceText;
  paceInput.addEventListener("input", () => {
    state.paceText = paceInput.value;
    const pace = parsePace(paceInput.value, unit);
    if (pace !== null) {
      state.paceSecondsPerKm = pace;
      state.paceError = "";
      savePace(pace);
    }
    update();
  });
  paceInput.addEventListener("change", () => {
    if (parsePace(paceInput.value, unit) === null) state.paceError = paceMessage(unit);
    update();
  });
  const planButton = submit("Plan routes");
  const planForm = form((element) => planRoutes({ seed: 0, fromForm: true }),
    h("p", { class: "muted" }, `Three routes that start and end where you choose, each within ${formatDistance(500)} of your distance.`),
    startField.element, distanceField.element, landmarkField.element, routeTypeField.element, paceField, planButton);

  const progress = h("p", { class: "run-status", role: "status" });
  const planError = h("p", { class: "notice notice--error", role: "alert", hidden: true });
  const progressBar = h("progress", { class: "run-progress", "aria-label": "Planning progress", hidden: true });
  const changeButton = h("button", { class: "button run-change", type: "button", onclick: () => openForm() }, "Change plan");
  const plannerMap = createPlannerMap({ label: "Planned routes map", onSelect: (index) => select(index) });
  const results = createPlanResults({
    onSelect: (index) => select(index),
    onSave: (index) => save(index),
    onRetry: (index) => outbox.retry(state.saves.get(index).id),
    onStart: (index) => startRun(index),
    onOtherRoutes: () => otherRoutes(),
    onChangePlan: () => openForm(),
  });
  const resultsSection = h("section", { class: "run-results-section", "aria-labelledby": "run-results-title" },
    h("h3", { id: "run-results-title", class: "visually-hidden" }, "Routes"),
    progress, progressBar, planError,
    h("div", { class: "run-map-frame" }, plannerMap.element, changeButton),
    results.element);

  container.append(
    banner.element,
    h("div", { class: "run-header" },
      h("h2", {}, "Plan a run"),
      h("span", { class: "run-header__links" },
        h("a", { href: "#/runs/planned" }, "My planned routes"),
        h("a", { href: "#/activities" }, "My activities"))),
    resultsSection,
  );

  const stopWatchingOutbox = outbox.subscribe((item) => {
    for (const [index, save] of state.saves) {
      if (save.id === item.id) state.saves.set(index, item);
    }
    update();
  });
  update();
  openForm();
  networkExtent().then((info) => {
    state.extent = info.bbox;
    update();
  }, () => {});
  if (await permissionState() === "granted") useMyLocation({ quiet: true });

  return () => {
    state.left = true;
    clearTimeout(landmarkTimer);
    clearInterval(planningTicker);
    landmarkRequest?.abort();
    formSheet?.close();
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
    paceError.textContent = state.paceError;
    if (state.paceError) paceInput.setAttribute("aria-invalid", "true");
    else paceInput.removeAttribute("aria-invalid");
    planButton.textContent = state.planning ? "Planning…" : "Plan routes";
    const elapsed = state.planning ? (performance.now() - state.planningSince) / 1000 : 0;
    progress.textContent = progressText(elapsed);
    progressBar.hidden = !state.planning || elapsed < 1;
    changeButton.disabled = state.planning;
    changeButton.textContent = state.plan ? "Change plan" : "Choose start and distance";
    planError.hidden = !state.otherError || Boolean(state.plan);
    planError.textContent = state.otherError;
    resultsSection.setAttribute("aria-busy", String(state.planning));
    plannerMap.update({ start: state.start, plan: state.plan, selected: state.selected, extent: state.extent });
    results.update({
      plan: state.plan, pace: { secondsPerKm: state.paceSecondsPerKm, unit }, selected: state.selected, saves: state.saves,
      otherError: state.otherError, busy: state.planning,
    });
  }

  /** The form in its sheet; it stays open while the form has errors and closes when planning starts. */
  function openForm() {
    if (formSheet || state.left) return;
    // The sheet fills a phone's screen: Close leaves it for the map (and the app bar) without planning.
    const close = h("button", { class: "button button--secondary sheet-close", type: "button", onclick: () => formSheet?.close() }, "Close");
    formSheet = openSheet({ title: "Plan a run", content: [planForm, close], onClose: () => { formSheet = null; } });
    formSheet.element.classList.add("sheet--form");
  }

  function progressText(elapsed) {
    if (state.planning) return planningText(state.planningDistance, elapsed);
    const plan = state.plan;
    if (!plan) return "Choose a start and a distance: the routes appear on this map.";
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

  /**
   * Plans with `seed`. Refusals of a field reopen the form at the field; any other failure is thrown back to
   * the form when it came from there (shown above Plan routes), else said beside "Show other routes".
   */
  async function planRoutes({ seed, fromForm = false }) {
    if (state.planning) return;
    Object.assign(state, { startError: "", distanceError: "", landmarkError: "", otherError: "" });
    const km = parseDistance(state.distanceText, unit);
    if (km === null) state.distanceError = distanceMessage(unit);
    if (parsePace(state.paceText, unit) === null) state.paceError = paceMessage(unit);
    const started = await resolveTypedStart();
    if (!started || km === null || state.paceError) {
      openForm();
      update();
      if (!started) startField.focus();
      else if (km === null) planForm.querySelector('[data-field="distance_km"] input').focus();
      else paceInput.focus();
      return;
    }
    formSheet?.close("planning");
    Object.assign(state, { planning: true, planningSince: performance.now(), planningDistance: formatDistance(km * 1000) });
    planningTicker = setInterval(update, 250);
    update();
    try {
      const plan = await planRuns({
        start: state.start, distanceKm: km, landmarkId: state.landmarkId || null, sheltered: state.sheltered, seed,
      });
      if (state.left) return;
      Object.assign(state, { plan, seed, stale: false, selected: plan.routes.length ? 0 : null, saves: new Map() });
      update();
      resultsSection.scrollIntoView({ behavior: "smooth", block: "start" });
    } catch (error) {
      const fields = error instanceof ApiError ? error.fieldErrors : {};
      state.startError = fields.start ?? "";
      state.distanceError = fields.distance_km ? distanceMessage(unit) : "";
      state.landmarkError = fields.landmark_id ?? "";
      if (Object.keys(fields).length) openForm();
      else if (fromForm) {
        openForm();
        throw error;
      } else state.otherError = error.message;
    } finally {
      clearInterval(planningTicker);
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
    await planRoutes({ seed: state.seed + 1 });
  }
}

