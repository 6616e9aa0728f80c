// One kept route in the planned-routes list: tap to see it on the map; Delete asks first. Routes still in
// the outbox (saved offline, not yet on the server) are listed with what is happening to them.
import { h } from "../../../platform/dom.js";
import { formatDistance } from "../../../platform/units.js";
import { formatShare } from "../api.js";

/**
 * A kept route `summary` (GET /api/runs/planned). `onShow()` and `onDelete()` run on taps.
 * Returns { element, update({ shown, error }), destroy() }.
 */
export function createPlannedRunItem({ summary, onShow, onDelete }) {
  const length = formatDistance(summary.length_m);
  const select = h("button", { class: "route-card__select", type: "button", "aria-pressed": "false", onclick: onShow },
    h("span", { class: "route-card__title" }, `${length} loop`),
    h("span", { class: "route-card__detail" },
      [
        `${formatDistance(summary.distance_km * 1000)} asked`,
        summary.sheltered ? "Shelter-optimised" : "Standard",
        formatShare(summary.sheltered_share),
        summary.landmark?.name ? `via ${summary.landmark.name}` : null,
        new Date(summary.created_at).toLocaleString([], { dateStyle: "medium", timeStyle: "short" }),
      ].filter(Boolean).join(" · ")));
  const remove = h("button", {
    class: "button button--secondary route-card__delete", type: "button", "aria-label": `Delete the ${length} route`, onclick: onDelete,
  }, "Delete");
  const error = h("p", { class: "notice notice--error route-card__error", role: "alert", hidden: true });
  const element = h("li", { class: "route-card", dataset: { id: summary.id } }, select, remove, error);
  return {
    element,
    update({ shown, error: message = "" }) {
      select.setAttribute("aria-pressed", String(shown));
      element.classList.toggle("route-card--selected", shown);
      error.hidden = !message;
      error.textContent = message;
    },
    destroy() {},
  };
}

/**
 * A route waiting in the outbox (`item`). `onRetry()` and `onDiscard()` run on taps (offered once the server
 * has refused it). Returns { element, update({ item }), destroy() }.
 */
export function createWaitingRunItem({ onRetry, onDiscard }) {
  const title = h("span", { class: "route-card__title" });
  const detail = h("span", { class: "route-card__detail" });
  const actions = h("div", { class: "button-row" });
  const element = h("li", { class: "route-card route-card--waiting" }, h("div", { class: "route-card__text" }, title, detail), actions);
  return {
    element,
    update({ item }) {
      title.textContent = item.label;
      if (item.state === "failed") {
        detail.textContent = `Not saved: ${item.error}`;
        actions.replaceChildren(
          h("button", { class: "button button--secondary", type: "button", onclick: onRetry }, "Try again"),
          h("button", { class: "button button--secondary", type: "button", onclick: onDiscard }, "Discard"));
      } else {
        detail.textContent = item.error
          ? "Kept on this device: it is saved here as soon as the server can be reached."
          : "Saving…";
        actions.replaceChildren();
      }
    },
    destroy() {},
  };
}
