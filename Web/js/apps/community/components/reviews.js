// Reviews of any subject (Trailz 3.2.4.12–13, GoSki story 5): the average and count, the person's own review
// first in its own colour (⋮ → Edit or Delete), then the others by votes and newest, six at a time ("Read
// more" adds six), each with "Accurate" / "Not accurate" votes and Report. A trail or mountain page mounts it:
// createReviews({ subject: "trail:<id>" }) → { element, update(), destroy() }.
import { currentAccount, handleSignInRequired, loadAccount, requireAccount } from "../../../platform/account.js";
import { createDisclosure } from "../../../platform/disclosure.js";
import { h } from "../../../platform/dom.js";
import { confirmSheet, openSheet } from "../../../platform/sheet.js";
import * as community from "../api.js";
import { personAvatar, shortTime } from "../people.js";
import { starText } from "../stars.js";

let counter = 0;

export function createReviews({ subject, title = "Reviews" }) {
  const id = `reviews-${++counter}`;
  const state = { page: null, items: [], error: "" };
  let disclosures = [];
  const element = h("section", { class: "reviews", "aria-labelledby": `${id}-title` });

  async function load({ more = false } = {}) {
    try {
      await loadAccount();
      const page = await community.reviews(subject, more ? state.page.next_offset : 0);
      state.items = more ? [...state.items, ...page.reviews] : page.reviews;
      state.page = page;
      state.error = "";
    } catch (error) {
      state.error = error.message;
    }
    render();
  }

  async function act(action, what) {
    try {
      await action();
      await load();
    } catch (error) {
      if (!handleSignInRequired(error, what)) {
        state.error = error.message;
        render();
      }
    }
  }

  function render() {
    disclosures.forEach((disclosure) => disclosure.destroy());
    disclosures = [];
    const page = state.page;
    const signedIn = Boolean(currentAccount());
    element.replaceChildren(...[

      h("div", { class: "reviews__head" },
        h("h2", { id: `${id}-title` }, title),
        page?.review_count ? h("p", { class: "reviews__average" },
          h("span", { "aria-hidden": "true", class: "stars" }, starText(Math.round(page.average_rating))),
          ` ${page.average_rating.toFixed(1)} · ${page.review_count === 1 ? "1 review" : `${page.review_count} reviews`}`) : null),
      state.error ? h("p", { class: "notice notice--error", role: "alert" }, state.error) : null,
      page?.mine ? reviewCard(page.mine, true) : h("button", { class: "button", type: "button", onclick: () => write() }, "Write a review"),
      page && !page.review_count && !page.mine ? h("p", { class: "muted" }, "No reviews yet. Be the first to write one.") : null,
      h("ul", { class: "review-list" }, state.items.map((review) => h("li", {}, reviewCard(review, false)))),
      page?.next_offset != null ? h("button", { class: "button button--secondary", type: "button", onclick: () => load({ more: true }) }, "Read more") : null,
    ].filter(Boolean));
    if (!signedIn) element.querySelectorAll(".review__vote").forEach((button) => button.setAttribute("aria-disabled", "true"));
  }

  function reviewCard(review, mine) {
    const optionsButton = h("button", { class: "icon-button icon-button--plain", type: "button", "aria-label": mine ? "Your review options" : `Options for ${review.author.name}'s review` }, "⋮");
    const panel = h("div", { class: "menu", id: `${id}-options-${review.id}` }, h("ul", { class: "menu__list" },
      mine ? [
        h("li", {}, h("button", { type: "button", onclick: () => write(review) }, "Edit")),
        h("li", {}, h("button", { type: "button", onclick: remove }, "Delete")),
      ] : h("li", {}, h("button", { type: "button", disabled: review.reported_by_me, onclick: () => report(review) }, review.reported_by_me ? "Reported" : "Report"))));
    disclosures.push(createDisclosure({ button: optionsButton, panel }));
    const vote = (choice, label, count) => h("button", {
      class: "button button--small button--secondary review__vote", type: "button",
      "aria-pressed": review.my_vote === choice ? "true" : "false",
      onclick: () => act(async () => {
        if (!await requireAccount("vote on reviews")) return;
        await community.voteOnReview(review.id, review.my_vote === choice ? "none" : choice);
      }, "vote on reviews"),
    }, `${label} (${count})`);
    return h("article", { class: `review${mine ? " review--mine" : ""}`, "aria-label": mine ? "Your review" : `Review by ${review.author.name}` },
      h("div", { class: "review__head" },
        personAvatar(review.author, "small"),
        h("div", {},
          h("p", { class: "review__author" }, mine ? "Your review" : review.author.name),
          h("p", { class: "small muted" },
            h("span", { class: "stars", role: "img", "aria-label": `${review.rating} out of 5 stars` }, starText(review.rating)),
            ` · ${shortTime(review.updated_at)}`)),
        h("div", { class: "menu-anchor" }, optionsButton, panel)),
      review.status === "hidden" ? h("p", { class: "notice notice--info" }, review.hidden_reason ?? "Hidden by a moderator.") : null,
      review.text ? h("p", { class: "review__text" }, review.text) : null,
      mine ? h("p", { class: "small muted" }, `${review.accurate_votes} found it accurate · ${review.not_accurate_votes} not accurate`)
        : h("div", { class: "button-row review__votes" },
          vote("accurate", "Accurate", review.accurate_votes),
          vote("not_accurate", "Not accurate", review.not_accurate_votes)));
  }

  async function write(existing) {
    if (!await requireAccount("write a review")) return;
    let rating = existing?.rating ?? 0;
    const error = h("p", { class: "field-error", id: `${id}-rating-error`, "aria-live": "polite" });
    const stars = h("div", { class: "star-row", role: "radiogroup", "aria-label": "Rating", "aria-describedby": error.id });
    const drawStars = () => stars.replaceChildren(...[1, 2, 3, 4, 5].map((value) => h("button", {
      class: "star-button", type: "button", role: "radio", "aria-checked": value === rating ? "true" : "false",
      "aria-label": value === 1 ? "1 star" : `${value} stars`, onclick: () => { rating = value; drawStars(); },
    }, value <= rating ? "★" : "☆")));
    drawStars();
    const text = h("textarea", { id: `${id}-text`, rows: 5, maxlength: 2000, "aria-describedby": `${id}-text-error` }, existing?.text ?? "");
    const textError = h("p", { class: "field-error", id: `${id}-text-error`, "aria-live": "polite" });
    const notice = h("p", { class: "form-notice", role: "alert" });
    const sheet = openSheet({
      title: existing ? "Edit your review" : "Write a review",
      content: [
        h("div", { class: "field" }, h("p", {}, "Your rating"), stars, error),
        h("div", { class: "field" }, h("label", { for: text.id }, "Your review"), text, textError),
        notice,
        h("div", { class: "button-row" },
          h("button", { class: "button", type: "button", onclick: async () => {
            error.textContent = rating ? "" : "Choose a rating from 1 to 5 stars.";
            if (!rating) return;
            try {
              await community.saveReview(subject, rating, text.value);
              sheet.close();
              await load();
            } catch (problem) {
              const fields = problem.fieldErrors ?? {};
              error.textContent = fields.rating ?? "";
              textError.textContent = fields.text ?? "";
              if (!fields.rating && !fields.text) notice.textContent = problem.message;
            }
          } }, "Save review"),
          h("button", { class: "button button--secondary", type: "button", onclick: () => sheet.close() }, "Cancel")),
      ],
    });
  }

  async function remove() {
    if (!await confirmSheet({ title: "Delete your review?", text: "Its rating and text go, with the votes it had.", confirmLabel: "Delete", danger: true })) return;
    await act(() => community.deleteReview(subject), "write a review");
  }

  async function report(review) {
    if (!await requireAccount("report reviews")) return;
    const reason = h("textarea", { id: `${id}-reason`, rows: 3, maxlength: 500 });
    const notice = h("p", { class: "form-notice", role: "alert" });
    const sheet = openSheet({
      title: "Report this review",
      content: [
        h("p", {}, "Tell the moderators what is wrong with it. Reviews reported by several people are hidden until a moderator looks at them."),
        h("div", { class: "field" }, h("label", { for: reason.id }, "What is wrong"), reason),
        notice,
        h("div", { class: "button-row" },
          h("button", { class: "button button--danger", type: "button", onclick: async () => {
            try {
              await community.reportReview(review.id, reason.value);
              sheet.close();
              await load();
            } catch (problem) { notice.textContent = problem.fieldErrors?.reason ?? problem.message; }
          } }, "Report"),
          h("button", { class: "button button--secondary", type: "button", onclick: () => sheet.close() }, "Cancel")),
      ],
    });
  }

  load();
  return {
    element,
    update: () => load(),
    destroy() { disclosures.forEach((disclosure) => disclosure.destroy()); },
  };
}
