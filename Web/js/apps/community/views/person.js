// Someone's public profile: picture, name, About Me, since when, and what one can do — add as a friend,
// accept their request, message them, remove, block or unblock.
import { accountNeededPanel, loadAccount } from "../../../platform/account.js";
import { h } from "../../../platform/dom.js";
import { confirmSheet } from "../../../platform/sheet.js";
import * as community from "../api.js";
import { personAvatar } from "../people.js";

export async function render(container, params) {
  if (!await loadAccount()) {
    container.append(accountNeededPanel("see people's profiles"));
    return;
  }
  const notice = h("p", { class: "form-notice", role: "alert" });
  const show = async () => {
    let profile;
    try {
      profile = await community.personProfile(params.username);
    } catch (error) {
      container.replaceChildren(h("div", { class: "empty-state" }, h("h2", {}, "No such person"), h("p", {}, error.message)));
      return;
    }
    const p = profile.person;
    const act = async (action) => {
      try {
        await action();
        await show();
      } catch (error) {
        notice.textContent = error.message;
      }
    };
    const button = (label, action, kind = "") => h("button", { class: `button ${kind}`, type: "button", onclick: () => act(action) }, label);
    const actions = {
      me: [h("a", { class: "button", href: "#/profile" }, "Your profile")],
      none: [button("Add friend", () => community.sendFriendRequest(p.username))],
      request_sent: [h("p", { class: "muted" }, "Friend request sent."), button("Cancel request", () => community.declineFriendRequest(profile.request_id), "button--secondary")],
      request_received: [button("Accept", () => community.acceptFriendRequest(profile.request_id)), button("Decline", () => community.declineFriendRequest(profile.request_id), "button--secondary")],
      friends: [
        button("Message", async () => {
          const thread = await community.startThread(community.newId(), [p.id]);
          location.hash = `#/messages/${thread.id}`;
        }),
        button("Remove friend", async () => {
          if (await confirmSheet({ title: `Remove ${p.name}?`, text: "You will no longer be friends.", confirmLabel: "Remove", danger: true })) await community.removeFriend(p.id);
        }, "button--secondary"),
      ],
      blocked: [button("Unblock", () => community.unblock(p.id), "button--secondary")],
    };
    const canBlock = profile.friendship !== "me" && profile.friendship !== "blocked";
    container.replaceChildren(...[

      h("section", { class: "profile-head" },
        personAvatar(p, "large"),
        h("h2", {}, p.name),
        h("p", { class: "muted" }, `@${p.username}`),
        h("p", { class: "muted small" }, `Member since ${new Date(profile.member_since).toLocaleDateString([], { month: "long", year: "numeric" })} · ${profile.friend_count === 1 ? "1 friend" : `${profile.friend_count} friends`}`)),
      h("section", { class: "panel", "aria-labelledby": "their-about" },
        h("h3", { id: "their-about" }, "About Me"),
        h("p", { class: profile.about_me ? "" : "muted" }, profile.about_me || "Nothing here yet.")),
      notice,
      h("div", { class: "button-row" }, ...(actions[profile.friendship] ?? [])),
      canBlock ? h("div", { class: "button-row" },
        button("Block", async () => {
          if (await confirmSheet({ title: `Block ${p.name}?`, text: "They will not be able to find you, befriend you or message you. Any friendship ends.", confirmLabel: "Block", danger: true })) await community.block(p.username);
        }, "button--secondary button--danger")) : null,
    ].filter(Boolean));
  };
  await show();
}
