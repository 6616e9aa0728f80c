// Form building blocks for every screen: labelled fields whose errors appear next to them
// (aria-describedby), server field errors mapped onto them, and a busy state while a request runs.
import { ApiError } from "./api.js";
import { h } from "./dom.js";

let counter = 0;

export const passwordRule = "At least 8 characters with a capital letter, a number and a special character (like ! # or -).";

/**
 * A labelled control: `name` is the API field its errors come back under. Options: label, type,
 * autocomplete, hint, value, inputmode, maxlength, multiline, accept, min, max, step.
 */
export function field(name, label, options = {}) {
  const id = `field-${name}-${++counter}`;
  const describedBy = [`${id}-error`, options.hint ? `${id}-hint` : null].filter(Boolean).join(" ");
  const attributes = {
    id, name, "aria-describedby": describedBy, autocomplete: options.autocomplete, inputmode: options.inputmode,
    maxlength: options.maxlength, accept: options.accept, min: options.min, max: options.max, step: options.step,
    spellcheck: options.type === "password" ? "false" : undefined,
  };
  const control = options.multiline
    ? h("textarea", { ...attributes, rows: 4 }, options.value ?? "")
    : h("input", { ...attributes, type: options.type ?? "text", value: options.value ?? undefined });
  return h("div", { class: "field", dataset: { field: name } },
    h("label", { for: id }, label),
    control,
    options.hint ? h("p", { class: "field-hint", id: `${id}-hint` }, options.hint) : null,
    h("p", { class: "field-error", id: `${id}-error`, "aria-live": "polite" }),
  );
}

/** The control of the field named `name` in `form`. */
export function control(form, name) {
  return form.querySelector(`[data-field="${name}"] input, [data-field="${name}"] textarea, [data-field="${name}"] select`);
}

/**
 * A form that never submits itself: `onSubmit(form)` runs instead, with the submit button busy. Its notice
 * (errors that belong to no field, success) sits just above the submit button, where the person looks.
 */
export function form(onSubmit, ...children) {
  const element = h("form", { novalidate: true, class: "form" }, ...children);
  const formNotice = h("div", { class: "form-notice", role: "alert" });
  const submitButton = element.querySelector("button[type=submit]");
  if (submitButton) (submitButton.closest(".button-row") ?? submitButton).before(formNotice);
  else element.append(formNotice);
  element.addEventListener("submit", async (event) => {
    event.preventDefault();
    const button = element.querySelector("button[type=submit]");
    if (button?.disabled) return;
    clearErrors(element);
    if (button) button.disabled = true;
    try {
      await onSubmit(element);
    } catch (error) {
      showError(element, error);
    } finally {
      if (button) button.disabled = false;
    }
  });
  return element;
}

export function clearErrors(form) {
  form.querySelector(".form-notice").replaceChildren();
  form.querySelector(".form-notice").className = "form-notice";
  for (const error of form.querySelectorAll(".field-error")) error.textContent = "";
  for (const invalid of form.querySelectorAll("[aria-invalid]")) invalid.removeAttribute("aria-invalid");
}

/** Puts each field error of a 422 next to its field; anything else goes to the notice at the top. */
export function showError(form, error) {
  const fieldErrors = error instanceof ApiError ? error.fieldErrors : {};
  let first = null;
  const unplaced = [];
  for (const [name, message] of Object.entries(fieldErrors)) {
    const input = control(form, name);
    if (!input) {
      unplaced.push(message);
      continue;
    }
    setFieldError(form, name, message);
    first ??= input;
  }
  if (first) {
    first.focus();
    if (unplaced.length) notice(form, unplaced.join(" "));
    return;
  }
  notice(form, error?.message ?? "Something went wrong. Try again.");
}

/** Shows `message` next to the field named `name` and marks its control invalid. */
export function setFieldError(form, name, message) {
  control(form, name)?.setAttribute("aria-invalid", "true");
  form.querySelector(`[data-field="${name}"] .field-error`).textContent = message;
}

/** A message at the top of the form: an error by default, or `kind` "success". */
export function notice(form, message, kind = "error") {
  const box = form.querySelector(".form-notice");
  box.className = `form-notice notice notice--${kind}`;
  box.textContent = message;
  box.scrollIntoView?.({ block: "nearest" });
}

/** The trimmed text of each named field. */
export function values(form, ...names) {
  return Object.fromEntries(names.map((name) => [name, control(form, name)?.value ?? ""]));
}

export function submit(label, extraClass = "") {
  return h("button", { class: `button button--block ${extraClass}`.trim(), type: "submit" }, label);
}
