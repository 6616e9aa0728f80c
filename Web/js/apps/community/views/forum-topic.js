// A forum topic, `#/forum-topics/<id>`: the opening post, its comments oldest first ("Show more" adds a page),
// and a comment box at the bottom for people with an account.
import { currentAccount, loadAccount } from "../../../platform/account.js";
import { h } from "../../../platform/dom.js";
import { field, form, submit, values } from "../../../platform/forms.js";
import * as community from "../api.js";
import { createForumPost } from "../components/forum-post.js";
import { createAttachments } from "../components/post-composer.js";
import { forumName, forumPath } from "../forums.js";

export async function render(container, params) {
  await loadAccount();
  const state = { detail: null, comments: [], error: "", notice: "" };
  let posts = [];
  const body = h("div", { class: "forum-topic-screen" });
  container.append(body);
  let commentId = community.newId();
  const attachments = createAttachments();

  async function load({ more = false } = {}) {
    try {
      const detail = await community.forumTopic(params.id, more ? state.detail.next_offset : 0);
      state.comments = more ? [...state.comments, ...detail.comments] : detail.comments;
      state.detail = detail;
      state.error = "";
    } catch (error) {
      state.error = error.status === 404 ? "This topic is gone: its author deleted it, or a moderator hid it." : error.message;
      state.detail = state.detail && error.status !== 404 ? state.detail : null;
    }
    draw();
  }

  const changed = async (change) => {
    if (change?.error) {
      state.notice = change.error;
      draw();
      return;
    }
    if (change?.deleted === state.detail?.topic.id && !state.detail.topic.comment_count) {
      location.replace(forumPath(state.detail.topic.subject));
      return;
    }
    await load();
  };

  const commentForm = form(async (element) => {
    const { text } = values(element, "text");
    await community.commentOnForumTopic(params.id, { id: commentId, text, ...(await attachments.value()) });
    commentId = community.newId();
    element.reset();
    attachments.reset();
    await load();
  },
  field("text", "Your comment", { multiline: true, maxlength: 5000 }),
  attachments.element,
  h("div", { class: "button-row" }, submit("Comment")));

  function draw() {
    posts.forEach((post) => post.destroy());
    posts = [];
    const detail = state.detail;
    if (!detail) {
      body.replaceChildren(h("p", { class: "notice notice--error", role: "alert" }, state.error || "Loading…"));
      return;
    }
    const topic = detail.topic;
    document.getElementById("screen-title")?.replaceChildren(topic.title);
    const opening = createForumPost({ post: topic.opening, label: "Post", onChange: changed, deleteText: topic.comment_count ? "Your text, photo and pin go; the comments stay." : "The whole topic goes." });
    posts.push(opening);
    const comments = state.comments.map((comment) => {
      const post = createForumPost({ post: comment, label: comment.is_mine ? "Your comment" : `Comment by ${comment.author.name}`, onChange: changed });
      posts.push(post);
      return h("li", {}, post.element);
    });
    body.replaceChildren(...[
      h("p", { class: "small" }, h("a", { href: forumPath(topic.subject) }, `In ${forumName(topic.subject)}`)),
      h("h2", { class: "forum-topic-screen__title" }, topic.title),
      state.notice ? h("p", { class: "notice notice--error", role: "alert" }, state.notice) : null,
      opening.element,
      h("h3", {}, topic.comment_count === 1 ? "1 comment" : `${topic.comment_count} comments`),
      comments.length ? h("ul", { class: "forum-comments", "aria-label": "Comments" }, comments) : h("p", { class: "muted" }, "No comments yet."),
      detail.next_offset != null ? h("button", { class: "button button--secondary", type: "button", onclick: () => load({ more: true }) }, "Show more comments") : null,
      currentAccount() ? commentForm : h("div", { class: "button-row" }, h("a", { class: "button button--secondary", href: "#/login" }, "Log in to comment")),
    ].filter(Boolean));
    state.notice = "";
  }

  await load();
  return () => posts.forEach((post) => post.destroy());
}
