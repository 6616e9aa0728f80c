import { h } from "../../../platform/dom.js";

export function render(container) {
  container.append(
    h("div", { class: "empty-state" },
      h("h2", {}, "Chat"),
      h("p", {}, "Messages with your friends and groups will appear here."),
    ),
  );
}
