// One activity (run-route-planner 9.2): the route image drawn by the server over the street network, total
// distance, total time and pace (a hike: average speed, steps, calories), GPX download, delete. Kept on
// the device once seen, so it opens with no connection. Needs an account.
import { accountNeededPanel, loadAccount } from "../../../platform/account.js";
import { api } from "../../../platform/api.js";
import { h } from "../../../platform/dom.js";
import { offlineStore } from "../../../platform/offline/store.js";
import { confirmSheet } from "../../../platform/sheet.js";
import { getSettings } from "../../../platform/settings.js";
import { formatDistance, formatElevation, formatSpeed } from "../../../platform/units.js";
import { deleteActivity, getActivity } from "../api.js";
import { formatDuration, formatPace } from "../figures.js";

export async function render(container, params) {
  if (!(await loadAccount())) {
    container.append(accountNeededPanel("keep your runs and hikes"));
    return;
  }
  const unit = getSettings().distance;
  const status = h("p", { class: "muted small", role: "status" }, "Loading…");
  container.append(status);
  let activity;
  try {
    ({ value: activity } = await offlineStore("activities").load(`activity/${params.id}`, () => getActivity(params.id)));
  } catch (error) {
    status.textContent = error.status === 404 ? "There is no such activity among yours." : `This activity cannot be shown: ${error.message}`;
    return;
  }
  status.remove();
  const when = new Date(activity.started_at).toLocaleString(undefined, { dateStyle: "full", timeStyle: "short" });
  const rows = [
    ["Distance", formatDistance(activity.distance_m)],
    ["Time", formatDuration(activity.elapsed_s)],
    activity.kind === "run" ? ["Pace", formatPace(activity.pace_s_per_km, unit)] : ["Average speed", formatSpeed(activity.average_speed_mps * 3.6)],
    ["Moving time", formatDuration(activity.moving_s)],
    ["Steps", String(activity.steps)],
    activity.kcal != null ? ["Calories", `${Math.round(activity.kcal)} kcal`] : null,
    activity.elevation_gain_m != null ? ["Climb", formatElevation(activity.elevation_gain_m)] : null,
    activity.rating ? ["Rating", `${activity.rating} of 5 stars`] : null,
  ].filter(Boolean);
  const error = h("p", { class: "notice notice--error", role: "alert", hidden: true });
  const image = h("img", { class: "activity-image", src: activity.image_url, alt: `Route of ${activity.name}`, width: "640", height: "400" });
  const gpxLink = h("a", { class: "button button--secondary", href: activity.gpx_url, download: "" }, "Download GPX");
  // With a privacy zone, the owner can see (and download) what anyone else would: the track trimmed so that
  // it starts and ends outside the zone (docs/activities.md).
  const othersNote = h("p", { class: "muted small", role: "status" });
  const othersToggle = h("button", { class: "button button--secondary", type: "button", "aria-pressed": "false", hidden: true, onclick: toggleOthers }, "As others see it");
  container.append(
    h("div", { class: "run-header" }, h("h2", {}, activity.name)),
    h("p", { class: "muted" }, `${activity.kind === "run" ? "Run" : "Hike"} · ${when}`),
    image, othersNote,
    h("dl", { class: "run-figures activity-figures", "aria-label": "Figures" }, rows.flatMap(([term, value]) => [h("dt", {}, term), h("dd", {}, value)])),
    h("div", { class: "button-row" }, gpxLink, othersToggle,
      h("button", { class: "button button--danger", type: "button", onclick: remove }, "Delete")),
    error,
  );
  api("/api/activities/privacy").then((zone) => { othersToggle.hidden = !(zone.radius_m > 0); }).catch(() => {});

  function toggleOthers() {
    const others = othersToggle.getAttribute("aria-pressed") !== "true";
    othersToggle.setAttribute("aria-pressed", String(others));
    const publicly = (url) => `${url}${url.includes("?") ? "&" : "?"}visibility=public`;
    image.src = others ? publicly(activity.image_url) : activity.image_url;
    image.alt = others ? `Route of ${activity.name} as others see it` : `Route of ${activity.name}`;
    gpxLink.href = others ? publicly(activity.gpx_url) : activity.gpx_url;
    gpxLink.textContent = others ? "Download GPX as others see it" : "Download GPX";
    othersNote.textContent = others ? "As others see it: the start and end within your privacy zone are hidden." : "";
  }

  async function remove() {
    const sure = await confirmSheet({
      title: "Delete this activity?", text: `${activity.name} and its track are deleted for good.`,
      confirmLabel: "Delete", danger: true,
    });
    if (!sure) return;
    try {
      await deleteActivity(activity.id);
      await offlineStore("activities").delete(`activity/${activity.id}`);
      location.hash = "#/activities";
    } catch (failure) {
      error.hidden = false;
      error.textContent = `Not deleted: ${failure.message}`;
    }
  }
}
