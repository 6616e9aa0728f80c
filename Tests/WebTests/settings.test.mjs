// Settings defaults (Web/js/platform/settings.js): units start from the browser's region; stored choices
// win; a stored value that is not a choice falls back to the default.
import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";

const stored = new Map();
globalThis.localStorage = {
  getItem: (key) => (stored.has(key) ? stored.get(key) : null),
  setItem: (key, value) => stored.set(key, String(value)),
  removeItem: (key) => stored.delete(key),
};
Object.defineProperty(globalThis, "navigator", { value: { languages: ["en-US"], language: "en-US" }, configurable: true });
globalThis.window = new EventTarget();
globalThis.CustomEvent ??= class extends Event {
  constructor(type, options) {
    super(type);
    this.detail = options?.detail;
  }
};

const { choices, getSettings, localeDefaults, updateSettings } = await import("../../Web/js/platform/settings.js");

beforeEach(() => stored.clear());

test("the region decides the first units", () => {
  assert.deepEqual(localeDefaults("US"), { distance: "mi", temperature: "F", elevation: "ft" });
  assert.deepEqual(localeDefaults("GB"), { distance: "mi", temperature: "C", elevation: "m" });
  assert.deepEqual(localeDefaults("FI"), { distance: "km", temperature: "C", elevation: "m" });
  assert.deepEqual(localeDefaults(""), { distance: "km", temperature: "C", elevation: "m" });
});

test("with nothing stored, settings are the browser's region defaults", () => {
  assert.deepEqual(getSettings(), { distance: "mi", temperature: "F", elevation: "ft" });
});

test("a saved choice is kept and announced; unknown values fall back to the defaults", () => {
  const heard = [];
  window.addEventListener("cairn:settings", (event) => heard.push(event.detail));
  updateSettings({ distance: "km" });
  assert.equal(getSettings().distance, "km");
  assert.equal(heard.at(-1).distance, "km");
  stored.set("cairn.settings", JSON.stringify({ temperature: "K", elevation: "m" }));
  assert.deepEqual(getSettings(), { distance: "mi", temperature: "F", elevation: "m" });
  stored.set("cairn.settings", "not json");
  assert.deepEqual(getSettings(), localeDefaults("US"));
  for (const [key, options] of Object.entries(choices)) assert.ok(options.includes(getSettings()[key]));
});
