// Messages (the Messages tab, Trailz 3.2.6.1): conversations, latest first, with their unread counts; the floating
// button starts a new one. Live: the person's own topic says when a conversation changed.
import { accountNeededPanel, loadAccount } from "../../../platform/account.js";
import { h, icon } from "../../../platform/dom.js";
import { subscribe } from "../../../platform/realtime.js";
import * as community from "../api.js";
import { personAvatar, shortTime } from "../people.js";

export async function render(container) {
  const account = await loadAccount();
  if (!account) {
    container.append(accountNeededPanel("message your friends"));
    return;
  }
  const list = h("ul", { class: "thread-list", "aria-label": "Conversations" });
  const status = h("p", { class: "muted", role: "status" });
  container.append(
    status,
    list,
    h("a", { class: "fab", href: "#/messages/new", "aria-label": "New message" }, icon("M12 5v14 M5 12h14")),
  );

  let stopped = false;
  let unsubscribe = () => {};
  const load = async () => {
    let data;
    try {
      data = await community.threads();
    } catch (error) {
      status.textContent = error.message;
      return;
    }
    if (stopped) return;
    status.textContent = data.threads.length ? "" : "No conversations yet. Tap + to write to a friend.";
    list.replaceChildren(...data.threads.map(threadItem));
    if (!unsubscribe.topic) {
      unsubscribe = subscribe(data.topic, { onEvent: load, onReset: load });
      unsubscribe.topic = data.topic;
    }
  };
  await load();
  return () => {
    stopped = true;
    unsubscribe();
  };
}

function threadItem(thread) {
  const names = thread.members.map((person) => person.name).join(", ") || "Only you";
  const last = thread.last_message;
  const preview = !last ? "No messages yet"
    : last.deleted ? "Message deleted"
      : last.kind === "text" ? `${last.author?.name ?? "deleted user"}: ${last.text}` : last.text;
  return h("li", {},
    h("a", { class: `thread-item${thread.unread ? " thread-item--unread" : ""}`, href: `#/messages/${thread.id}` },
      personAvatar(thread.members[0]),
      h("span", { class: "thread-item__text" },
        h("span", { class: "thread-item__names" }, names),
        h("span", { class: "thread-item__preview" }, preview)),
      h("span", { class: "thread-item__meta" },
        last ? h("span", { class: "small muted" }, shortTime(last.sent_at)) : null,
        thread.unread ? h("span", { class: "count-badge", "aria-label": `${thread.unread} unread` }, String(thread.unread)) : null)));
}
