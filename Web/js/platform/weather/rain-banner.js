// A banner that recommends the sheltered route when the 2-hour nowcast for a place predicts rain
// (run-route-planner 8.3.1). It stays hidden while dry, unknown or dismissed. The host decides what
// choosing does: the run planner turns its shelter toggle on; Home opens the planner with shelter on.
import { h, icon } from "../dom.js";
import { clockTime, fetchWeather } from "./weather-api.js";
import { umbrellaPath } from "./weather-icons.js";

const refreshMs = 10 * 60 * 1000;

/**
 * Creates the banner. `location` is { lat, lon } or null; `onChoose(nowcast)` runs when the person taps
 * the action, labelled `actionLabel`. Returns { element, update({ location }), refresh(), destroy() }.
 */
export function createRainBanner({ location = null, onChoose, actionLabel = "Use a sheltered route" } = {}) {
  const element = h("section", { class: "rain-banner", "aria-label": "Rain warning", "aria-live": "polite", hidden: true });
  let current = location;
  let dismissed = false;
  let generation = 0;

  const hide = () => {
    element.hidden = true;
    element.replaceChildren();
  };

  const show = (answer) => {
    const report = answer.report;
    const when = report.rain_starts_at && new Date(report.rain_starts_at) > new Date()
      ? `Rain expected from ${clockTime(report.rain_starts_at)}`
      : "Rain expected within 2 hours";
    const where = report.area ? `${report.summary} in ${report.area}. ` : "";
    const stale = answer.stale ? " (from an earlier forecast)" : "";
    element.replaceChildren(
      h("div", { class: "rain-banner__icon" }, icon(umbrellaPath)),
      h("div", { class: "rain-banner__text" },
        h("p", { class: "rain-banner__title" }, `${when}${stale}`),
        h("p", { class: "small" }, `${where}A sheltered route keeps you under cover where it can.`),
        h("button", {
          class: "button", type: "button",
          onclick: () => {
            dismissed = true;
            hide();
            onChoose?.(report);
          },
        }, actionLabel),
      ),
      h("button", {
        class: "icon-button rain-banner__dismiss", type: "button", "aria-label": "Dismiss rain warning",
        onclick: () => {
          dismissed = true;
          hide();
        },
      }, icon("M6 6l12 12 M18 6 6 18")),
    );
    element.hidden = false;
  };

  // aria-busy says whether the nowcast is still being asked for (so a hidden banner means "no rain").
  const refresh = async () => {
    const asked = ++generation;
    if (!current || dismissed) return hide();
    element.setAttribute("aria-busy", "true");
    let answer;
    try {
      answer = await fetchWeather("nowcast", current);
    } catch {
      answer = null;
    }
    if (asked !== generation) return;
    if (answer?.report?.rain && !dismissed) show(answer);
    else hide();
    element.setAttribute("aria-busy", "false");
  };

  const timer = setInterval(() => { if (document.visibilityState === "visible") refresh(); }, refreshMs);
  refresh();

  return {
    element,
    /** Watches another place; a warning dismissed for the last one may show again. */
    update({ location }) {
      current = location;
      dismissed = false;
      refresh();
    },
    refresh,
    destroy() {
      generation += 1;
      clearInterval(timer);
    },
  };
}
