// Boots the app shell: service worker, router, profile menu.
import { appRoutes, fallbackPath } from "./apps/index.js";
import { currentAccount, loadAccount, logOut } from "./platform/account.js";
import { h } from "./platform/dom.js";
import { match, routeTable } from "./platform/router.js";

const routes = routeTable(...appRoutes);

const view = document.getElementById("view");
const title = document.getElementById("screen-title");
let cleanup = null;
let navigation = 0;

async function navigate() {
  const found = match(routes, location.hash);
  if (!found) {
    location.replace(`#/${fallbackPath}`);
    return;
  }
  const { route, params } = found;
  const current = ++navigation;
  closeProfileMenu();
  if (typeof cleanup === "function") cleanup();
  cleanup = null;
  view.replaceChildren();
  view.classList.toggle("full-bleed", Boolean(route.fullBleed));
  title.textContent = route.title;
  document.title = route.title === "Home" ? "Cairn" : `${route.title} · Cairn`;
  for (const link of document.querySelectorAll(".bottom-nav a")) {
    if (link.dataset.tab === route.tab) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  try {
    const module = await route.view();
    if (current !== navigation) return;
    cleanup = await module.render(view, params);
  } catch (error) {
    console.error(error);
    view.replaceChildren(h("p", { class: "notice notice--error", role: "alert" }, "This screen could not be opened. Reload the page and try again."));
  }
}

// Profile menu (top right): account entries and Log out, reachable from every screen.
const profileButton = document.getElementById("profile-button");
const profileMenu = document.getElementById("profile-menu");

export function renderProfileMenu(items) {
  profileMenu.replaceChildren(...items.map((item) =>
    item.header ? h("p", { class: "menu__header" }, item.label) : item.href
      ? h("a", { role: "menuitem", href: item.href }, item.label)
      : h("button", { role: "menuitem", type: "button", onclick: item.action }, item.label)));
}

function closeProfileMenu() {
  profileMenu.hidden = true;
  profileButton.setAttribute("aria-expanded", "false");
}

profileButton.addEventListener("click", (event) => {
  event.stopPropagation();
  const open = profileMenu.hidden;
  profileMenu.hidden = !open;
  profileButton.setAttribute("aria-expanded", String(open));
  if (open) profileMenu.querySelector("a, button")?.focus();
});
document.addEventListener("click", (event) => {
  if (!profileMenu.contains(event.target)) closeProfileMenu();
});
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && !profileMenu.hidden) {
    closeProfileMenu();
    profileButton.focus();
  }
});

function accountMenu() {
  const account = currentAccount();
  return account
    ? [
      { header: true, label: `Signed in as ${account.username}` },
      { label: "Profile", href: "#/profile" },
      { label: "Settings", href: "#/settings" },
      { label: "Log out", action: () => logOut() },
    ]
    : [
      { label: "Log in", href: "#/login" },
      { label: "Create account", href: "#/register" },
      { label: "Settings", href: "#/settings" },
    ];
}

renderProfileMenu(accountMenu());
window.addEventListener("cairn:account", () => renderProfileMenu(accountMenu()));
loadAccount();

window.addEventListener("hashchange", navigate);
navigate();

if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch((error) => console.warn("service worker", error));
}
