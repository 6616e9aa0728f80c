// One forum post (an opening post or a comment): its author and date, text, photo and dropped pin (tap → a map
// there), and ⋮ → Delete (own) or Report (others').
/* global L */
import { handleSignInRequired, requireAccount } from "../../../platform/account.js";
import { createDisclosure } from "../../../platform/disclosure.js";
import { h } from "../../../platform/dom.js";
import { createBaseMap } from "../../../platform/map/base-map.js";
import { confirmSheet, openSheet } from "../../../platform/sheet.js";
import * as community from "../api.js";
import { pinText } from "../forums.js";
import { personAvatar, shortTime } from "../people.js";

/**
 * `post` as the API gives it; `onChange()` runs after a delete or report; `label` names the post for screen
 * readers. Returns { element, destroy }.
 */
export function createForumPost({ post, label, onChange, deleteText }) {
  const disclosures = [];
  let mapSheetMap = null;
  const author = post.is_mine ? "You" : post.author.name;
  const options = post.deleted ? null : (() => {
    const button = h("button", { class: "icon-button icon-button--plain", type: "button", "aria-label": post.is_mine ? "Your post's options" : `Options for ${post.author.name}'s post` }, "⋮");
    const panel = h("div", { class: "menu", id: `post-options-${post.id}` }, h("ul", { class: "menu__list" },
      post.is_mine
        ? h("li", {}, h("button", { type: "button", onclick: remove }, "Delete"))
        : h("li", {}, h("button", { type: "button", disabled: post.reported_by_me, onclick: report }, post.reported_by_me ? "Reported" : "Report"))));
    disclosures.push(createDisclosure({ button, panel }));
    return h("div", { class: "menu-anchor" }, button, panel);
  })();

  const element = h("article", { class: `forum-post${post.is_mine ? " forum-post--mine" : ""}`, "aria-label": label },
    h("div", { class: "review__head" },
      personAvatar(post.author, "small"),
      h("div", {},
        h("p", { class: "review__author" }, author),
        h("p", { class: "small muted" }, h("time", { datetime: post.created_at }, `Posted ${shortTime(post.created_at)}`))),
      options),
    post.status === "hidden" ? h("p", { class: "notice notice--info" }, post.hidden_reason ?? "Hidden by a moderator.") : null,
    post.deleted ? h("p", { class: "muted" }, "This post was deleted.") : null,
    post.text ? h("p", { class: "forum-post__text" }, post.text) : null,
    post.photo_url ? h("img", {
      class: "forum-post__photo", src: post.photo_url, alt: `Photo by ${post.author.name}`, loading: "lazy",
      width: post.photo_width, height: post.photo_height,
    }) : null,
    post.pin ? h("button", { class: "button button--secondary button--small forum-post__pin", type: "button", onclick: showPin },
      `📍 Pinned place: ${pinText(post.pin)}`) : null);

  async function showPin() {
    const mapElement = h("div", { class: "map forum-pin-map" });
    const sheet = openSheet({
      title: "Pinned place",
      content: [mapElement, h("p", { class: "small muted" }, pinText(post.pin)),
        h("div", { class: "button-row" }, h("button", { class: "button button--secondary", type: "button", onclick: () => sheet.close() }, "Close"))],
      onClose: () => mapSheetMap?.destroy(),
    });
    mapSheetMap = await createBaseMap(mapElement, { label: "Map of the pinned place", view: { center: [post.pin.lat, post.pin.lon], zoom: 16 } });
    L.marker([post.pin.lat, post.pin.lon], { title: "Pinned place", alt: "Pinned place" }).addTo(mapSheetMap.map);
  }

  async function remove() {
    const ok = await confirmSheet({ title: "Delete your post?", text: deleteText ?? "Its text, photo and pin go for everyone.", confirmLabel: "Delete", danger: true });
    if (!ok) return;
    try {
      await community.deleteForumPost(post.id);
      onChange?.({ deleted: post.id });
    } catch (error) {
      if (!handleSignInRequired(error, "delete a post")) onChange?.({ error: error.message });
    }
  }

  async function report() {
    if (!await requireAccount("report posts")) return;
    const reason = h("textarea", { id: `report-${post.id}`, rows: 3, maxlength: 500 });
    const notice = h("p", { class: "form-notice", role: "alert" });
    const sheet = openSheet({
      title: "Report this post",
      content: [
        h("p", {}, "Tell the moderators what is wrong with it. Posts reported by several people are hidden until a moderator looks at them."),
        h("div", { class: "field" }, h("label", { for: reason.id }, "What is wrong"), reason),
        notice,
        h("div", { class: "button-row" },
          h("button", { class: "button button--danger", type: "button", onclick: async () => {
            try {
              await community.reportForumPost(post.id, reason.value);
              sheet.close();
              onChange?.({ reported: post.id });
            } catch (problem) { notice.textContent = problem.fieldErrors?.reason ?? problem.message; }
          } }, "Report"),
          h("button", { class: "button button--secondary", type: "button", onclick: () => sheet.close() }, "Cancel")),
      ],
    });
  }

  return { element, destroy() { disclosures.forEach((disclosure) => disclosure.destroy()); } };
}
