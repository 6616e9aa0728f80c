// My Hikes (Trailz 3.2.3): the Current Hike tab — Start a hike, then a card with the stopwatch (00:00:00),
// steps, speed in the person's unit, the path and, when the profile has age, weight and height, calories;
// Stop asks for a rating of 1–5 stars, then the card shows the summary (time, average speed, total steps,
// calories, and an image of the path that opens it on the Map); Save moves it to the History tab — the ten
// newest hikes, newest first, and "See more" beyond (the All Trails screen).
//
// The hike lives on the device from Start until the server has it (apps/activities/current.js). Start on a
// trail's page opens this screen with the trail (`?trail=<id>&name=<name>`): the hike is recorded on it.
/* global L */
import { currentAccount, loadAccount, requireAccount } from "../../../platform/account.js";
import { h } from "../../../platform/dom.js";
import { ensureLocationPermission, watchLocation } from "../../../platform/location.js";
import { createBaseMap } from "../../../platform/map/base-map.js";
import { outbox, queueWrite } from "../../../platform/offline/outbox.js";
import { offlineStore } from "../../../platform/offline/store.js";
import { openSheet } from "../../../platform/sheet.js";
import { formatDistance, formatSpeed } from "../../../platform/units.js";
import { activitiesPath, listActivities } from "../api.js";
import { createHikeCard } from "../components/hike-card.js";
import { currentActivity, keepGuestActivity } from "../current.js";
import { compactTrack, createRecorder, formatStopwatch } from "../figures.js";

const current = currentActivity("hike");
const historySize = 10;
const difficultyNames = { easy: "Easy", moderate: "Moderate", hard: "Hard" };

