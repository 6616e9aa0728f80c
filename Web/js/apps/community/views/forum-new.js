// New post, `#/forums/<KIND:ID>/new` (Trailz 3.2.6.6, Create Post): a title, text, a photo and a dropped pin.
// The post's id is made on this device when the screen opens, so sending it twice (a double tap, a retry after
// a lost answer) posts it once.
import { accountNeededPanel, loadAccount } from "../../../platform/account.js";
import { h } from "../../../platform/dom.js";
import { field, form, submit, values } from "../../../platform/forms.js";
import * as community from "../api.js";
import { createAttachments } from "../components/post-composer.js";
import { forumName, topicPath } from "../forums.js";

export async function render(container, params) {
  const subject = decodeURIComponent(params.subject);
  const account = await loadAccount();
  if (!account) {
    container.append(accountNeededPanel("post in the forum"));
    return;
  }
  const id = community.newId();
  const attachments = createAttachments();
  container.append(
    h("p", { class: "muted" }, `In ${forumName(subject)}. Everyone can read it.`),
    form(async (element) => {
      const { title, text } = values(element, "title", "text");
      const topic = await community.createForumTopic(subject, { id, title, text, ...(await attachments.value()) });
      location.replace(topicPath(topic.id));
    },
    field("title", "Title", { maxlength: 120 }),
    field("text", "Text", { multiline: true, maxlength: 5000 }),
    attachments.element,
    h("div", { class: "button-row" }, submit("Post"))));
}
