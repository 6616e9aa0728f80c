// The moderators' queue, `#/moderation` (admins): reported reviews, forum posts and messages, oldest report
// first, with the reasons people gave (never who they are); Hide (with a reason its author sees), Restore,
// Dismiss.
import { loadAccount } from "../../../platform/account.js";
import { h } from "../../../platform/dom.js";
import { openSheet } from "../../../platform/sheet.js";
import * as community from "../api.js";
import { shortTime } from "../people.js";

const kindNames = { review: "Review", post: "Forum post", message: "Message" };

export async function render(container) {
  const account = await loadAccount();
  if (!["moderator", "admin"].includes(account?.role)) {
    container.append(h("div", { class: "empty-state" }, h("h2", {}, "For moderators"), h("p", {}, "Only the moderators of this Cairn can see reported content.")));
    return;
  }
  const status = h("p", { class: "muted", role: "status" });
  const list = h("ul", { class: "moderation-list", "aria-label": "Reported content" });
  container.append(status, list);

  async function load() {
    try {
      const queue = await community.moderationQueue();
      status.textContent = queue.items.length ? `${queue.items.length} reported ${queue.items.length === 1 ? "item waits" : "items wait"}.` : "Nothing is waiting. Well done.";
      list.replaceChildren(...queue.items.map((item) => h("li", {}, card(item))));
    } catch (error) {
      status.textContent = error.message;
    }
  }

  function card(item) {
    const label = `${kindNames[item.kind]} by ${item.author.name}`;
    const decide = async (action, reason) => {
      try {
        await community.decideReport(item.kind, item.content_id, action, reason);
        await load();
      } catch (error) {
        status.textContent = error.message;
      }
    };
    return h("article", { class: "review moderation-item", "aria-label": label },
      h("p", { class: "review__author" }, label),
      h("p", { class: "small muted" }, item.link ? h("a", { href: item.link }, item.context) : item.context),
      item.status === "hidden" ? h("p", { class: "notice notice--info" }, "Hidden now") : null,
      item.text ? h("p", { class: "review__text" }, item.text) : h("p", { class: "muted" }, "(no text)"),
      item.photo_url ? h("img", { class: "forum-post__photo", src: item.photo_url, alt: `Photo in the ${kindNames[item.kind].toLowerCase()}` }) : null,
      h("p", { class: "small" }, `${item.open_reports === 1 ? "1 report" : `${item.open_reports} reports`} since ${shortTime(item.first_reported_at)}:`),
      h("ul", { class: "moderation-reasons" }, item.reasons.map((reason) => h("li", {}, reason))),
      h("div", { class: "button-row" },
        item.status === "hidden"
          ? h("button", { class: "button", type: "button", onclick: () => decide("restore") }, "Restore")
          : h("button", { class: "button button--danger", type: "button", onclick: () => hide(item, decide) }, "Hide"),
        h("button", { class: "button button--secondary", type: "button", onclick: () => decide("dismiss") }, "Dismiss")));
  }

  function hide(item, decide) {
    const reason = h("textarea", { id: `hide-reason-${item.content_id}`, rows: 3, maxlength: 500 });
    const error = h("p", { class: "field-error", "aria-live": "polite" });
    const sheet = openSheet({
      title: "Hide this content",
      content: [
        h("p", {}, "Others stop seeing it at once. Its author sees it hidden, with your reason."),
        h("div", { class: "field" }, h("label", { for: reason.id }, "Reason shown to the author"), reason, error),
        h("div", { class: "button-row" },
          h("button", { class: "button button--danger", type: "button", onclick: async () => {
            if (!reason.value.trim()) {
              error.textContent = "Say why it is hidden; its author sees it.";
              return;
            }
            sheet.close();
            await decide("hide", reason.value);
          } }, "Hide"),
          h("button", { class: "button button--secondary", type: "button", onclick: () => sheet.close() }, "Cancel")),
      ],
    });
  }

  await load();
}
