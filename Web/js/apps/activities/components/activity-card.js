// One activity in a history list (run-route-planner 9; Trailz 3.2.3.6.1): its route image, name, date,
// distance, time and pace (a hike: average speed), linking to its page.
import { h } from "../../../platform/dom.js";
import { formatDistance, formatSpeed } from "../../../platform/units.js";
import { formatDuration, formatPace } from "../figures.js";

/** `summary` is an ActivitySummary of the API; `unit` the person's distance unit. */
export function createActivityCard({ summary, unit }) {
  const day = new Date(summary.started_at).toLocaleDateString(undefined, { weekday: "short", day: "numeric", month: "short", year: "numeric" });
  const speedOrPace = summary.kind === "run"
    ? `Pace ${formatPace(summary.pace_s_per_km, unit)}`
    : `Average ${formatSpeed(summary.average_speed_mps * 3.6)}`;
  const element = h("li", { class: "activity-card" },
    h("a", { class: "activity-card__link", href: `#/activities/${summary.id}` },
      h("img", { class: "activity-card__image", src: summary.image_url, alt: `Route of ${summary.name}`, loading: "lazy", width: "640", height: "400" }),
      h("span", { class: "activity-card__title" }, summary.name),
      h("span", { class: "activity-card__date muted small" }, `${summary.kind === "run" ? "Run" : "Hike"} · ${day}`),
      h("span", { class: "activity-card__figures" },
        `${formatDistance(summary.distance_m)} · ${formatDuration(summary.elapsed_s)} · ${speedOrPace}`)));
  return { element, update() {}, destroy() {} };
}
