// Every completed run and hike, newest first (run-route-planner 9.1), each with its route image; the list
// last seen is kept on the device, so it opens with no connection. Activities saved offline and still
// waiting in the outbox are listed first. Needs an account.
import { accountNeededPanel, loadAccount } from "../../../platform/account.js";
import { h } from "../../../platform/dom.js";
import { outbox } from "../../../platform/offline/outbox.js";
import { offlineStore } from "../../../platform/offline/store.js";
import { getSettings } from "../../../platform/settings.js";
import { listActivities } from "../api.js";
import { createActivityCard } from "../components/activity-card.js";
import { createPrivacyZone } from "../components/privacy-zone.js";

export async function render(container) {
  if (!(await loadAccount())) {
    container.append(accountNeededPanel("keep your runs and hikes"));
    return;
  }
  const unit = getSettings().distance;
  const status = h("p", { class: "muted small", role: "status" }, "Loading your activities…");
  const waiting = h("ul", { class: "activity-cards", "aria-label": "Waiting to be sent" });
  const list = h("ul", { class: "activity-cards", "aria-label": "My activities" });
  container.append(
    h("div", { class: "run-header" }, h("h2", {}, "My activities"),
      h("span", { class: "run-header__links" }, h("a", { href: "#/runs" }, "Plan a run"), h("a", { href: "#/hikes" }, "My hikes"))),
    status, waiting, list, createPrivacyZone().element);

  const pending = (await outbox.items({ app: "activities", kind: "activity" })).filter((item) => item.state !== "synced");
  waiting.hidden = !pending.length;
  waiting.replaceChildren(...pending.map((item) => h("li", { class: "activity-card" },
    h("span", { class: "activity-card__title" }, item.label),
    h("span", { class: "muted small" }, item.state === "failed" ? `Not saved: ${item.error}` : "Kept on this device, waiting to be sent"))));

  try {
    const { value, offline, savedAt } = await offlineStore("activities").load("history", () => listActivities({ limit: 100 }));
    list.replaceChildren(...value.activities.map((summary) => createActivityCard({ summary, unit }).element));
    status.textContent = value.total === 0
      ? "No activities yet. Plan a run, follow it, and save it: it appears here."
      : `${value.total} ${value.total === 1 ? "activity" : "activities"}` +
        (offline ? ` · offline, as last seen ${new Date(savedAt).toLocaleString()}` : "");
  } catch (error) {
    status.textContent = `Your activities cannot be shown: ${error.message}`;
  }
}
