import { h } from "../../../platform/dom.js";
import { choices, getSettings, updateSettings } from "../../../platform/settings.js";

const labels = {
  distance: { legend: "Distance", km: "km", mi: "mi" },
  temperature: { legend: "Temperature", C: "°C", F: "°F" },
  elevation: { legend: "Elevation", m: "m", ft: "ft" },
};

export function render(container) {
  const settings = getSettings();
  const status = h("p", { class: "muted small", role: "status" });
  container.append(
    h("h2", {}, "Settings"),
    h("section", { "aria-labelledby": "settings-general" },
      h("h3", { id: "settings-general" }, "General"),
      h("p", { class: "muted small" }, "Units used across Cairn. They start from your device's region."),
      Object.entries(choices).map(([key, options]) =>
        h("fieldset", { class: "segmented" },
          h("legend", {}, labels[key].legend),
          h("div", { class: "segmented__options" },
            options.map((option) =>
              h("label", {},
                h("input", {
                  type: "radio", name: key, value: option, checked: settings[key] === option,
                  "aria-label": `${labels[key].legend}: ${labels[key][option]}`,
                  onchange: () => {
                    updateSettings({ [key]: option });
                    status.textContent = `${labels[key].legend} shown in ${labels[key][option]}.`;
                  },
                }),
                h("span", { "aria-hidden": "true" }, labels[key][option]),
              )),
          ),
        )),
      status,
    ),
    h("section", { "aria-labelledby": "settings-account" },
      h("h3", { id: "settings-account" }, "Account"),
      h("nav", { class: "list", "aria-label": "Account settings" },
        h("a", { href: "#/settings/account" }, "Account, password and sign-out")),
    ),
  );
}
