// The user's preferences, kept on the device. Units default from the browser's locale.

const storageKey = "cairn.settings";

/** Regions that use miles / Fahrenheit / feet. */
const imperialRegions = new Set(["US", "LR", "MM"]);
const milesRegions = new Set(["US", "LR", "MM", "GB"]);

function localeRegion() {
  const language = navigator.languages?.[0] ?? navigator.language ?? "en";
  try {
    return new Intl.Locale(language).maximize().region ?? "";
  } catch {
    return "";
  }
}

/** The units a newcomer from this browser's region expects. */
export function localeDefaults(region = localeRegion()) {
  return {
    distance: milesRegions.has(region) ? "mi" : "km",
    temperature: imperialRegions.has(region) ? "F" : "C",
    elevation: imperialRegions.has(region) ? "ft" : "m",
  };
}

export const choices = {
  distance: ["km", "mi"],
  temperature: ["C", "F"],
  elevation: ["m", "ft"],
};

export function getSettings() {
  let stored = {};
  try {
    stored = JSON.parse(localStorage.getItem(storageKey) ?? "{}") ?? {};
  } catch {
    stored = {};
  }
  const settings = { ...localeDefaults(), ...stored };
  for (const [key, options] of Object.entries(choices)) {
    if (!options.includes(settings[key])) settings[key] = localeDefaults()[key];
  }
  return settings;
}

/** Saves `changes`; `fromAccount` marks units that came from the signed-in account (not to be sent back). */
export function updateSettings(changes, { fromAccount = false } = {}) {
  const next = { ...getSettings(), ...changes };
  localStorage.setItem(storageKey, JSON.stringify(next));
  window.dispatchEvent(new CustomEvent("cairn:settings", { detail: { ...next, fromAccount } }));
  return next;
}
