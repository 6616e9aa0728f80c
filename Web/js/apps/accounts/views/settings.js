import { h } from "../../../platform/dom.js";
import { choices, getSettings, updateSettings } from "../../../platform/settings.js";
import { loadAccount } from "../../../platform/account.js";
import {
  currentSubscription, disablePush, enablePush, loadPushPreferences, pushKinds, pushSupported, savePushPreference,
} from "../../../platform/push.js";

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
    notificationsSection(),
    h("section", { "aria-labelledby": "settings-account" },
      h("h3", { id: "settings-account" }, "Account"),
      h("nav", { class: "list", "aria-label": "Account settings" },
        h("a", { href: "#/settings/account" }, "Account, password and sign-out")),
    ),
  );
}

const refusals = {
  unsupported: "This browser cannot receive notifications.",
  denied: "Notifications are blocked for this site. Allow them in the browser's site settings, then try again.",
  dismissed: "Notifications stay off: the browser did not get your permission.",
};

/** Settings › Notifications: push on this device, and which kinds (for every device of the account). */
function notificationsSection() {
  const status = h("p", { class: "muted small", role: "status", "aria-live": "polite" });
  const body = h("div", {}, h("p", { class: "muted small" }, "Loading…"));
  const section = h("section", { "aria-labelledby": "settings-notifications" },
    h("h3", { id: "settings-notifications" }, "Notifications"), body, status);
  fillNotifications(body, status);
  return section;
}

async function fillNotifications(body, status) {
  const account = await loadAccount();
  if (!account) {
    body.replaceChildren(h("p", { class: "muted small" },
      "Log in to get notifications of new messages and friend requests. ",
      h("a", { href: "#/login" }, "Log in")));
    return;
  }
  let preferences;
  try {
    preferences = await loadPushPreferences();
  } catch (error) {
    body.replaceChildren(h("p", { class: "muted small" }, error.message));
    return;
  }
  const supported = pushSupported();
  const subscribed = supported ? Boolean(await currentSubscription().catch(() => null)) : false;
  const device = h("input", {
    type: "checkbox", role: "switch", checked: subscribed, disabled: !supported,
    "aria-label": "Notifications on this device",
    onchange: async () => {
      device.disabled = true;
      try {
        if (device.checked) {
          const outcome = await enablePush();
          device.checked = outcome.ok;
          status.textContent = outcome.ok ? "Notifications are on for this device." : refusals[outcome.reason];
        } else {
          await disablePush();
          status.textContent = "Notifications are off for this device.";
        }
      } catch (error) {
        device.checked = !device.checked;
        status.textContent = error.message;
      } finally {
        device.disabled = false;
      }
    },
  });
  if (!supported) status.textContent = refusals.unsupported;
  const kinds = pushKinds.map((kind) => {
    const box = h("input", {
      type: "checkbox", role: "switch", checked: preferences.kinds[kind.id] ?? true, "aria-label": kind.label,
      onchange: async () => {
        box.disabled = true;
        try {
          const saved = await savePushPreference(kind.id, box.checked);
          box.checked = saved.kinds[kind.id];
          status.textContent = `${kind.label}: ${box.checked ? "on" : "off"}.`;
        } catch (error) {
          box.checked = !box.checked;
          status.textContent = error.message;
        } finally {
          box.disabled = false;
        }
      },
    });
    return h("label", { class: "check-row switch-row" }, box, kind.label);
  });
  body.replaceChildren(
    h("label", { class: "check-row switch-row" }, device, "Notifications on this device"),
    h("p", { class: "muted small" }, "Which notifications you get, on every device where they are on:"),
    ...kinds,
  );
}
