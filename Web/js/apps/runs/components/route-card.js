// One planned route's card (run-route-planner 5.4–5.7): its colour, length, the time it takes at the person's
// pace, its sheltered share, and whether it is a loop or repeats some of its ground (a lollipop or an out and
// back, with the stretch run twice named); tapping it selects the route, and the selected card offers to start
// it now or keep it. What happened to a save (sending, kept on the device
// until the server can be reached, saved, refused) is said in the card, under its button.
import { h } from "../../../platform/dom.js";
import { formatDistance } from "../../../platform/units.js";
import { formatShare } from "../api.js";
import { formatDuration, formatPace, paceUnit, routeKindName } from "../route-facts.js";
import { routeColour } from "./route-layers.js";

/**
 * Creates the card of `route`, the `index`th of its plan; `pace` is { secondsPerKm, unit } for the estimated
 * time. `onSelect()`, `onSave()`, `onRetry()` and
 * `onStart()` (follow it now, run-route-planner 6) run on the person's taps. Returns { element, update({ selected, save }), destroy() } where `save` is null or
 * { state: "pending" | "sending" | "synced" | "failed" | "guest", error }.
 */
export function createRouteCard({ route, index, pace, onSelect, onSave, onRetry, onStart }) {
  const name = `Route ${index + 1}`;
  const time = `About ${formatDuration(route.length_m, pace.secondsPerKm)} at ${formatPace(pace.secondsPerKm, pace.unit)} ${paceUnit(pace.unit)}`;
  const kind = route.repeat_summary ? `${routeKindName(route.kind)}: ${route.repeat_summary}` : routeKindName(route.kind);
  const select = h("button", { class: "route-card__select", type: "button", "aria-pressed": "false", onclick: onSelect },
    h("span", { class: "route-card__title" }, name),
    h("span", { class: "route-card__length" }, formatDistance(route.length_m)),
    h("span", { class: "route-card__detail" }, `${time} · ${formatShare(route.sheltered_share)}`),
    h("span", { class: `route-card__kind${route.kind === "loop" ? "" : " route-card__kind--repeats"}` }, kind));
  const actions = h("div", { class: "route-card__actions" });
  const element = h("li", { class: "route-card", style: `--route-colour:${routeColour(index)}` }, select, actions);
  let shown = null;

  const startButton = () => h("button", { class: "button route-card__start", type: "button", onclick: onStart }, "Start this run");
  const render = ({ selected, save }) => [...(selected ? [startButton()] : []), ...renderSave({ selected, save })];
  const renderSave = ({ selected, save }) => {
    if (!selected && !save) return [];
    const waiting = save && (save.state === "pending" || save.state === "sending");
    const button = (label, options = {}) => h("button", { class: "button button--secondary route-card__save", type: "button", ...options }, label);
    if (!save) return [button("Save this route", { onclick: onSave })];
    if (save.state === "synced") {
      return [button("Saved to my planned routes", { disabled: true }),
        h("p", { class: "route-card__status", role: "status" }, `${name} is in your planned routes. `, h("a", { href: "#/runs/planned" }, "See my planned routes"))];
    }
    if (save.state === "failed") {
      return [button("Try again", { onclick: onRetry }),
        h("p", { class: "route-card__status notice notice--error", role: "alert" }, `${name} was not saved: ${save.error}`)];
    }
    if (save.state === "guest") {
      return [button("Kept for your account", { disabled: true }),
        h("p", { class: "route-card__status", role: "status" }, `Kept on this device: log in or create an account and ${name.toLowerCase()} joins your planned routes.`)];
    }
    return [button(waiting && save.error ? "Waiting to be sent" : "Saving…", { disabled: true }),
      h("p", { class: "route-card__status", role: "status" }, save.error
        ? `Kept on this device: ${name.toLowerCase()} goes to your planned routes as soon as the server can be reached.`
        : `Saving ${name.toLowerCase()}…`)];
  };

  return {
    element,
    update({ selected, save }) {
      select.setAttribute("aria-pressed", String(selected));
      element.classList.toggle("route-card--selected", selected);
      const key = JSON.stringify({ selected, save: save && { state: save.state, error: save.error } });
      if (key === shown) return;
      shown = key;
      const hadFocus = actions.contains(document.activeElement);
      actions.replaceChildren(...render({ selected, save }));
      if (hadFocus) actions.querySelector("button:not(:disabled), a")?.focus();
    },
    destroy() {},
  };
}
