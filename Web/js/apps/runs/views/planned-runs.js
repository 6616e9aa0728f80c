// The routes a runner kept from the planner (run-route-planner 5.7), newest first: each on the map when
// chosen, deletable after a confirmation. Routes saved offline and still waiting in the outbox come first.
// The list and the routes last seen are kept on the device, so the screen opens with no connection.
// Needs an account.
import { accountNeededPanel, loadAccount } from "../../../platform/account.js";
import { h } from "../../../platform/dom.js";
import { createBaseMap } from "../../../platform/map/base-map.js";
import { outbox } from "../../../platform/offline/outbox.js";
import { offlineStore } from "../../../platform/offline/store.js";
import { confirmSheet } from "../../../platform/sheet.js";
import { formatDistance } from "../../../platform/units.js";
import { deletePlannedRun, getPlannedRun, listPlannedRuns } from "../api.js";
import { createPlannedRunItem, createWaitingRunItem } from "../components/planned-run-item.js";
import { createRouteLayers } from "../components/route-layers.js";

/** How many of the newest routes are kept on the device with their lines, to open offline. */
const keptRoutes = 20;

export async function render(container) {
  if (!(await loadAccount())) {
    container.append(accountNeededPanel("keep planned routes"));
    return;
  }
  const store = offlineStore("runs");
  const state = { runs: [], waiting: [], shown: null, status: "Loading your planned routes…", errors: new Map(), left: false };
  const items = new Map();
  const waitingItems = new Map();

  const status = h("p", { class: "muted small", role: "status" });
  const mapElement = h("div", { class: "run-map" });
  const waitingList = h("ul", { class: "planned-runs", "aria-label": "Waiting to be sent" });
  const list = h("ul", { class: "planned-runs", "aria-label": "My planned routes" });
  container.append(
    h("div", { class: "run-header" }, h("h2", {}, "My planned routes"), h("a", { href: "#/runs" }, "Plan a run")),
    mapElement,
    status,
    waitingList,
    list,
  );
  const { map, destroy } = await createBaseMap(mapElement, { label: "Planned route map" });
  const layers = createRouteLayers(map);

  function update() {
    if (state.left) return;
    status.replaceChildren(...(typeof state.status === "string" ? [state.status] : state.status));
    waitingList.hidden = !state.waiting.length;
    waitingList.replaceChildren(...state.waiting.map((item) => {
      let entry = waitingItems.get(item.id);
      if (!entry) {
        entry = createWaitingRunItem({ onRetry: () => outbox.retry(item.id), onDiscard: () => outbox.discard(item.id) });
        waitingItems.set(item.id, entry);
      }
      entry.update({ item });
      return entry.element;
    }));
    list.replaceChildren(...state.runs.map((summary) => {
      let entry = items.get(summary.id);
      if (!entry) {
        entry = createPlannedRunItem({ summary, onShow: () => show(summary), onDelete: () => remove(summary) });
        items.set(summary.id, entry);
      }
      entry.update({ shown: state.shown === summary.id, error: state.errors.get(summary.id) });
      return entry.element;
    }));
  }

  async function refreshWaiting() {
    state.waiting = (await outbox.items({ app: "runs", kind: "planned-run" })).filter((item) => item.state !== "synced");
    update();
  }

  async function show(summary) {
    state.shown = summary.id;
    state.errors.delete(summary.id);
    update();
    try {
      const { value: run } = await store.load(`planned/${summary.id}`, () => getPlannedRun(summary.id));
      if (state.shown !== summary.id) return;
      layers.show([run], { start: run.start, landmark: null });
      layers.select(0);
    } catch (error) {
      state.errors.set(summary.id, error.status === 0 ? "This route was not kept on this device: open it once while online." : error.message);
      update();
    }
  }

  async function remove(summary) {
    const length = formatDistance(summary.length_m);
    const sure = await confirmSheet({
      title: "Delete this route?", text: `The ${length} loop leaves your planned routes for good.`,
      confirmLabel: "Delete route", cancelLabel: "Keep it", danger: true,
    });
    if (!sure) return;
    try {
      await deletePlannedRun(summary.id);
    } catch (error) {
      state.errors.set(summary.id, error.message);
      return update();
    }
    state.runs = state.runs.filter((run) => run.id !== summary.id);
    items.delete(summary.id);
    await store.delete(`planned/${summary.id}`);
    await store.set("planned-list", { planned_runs: state.runs });
    state.status = `Deleted the ${length} route.`;
    if (state.shown === summary.id) {
      state.shown = null;
      layers.clear();
    }
    if (!state.runs.length) state.status = emptyStatus();
    update();
  }

  const emptyStatus = () => ["No planned routes yet. ", h("a", { href: "#/runs" }, "Plan a run"), " and save the route you like."];

  async function load() {
    try {
      const { value, offline, savedAt } = await store.load("planned-list", listPlannedRuns);
      state.runs = value.planned_runs;
      const count = `${state.runs.length} planned ${state.runs.length === 1 ? "route" : "routes"}, newest first.`;
      const asOf = new Date(savedAt).toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
      state.status = !state.runs.length ? emptyStatus()
        : offline ? `You are offline: your routes as this device last saw them (${asOf}). ${count}` : count;
      update();
      if (state.runs.length) show(state.runs[0]);
      if (!offline) keepNewestForOffline();
    } catch (error) {
      state.status = error.message;
      update();
    }
  }

  /** Keeps the newest routes' lines on the device, one after another, so they open offline too. */
  async function keepNewestForOffline() {
    for (const summary of state.runs.slice(0, keptRoutes)) {
      if (state.left) return;
      if (await store.get(`planned/${summary.id}`)) continue;
      await store.load(`planned/${summary.id}`, () => getPlannedRun(summary.id)).catch(() => null);
    }
  }

  const stopWatchingOutbox = outbox.subscribe((item) => {
    if (item.app !== "runs") return;
    refreshWaiting();
    if (item.state === "synced") load();
  });
  await refreshWaiting();
  await load();

  return () => {
    state.left = true;
    stopWatchingOutbox();
    destroy();
  };
}
