// The ski main menu (GoSki WBS 2.1): Nearby, Search, Favourites, Tutorials, Best Moments and Find Friends, with
// the guest tip for account-only entries.
import { currentAccount, loadAccount } from "../../../platform/account.js";
import { h, icon } from "../../../platform/dom.js";

const entries = [
  { href: "#/ski/nearby", label: "Nearby", text: "Mountains around you on a map, by distance or ticket price.", path: "M12 2a7 7 0 0 0-7 7c0 5 7 13 7 13s7-8 7-13a7 7 0 0 0-7-7z M12 7a2 2 0 1 0 0.01 0" },
  { href: "#/ski/search", label: "Search", text: "Find a mountain by its name.", path: "M10 3a7 7 0 1 0 0.01 0 M15 15l6 6" },
  { href: "#/ski/favourites", label: "Favourites", text: "The mountains you keep.", path: "M12 3l2.8 5.8 6.2.9-4.5 4.4 1.1 6.2L12 17.4l-5.6 2.9 1.1-6.2L3 9.7l6.2-.9z", account: true },
  { href: "#/ski/tutorials", label: "Tutorials", text: "Technique videos from first turns to moguls.", path: "M3 5h18v12H3z M10 8.5v5l4.5-2.5z M8 21h8" },
  { href: "#/ski/moments", label: "Best Moments", text: "Photos and stories from every skier.", path: "M4 7h4l2-3h4l2 3h4v13H4z M12 10a3.5 3.5 0 1 0 0.01 0", account: true },
  { href: "#/location/map", label: "Find Friends", text: "Your friends on the map while you ski.", path: "M8 11a3 3 0 1 0 0.01 0 M16 11a3 3 0 1 0 0.01 0 M3 20c0-3 2-5 5-5s5 2 5 5 M11 20c0-3 2-5 5-5s5 2 5 5", account: true },
];

export async function render(container) {
  await loadAccount();
  const guest = !currentAccount();
  container.append(...[
    h("section", { class: "ski-hero", "aria-labelledby": "ski-hero-title" },
      h("h2", { id: "ski-hero-title", class: "ski-hero__title" }, "Where do we ski today?"),
      h("p", { class: "ski-hero__text" }, "Nearby mountains with ticket prices, weather, pistes and lifts.")),
    guest ? h("p", { class: "notice notice--info ski-guest-tip" },
      "You are skiing as a guest. ", h("a", { href: "#/login" }, "Log in"), " or ", h("a", { href: "#/register" }, "create an account"),
      " to keep favourites, share Best Moments and find your friends.") : null,
    h("nav", { class: "ski-menu", "aria-label": "Ski menu" },
      ...entries.map((entry) => h("a", { class: "ski-menu__item", href: entry.href },
        h("span", { class: "ski-menu__icon", "aria-hidden": "true" }, icon(entry.path)),
        h("span", { class: "ski-menu__label" }, entry.label),
        h("span", { class: "ski-menu__text" }, entry.text, guest && entry.account ? " (account)" : ""))))].filter(Boolean));
}
