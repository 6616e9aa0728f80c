// Search (GoSki UC9, functionality 6): a mountain by its full or partial name, case and accents ignored; the
// results in the same list as Nearby, or "No mountain with this name".
import { h } from "../../../platform/dom.js";
import { listMountains } from "../api.js";
import { createMountainList } from "../components/mountain-list.js";
import { currentPosition } from "../position.js";

export async function render(container, _params, query) {
  const state = { left: false, position: null };
  const field = h("input", { id: "ski-search", type: "search", name: "q", placeholder: "Mountain name, e.g. Willard", autocomplete: "off", maxlength: 100 });
  const error = h("p", { class: "field-error", id: "ski-search-error", role: "alert" });
  const status = h("p", { class: "muted small ski-status", role: "status" });
  const list = createMountainList("Mountains found");
  container.append(
    h("form", { class: "trail-search ski-search", role: "search", novalidate: true, onsubmit: (event) => { event.preventDefault(); search(field.value.trim()); } },
      h("label", { for: "ski-search", class: "visually-hidden" }, "Mountain name"),
      field,
      h("button", { class: "button", type: "submit" }, "Search")),
    error, status, list.element);

  async function search(text) {
    error.textContent = "";
    field.removeAttribute("aria-invalid");
    if (!text) {
      error.textContent = "Enter a mountain's name, or a part of it.";
      field.setAttribute("aria-invalid", "true");
      field.focus();
      return;
    }
    history.replaceState(null, "", `#/ski/search?q=${encodeURIComponent(text)}`);
    status.textContent = "Searching…";
    try {
      const near = state.position ? `${state.position.lat.toFixed(5)},${state.position.lon.toFixed(5)}` : undefined;
      const answer = await listMountains({ q: text, near, radius_km: near ? 2000 : undefined, sort: near ? "distance" : "name", limit: 100 });
      let mountains = answer.mountains;
      if (near && mountains.length === 0) mountains = (await listMountains({ q: text, limit: 100 })).mountains;
      if (state.left) return;
      list.update(mountains);
      status.textContent = mountains.length
        ? `${mountains.length === 1 ? "1 mountain" : `${mountains.length} mountains`} for “${text}”.`
        : "No mountain with this name.";
    } catch (problem) {
      const detail = problem.fieldErrors?.q ?? problem.message;
      if (problem.status === 422) {
        error.textContent = detail;
        field.setAttribute("aria-invalid", "true");
        status.textContent = "";
      } else {
        status.textContent = problem.status === 0 ? "No connection: mountains cannot be searched." : problem.message;
      }
    }
  }

  currentPosition({ ask: false }).then((position) => { state.position = position; });
  const initial = query?.get("q");
  if (initial) {
    field.value = initial;
    search(initial);
  } else {
    field.focus();
  }
  return () => { state.left = true; };
}
