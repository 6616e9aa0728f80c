// A drawn placeholder for a species without a photograph: a simple outline per plant group, labelled as an
// illustration so nobody takes it for the plant itself.
import { h } from "../../../platform/dom.js";

const drawings = {
  wildflower: "M12 22v-9 M12 13c-3 0-5-2-5-5 3 0 5 2 5 5z M12 13c3 0 5-2 5-5-3 0-5 2-5 5z M12 8a3 3 0 1 0 .01 0 M9 18c-2 0-3-1-4-3 2 0 3 1 4 3z",
  graminoid: "M12 22V6 M12 14c-2-3-4-5-7-6 M12 12c2-3 4-5 7-6 M9 22c0-6-2-10-5-12 M15 22c0-6 2-10 5-12",
  "shrub-tree": "M12 22v-6 M12 16c-5 0-8-3-8-6 0-3 3-6 8-6s8 3 8 6c0 3-3 6-8 6z M8 10l4 2 4-3",
  "fern-ally": "M12 22V4 M12 8l-4-2 M12 8l4-2 M12 11l-5-2 M12 11l5-2 M12 14l-6-2 M12 14l6-2 M12 17l-5-1 M12 17l5-1",
};

export function illustration(species, { large = false } = {}) {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
  path.setAttribute("d", drawings[species.group] ?? drawings.wildflower);
  svg.append(path);
  return h("figure", { class: `flora-illustration${large ? " flora-illustration--large" : ""}` },
    svg,
    large ? h("figcaption", { class: "muted small" }, "Illustration of the plant group, not a photograph of this species.") : null);
}
