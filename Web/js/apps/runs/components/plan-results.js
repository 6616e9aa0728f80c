// A plan's results (run-route-planner 5.4–5.7): the shortfall note, the legend, a card per route and
// "Show other routes", whose error shows beside it. The cards are made once per plan; selection and saves
// update them.
import { h } from "../../../platform/dom.js";
import { formatDistance } from "../../../platform/units.js";
import { createRouteCard } from "./route-card.js";
import { routeColour, token } from "./route-layers.js";

/**
 * Creates the results. `onSelect(index)`, `onSave(index)`, `onRetry(index)`, `onStart(index)` and `onOtherRoutes()` run on
 * the person's taps. Returns { element, update({ plan, selected, saves, otherError, busy }), destroy() }
 * where `saves` maps a route's index to its save (see createRouteCard).
 */
export function createPlanResults({ onSelect, onSave, onRetry, onStart, onOtherRoutes }) {
  const element = h("div", { class: "run-results" });
  const otherError = h("p", { class: "notice notice--error", role: "alert", hidden: true });
  const otherButton = h("button", { class: "button button--secondary", type: "button", onclick: onOtherRoutes }, "Show other routes");
  let shownPlan = null;
  let cards = [];

  const legend = (plan) => h("ul", { class: "route-legend", "aria-label": "Legend" },
    plan.routes.map((route, index) => h("li", {},
      h("span", { class: "route-legend__swatch", style: `background:${routeColour(index)}`, "aria-hidden": "true" }),
      `Route ${index + 1} · ${formatDistance(route.length_m)}`)),
    h("li", {},
      h("span", { class: "route-legend__swatch", style: `background:${token("--color-sheltered")}`, "aria-hidden": "true" }),
      "Sheltered sections"),
    plan.landmark ? h("li", {}, h("span", { class: "route-legend__dot", "aria-hidden": "true" }), plan.landmark.name) : null,
  );

  return {
    element,
    update({ plan, selected, saves, otherError: otherMessage, busy }) {
      if (plan !== shownPlan) {
        shownPlan = plan;
        cards.forEach((card) => card.destroy());
        cards = plan ? plan.routes.map((route, index) => createRouteCard({
          route, index, onSelect: () => onSelect(index), onSave: () => onSave(index), onRetry: () => onRetry(index),
          onStart: () => onStart(index),
        })) : [];
        element.replaceChildren(...(plan ? [
          plan.shortfall ? h("p", { class: "notice notice--info", role: "note" }, plan.shortfall.message) : null,
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
