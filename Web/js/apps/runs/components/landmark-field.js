// The landmark drop-down (run-route-planner 4.3.1.1): "No landmark", then only the landmarks a loop of
// the distance can pass from the start, each with its there-and-back distance in the person's unit.
import { h } from "../../../platform/dom.js";
import { formatDistance } from "../../../platform/units.js";

/**
 * Creates the field; `onChange(id)` runs when the person picks one ("" for none).
 * Returns { element, update({ landmarks, chosen, hint, error }), destroy() }.
 */
export function createLandmarkField({ onChange }) {
  const select = h("select", { id: "run-landmark", name: "landmark_id", "aria-describedby": "run-landmark-hint run-landmark-error" });
  const hint = h("p", { class: "field-hint", id: "run-landmark-hint" });
  const error = h("p", { class: "field-error", id: "run-landmark-error", "aria-live": "polite" });
  const element = h("div", { class: "field", dataset: { field: "landmark_id" } },
    h("label", { for: "run-landmark" }, "Landmark"), select, hint, error);
  const changed = () => onChange(select.value);
  select.addEventListener("change", changed);
  let shown = null;

  return {
    element,
    update({ landmarks, chosen, hint: hintText, error: message }) {
      if (landmarks !== shown) {
        shown = landmarks;
        select.replaceChildren(
          h("option", { value: "" }, "No landmark"),
          ...landmarks.map((item) => h("option", { value: item.id }, `${item.name} · ${formatDistance(item.distance_m)} there and back`)),
        );
      }
      select.value = chosen;
      hint.textContent = hintText;
      error.textContent = message;
      if (message) select.setAttribute("aria-invalid", "true");
      else select.removeAttribute("aria-invalid");
    },
    destroy() {
      select.removeEventListener("change", changed);
    },
  };
}
