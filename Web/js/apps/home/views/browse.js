import { h } from "../../../platform/dom.js";

export function render(container) {
  container.append(
    h("div", { class: "empty-state" },
      h("h2", {}, "Browse"),
      h("p", {}, "Trails, ski mountains and plants from this server will be listed here to search and filter."),
      h("a", { class: "button button--secondary", href: "#/map" }, "Open the map"),
    ),
  );
}
