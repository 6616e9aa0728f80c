// Shelter-optimised or standard routes (run-route-planner 4.4): a two-way segmented control.
import { h } from "../../../platform/dom.js";

const options = [["sheltered", "Shelter-optimised"], ["standard", "Standard"]];

/** Creates the control; `onChange(sheltered)` runs on a choice. Returns { element, update({ sheltered }), destroy() }. */
export function createRouteTypeField({ onChange }) {
  const element = h("fieldset", { class: "segmented" },
    h("legend", {}, "Route type"),
    h("div", { class: "segmented__options" },
      options.map(([value, text]) => h("label", { for: `run-mode-${value}` },
        h("input", { id: `run-mode-${value}`, type: "radio", name: "mode", value, "aria-label": text }),
        h("span", { "aria-hidden": "true" }, text)))),
    h("p", { class: "field-hint" }, "Shelter-optimised routes run under arcades, covered ways and passages where they can."),
  );
  const changed = () => onChange(element.querySelector("input:checked")?.value === "sheltered");
  element.addEventListener("change", changed);
  return {
    element,
    update({ sheltered }) {
      element.querySelector(`input[value="${sheltered ? "sheltered" : "standard"}"]`).checked = true;
    },
    destroy() {
      element.removeEventListener("change", changed);
    },
  };
}
