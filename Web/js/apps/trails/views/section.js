// The trail page's sub-pages (Trailz 3.2.4.1, 3.2.4.7–11): Additional Information (fees, season hours, parking,
// additional fees), Emergency Contact Information (rangers and their phones), Safety Guidelines (wildlife with
// warning signs, dangerous and edible plants, equipment, the hunting notice), Points of Interest and Amenities.
import { h } from "../../../platform/dom.js";
import { loadTrailPage } from "../trail-data.js";
import { trailPhoto } from "../components/trail-photo.js";
import { amenityNames, poiKindNames, safetyKindNames, sections } from "../trail-format.js";

export async function render(container, params) {
  const section = sections.find((entry) => entry.id === params.section);
  if (!section) {
    container.append(h("p", { class: "notice notice--error", role: "alert" }, "There is no such page for this trail."));
    return;
  }
  const trail = (await loadTrailPage(container, params.id))?.value;
  if (!trail) return;
  const heading = document.querySelector(".app-bar h1");
  if (heading) heading.textContent = section.label;
  container.append(h("p", { class: "muted" }, trail.summary.name));
  if (trail.demo_facts) container.append(h("p", { class: "notice notice--info" }, "Demo information: examples, not the park's."));
  container.append(...content[section.id](trail));
}

const empty = (text) => h("p", { class: "muted" }, text);

const content = {
  additional: (trail) => [
    h("dl", { class: "trail-facts trail-facts--stacked" },
      h("dt", {}, "Admission fees"), h("dd", {}, trail.fees || "Not known."),
      h("dt", {}, "Season hours"), h("dd", {}, trail.season_hours || "Not known."),
      h("dt", {}, "Parking regulations"), h("dd", {}, trail.parking_rules || "Not known."),
      h("dt", {}, "Additional fees"), h("dd", {}, trail.additional_fees || "Not known.")),
  ],
  emergency: (trail) => [
    h("p", {}, "In an emergency, call 112."),
    trail.rangers.length
      ? h("ul", { class: "list trail-rangers", "aria-label": "Park rangers" }, ...trail.rangers.map((ranger) =>
        h("li", {}, h("strong", {}, ranger.name), ...ranger.phones.map((phone) =>
          h("a", { href: `tel:${phone.replace(/[^+0-9]/g, "")}` }, phone)))))
      : empty("No ranger contact is known for this trail."),
  ],
  safety: (trail) => {
    const parts = [];
    if (trail.summary.hunting_area) {
      parts.push(h("section", { class: "notice notice--error", "aria-labelledby": "hunting-title" },
        h("h2", { id: "hunting-title" }, "Hunting area"),
        h("p", {}, trail.hunting_notice || "Hunting takes place on or near this trail in season. Wear bright colours.")));
    }
    for (const [kind, title] of Object.entries(safetyKindNames)) {
      const items = trail.safety.filter((item) => item.kind === kind);
      if (!items.length) continue;
      parts.push(h("section", { "aria-labelledby": `safety-${kind}` },
        h("h2", { id: `safety-${kind}` }, title),
        ...items.map((item) => h("article", { class: "card trail-safety" },
          trailPhoto(item.photo_url, { alt: item.name, kind: item.kind }),
          h("div", {}, h("h3", { class: "card__title" }, item.name), h("p", {}, item.text),
            item.warning_signs ? h("p", {}, h("strong", {}, "Warning signs: "), item.warning_signs) : null)))));
    }
    return parts.length ? parts : [empty("No safety guidelines are known for this trail.")];
  },
  poi: (trail) => trail.points_of_interest.length
    ? trail.points_of_interest.map((poi) => h("article", { class: "card trail-poi" },
      trailPhoto(poi.photo_url, { alt: poi.name, kind: poi.kind }),
      h("div", {},
        h("h2", { class: "card__title" }, poi.name),
        h("p", { class: "muted small" }, `${poiKindNames[poi.kind] ?? "Point of interest"} · ${poi.position.lat.toFixed(5)}, ${poi.position.lon.toFixed(5)}`),
        poi.history ? h("p", {}, poi.history) : null,
        h("a", { href: `#/trails/map?lat=${poi.position.lat}&lon=${poi.position.lon}` }, "Show on the map"))))
    : [empty("No points of interest are known along this trail.")],
  amenities: (trail) => trail.amenities.length
    ? [h("ul", { class: "list trail-amenities", "aria-label": "Amenities" }, ...trail.amenities.map((kind) => h("li", {}, amenityNames[kind] ?? kind)))]
    : [empty("No amenities are known along this trail.")],
};
