// A conversation (Trailz 3.2.6.2–3.2.6.4): messages in order, own on the right, others' on the left; compose at
// the bottom (Send or Enter); edit and delete one's own through its ⋮; the conversation's ⋮ invites or removes
// friends. Live over the realtime hub; after a reconnect the hub replays what was missed, or the screen asks for
// everything after the last number it shows. Each message gets its id on this device, so a resend never
// duplicates it.
import { accountNeededPanel, loadAccount } from "../../../platform/account.js";
import { createDisclosure } from "../../../platform/disclosure.js";
import { h, icon } from "../../../platform/dom.js";
import { confirmSheet, openSheet } from "../../../platform/sheet.js";
import { subscribe } from "../../../platform/realtime.js";
import * as community from "../api.js";
import { personAvatar, shortTime } from "../people.js";
import { mergeMessages } from "../thread-state.js";

export async function render(container, params) {
  const account = await loadAccount();
  if (!account) {
    container.append(accountNeededPanel("message your friends"));
    return;
  }
  const threadId = params.id;
  let page;
  try {
    page = await community.messages(threadId, "limit=50");
  } catch (error) {
    container.append(h("div", { class: "empty-state" }, h("h2", {}, "Conversation not found"), h("p", {}, error.message),
      h("a", { class: "button", href: "#/messages" }, "Back to messages")));
    return;
  }
  const state = { thread: page.thread, messages: mergeMessages([], page.messages), more: page.more, pending: [], editing: null, ended: false };
  const me = account.id;
  let readSent = 0;
  let disclosures = [];

  const title = h("h2", { class: "conversation__title" });
  const optionsButton = h("button", { class: "icon-button icon-button--plain", type: "button", "aria-label": "Conversation options" }, "⋮");
  const optionsPanel = h("div", { class: "menu", id: `thread-options-${threadId}` });
  const threadMenu = createDisclosure({ button: optionsButton, panel: optionsPanel });
  const earlier = h("button", { class: "button button--secondary button--small", type: "button" }, "Show earlier messages");
  const list = h("ol", { class: "message-list", "aria-label": "Messages", "aria-live": "polite" });
  const banner = h("p", { class: "notice notice--info", hidden: true });
  const input = h("textarea", { id: "compose-text", rows: 1, maxlength: 4000, placeholder: "Message", "aria-label": "Message" });
  const editingNote = h("div", { class: "compose__editing", hidden: true });
  const sendButton = h("button", { class: "button", type: "submit" }, "Send");
  const compose = h("form", { class: "compose", novalidate: true }, editingNote, h("div", { class: "compose__row" }, input, sendButton));
  container.append(
    h("div", { class: "conversation" },
      h("div", { class: "conversation__head" }, title, h("div", { class: "menu-anchor" }, optionsButton, optionsPanel)),
      earlier, list, banner, compose));

  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      compose.requestSubmit();
    }
  });
  compose.addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text || state.ended) return;
    if (state.editing) {
      const editing = state.editing;
      setEditing(null);
      try {
        apply(await community.editMessage(threadId, editing.id, text));
      } catch (error) {
        showBanner(error.message);
      }
      return;
    }
    input.value = "";
    send({ id: community.newId(), text });
  });
  earlier.addEventListener("click", async () => {
    const first = state.messages[0]?.seq;
    if (!first) return;
    const older = await community.messages(threadId, `before=${first}&limit=50`);
    state.messages = mergeMessages(state.messages, older.messages);
    state.more = older.more;
    update();
  });

  async function send(item) {
    item.state = "sending";
    state.pending = [...state.pending.filter((other) => other.id !== item.id), item];
    update();
    try {
      const message = await community.sendMessage(threadId, item.id, item.text);
      state.pending = state.pending.filter((other) => other.id !== item.id);
      apply(message);
    } catch (error) {
      item.state = "failed";
      item.error = error.message;
      update();
    }
  }

  function apply(message) {
    state.messages = mergeMessages(state.messages, [message]);
    state.pending = state.pending.filter((item) => item.id !== message.id);
    update();
  }

  async function catchUp() {
    let after = state.messages.at(-1)?.seq ?? 0;
    for (;;) {
      const next = await community.messages(threadId, `after=${after}&limit=200`);
      state.thread = next.thread;
      state.messages = mergeMessages(state.messages, next.messages);
      after = state.messages.at(-1)?.seq ?? after;
      if (!next.more) break;
    }
    update();
  }

  function setEditing(message) {
    state.editing = message;
    editingNote.hidden = !message;
    editingNote.replaceChildren(...(message ? [
      h("span", {}, "Editing your message"),
      h("button", { class: "button button--secondary button--small", type: "button", onclick: () => { setEditing(null); input.value = ""; } }, "Cancel"),
    ] : []));
    sendButton.textContent = message ? "Save" : "Send";
    if (message) {
      input.value = message.text;
      input.focus();
    }
  }

  function showBanner(text) {
    banner.hidden = !text;
    banner.textContent = text ?? "";
  }

  function update() {
    disclosures.forEach((disclosure) => disclosure.destroy());
    disclosures = [];
    title.textContent = state.thread.members.map((person) => person.name).join(", ") || "Only you";
    renderThreadMenu();
    earlier.hidden = !state.more;
    const nearBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 80;
    list.replaceChildren(
      ...state.messages.map(messageItem),
      ...state.pending.map(pendingItem),
    );
    if (!state.messages.length && !state.pending.length) list.append(h("li", { class: "message-list__empty muted" }, "No messages yet. Say hello!"));
    if (nearBottom || readSent === 0) list.scrollTop = list.scrollHeight;
    compose.hidden = state.ended;
    const last = state.messages.at(-1)?.seq ?? 0;
    if (last > readSent && document.visibilityState === "visible") {
      readSent = last;
      community.markRead(threadId, last).catch(() => {});
    }
  }

  function messageItem(message) {
    if (message.kind !== "text") return h("li", { class: "message message--notice" }, message.text);
    const mine = message.author?.id === me;
    const body = message.deleted
      ? h("p", { class: "message__text message__text--deleted" }, "This message was deleted.")
      : message.hidden_reason
      ? h("p", { class: "message__text message__text--deleted" }, `Hidden by a moderator: ${message.hidden_reason}`)
      : h("p", { class: "message__text" }, message.text);
    const meta = h("p", { class: "message__meta" },
      mine ? null : `${message.author?.name ?? "deleted user"} · `,
      h("time", { datetime: message.sent_at }, shortTime(message.sent_at)),
      message.edited_at && !message.deleted ? " · edited" : null);
    let options = null;
    if (mine && !message.deleted) {
      const button = h("button", { class: "icon-button icon-button--plain message__options", type: "button", "aria-label": "Message options" }, "⋮");
      const panel = h("div", { class: "menu", id: `message-options-${message.id}` },
        h("ul", { class: "menu__list" },
          h("li", {}, h("button", { type: "button", onclick: () => setEditing(message) }, "Edit")),
          h("li", {}, h("button", { type: "button", onclick: () => remove(message) }, "Delete"))));
      disclosures.push(createDisclosure({ button, panel }));
      options = h("div", { class: "menu-anchor" }, button, panel);
    }
    return h("li", { class: `message ${mine ? "message--mine" : "message--theirs"}`, dataset: { seq: String(message.seq) } },
      mine ? null : personAvatar(message.author, "small"),
      h("div", { class: "message__bubble" }, body, meta),
      options);
  }

  function pendingItem(item) {
    return h("li", { class: "message message--mine message--pending" },
      h("div", { class: "message__bubble" },
        h("p", { class: "message__text" }, item.text),
        h("p", { class: "message__meta" }, item.state === "failed" ? `Not sent: ${item.error}` : "Sending…",
          item.state === "failed" ? h("button", { class: "button button--small button--secondary", type: "button", onclick: () => send(item) }, "Retry") : null)));
  }

  async function remove(message) {
    if (!await confirmSheet({ title: "Delete message?", text: "It will show as deleted for everyone in the conversation.", confirmLabel: "Delete", danger: true })) return;
    try {
      await community.deleteMessage(threadId, message.id);
      apply({ ...message, deleted: true, text: "" });
    } catch (error) {
      showBanner(error.message);
    }
  }

  function renderThreadMenu() {
    const others = state.thread.members.filter((person) => person.id);
    optionsPanel.replaceChildren(h("ul", { class: "menu__list" },
      h("li", {}, h("button", { type: "button", onclick: inviteSheet }, "Invite Friends")),
      h("li", {}, h("button", { type: "button", disabled: others.length < 2, onclick: removeSheet }, "Remove Friends")),
      h("li", {}, h("button", { type: "button", onclick: leave }, "Leave conversation"))));
  }

  async function inviteSheet() {
    const overview = await community.friends();
    const inThread = new Set(state.thread.members.map((person) => person.id));
    const candidates = overview.friends.map((friend) => friend.person).filter((person) => !inThread.has(person.id));
    const chosen = new Set();
    const notice = h("p", { class: "form-notice", role: "alert" });
    const sheet = openSheet({
      title: "Invite Friends",
      content: [
        candidates.length ? h("ul", { class: "person-list" }, candidates.map((person) => {
          const box = h("input", { type: "checkbox", id: `invite-${person.id}`, onchange: (event) => { if (event.target.checked) chosen.add(person.id); else chosen.delete(person.id); } });
          return h("li", {}, h("label", { class: "person-row", for: box.id }, box, personAvatar(person), person.name));
        })) : h("p", { class: "muted" }, "All your friends are already here."),
        notice,
        h("div", { class: "button-row" },
          h("button", { class: "button", type: "button", disabled: !candidates.length, onclick: async () => {
            if (!chosen.size) { notice.textContent = "Choose at least one friend."; return; }
            try {
              state.thread = await community.inviteToThread(threadId, [...chosen]);
              sheet.close();
              await catchUp();
            } catch (error) { notice.textContent = error.message; }
          } }, "Invite"),
          h("button", { class: "button button--secondary", type: "button", onclick: () => sheet.close() }, "Cancel")),
      ],
    });
  }

  function removeSheet() {
    const others = state.thread.members.filter((person) => person.id);
    const notice = h("p", { class: "form-notice", role: "alert" });
    const sheet = openSheet({
      title: "Remove Friends",
      content: [
        h("ul", { class: "person-list" }, others.map((person) => h("li", { class: "person-row" },
          personAvatar(person), h("span", {}, person.name),
          h("button", { class: "button button--small button--danger", type: "button", "aria-label": `Remove ${person.name}`, onclick: async () => {
            try {
              await community.removeFromThread(threadId, person.id);
              sheet.close();
              await catchUp();
            } catch (error) { notice.textContent = error.message; }
          } }, "Remove")))),
        notice,
      ],
    });
  }

  async function leave() {
    if (!await confirmSheet({ title: "Leave conversation?", text: "You will no longer see its messages.", confirmLabel: "Leave", danger: true })) return;
    await community.removeFromThread(threadId, me);
    location.hash = "#/messages";
  }

  const unsubscribe = subscribe(state.thread.topic, {
    onEvent: (payload) => {
      if (!payload?.message) return;
      apply(payload.message);
      if (payload.message.kind !== "text") catchUpThread();
    },
    onReset: () => catchUp(),
    onEnd: () => {
      state.ended = true;
      showBanner("You are no longer in this conversation.");
      update();
    },
  });
  // Member changes (a notice arrives) change the thread's header too.
  let threadTimer;
  function catchUpThread() {
    clearTimeout(threadTimer);
    threadTimer = setTimeout(async () => {
      try {
        state.thread = (await community.messages(threadId, `after=${state.messages.at(-1)?.seq ?? 0}`)).thread;
        update();
      } catch { /* the next event or reload shows it */ }
    }, 200);
  }
  update();
  input.focus();
  return () => {
    unsubscribe();
    clearTimeout(threadTimer);
    threadMenu.destroy();
    disclosures.forEach((disclosure) => disclosure.destroy());
  };
}
