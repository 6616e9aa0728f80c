// The routes a runner kept from the planner (run-route-planner 5.7), newest first: each on the map when
// chosen, and deletable. Needs an account.
import { accountNeededPanel, loadAccount } from "../../../platform/account.js";
import { h } from "../../../platform/dom.js";
import { createBaseMap } from "../../../platform/map/base-map.js";
import { createRouteLayers } from "../components/route-layers.js";
import { deletePlannedRun, formatLength, formatShare, getPlannedRun, listPlannedRuns } from "../api.js";

export async function render(container) {
  if (!(await loadAccount())) {
    container.append(accountNeededPanel("keep planned routes"));
    return;
  }
  const status = h("p", { class: "muted small", role: "status" }, "Loading your planned routes…");
  const mapElement = h("div", { class: "run-map" });
  const list = h("ul", { class: "planned-runs", "aria-label": "My planned routes" });
  container.append(
    h("div", { class: "run-header" }, h("h2", {}, "My planned routes"), h("a", { href: "#/runs" }, "Plan a run")),
    mapElement,
    status,
    list,
  );
  const { map, destroy } = await createBaseMap(mapElement, { label: "Planned route map" });
  const layers = createRouteLayers(map);
  let shown = null;

  const show = async (summary) => {
    shown = summary.id;
    markShown();
    try {
      const run = await getPlannedRun(summary.id);
      if (shown !== summary.id) return;
      layers.show([run], { start: run.start, landmark: null });
      layers.select(0);
    } catch (error) {
      status.textContent = error.message;
    }
  };

  const markShown = () => {
    for (const item of list.children) {
      const pressed = item.dataset.id === shown;
      item.classList.toggle("route-card--selected", pressed);
      item.querySelector(".route-card__select").setAttribute("aria-pressed", String(pressed));
    }
  };

  const remove = async (summary, item) => {
    try {
      await deletePlannedRun(summary.id);
      item.remove();
      status.textContent = `Deleted the ${formatLength(summary.length_m)} route.`;
      if (shown === summary.id) {
        shown = null;
        layers.clear();
      }
      if (!list.children.length) empty();
    } catch (error) {
      status.textContent = error.message;
    }
  };

  const empty = () => {
    list.replaceChildren();
    status.replaceChildren("No planned routes yet. ", h("a", { href: "#/runs" }, "Plan a run"), " and save the route you like.");
  };

  try {
    const { planned_runs: runs } = await listPlannedRuns();
    if (!runs.length) {
      empty();
    } else {
      status.textContent = `${runs.length} planned ${runs.length === 1 ? "route" : "routes"}, newest first.`;
      list.replaceChildren(...runs.map((summary) => {
        const item = h("li", { class: "route-card", dataset: { id: summary.id } },
          h("button", { class: "route-card__select", type: "button", "aria-pressed": "false", onclick: () => show(summary) },
            h("span", { class: "route-card__title" }, `${formatLength(summary.length_m)} loop`),
            h("span", { class: "route-card__detail" },
              [
                `${summary.distance_km} km asked`,
                summary.sheltered ? "Shelter-optimised" : "Standard",
                formatShare(summary.sheltered_share),
                summary.landmark?.name ? `via ${summary.landmark.name}` : null,
                new Date(summary.created_at).toLocaleString([], { dateStyle: "medium", timeStyle: "short" }),
              ].filter(Boolean).join(" · "))),
          h("button", {
            class: "button button--secondary route-card__delete", type: "button",
            "aria-label": `Delete the ${formatLength(summary.length_m)} route`,
            onclick: () => remove(summary, item),
          }, "Delete"),
        );
        return item;
      }));
      show(runs[0]);
    }
  } catch (error) {
    status.textContent = error.message;
  }

  return () => destroy();
}
