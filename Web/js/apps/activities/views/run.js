// Running a planned loop (run-route-planner 6, 7): the route chosen in the planner on a map that follows
// the runner and draws the path run so far; Start; the next instruction in a banner, said 50 m before each
// turn; a "back to the route" prompt while off it; the distance covered, the time and the pace; End, or
// the automatic end at the finish; then the summary (time as MM:SS, H:MM:SS past an hour; distance in the
// person's unit; pace) and Save, through the outbox.
//
// The run lives on the device from Start until the server has it (apps/activities/current.js): a reload
// or a lost connection resumes it where it was. The screen stays on while running (Wake Lock).
/* global L */
import { currentAccount, loadAccount, requireAccount } from "../../../platform/account.js";
import { ApiError } from "../../../platform/api.js";
import { h } from "../../../platform/dom.js";
import { ensureLocationPermission, watchLocation } from "../../../platform/location.js";
import { createBaseMap } from "../../../platform/map/base-map.js";
import { encodePolyline } from "../../../platform/map/polyline.js";
import { outbox, queueWrite } from "../../../platform/offline/outbox.js";
import { confirmSheet } from "../../../platform/sheet.js";
import { getSettings } from "../../../platform/settings.js";
import { formatDistance, formatShortDistance } from "../../../platform/units.js";
import { nextRun } from "../../../platform/next-run.js";
import { activitiesPath, prepareRoute } from "../api.js";
import { currentActivity, keepGuestActivity } from "../current.js";
import { compactTrack, createRecorder, formatDuration, formatPace } from "../figures.js";
import { createFollower } from "../navigation/follower.js";

const current = currentActivity("run");

