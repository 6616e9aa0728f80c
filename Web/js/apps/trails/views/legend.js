// The Map Legend (Trailz 3.2.5): what the trail map's lines and icons mean.
import { h } from "../../../platform/dom.js";
import { difficultyColours, difficultyNames, mapOverlays } from "../trail-format.js";

export function render(container) {
  container.append(
    h("h2", {}, "Trail lines"),
    h("ul", { class: "list legend-list" }, ...Object.entries(difficultyNames).map(([key, name]) =>
      h("li", {}, h("span", { class: "legend-line", style: `background:${difficultyColours[key]}` }), ` ${name} trail`))),
    h("h2", {}, "Icons"),
    h("ul", { class: "list legend-list" },
      h("li", {}, h("span", { class: "trailhead-icon", "aria-hidden": "true" }, "▲"), " Trailhead: where a trail starts"),
      ...mapOverlays.map((overlay) => h("li", {},
        h("span", { class: `poi-icon poi-icon--${overlay.kinds[0]}`, "aria-hidden": "true" }, overlay.icon),
        ` ${overlay.legend} (${overlay.label} in Filters)`)),
      h("li", {}, h("span", { class: "legend-you", "aria-hidden": "true" }, "●"), " You")),
    h("p", { class: "muted" }, "Hold a trail's line for two seconds to open it; hold an icon to see its coordinates. Scenic overlooks and waterfalls show when switched on in the map's Filters; tap one to see its name and open its trail."),
    h("a", { class: "button", href: "#/trails/map" }, "Back to the map"));
}
