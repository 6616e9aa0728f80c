// An address field with suggestions while typing (run-route-planner 4.1.2, 4.1.2.1): a combobox whose
// listbox fills from the place suggestions as the person types (debounced; the previous request is
// cancelled). Arrow keys move through the suggestions, Enter or a tap chooses one, Escape closes the list.
// Text typed but not chosen is never ignored: `bestMatch()` gives the best suggestion for it, or null.
import { h } from "../../../platform/dom.js";
import { placeSuggestions } from "../api.js";

const debounceMs = 200;
let counter = 0;

/**
 * Creates the field. `name` is the API field its errors come back under; `near()` returns { lat, lon } or
 * null to rank suggestions by distance; `onType(text)` runs as the person types; `onChoose(place)` receives
 * { text, detail, lat, lon }. `actions` are nodes shown under the input (a "Use my location" button).
 * Returns { element, update({ text, error }), bestMatch(), destroy() }.
 */
export function createAddressField({ name, label, placeholder, hint, actions = [], near = () => null, onType = () => {}, onChoose }) {
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
    actions.length ? h("div", { class: "button-row address-field__actions" }, actions) : null,
    h("p", { class: "field-hint", id: `${id}-hint` }, hint),
    error,
    status,
  );

  let suggestions = [];
  let active = -1;
  let timer = null;
  let blurTimer = null;
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
    try {
      const answer = await placeSuggestions(query, near(), { signal: request.signal });
      if (input.value.trim() === query) show(answer.suggestions, query);
    } catch (failure) {
      if (failure.name === "AbortError") return;
      close();
      update({ error: failure.status === 503 ? "Place search is not available on this server." : failure.message });
    }
  };

  input.addEventListener("input", () => {
    clearTimeout(timer);
    onType(input.value);
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

  input.addEventListener("blur", () => {
    blurTimer = setTimeout(close, 150);
  });

  /** Shows `text` in the input (when given) and `error` under it ("" clears it). */
  function update({ text, error: message } = {}) {
    if (text !== undefined && text !== input.value) {
      input.value = text;
      close();
    }
    if (message !== undefined) {
      error.textContent = message;
      if (message) input.setAttribute("aria-invalid", "true");
      else input.removeAttribute("aria-invalid");
    }
  }

  return {
    element,
    update,
    /** The best suggestion for the text in the field (the first one, nearest first), or null when none. */
    async bestMatch() {
      const query = input.value.trim();
      if (query.length < 2) return null;
      request?.abort();
      clearTimeout(timer);
      const answer = await placeSuggestions(query, near(), { limit: 1 });
      return answer.suggestions[0] ?? null;
    },
    /** Moves focus to the input. */
    focus: () => input.focus(),
    destroy() {
      clearTimeout(timer);
      clearTimeout(blurTimer);
      request?.abort();
    },
  };
}
