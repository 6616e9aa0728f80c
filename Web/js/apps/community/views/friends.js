// Friends (Trailz 3.2.6.5.8): find people by username or name and send requests; requests received (Accept,
// Decline) and sent (Cancel); friends — a long press (or right click) selects one, and the trash icon in the
// header removes them; people blocked (Unblock).
import { accountNeededPanel, loadAccount } from "../../../platform/account.js";
import { h, icon } from "../../../platform/dom.js";
import { confirmSheet } from "../../../platform/sheet.js";
import { subscribe } from "../../../platform/realtime.js";
import * as community from "../api.js";
import { personAvatar } from "../people.js";

const trash = "M4 7h16 M9 7V4h6v3 M6 7l1 13h10l1-13 M10 11v6 M14 11v6";

export async function render(container) {
  const account = await loadAccount();
  if (!account) {
    container.append(accountNeededPanel("have friends"));
    return;
  }
  const state = { overview: null, results: null, query: "", selected: null, message: "" };
  const searchInput = h("input", { type: "search", id: "people-search", autocomplete: "off", placeholder: "Username or name" });
  const searchForm = h("form", { class: "search-row", role: "search", novalidate: true },
    h("label", { for: "people-search", class: "visually-hidden" }, "Find people"),
    searchInput,
    h("button", { class: "button", type: "submit" }, "Search"));
  const toolbar = h("div", { class: "selection-bar", hidden: true });
  const status = h("p", { class: "form-notice", role: "status" });
  const results = h("section", { "aria-label": "People found" });
  const body = h("div", {});
  container.append(toolbar, searchForm, status, results, body);

  searchForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    state.query = searchInput.value.trim();
    if (!state.query) { state.results = null; update(); return; }
    try {
      state.results = (await community.searchPeople(state.query)).people;
      state.message = "";
    } catch (error) {
      state.message = error.message;
    }
    update();
  });

  async function act(action) {
    try {
      await action();
      state.message = "";
    } catch (error) {
      state.message = error.message;
    }
    await reload();
  }

  async function reload() {
    state.overview = await community.friends();
    if (state.query) state.results = (await community.searchPeople(state.query)).people;
    update();
  }

  function resultItem({ person, friendship, request_id: requestId }) {
    const actions = {
      none: () => h("button", { class: "button button--small", type: "button", onclick: () => act(() => community.sendFriendRequest(person.username)) }, "Add friend"),
      request_sent: () => h("span", { class: "muted small" }, "Request sent"),
      request_received: () => h("button", { class: "button button--small", type: "button", onclick: () => act(() => community.acceptFriendRequest(requestId)) }, "Accept"),
      friends: () => h("span", { class: "muted small" }, "Friends"),
      blocked: () => h("span", { class: "muted small" }, "Blocked"),
    };
    return h("li", { class: "person-row" },
      h("a", { class: "person-row__link", href: `#/people/${encodeURIComponent(person.username)}` }, personAvatar(person), h("span", {}, person.name, h("span", { class: "muted small" }, ` @${person.username}`))),
      (actions[friendship] ?? (() => null))());
  }

  function friendItem({ person }) {
    const selected = state.selected?.id === person.id;
    const row = h("li", { class: `person-row${selected ? " person-row--selected" : ""}`, "aria-selected": selected ? "true" : "false" },
      h("a", { class: "person-row__link", href: `#/people/${encodeURIComponent(person.username)}` }, personAvatar(person), h("span", {}, person.name)),
      h("a", { class: "button button--small button--secondary", href: `#/people/${encodeURIComponent(person.username)}` }, "Profile"));
    let timer;
    const select = (event) => {
      event?.preventDefault();
      state.selected = selected ? null : person;
      update();
    };
    row.addEventListener("pointerdown", () => { timer = setTimeout(() => { timer = "fired"; select(); }, 550); });
    const cancel = () => { if (timer !== "fired") clearTimeout(timer); };
    row.addEventListener("pointerup", cancel);
    row.addEventListener("pointerleave", cancel);
    row.addEventListener("contextmenu", select);
    row.addEventListener("click", (event) => { if (timer === "fired") { event.preventDefault(); timer = undefined; } });
    return row;
  }

  function update() {
    status.textContent = state.message;
    toolbar.hidden = !state.selected;
    toolbar.replaceChildren(...(state.selected ? [
      h("span", {}, `${state.selected.name} selected`),
      h("button", { class: "icon-button", type: "button", "aria-label": `Remove ${state.selected.name} from friends`, onclick: async () => {
        const person = state.selected;
        if (!await confirmSheet({ title: `Remove ${person.name}?`, text: "You will no longer be friends. You can send a new request later.", confirmLabel: "Remove", danger: true })) return;
        state.selected = null;
        await act(() => community.removeFriend(person.id));
      } }, icon(trash)),
      h("button", { class: "button button--small button--secondary", type: "button", onclick: () => { state.selected = null; update(); } }, "Cancel"),
    ] : []));
    results.replaceChildren(...(state.results === null ? [] : [
      h("h2", {}, "People found"),
      state.results.length ? h("ul", { class: "person-list" }, state.results.map(resultItem)) : h("p", { class: "muted" }, `No one matches “${state.query}”.`),
    ]));
    const o = state.overview;
    body.replaceChildren(...[

      o.received.length ? h("section", { "aria-labelledby": "received-title" },
        h("h2", { id: "received-title" }, "Friend requests"),
        h("ul", { class: "person-list" }, o.received.map((request) => h("li", { class: "person-row" },
          h("a", { class: "person-row__link", href: `#/people/${encodeURIComponent(request.person.username)}` }, personAvatar(request.person), h("span", {}, request.person.name)),
          h("button", { class: "button button--small", type: "button", onclick: () => act(() => community.acceptFriendRequest(request.id)) }, "Accept"),
          h("button", { class: "button button--small button--secondary", type: "button", onclick: () => act(() => community.declineFriendRequest(request.id)) }, "Decline"))))) : null,
      h("section", { "aria-labelledby": "friends-title" },
        h("h2", { id: "friends-title" }, `Friends (${o.friends.length})`),
        o.friends.length ? h("ul", { class: "person-list", "aria-label": "Friends" }, o.friends.map(friendItem))
          : h("p", { class: "muted" }, "No friends yet. Find people above by their username or name."),
        o.friends.length ? h("p", { class: "muted small" }, "Press and hold a friend to remove them.") : null),
      o.sent.length ? h("section", { "aria-labelledby": "sent-title" },
        h("h2", { id: "sent-title" }, "Requests you sent"),
        h("ul", { class: "person-list" }, o.sent.map((request) => h("li", { class: "person-row" },
          personAvatar(request.person), h("span", {}, request.person.name),
          h("button", { class: "button button--small button--secondary", type: "button", onclick: () => act(() => community.declineFriendRequest(request.id)) }, "Cancel request"))))) : null,
      o.blocked.length ? h("section", { "aria-labelledby": "blocked-title" },
        h("h2", { id: "blocked-title" }, "Blocked"),
        h("ul", { class: "person-list" }, o.blocked.map((person) => h("li", { class: "person-row" },
          personAvatar(person), h("span", {}, person.name),
          h("button", { class: "button button--small button--secondary", type: "button", onclick: () => act(() => community.unblock(person.id)) }, "Unblock"))))) : null,
    ].filter(Boolean));
  }

  await reload();
  const stop = subscribe(`community.person.${account.id.toLowerCase()}`, { onEvent: reload, onReset: reload });
  return () => stop();
}
