// The run distance, typed in the person's unit (Settings): "Distance (mi)" for people who read miles.
import { field } from "../../../platform/forms.js";
import { distanceHint } from "../distance.js";

/**
 * Creates the field for `unit` ("km" or "mi"); `onInput(text)` runs as the person types, `onChange(text)`
 * when they leave it. Returns { element, update({ error }), destroy() }.
 */
export function createDistanceField({ unit, onInput, onChange }) {
  const element = field("distance_km", `Distance (${unit})`, { inputmode: "decimal", hint: distanceHint(unit), autocomplete: "off" });
  const input = element.querySelector("input");
  const error = element.querySelector(".field-error");
  const typed = () => onInput(input.value);
  const left = () => onChange(input.value);
  input.addEventListener("input", typed);
  input.addEventListener("change", left);
  return {
    element,
    update({ error: message }) {
      error.textContent = message;
      if (message) input.setAttribute("aria-invalid", "true");
      else input.removeAttribute("aria-invalid");
    },
    destroy() {
      input.removeEventListener("input", typed);
      input.removeEventListener("change", left);
    },
  };
}
