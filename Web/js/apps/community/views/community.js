// The community's home: friends, messages, the community's forums and the reviews of this Cairn's community.
import { loadAccount } from "../../../platform/account.js";
import { h } from "../../../platform/dom.js";
import { createReviews } from "../components/reviews.js";
import { communityForums, forumPath } from "../forums.js";

export async function render(container) {
  const account = await loadAccount();
  const reviews = createReviews({ subject: "community:general", title: "How is this Cairn?" });
  container.append(...[
    h("p", { class: "muted" }, "Friends, messages and reviews, shared by every app of this server."),
    account ? h("div", { class: "button-row" },
      h("a", { class: "button", href: "#/friends" }, "Friends"),
      h("a", { class: "button button--secondary", href: "#/messages" }, "Messages"),
      h("a", { class: "button button--secondary", href: "#/location" }, "Share my location"),
      ["moderator", "admin"].includes(account.role) ? h("a", { class: "button button--secondary", href: "#/moderation" }, "Moderation") : null) : null,
    reviews.element,
    h("h2", {}, "Forums"),
    h("ul", { class: "forum-links" }, Object.entries(communityForums).map(([subject, forum]) =>
      h("li", {}, h("a", { class: "card forum-link", href: forumPath(subject) }, h("strong", {}, forum.name), h("span", { class: "small muted" }, forum.about))))),
  ].filter(Boolean));
  return () => reviews.destroy();
}
