// A tutorial video's privacy-enhanced player facade: until the person presses play nothing is loaded from
// YouTube or Vimeo — no frame, no thumbnail — only our own card; play inserts the provider's privacy-enhanced
// frame (youtube-nocookie.com, Vimeo with dnt=1). Offline it says the video needs a connection.
import { connectionState } from "../../../platform/connection.js";
import { h, icon } from "../../../platform/dom.js";
import { embedAddress, providerNames } from "../tutorials.js";

const playPath = "M8 5v14l11-7z";

/** `tutorial`: a tutorial with an embeddable video. Returns { element, destroy }. */
export function createTutorialPlayer(tutorial) {
  const note = h("p", { class: "muted small ski-player__note", role: "status" });
  const play = h("button", { class: "ski-player__play", type: "button", "aria-label": `Play “${tutorial.title}”` },
    h("span", { class: "ski-player__icon", "aria-hidden": "true" }, icon(playPath)),
    h("span", {}, "Play here"));
  const screen = h("div", { class: "ski-player__screen" },
    play,
    h("span", { class: "ski-player__privacy small" },
      `${providerNames[tutorial.provider]} loads only when you press play (privacy-enhanced, no tracking cookies).`));
  const element = h("div", { class: "ski-player" }, screen, note);

  play.addEventListener("click", () => {
    if (connectionState() === "offline" || navigator.onLine === false) {
      note.textContent = "This video needs a connection. Try again when you are online.";
      return;
    }
    const frame = h("iframe", {
      class: "ski-player__frame", src: embedAddress(tutorial), title: `${tutorial.title} (${providerNames[tutorial.provider]} video)`,
      allow: "autoplay; encrypted-media; fullscreen; picture-in-picture", allowfullscreen: true,
      referrerpolicy: "strict-origin-when-cross-origin",
    });
    screen.replaceChildren(frame);
    note.textContent = "";
  });
  return { element, destroy() { element.remove(); } };
}
