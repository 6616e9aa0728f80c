// A plan's results (run-route-planner 5.4–5.7): the shortfall note with what to change, the legend, a card per
// route and "Show other routes", whose error shows beside it. The cards are made once per plan (and pace);
// selection and saves update them.
import { h } from "../../../platform/dom.js";
import { formatDistance } from "../../../platform/units.js";
import { createRouteCard } from "./route-card.js";
import { routeColour } from "./route-layers.js";

/**
 * Creates the results. `onSelect(index)`, `onSave(index)`, `onRetry(index)`, `onStart(index)`, `onOtherRoutes()` and
 * `onChangePlan()` run on the person's taps. Returns { element, update({ plan, pace, selected, saves, otherError,
 * busy }), destroy() } where `saves` maps a route's index to its save (see createRouteCard) and `pace` is
 * { secondsPerKm, unit }.
 */
export function createPlanResults({ onSelect, onSave, onRetry, onStart, onOtherRoutes, onChangePlan }) {
  const element = h("div", { class: "run-results" });
  const otherError = h("p", { class: "notice notice--error", role: "alert", hidden: true });
  const otherButton = h("button", { class: "button button--secondary", type: "button", onclick: onOtherRoutes }, "Show other routes");
  let shownPlan = null;
  let shownPace = null;
  let cards = [];

  const legend = (plan) => h("ul", { class: "route-legend", "aria-label": "Legend" },
    plan.routes.map((route, index) => h("li", {},
      h("span", { class: "route-legend__swatch", style: `background:${routeColour(index)}`, "aria-hidden": "true" }),
      `Route ${index + 1} · ${formatDistance(route.length_m)}`)),
    h("li", {},
      h("span", { class: "route-legend__swatch route-legend__swatch--sheltered", "aria-hidden": "true" }),
      "Sheltered sections (white dashes)"),
    plan.landmark ? h("li", {}, h("span", { class: "route-legend__dot", "aria-hidden": "true" }), plan.landmark.name) : null,
  );

  return {
    element,
    update({ plan, pace, selected, saves, otherError: otherMessage, busy }) {
      const paceKey = `${pace.secondsPerKm}${pace.unit}`;
      if (plan !== shownPlan || paceKey !== shownPace) {
        shownPlan = plan;
        shownPace = paceKey;
        cards.forEach((card) => card.destroy());
        cards = plan ? plan.routes.map((route, index) => createRouteCard({
          route, index, pace, onSelect: () => onSelect(index), onSave: () => onSave(index), onRetry: () => onRetry(index),
          onStart: () => onStart(index),
        })) : [];
        element.replaceChildren(...(plan ? [
          plan.shortfall ? h("div", { class: "notice notice--info run-shortfall", role: "note" },
            h("p", {}, plan.shortfall.message),
            h("button", { class: "button button--secondary", type: "button", onclick: onChangePlan }, "Change the plan")) : null,
          legend(plan),
          h("ul", { class: "route-cards", "aria-label": "Planned routes" }, cards.map((card) => card.element)),
          h("div", { class: "button-row" }, otherButton),
          otherError,
        ].filter(Boolean) : []));
      }
      cards.forEach((card, index) => card.update({ selected: selected === index, save: saves.get(index) ?? null }));
      otherButton.disabled = busy;
      otherError.hidden = !otherMessage;
      otherError.textContent = otherMessage;
    },
    destroy() {
      cards.forEach((card) => card.destroy());
    },
  };
}
