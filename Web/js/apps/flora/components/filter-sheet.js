// The filter menu (niwot-field-guide 2.1, 2.2) in a sheet: the exclusive filters (a plant group) first, then
// the filters that apply to the chosen one, grouped, each with how many plants it would leave. Every change
// goes to `onChange(selection)` at once, so the list behind updates with each selection.
import { h } from "../../../platform/dom.js";
import { openSheet } from "../../../platform/sheet.js";
import { groupFilters } from "../filtering.js";

/**
 * Opens the menu. `result` is the current search result (exclusive_filters, available_filters, count);
 * `search(selection)` computes the next one; `onChange(selection, result)` is told of each change.
 */
export function openFilterSheet({ selection, search, onChange }) {
  let current = { exclusive: selection.exclusive ?? null, filters: [...selection.filters] };
  let result = search(current);
  const body = h("div", { class: "flora-filters" });
  const showButton = h("button", { class: "button button--block", type: "button", onclick: () => sheet.close() });
  const clearButton = h("button", {
    class: "button button--secondary button--block", type: "button",
    onclick: () => apply({ exclusive: null, filters: [] }),
  }, "Clear filters");

  function apply(next) {
    current = next;
    result = search(current);
    onChange(current, result);
    draw();
  }

  function chooseExclusive(id) {
    // Only the filters that apply to the chosen plant group stay chosen.
    const probe = search({ exclusive: id, filters: [] });
    const allowed = new Set(probe.available_filters.map((filter) => filter.id));
    apply({ exclusive: id, filters: current.filters.filter((filter) => allowed.has(filter)) });
  }

  function toggle(id, on) {
    const filters = current.filters.filter((filter) => filter !== id);
    if (on) filters.push(id);
    apply({ exclusive: current.exclusive, filters });
  }

  function draw() {
    const exclusiveGroup = result.exclusive_filters[0]?.group ?? "Plant group";
    const exclusive = h("fieldset", { class: "flora-filters__group" },
      h("legend", {}, `${exclusiveGroup} (choose first)`),
      radio("flora-exclusive", "All plants", current.exclusive === null, () => apply({ exclusive: null, filters: current.filters })),
      result.exclusive_filters.map((filter) =>
        radio("flora-exclusive", `${filter.label} (${filter.count})`, filter.selected, () => chooseExclusive(filter.id))),
    );
    const groups = groupFilters(result.available_filters).map(({ group, filters }) =>
      h("fieldset", { class: "flora-filters__group" },
        h("legend", {}, group),
        filters.map((filter) => checkbox(`${filter.label} (${filter.count})`, filter.selected, (on) => toggle(filter.id, on))),
      ));
    body.replaceChildren(exclusive, ...groups);
    showButton.textContent = result.count === 0 ? "No Flora Found" : `Show ${result.count} ${result.count === 1 ? "plant" : "plants"}`;
  }

  draw();
  const sheet = openSheet({ title: "Filters", content: [body, h("div", { class: "stack" }, showButton, clearButton)] });
  return sheet;
}

let counter = 0;

function radio(name, label, checked, onSelect) {
  const id = `flora-choice-${++counter}`;
  return h("div", { class: "choice" },
    h("input", { type: "radio", id, name, checked, onchange: (event) => { if (event.target.checked) onSelect(); } }),
    h("label", { for: id }, label));
}

function checkbox(label, checked, onToggle) {
  const id = `flora-choice-${++counter}`;
  return h("div", { class: "choice" },
    h("input", { type: "checkbox", id, checked, onchange: (event) => onToggle(event.target.checked) }),
    h("label", { for: id }, label));
}
