// Profile (trailz 3.2.6.5): picture (tap → Edit Profile), name at the top, About Me with its ⋮ menu.
import { accountNeededPanel, loadAccount } from "../../../platform/account.js";
import { createDisclosure } from "../../../platform/disclosure.js";
import { h } from "../../../platform/dom.js";
import { getSettings } from "../../../platform/settings.js";

export async function render(container) {
  const account = await loadAccount({ refresh: true });
  if (!account) {
    container.append(accountNeededPanel("have a profile"));
    return;
  }
  const p = account.profile;
  const menu = h("div", { class: "menu menu--inline", id: "about-me-options" },
    h("ul", { class: "menu__list" }, h("li", {}, h("a", { href: "#/profile/edit" }, "Edit"))));
  const toggle = h("button", { class: "icon-button icon-button--plain", type: "button", "aria-label": "About Me options" }, "⋮");
  const disclosure = createDisclosure({ button: toggle, panel: menu });
  container.append(
    h("section", { class: "profile-head" },
      h("a", { class: "avatar-link", href: "#/profile/edit", "aria-label": "Change profile picture" },
        h("img", { class: "avatar avatar--large", src: p.avatar_url, alt: p.has_custom_avatar ? `${p.display_name}'s picture` : "Default avatar" })),
      h("h2", {}, p.display_name),
      h("p", { class: "muted" }, `@${account.username}`),
    ),
    h("section", { class: "panel", "aria-labelledby": "about-title" },
      h("div", { class: "panel__head" }, h("h3", { id: "about-title" }, "About Me"), h("div", { class: "menu-anchor" }, toggle, menu)),
      h("p", { class: p.about_me ? "" : "muted" }, p.about_me || "Nothing here yet. Tell others what you like to do outside."),
    ),
    h("section", { class: "panel", "aria-labelledby": "details-title" },
      h("h3", { id: "details-title" }, "Details"),
      h("dl", { class: "details" }, ...details(p)),
      h("p", { class: "muted small" }, "Age, weight and height are optional; they are used to estimate calories."),
    ),
    h("div", { class: "button-row" },
      h("a", { class: "button", href: "#/friends" }, "Friends"),
      h("a", { class: "button button--secondary", href: "#/profile/edit" }, "Edit profile")),
  );
  return () => disclosure.destroy();
}

function details(profile) {
  const imperial = getSettings().elevation === "ft";
  const weight = profile.weight_kg == null ? "—" : imperial ? `${Math.round(profile.weight_kg * 2.20462)} lb` : `${profile.weight_kg} kg`;
  const height = profile.height_cm == null ? "—" : imperial ? `${Math.round(profile.height_cm / 2.54)} in` : `${profile.height_cm} cm`;
  return [["Age", profile.age ?? "—"], ["Weight", weight], ["Height", height]]
    .flatMap(([term, value]) => [h("dt", {}, term), h("dd", {}, String(value))]);
}
