// The Filter screen (Trailz 3.2.1.1 "Filter"): difficulty, length, distance from the person and disability
// access, as a sheet over Browse or the map; on the map also the overlay switches (Trailz 3.2.5.7.1.1: scenic
// overlooks, waterfalls). Resolves to the chosen filters (with `overlays` when asked for), or null when closed.
import { h } from "../../../platform/dom.js";
import { getSettings } from "../../../platform/settings.js";
import { openSheet } from "../../../platform/sheet.js";
import { difficultyNames, mapOverlays } from "../trail-format.js";

export function openFilterSheet(filters, { distance = true, overlays = null } = {}) {
  const unit = getSettings().distance === "mi" ? "mi" : "km";
  return new Promise((resolve) => {
    const boxes = Object.entries(difficultyNames).map(([value, label]) =>
      h("label", { class: "check" },
        h("input", { type: "checkbox", name: "difficulty", value, checked: filters.difficulties.includes(value) }), ` ${label}`));
    const number = (name, label, value) => h("div", { class: "field" },
      h("label", { for: `trail-filter-${name}` }, label),
      h("input", { id: `trail-filter-${name}`, name, type: "number", min: "0", step: "0.5", inputmode: "decimal", value }));
    const accessible = h("input", { type: "checkbox", name: "accessible", checked: filters.accessible });
    const switches = overlays ? mapOverlays.map((overlay) => ({
      overlay, input: h("input", { type: "checkbox", role: "switch", name: `overlay-${overlay.id}`, checked: !!overlays[overlay.id] }),
    })) : [];
    const chosenOverlays = () => (overlays
      ? { overlays: Object.fromEntries(switches.map(({ overlay, input }) => [overlay.id, input.checked])) } : {});
    const form = h("form", { class: "trail-filters" },
      h("fieldset", { class: "field" }, h("legend", {}, "Difficulty"), ...boxes),
      number("min", `Shortest (${unit})`, filters.minLength),
      number("max", `Longest (${unit})`, filters.maxLength),
      distance ? number("distance", `Within (${unit} of you)`, filters.distance) : null,
      h("label", { class: "check" }, accessible, " Disability access only"),
      overlays ? h("fieldset", { class: "field" }, h("legend", {}, "Show on the map"),
        ...switches.map(({ overlay, input }) => h("label", { class: "check" }, input,
          h("span", { class: `poi-icon poi-icon--${overlay.kinds[0]}`, "aria-hidden": "true" }, overlay.icon), ` ${overlay.label}`))) : null,
      h("div", { class: "button-row" },
        h("button", { class: "button", type: "submit" }, "Show trails"),
        h("button", { class: "button button--secondary", type: "button", onclick: () => { sheet.close({ ...clear(), ...chosenOverlays() }); } }, "Clear filters")));
    const clear = () => ({ difficulties: [], minLength: "", maxLength: "", accessible: false, distance: "" });
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const data = new FormData(form);
      sheet.close({
        difficulties: data.getAll("difficulty"), minLength: data.get("min") || "", maxLength: data.get("max") || "",
        accessible: accessible.checked, distance: distance ? data.get("distance") || "" : "", ...chosenOverlays(),
      });
    });
    const sheet = openSheet({ title: "Filter trails", content: [form], onClose: (result) => resolve(result ?? null) });
  });
}
