// An address field with suggestions while typing (run-route-planner 4.1.2, 4.1.2.1): a combobox whose
// listbox fills from GET /api/streets/suggestions as the person types (debounced; the previous request is
// cancelled). Arrow keys move through the suggestions, Enter or a tap chooses one, Escape closes the list.
import { api } from "../../../platform/api.js";
import { h } from "../../../platform/dom.js";

const debounceMs = 200;
let counter = 0;

/**
 * Creates the field. `name` is the API field its errors come back under; `near()` returns { lat, lon } or
 * null to rank suggestions by distance; `onChoose(place)` receives { text, detail, lat, lon }.
 * Returns { element, input, setText(text), setError(message) }.
 */
export function createAddressField({ name, label, placeholder, hint, near = () => null, onChoose }) {
  const id = `address-${++counter}`;
  const listId = `${id}-list`;
  const input = h("input", {
    id, name, type: "text", role: "combobox", autocomplete: "off", spellcheck: "false", placeholder,
    "aria-autocomplete": "list", "aria-expanded": "false", "aria-controls": listId,
    "aria-describedby": `${id}-error ${id}-hint`, maxlength: 100,
  });
  const list = h("ul", { class: "suggestions", id: listId, role: "listbox", "aria-label": `${label} suggestions`, hidden: true });
  const status = h("p", { class: "visually-hidden", role: "status", "aria-live": "polite" });
  const error = h("p", { class: "field-error", id: `${id}-error`, "aria-live": "polite" });
  const element = h("div", { class: "field address-field", dataset: { field: name } },
    h("label", { for: id }, label),
    h("div", { class: "address-field__box" }, input, list),
    h("p", { class: "field-hint", id: `${id}-hint` }, hint),
    error,
    status,
  );

  let suggestions = [];
  let active = -1;
  let timer = null;
  let request = null;

  const close = () => {
    list.hidden = true;
    input.setAttribute("aria-expanded", "false");
    input.removeAttribute("aria-activedescendant");
    active = -1;
  };

  const highlight = (index) => {
    active = index;
    [...list.children].forEach((option, i) => option.setAttribute("aria-selected", String(i === index)));
    if (index >= 0) {
      input.setAttribute("aria-activedescendant", `${listId}-${index}`);
      list.children[index].scrollIntoView({ block: "nearest" });
    } else {
      input.removeAttribute("aria-activedescendant");
    }
  };

  const choose = (index) => {
    const place = suggestions[index];
    if (!place) return;
    input.value = place.text;
    close();
    setError("");
    onChoose(place);
  };

  const show = (found, query) => {
    suggestions = found;
    list.replaceChildren(...found.map((place, index) =>
      h("li", {
        id: `${listId}-${index}`, role: "option", "aria-selected": "false", class: "suggestions__option",
        // Chosen on pointerdown so the input's blur does not close the list first.
        onpointerdown: (event) => {
          event.preventDefault();
          choose(index);
        },
      },
      h("span", { class: "suggestions__text" }, place.text),
      place.detail ? h("span", { class: "suggestions__detail" }, place.detail) : null)));
    if (!found.length) {
      list.replaceChildren(h("li", { class: "suggestions__empty", role: "option", "aria-disabled": "true" }, `No places match “${query}”.`));
    }
    list.hidden = false;
    input.setAttribute("aria-expanded", "true");
    active = -1;
    status.textContent = found.length ? `${found.length} suggestions. Use the arrow keys to choose.` : "No suggestions.";
  };

  const lookUp = async (query) => {
    request?.abort();
    request = new AbortController();
    const params = new URLSearchParams({ q: query, limit: "8" });
    const point = near();
    if (point) {
      params.set("lat", point.lat.toFixed(5));
      params.set("lon", point.lon.toFixed(5));
    }
    try {
      const answer = await api(`/api/streets/suggestions?${params}`, { signal: request.signal });
      if (input.value.trim() === query) show(answer.suggestions, query);
    } catch (failure) {
      if (failure.name === "AbortError") return;
      close();
      setError(failure.status === 503 ? "Place search is not available on this server." : failure.message);
    }
  };

  input.addEventListener("input", () => {
    clearTimeout(timer);
    const query = input.value.trim();
    if (query.length < 2) {
      request?.abort();
      close();
      return;
    }
    timer = setTimeout(() => lookUp(query), debounceMs);
  });

  input.addEventListener("keydown", (event) => {
    if (list.hidden || !suggestions.length) return;
    if (event.key === "ArrowDown") {
      event.preventDefault();
      highlight((active + 1) % suggestions.length);
    } else if (event.key === "ArrowUp") {
      event.preventDefault();
      highlight(active <= 0 ? suggestions.length - 1 : active - 1);
    } else if (event.key === "Enter") {
      event.preventDefault();
      choose(active >= 0 ? active : 0);
    } else if (event.key === "Escape") {
      close();
    }
  });

  input.addEventListener("blur", () => setTimeout(close, 150));

  function setError(message) {
    error.textContent = message;
    if (message) input.setAttribute("aria-invalid", "true");
    else input.removeAttribute("aria-invalid");
  }

  return {
    element,
    input,
    setText(text) {
      input.value = text;
      close();
    },
    setError,
  };
}
