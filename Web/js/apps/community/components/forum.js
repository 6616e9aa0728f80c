// A forum of any subject (Trailz 3.2.6.6, GoSki story 9): its topics, latest activity first, each with its
// title, the opening post's photo and text, comments and date; "New post" opens the composer; "Show more" adds a
// page. The first visit explains what a forum is for. A trail or mountain page mounts it:
// createForum({ subject: "trail:<id>", title: "Trail forum" }) → { element, update(), destroy() }; another app
// mounts it by name (`mountComponent("forum", …)`), and `layout: "gallery"` shows each photo large, full width,
// above its title (the ski app's Best Moments). The list follows the forum's realtime topic
// (`community.forum.<KIND:ID>`): a topic someone starts or comments on shows at once, for guests too.
import { loadAccount } from "../../../platform/account.js";
import { h } from "../../../platform/dom.js";
import { subscribe } from "../../../platform/realtime.js";
import * as community from "../api.js";
import { newTopicPath, topicPath } from "../forums.js";
import { shortTime } from "../people.js";

const introKey = "cairn.forums.intro-seen";

export function createForum({ subject, title = "Forum", about = "", layout = "list" }) {
  const state = { page: null, topics: [], error: "" };
  const element = h("section", { class: `forum forum--${layout}`, "aria-label": title });

  async function load({ more = false } = {}) {
    try {
      await loadAccount();
      const page = await community.forumTopics(subject, more ? state.page.next_offset : 0);
      state.topics = more ? [...state.topics, ...page.topics] : page.topics;
      state.page = page;
      state.error = "";
    } catch (error) {
      state.error = error.message;
    }
    render();
  }

  function intro() {
    if (localStorage.getItem(introKey)) return null;
    const box = h("div", { class: "notice notice--info forum__intro", role: "note" },
      h("h2", {}, "Welcome to the forums"),
      h("p", {}, "Share a moment from your day out: a few words, a photo and, if you like, a pin on the map where it happened. Everyone can read the forums; posting needs an account."),
      h("p", {}, "Photos lose their hidden camera data (such as GPS) before anyone sees them."),
      h("button", { class: "button button--small", type: "button", onclick: () => { localStorage.setItem(introKey, "1"); box.remove(); } }, "Got it"));
    return box;
  }

  function render() {
    element.replaceChildren(...[
      intro(),
      about ? h("p", { class: "muted" }, about) : null,
      h("div", { class: "button-row" }, h("a", { class: "button", href: newTopicPath(subject) }, "New post")),
      state.error ? h("p", { class: "notice notice--error", role: "alert" }, state.error) : null,
      state.page && !state.topics.length ? h("p", { class: "muted" }, "No posts yet. Be the first to share one.") : null,
      h("ul", { class: "forum-topics", "aria-label": "Topics" }, state.topics.map(topicItem)),
      state.page?.next_offset != null ? h("button", { class: "button button--secondary", type: "button", onclick: () => load({ more: true }) }, "Show more") : null,
    ].filter(Boolean));
  }

  function topicItem(topic) {
    const opening = topic.opening;
    const comments = topic.comment_count === 1 ? "1 comment" : `${topic.comment_count} comments`;
    const photo = opening.photo_url
      ? h("img", { class: "forum-topic__photo", src: opening.photo_url, alt: layout === "gallery" ? `Photo: ${topic.title}` : "", loading: "lazy" })
      : null;
    return h("li", {}, h("a", { class: "forum-topic card", href: topicPath(topic.id) },
      photo,
      h("div", { class: "forum-topic__body" },
        h("h3", { class: "forum-topic__title" }, topic.title),
        opening.text ? h("p", { class: "forum-topic__excerpt" }, opening.text.length > 140 ? `${opening.text.slice(0, 140)}…` : opening.text) : null,
        h("p", { class: "small muted" }, `${topic.author.name} · ${shortTime(topic.created_at)} · ${comments}${opening.pin ? " · 📍" : ""}`),
        opening.status === "hidden" ? h("p", { class: "small notice notice--info" }, "Hidden: only you see it") : null)));
  }

  load();
  // News of the forum reloads what is shown (the first page, or as many pages' worth as are open).
  const stop = subscribe(`community.forum.${subject}`, { onEvent: () => refresh(), onReset: () => refresh() });
  async function refresh() {
    try {
      const shown = Math.max(state.topics.length, 1);
      const pages = [await community.forumTopics(subject, 0)];
      while (pages.at(-1).next_offset != null && pages.flatMap((page) => page.topics).length < shown) {
        pages.push(await community.forumTopics(subject, pages.at(-1).next_offset));
      }
      state.topics = pages.flatMap((page) => page.topics);
      state.page = pages.at(-1);
      state.error = "";
    } catch (error) {
      state.error = error.message;
    }
    render();
  }
  return { element, update: () => load(), destroy: () => stop() };
}
