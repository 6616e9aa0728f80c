// The landmark drop-down (run-route-planner 4.3.1.1): "No landmark", then only the landmarks a loop of the
// distance can pass from the start — one per name (the server keeps the nearest of namesakes) — each with
// its category and its there-and-back distance in the person's unit. A search box above it narrows the list
// by name or category as the person types ("museum", "kaisan"). The box stays in place, disabled until there is a
// list to search, so that the list's arrival does not move the form under the runner's finger.
import { h } from "../../../platform/dom.js";
import { formatDistance } from "../../../platform/units.js";
import { categoryName, searchLandmarks } from "../route-facts.js";

/**
 * Creates the field; `onChange(id)` runs when the person picks one ("" for none).
 * Returns { element, update({ landmarks, chosen, hint, error }), destroy() }.
 */
export function createLandmarkField({ onChange }) {
  const search = h("input", {
    id: "run-landmark-search", type: "search", autocomplete: "off", enterkeyhint: "search",
    placeholder: "Name or kind, e.g. museum", "aria-describedby": "run-landmark-count",
  });
  const count = h("p", { class: "field-hint", id: "run-landmark-count", "aria-live": "polite" });
  const select = h("select", { id: "run-landmark", name: "landmark_id", "aria-describedby": "run-landmark-hint run-landmark-error" });
  const hint = h("p", { class: "field-hint", id: "run-landmark-hint" });
  const error = h("p", { class: "field-error", id: "run-landmark-error", "aria-live": "polite" });
  const searchBox = h("div", { class: "landmark-search" },
    h("label", { for: "run-landmark-search" }, "Find a landmark"), search, count);
  const element = h("div", { class: "field", dataset: { field: "landmark_id" } },
    searchBox, h("label", { for: "run-landmark" }, "Landmark"), select, hint, error);
  const changed = () => onChange(select.value);
  select.addEventListener("change", changed);
  let current = { landmarks: [], chosen: "" };
  let shown = null;

  const fill = () => {
    const { landmarks, chosen } = current;
    const found = searchLandmarks(landmarks, search.value, chosen);
    const key = `${search.value}\u0000${found.map((item) => item.id).join(",")}`;
    search.disabled = landmarks.length < 2;
    count.textContent = search.value.trim()
      ? found.length ? `${found.length} of ${landmarks.length} landmarks match.` : `No landmark matches “${search.value.trim()}”.`
      : "";
    if (key !== shown) {
      shown = key;
      select.replaceChildren(
        h("option", { value: "" }, "No landmark"),
        ...found.map((item) => h("option", { value: item.id },
          `${item.name} · ${categoryName(item.category)} · ${formatDistance(item.distance_m)} there and back`)),
      );
    }
    select.value = chosen;
  };
  search.addEventListener("input", fill);

  return {
    element,
    update({ landmarks, chosen, hint: hintText, error: message }) {
      current = { landmarks, chosen };
      fill();
      hint.textContent = hintText;
      error.textContent = message;
      if (message) select.setAttribute("aria-invalid", "true");
      else select.removeAttribute("aria-invalid");
    },
    destroy() {
      select.removeEventListener("change", changed);
      search.removeEventListener("input", fill);
    },
  };
}