export async function render(container, params, query) {
  const state = {
    tab: query.get("tab") === "history" ? "history" : "current",
    hike: null, // { id, startedAt, endedAt, rating, recorder, saveId, guestSaved, trail }
    // The trail chosen on its page, for the next Start: { id, name }.
    trail: query.get("trail") ? { id: query.get("trail"), name: query.get("name") || "the trail you chose" } : null,
    save: null,
    error: "",
    history: null, // { activities, total } or { error }
    left: false,
  };
  let recorder = null;
  let stopWatching = null;
  let ticker = null;
  let shownHistory;
  let fitted = "";
  let wakeLock = null;

  const tabs = h("div", { class: "tabs", role: "tablist", "aria-label": "My Hikes" });
  const currentTab = h("button", { class: "tabs__tab", type: "button", role: "tab", id: "tab-current", "aria-controls": "panel-current", onclick: () => showTab("current") }, "Current Hike");
  const historyTab = h("button", { class: "tabs__tab", type: "button", role: "tab", id: "tab-history", "aria-controls": "panel-history", onclick: () => showTab("history") }, "History");
  tabs.append(currentTab, historyTab);
  const currentPanel = h("section", { class: "tab-panel", role: "tabpanel", id: "panel-current", "aria-labelledby": "tab-current" });
  const historyPanel = h("section", { class: "tab-panel", role: "tabpanel", id: "panel-history", "aria-labelledby": "tab-history" });
  const mapElement = h("div", { class: "run-map hike-map" });
  const trailLine = h("p", { class: "hike-trail" });
  container.append(tabs, currentPanel, historyPanel);

  const baseMap = await createBaseMap(mapElement, { label: "Hike map" });
  const pathLine = L.polyline([], { color: "#d9480f", weight: 5 }).addTo(baseMap.map);
  const card = createHikeCard({
    mapElement,
    onStart: start, onStop: stop, onSave: save, onRetry: () => outbox.retry(state.save.id),
  });

  const stopWatchingOutbox = outbox.subscribe((item) => {
    if (state.save?.id !== item.id) return;
    state.save = item;
    if (item.state === "synced") finishSaved();
    update();
  });

  const kept = await current.get();
  if (kept) resume(kept);
  update();
  if (state.tab === "history") loadHistory();

  return () => {
    state.left = true;
    stopWatching?.();
    clearInterval(ticker);
    wakeLock?.release().catch(() => {});
    stopWatchingOutbox();
    card.destroy();
    baseMap.destroy();
  };

  function profile() {
    const p = currentAccount()?.profile;
    return p ? { age: p.age, weight_kg: p.weight_kg, height_cm: p.height_cm } : null;
  }

  function resume(hike) {
    state.hike = hike;
    recorder = createRecorder({ kind: "hike", startedAt: hike.startedAt, profile: profile() }, hike.recorder);
    pathLine.setLatLngs(recorder.track.map((p) => [p.lat, p.lon]));
    if (!hike.endedAt) watch();
    else if (hike.guestSaved) state.save = { state: "guest" };
    else if (hike.saveId) outbox.item(hike.saveId).then((item) => { state.save = item ?? null; update(); });
  }

  async function start() {
    const permission = await ensureLocationPermission({ force: true });
    if (permission !== "granted") {
      state.error = "Location is off: a hike needs it to record your path. Turn location on, then tap Start.";
      return update();
    }
    await loadAccount();
    const startedAt = Date.now();
    state.hike = {
      id: crypto.randomUUID(), startedAt, endedAt: null, rating: null, saveId: null, guestSaved: false, trail: state.trail,
    };
    state.save = null;
    state.error = "";
    recorder = createRecorder({ kind: "hike", startedAt, profile: profile() });
    pathLine.setLatLngs([]);
    await persist();
    watch();
    update();
  }

  function watch() {
    stopWatching = watchLocation((position) => {
      if (!state.hike || state.hike.endedAt) return;
      if (!(position.accuracy <= 50)) return;
      recorder.record({ lat: position.lat, lon: position.lon, time: Date.now(), altitude: null });
      pathLine.setLatLngs(recorder.track.map((p) => [p.lat, p.lon]));
      baseMap.map.panTo([position.lat, position.lon], { animate: false });
      persist();
      update();
    }, (problem) => {
      state.error = problem === "denied" ? "Location was turned off: your hike is kept and goes on when it is back." : "";
      update();
    });
    ticker = setInterval(update, 1000);
    navigator.wakeLock?.request("screen").then((lock) => { wakeLock = lock; }).catch(() => {});
  }

  function persist() {
    return current.set({ ...state.hike, recorder: recorder.snapshot() });
  }

  async function stop() {
    stopWatching?.();
    stopWatching = null;
    clearInterval(ticker);
    wakeLock?.release().catch(() => {});
    const time = Date.now();
    recorder.stop(time);
    state.hike.endedAt = time;
    await persist();
    update();
    state.hike.rating = await askRating();
    await persist();
    update();
  }

  /** Trailz 3.2.3.4: rate the hike from 1 to 5 stars (the trail's Leave Comment once Trails exists). */
  function askRating() {
    return new Promise((resolve) => {
      const stars = [1, 2, 3, 4, 5].map((n) => h("button", {
        class: "star-button", type: "button", "aria-label": `${n} ${n === 1 ? "star" : "stars"}`,
        onclick: () => sheet.close(n),
      }, "★"));
      const sheet = openSheet({
        title: "Rate your hike",
        content: [
          h("p", {}, "How was it? Tap a star."),
          h("div", { class: "star-row" }, stars),
          h("div", { class: "button-row" }, h("button", { class: "button button--secondary", type: "button", onclick: () => sheet.close() }, "Not now")),
        ],
        onClose: (result) => resolve(typeof result === "number" ? result : null),
      });
    });
  }

  function body() {
    const hike = state.hike;
    const f = recorder.figures(hike.endedAt);
    const day = new Date(hike.startedAt).toLocaleDateString(undefined, { day: "numeric", month: "long" });
    return {
      id: hike.id, kind: "hike", name: (hike.trail ? hike.trail.name : `Hike on ${day}`).slice(0, 80),
      ...(hike.trail ? { trail_id: hike.trail.id } : {}),
      started_at: new Date(hike.startedAt).toISOString(), elapsed_s: Math.round(f.elapsedSeconds * 10) / 10,
      moving_s: Math.round(f.movingSeconds * 10) / 10, distance_m: Math.round(f.distanceMeters * 10) / 10,
      steps: f.steps, kcal: f.kcal == null ? null : Math.round(f.kcal), rating: hike.rating,
      track: compactTrack(recorder.track, hike.startedAt),
    };
  }

  async function save() {
    if (!recorder.track.length) {
      state.error = "No position was recorded during this hike, so there is nothing to save.";
      return update();
    }
    if (!(await requireAccount("save your hike"))) {
      await keepGuestActivity(body());
      state.hike.guestSaved = true;
      state.save = { state: "guest" };
      await persist();
      return update();
    }
    const item = await queueWrite({
      app: "activities", kind: "activity", label: `Hike · ${formatDistance(recorder.figures(state.hike.endedAt).distanceMeters)}`,
      request: { method: "POST", path: activitiesPath, body: body() },
    });
    state.hike.saveId = item.id;
    state.save = item;
    await persist();
    const latest = await outbox.item(item.id);
    if (latest?.state === "synced") {
      state.save = latest;
      finishSaved();
    }
    update();
  }

  /** Trailz 3.2.3.6: once saved, the card leaves Current Hike for History. */
  async function finishSaved() {
    await current.clear();
    state.hike = null;
    state.trail = null;
    state.save = null;
    recorder = null;
    pathLine.setLatLngs([]);
    showTab("history");
  }

  function showTab(tab) {
    state.tab = tab;
    if (tab === "history") loadHistory();
    update();
  }

  async function loadHistory() {
    if (!(await loadAccount())) {
      state.history = { guest: true };
      return update();
    }
    try {
      const { value } = await offlineStore("activities").load("hike-history", () => listActivities({ kind: "hike", limit: historySize }));
      state.history = value;
    } catch (error) {
      state.history = { error: error.message };
    }
    update();
  }

  function update() {
    if (state.left) return;
    for (const [tab, button, panel] of [["current", currentTab, currentPanel], ["history", historyTab, historyPanel]]) {
      button.setAttribute("aria-selected", String(state.tab === tab));
      panel.hidden = state.tab !== tab;
    }
    const hike = state.hike;
    const figures = recorder ? recorder.figures(hike?.endedAt ?? Date.now()) : null;
    card.update({
      phase: !hike ? "idle" : !hike.endedAt ? "hiking" : "stopped",
      stopwatch: figures ? formatStopwatch(figures.elapsedSeconds) : "00:00:00",
      steps: figures?.steps ?? 0,
      speed: figures ? formatSpeed((hike?.endedAt ? figures.averageSpeedMps : figures.currentSpeedMps) * 3.6) : formatSpeed(0),
      kcal: figures?.kcal ?? null,
      distance: figures ? formatDistance(figures.distanceMeters) : formatDistance(0),
      rating: hike?.rating ?? null,
      save: state.save,
      error: state.error,
    });
    const trail = hike ? hike.trail : state.trail;
    trailLine.hidden = !trail;
    trailLine.textContent = trail ? `On ${trail.name}` : "";
    if (!currentPanel.contains(card.element)) currentPanel.replaceChildren(trailLine, card.element);
    if (mapElement.isConnected) baseMap.map.invalidateSize();
    // While hiking the map follows the hiker (watch pans to each fix); the whole path is fitted once, when
    // the card shows it (opening the screen, the summary), not on every tick: redrawing the map every second
    // costs a phone's battery.
    const fit = `${state.tab}/${hike?.id}/${Boolean(hike?.endedAt)}`;
    if (state.tab === "current" && hike && recorder?.track.length > 1 && fit !== fitted) {
      fitted = fit;
      baseMap.map.fitBounds(pathLine.getBounds(), { padding: [16, 16], maxZoom: 17 });
    }
    // The history is rebuilt only when it changed, not on every tick of the stopwatch.
    if (shownHistory !== state.history || !historyPanel.hasChildNodes()) {
      shownHistory = state.history;
      historyPanel.replaceChildren(...historyParts().filter(Boolean));
    }
  }

  function historyParts() {
    const history = state.history;
    if (!history) return [h("p", { class: "muted", role: "status" }, "Loading your hikes…")];
    if (history.guest) return [h("p", {}, "Log in or create an account to keep your hikes.")];
    if (history.error) return [h("p", { class: "notice notice--error", role: "alert" }, `Your hikes cannot be shown: ${history.error}`)];
    if (!history.activities.length) return [h("p", { class: "muted" }, "No hikes yet: start one in Current Hike.")];
    return [
      h("ul", { class: "activity-cards", "aria-label": "Hike history" },
        history.activities.map((summary) => h("li", { class: "activity-card" }, historyCard(summary)))),
      history.total > historySize ? h("a", { class: "button button--secondary", href: "#/hikes/all" }, "See more") : null,
    ];
  }
}

