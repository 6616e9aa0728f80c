// The researchers' review queue: observations waiting for a check, oldest first, each verified or rejected
// with a reason the observer will read. Researchers and admins only (the server enforces it).
import { loadAccount } from "../../../platform/account.js";
import { h } from "../../../platform/dom.js";
import { field, form, submit } from "../../../platform/forms.js";
import { openSheet } from "../../../platform/sheet.js";
import { reviewQueue, verifyObservation } from "../api.js";

export async function render(container) {
  const account = await loadAccount();
  if (!account || !["researcher", "admin"].includes(account.role)) {
    container.append(h("div", { class: "empty-state" }, h("h2", {}, "For researchers"),
      h("p", {}, "Only researchers verify observations. Ask an administrator to give your account the researcher role.")));
    return;
  }
  const status = h("p", { class: "muted small", role: "status" }, "Loading the queue…");
  const list = h("ul", { class: "list flora-sync", "aria-label": "Observations to review" });
  container.append(h("h2", {}, "Observations to review"), status, list);

  async function refresh() {
    try {
      const { observations } = await reviewQueue();
      status.textContent = observations.length ? `${observations.length} waiting.` : "Nothing waits for review.";
      list.replaceChildren(...observations.map(item));
    } catch (error) {
      status.textContent = error.message;
    }
  }

  function item(observation) {
    const decide = async (decision, reason) => {
      await verifyObservation(observation.id, decision, reason);
      await refresh();
    };
    return h("li", { class: "flora-sync__item" },
      h("p", {}, h("strong", {}, observation.species_common_name), " ", h("i", {}, observation.species_scientific_name)),
      h("p", { class: "muted small" },
        `${new Date(observation.observed_at).toLocaleString()} · ${observation.recorded_by} · ${observation.latitude.toFixed(5)}, ${observation.longitude.toFixed(5)}`),
      observation.thumbnail_url ? h("img", { class: "flora-preview", src: observation.thumbnail_url, alt: `Photo by ${observation.recorded_by}` }) : null,
      observation.comment ? h("p", {}, observation.comment) : null,
      h("div", { class: "button-row" },
        h("button", { class: "button button--small", type: "button", onclick: () => decide("verified") }, `Verify ${observation.species_common_name}`),
        h("button", {
          class: "button button--secondary button--small", type: "button",
          onclick: () => {
            const sheet = openSheet({
              title: "Reject this observation",
              content: [form(async (element) => {
                await decide("rejected", element.querySelector("[name=reason]").value.trim());
                sheet.close();
              }, field("reason", "Reason (the observer reads it)", { multiline: true, maxlength: 500 }), submit("Reject"))],
            });
          },
        }, "Reject")));
  }

  await refresh();
}
