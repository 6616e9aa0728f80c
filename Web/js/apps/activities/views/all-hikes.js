// All Trails (Trailz 3.2.3.6.5): the whole hike history, newest first by default; the Sort button opens
// a list of Date, Trail name, Difficulty (easy first) and State, each re-ordering the cards.
import { accountNeededPanel, loadAccount } from "../../../platform/account.js";
import { h } from "../../../platform/dom.js";
import { openSheet } from "../../../platform/sheet.js";
import { listActivities } from "../api.js";
import { historyCard } from "./hikes.js";

const orders = [["date", "Date"], ["name", "Trail name"], ["difficulty", "Difficulty"], ["region", "State"]];

export async function render(container, params, query) {
  if (!(await loadAccount())) {
    container.append(accountNeededPanel("keep your hikes"));
    return;
  }
  const sort = orders.some(([key]) => key === query.get("sort")) ? query.get("sort") : "date";
  const label = orders.find(([key]) => key === sort)[1];
  const status = h("p", { class: "muted small", role: "status" }, "Loading your hikes…");
  const list = h("ul", { class: "activity-cards", "aria-label": "All hikes" });
  container.append(
    h("div", { class: "run-header" }, h("h2", {}, "All Trails"),
      h("button", { class: "button button--secondary", type: "button", onclick: chooseOrder }, `Sort: ${label}`)),
    status, list);

  try {
    const pages = [];
    let offset = 0;
    for (;;) {
      const page = await listActivities({ kind: "hike", sort, limit: 100, offset });
      pages.push(...page.activities);
      offset += page.activities.length;
      if (!page.activities.length || offset >= page.total) break;
    }
    list.replaceChildren(...pages.map((summary) => h("li", { class: "activity-card" }, historyCard(summary))));
    status.textContent = `${pages.length} ${pages.length === 1 ? "hike" : "hikes"}, by ${label.toLowerCase()}`;
  } catch (error) {
    status.textContent = `Your hikes cannot be shown: ${error.message}`;
  }

  function chooseOrder() {
    const sheet = openSheet({
      title: "Sort by",
      content: [h("div", { class: "sort-options" }, orders.map(([key, name]) => h("button", {
        class: `button ${key === sort ? "" : "button--secondary"}`, type: "button", "aria-pressed": String(key === sort),
        onclick: () => sheet.close(key),
      }, name)))],
      onClose: (result) => {
        if (orders.some(([key]) => key === result)) location.hash = `#/hikes/all?sort=${result}`;
      },
    });
  }
}