/** A History card (Trailz 3.2.3.6.1): the summary's figures, the path image opening it on the Map. */
export function historyCard(summary) {
  const day = new Date(summary.started_at).toLocaleDateString(undefined, { day: "numeric", month: "short", year: "numeric" });
  return h("div", { class: "hike-summary" },
    h("a", { class: "activity-card__link", href: `#/map?activity=${summary.id}`, "aria-label": `Show ${summary.name} on the map` },
      h("img", { class: "activity-card__image", src: summary.image_url, alt: "", loading: "lazy", width: "640", height: "400" })),
    h("h3", {}, h("a", { href: `#/activities/${summary.id}` }, summary.name)),
    h("p", { class: "muted small" }, [day, difficultyNames[summary.difficulty] ?? summary.difficulty, summary.region].filter(Boolean).join(" · ")),
    h("dl", { class: "run-figures" },
      h("dt", {}, "Time"), h("dd", {}, formatStopwatch(summary.elapsed_s)),
      h("dt", {}, "Average speed"), h("dd", {}, formatSpeed(summary.average_speed_mps * 3.6)),
      h("dt", {}, "Steps"), h("dd", {}, String(summary.steps)),
      ...(summary.kcal != null ? [h("dt", {}, "Calories"), h("dd", {}, `${Math.round(summary.kcal)} kcal`)] : [])),
    summary.rating ? h("p", { class: "small" }, `Rated ${summary.rating} of 5 stars`) : null,
  );
}