export async function render(container) {
  const unit = getSettings().distance;
  const state = {
    phase: "loading", // loading | no-route | error | ready | running | summary
    run: null, // the record kept on the device (see `newRun`)
    error: "",
    banner: null, // { text, meters } the next instruction
    announced: "", // the last instruction said
    save: null, // the outbox item, or { state: "guest" }
    left: false,
    now: Date.now(),
  };
  let follower = null;
  let recorder = null;
  let stopWatching = null;
  let wakeLock = null;
  let ticker = null;
  let persistQueued = false;

  const heading = h("h2", {}, "Run");
  const routeNote = h("p", { class: "muted" });
  const banner = h("div", { class: "nav-banner", "aria-label": "Next instruction" });
  // Said once per instruction, 50 m before its turn: to screen readers here, aloud by the voice (`say`).
  const announcer = h("p", { class: "visually-hidden", role: "status", "aria-label": "Announcement" });
  const offRoute = h("p", { class: "notice notice--error nav-off-route", role: "alert", hidden: true });
  const figures = h("dl", { class: "run-figures", "aria-label": "Run figures" });
  const mapElement = h("div", { class: "run-map" });
  const actions = h("div", { class: "button-row run-actions" });
  const summary = h("section", { class: "run-summary", "aria-labelledby": "run-summary-title", hidden: true });
  const message = h("div", { class: "run-message" });
  container.append(h("div", { class: "run-screen" }, heading, routeNote, message, banner, announcer, offRoute, figures, mapElement, actions, summary));

  const baseMap = await createBaseMap(mapElement, { label: "Run map" });
  const routeLine = L.polyline([], { color: "#5b6b8c", weight: 5, opacity: 0.8 }).addTo(baseMap.map);
  const pathLine = L.polyline([], { color: "#d9480f", weight: 5 }).addTo(baseMap.map);
  const runner = L.circleMarker([0, 0], { radius: 8, color: "#fff", weight: 3, fillColor: "#1c7ed6", fillOpacity: 1 });

  const stopWatchingOutbox = outbox.subscribe((item) => {
    if (state.save?.id !== item.id) return;
    state.save = item;
    if (item.state === "synced") current.clear();
    update();
  });
  const onVisible = () => {
    if (document.visibilityState === "visible" && state.phase === "running") keepScreenOn();
  };
  document.addEventListener("visibilitychange", onVisible);

  await load();

  return () => {
    state.left = true;
    stopRunning();
    clearInterval(ticker);
    stopWatchingOutbox();
    document.removeEventListener("visibilitychange", onVisible);
    baseMap.destroy();
  };

  async function load() {
    const kept = await current.get();
    if (kept) return resume(kept);
    const next = await nextRun.get();
    if (!next) {
      state.phase = "no-route";
      return update();
    }
    try {
      if (!next.prepared) {
        next.prepared = await prepareRoute(next.geometry);
        await nextRun.set(next);
      }
    } catch (error) {
      state.phase = "error";
      state.error = error instanceof ApiError && error.status === 0
        ? "The route cannot be prepared offline. Connect once to get its turn instructions, then start."
        : error.message;
      return update();
    }
    state.run = newRun(next);
    state.phase = "ready";
    showRoute();
    update();
  }

  function newRun(next) {
    return {
      id: crypto.randomUUID(), name: next.name, geometry: next.geometry, prepared: next.prepared, startedAt: null,
      endedAt: null, outcome: null, follower: {}, recorder: null, saveId: null, guestSaved: false,
    };
  }

  async function resume(run) {
    state.run = run;
    follower = createFollower(run.prepared, run.follower);
    recorder = createRecorder({ kind: "run", startedAt: run.startedAt, profile: profile() }, run.recorder ?? {});
    showRoute();
    pathLine.setLatLngs(recorder.track.map((point) => [point.lat, point.lon]));
    if (run.endedAt) {
      state.phase = "summary";
      if (run.saveId) state.save = (await outbox.item(run.saveId)) ?? null;
      if (run.guestSaved) state.save = { state: "guest" };
    } else {
      state.phase = "running";
      startWatching();
    }
    update();
  }

  function profile() {
    const p = currentAccount()?.profile;
    return p ? { age: p.age, weight_kg: p.weight_kg, height_cm: p.height_cm } : null;
  }

  function showRoute() {
    const line = state.run.prepared.coordinates.map(([lon, lat]) => [lat, lon]);
    routeLine.setLatLngs(line);
    baseMap.map.fitBounds(routeLine.getBounds(), { padding: [16, 16] });
  }

  async function start() {
    const permission = await ensureLocationPermission({ force: true });
    if (permission !== "granted") {
      state.error = "Location is off: a run needs it to follow you. Turn location on, then tap Start.";
      return update();
    }
    await loadAccount();
    const run = state.run;
    run.startedAt = Date.now();
    follower = createFollower(run.prepared);
    recorder = createRecorder({ kind: "run", startedAt: run.startedAt, profile: profile() });
    state.phase = "running";
    state.error = "";
    await nextRun.clear();
    await persist();
    startWatching();
    update();
  }

  function startWatching() {
    state.banner = bannerFor(follower.progress);
    stopWatching = watchLocation(onFix, (problem) => {
      state.error = problem === "denied"
        ? "Location was turned off: your run is kept, and continues when location is back on."
        : "Waiting for your position…";
      update();
    });
    keepScreenOn();
    clearInterval(ticker);
    ticker = setInterval(() => update(), 1000);
  }

  function stopRunning() {
    stopWatching?.();
    stopWatching = null;
    wakeLock?.release().catch(() => {});
    wakeLock = null;
  }

  async function keepScreenOn() {
    try {
      wakeLock = await navigator.wakeLock?.request("screen");
    } catch {
      // Not allowed (battery saver, an older browser): the run goes on; the person keeps the screen on.
    }
  }

  function onFix(position) {
    if (state.phase !== "running") return;
    // The time the fix arrived: a phone's own fix times can be cached or stale.
    const fix = { lat: position.lat, lon: position.lon, accuracy: position.accuracy ?? 20, time: Date.now() };
    const { events, progress, kept } = follower.update(fix);
    if (kept) {
      recorder.record(fix, progress.coveredMeters);
      pathLine.setLatLngs(recorder.track.map((point) => [point.lat, point.lon]));
      runner.setLatLng([fix.lat, fix.lon]);
      if (!baseMap.map.hasLayer(runner)) runner.addTo(baseMap.map);
      baseMap.map.panTo([fix.lat, fix.lon], { animate: false });
    }
    state.error = "";
    for (const event of events) {
      if (event.type === "announce") say(state.run.prepared.instructions[event.index].text);
    }
    state.banner = bannerFor(progress);
    schedulePersist();
    if (events.some((event) => event.type === "arrived")) return end("finished");
    update();
  }

  function bannerFor(progress) {
    const instructions = state.run.prepared.instructions;
    const index = progress.nextInstructionIndex;
    if (index < 0) return null;
    return { text: instructions[index].text, meters: progress.metersToNext, announced: follower.snapshot().announced.includes(index) };
  }

  function say(text) {
    state.announced = text;
    announcer.textContent = text;
    try {
      if ("speechSynthesis" in window) window.speechSynthesis.speak(new SpeechSynthesisUtterance(text));
    } catch {
      // No voice on this device: the banner says it.
    }
  }

  function schedulePersist() {
    if (persistQueued) return;
    persistQueued = true;
    queueMicrotask(() => {
      persistQueued = false;
      persist();
    });
  }

  function persist() {
    const run = state.run;
    if (follower) run.follower = follower.snapshot();
    if (recorder) run.recorder = recorder.snapshot();
    return current.set(run);
  }

  async function end(outcome) {
    if (state.phase !== "running") return;
    stopRunning();
    clearInterval(ticker);
    const time = Date.now();
    recorder.stop(time);
    state.run.endedAt = time;
    state.run.outcome = outcome;
    state.phase = "summary";
    await persist();
    update();
    summary.querySelector("h2")?.focus();
  }

  async function askEnd() {
    const sure = await confirmSheet({
      title: "End this run?", text: "Your run so far is kept: you see its summary and can save it.",
      confirmLabel: "End run", cancelLabel: "Keep running",
    });
    if (sure) end("ended");
  }

  function body() {
    const run = state.run;
    const f = recorder.figures(run.endedAt);
    const track = recorder.track.length ? recorder.track : [];
    return {
      id: run.id, kind: "run", name: run.name, started_at: new Date(run.startedAt).toISOString(),
      elapsed_s: Math.round(f.elapsedSeconds * 10) / 10, moving_s: Math.round(f.movingSeconds * 10) / 10,
      distance_m: Math.round(f.distanceMeters * 10) / 10, steps: f.steps,
      kcal: f.kcal == null ? null : Math.round(f.kcal), outcome: run.outcome,
      planned_route: encodePolyline(run.prepared.coordinates.map(([lon, lat]) => ({ lat, lon })), 6),
      track: compactTrack(track, run.startedAt),
    };
  }

  async function save() {
    const run = state.run;
    if (!recorder.track.length) {
      state.error = "No position was recorded during this run, so there is nothing to save.";
      return update();
    }
    if (!(await requireAccount("save your run"))) {
      await keepGuestActivity(body());
      run.guestSaved = true;
      await persist();
      state.save = { state: "guest" };
      return update();
    }
    const item = await queueWrite({
      app: "activities", kind: "activity", label: `${run.name} · ${formatDistance(recorder.figures(run.endedAt).distanceMeters)}`,
      request: { method: "POST", path: activitiesPath, body: body() },
    });
    run.saveId = item.id;
    state.save = item;
    await persist();
    const latest = await outbox.item(item.id);
    if (latest && latest.updatedAt >= state.save.updatedAt) state.save = latest;
    if (state.save.state === "synced") await current.clear();
    update();
  }

  async function discard() {
    const sure = await confirmSheet({
      title: "Discard this run?", text: "It is not saved anywhere: its track and figures are gone for good.",
      confirmLabel: "Discard run", danger: true,
    });
    if (!sure) return;
    await current.clear();
    location.hash = "#/runs";
  }

  function update() {
    if (state.left) return;
    const { phase, run } = state;
    heading.textContent = run ? run.name : "Run";
    routeNote.textContent = run ? `${formatDistance(run.prepared.length_m)} loop` : "";
    routeNote.hidden = !run;
    message.replaceChildren(...messageParts());
    const moving = phase === "running";
    banner.hidden = !moving || !state.banner;
    if (moving && state.banner) {
      banner.replaceChildren(
        h("span", { class: "nav-banner__text" }, state.banner.text),
        state.banner.meters > 0 ? h("span", { class: "nav-banner__distance" }, `in ${formatShortDistance(state.banner.meters)}`) : null);
      banner.classList.toggle("nav-banner--now", Boolean(state.banner.announced));
    }
    const off = moving && follower?.progress.offRoute;
    offRoute.hidden = !off;
    offRoute.textContent = off ? `Off route: head back to the route (${formatShortDistance(follower.progress.distanceFromRouteMeters)} away).` : "";
    figures.hidden = !moving;
    if (moving) {
      const f = recorder.figures(Date.now());
      figures.replaceChildren(...figure("Distance", formatDistance(f.distanceMeters)), ...figure("Time", formatDuration(f.elapsedSeconds)),
        ...figure("Pace", formatPace(f.paceSecondsPerKm, unit)));
    }
    actions.replaceChildren(...actionButtons());
    summary.hidden = phase !== "summary";
    if (phase === "summary") summary.replaceChildren(...summaryParts());
  }

  function messageParts() {
    const parts = [];
    if (state.phase === "no-route") {
      parts.push(h("div", { class: "empty-state" },
        h("p", {}, "Choose a route to run first: plan three loops, select one and tap Start this run."),
        h("a", { class: "button", href: "#/runs" }, "Plan a run")));
    }
    if (state.phase === "loading") parts.push(h("p", { class: "muted", role: "status" }, "Preparing the route…"));
    if (state.error) parts.push(h("p", { class: "notice notice--error", role: "alert" }, state.error));
    if (state.phase === "ready") {
      const turns = state.run.prepared.instructions.filter((item) => item.maneuver.startsWith("turn") || item.maneuver.startsWith("keep") || item.maneuver === "uturn").length;
      parts.push(h("p", {}, `${turns} ${turns === 1 ? "turn" : "turns"}, each announced ${formatShortDistance(50)} before. Tap Start when you are at the start.`));
    }
    return parts;
  }

  function actionButtons() {
    if (state.phase === "ready") return [h("button", { class: "button button--large", type: "button", onclick: start }, "Start")];
    if (state.phase === "running") return [h("button", { class: "button button--danger button--large", type: "button", onclick: askEnd }, "End")];
    return [];
  }

  function summaryParts() {
    const run = state.run;
    const f = recorder.figures(run.endedAt);
    const parts = [
      h("h2", { id: "run-summary-title", tabindex: "-1" }, "Run summary"),
      h("p", {}, run.outcome === "finished" ? "You finished the loop: well done!" : "You ended the run before the finish."),
      h("dl", { class: "run-figures", "aria-label": "Summary" },
        ...figure("Time", formatDuration(f.elapsedSeconds)), ...figure("Distance", formatDistance(f.distanceMeters)),
        ...figure("Pace", formatPace(f.paceSecondsPerKm, unit)), ...figure("Steps", String(f.steps)),
        ...(f.kcal !== null ? figure("Calories", `${Math.round(f.kcal)} kcal`) : [])),
    ];
    const save = state.save;
    if (!save) {
      parts.push(h("div", { class: "button-row" },
        h("button", { class: "button", type: "button", onclick: save_ }, "Save run"),
        h("button", { class: "button button--secondary", type: "button", onclick: discard }, "Discard")));
    } else if (save.state === "synced") {
      parts.push(h("p", { role: "status" }, "Your run is saved. ",
        h("a", { href: `#/activities/${run.id}` }, "See it in your activities")));
    } else if (save.state === "guest") {
      parts.push(h("p", { role: "status" }, "Kept on this device: log in or create an account and this run joins your activities."));
    } else if (save.state === "failed") {
      parts.push(h("p", { class: "notice notice--error", role: "alert" }, `Your run was not saved: ${save.error}`),
        h("button", { class: "button", type: "button", onclick: () => outbox.retry(save.id) }, "Try again"));
    } else {
      parts.push(h("p", { role: "status" }, save.error
        ? "Kept on this device: your run is sent as soon as the server can be reached."
        : "Saving your run…"));
    }
    return parts;
  }

  function save_() {
    save().catch((error) => {
      state.error = error.message;
      update();
    });
  }
}

function figure(term, value) {
  return [h("dt", {}, term), h("dd", {}, value)];
}
