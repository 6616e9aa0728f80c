// The piste convention setting: kept on the device, defaulting from the browser's locale.
import { defaultConvention } from "./format.js";

const storageKey = "cairn.ski.convention";

function localeRegion() {
  const language = navigator.languages?.[0] ?? navigator.language ?? "en";
  try {
    return new Intl.Locale(language).maximize().region ?? "";
  } catch {
    return "";
  }
}

export function getConvention() {
  const stored = localStorage.getItem(storageKey);
  return stored === "north_america" || stored === "europe" ? stored : defaultConvention(localeRegion());
}

export function setConvention(value) {
  localStorage.setItem(storageKey, value);
  window.dispatchEvent(new CustomEvent("cairn:ski-convention", { detail: value }));
}
