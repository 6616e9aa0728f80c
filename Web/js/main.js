// Boots the app shell: the router (every app's screens), the app bar (Back, title, profile menu), the
// connection indicator, the outbox's triggers and the service worker.
import { appRoutes, fallbackPath } from "./apps/index.js";
import { currentAccount, loadAccount, logOut } from "./platform/account.js";
import { connectionState, onConnectionChange } from "./platform/connection.js";
import { createDisclosure } from "./platform/disclosure.js";
import { h } from "./platform/dom.js";
import { outbox } from "./platform/offline/outbox.js";
import { appHash, isNavigateMessage } from "./platform/notification-link.js";
import { hashQuery, match, parentPath, routeTable } from "./platform/router.js";
import { closeSheets } from "./platform/sheet.js";

const routes = routeTable(...appRoutes);
const view = document.getElementById("view");
const title = document.getElementById("screen-title");
const brand = document.getElementById("app-bar-brand");
const backButton = document.getElementById("back-button");
let cleanup = null;
let navigation = 0;
let depth = 0;

async function navigate() {
  const found = match(routes, location.hash);
  if (!found) {
    location.replace(`#/${fallbackPath}`);
    return;
  }
  const { route, params } = found;
  const current = ++navigation;
  // How deep in Cairn's own history this screen is, so Back knows whether there is a screen to go back to.
  if (typeof history.state?.cairnDepth === "number") depth = history.state.cairnDepth;
  else {
    depth = current === 1 ? 0 : depth + 1;
    history.replaceState({ cairnDepth: depth }, "");
  }
  closeSheets();
  profileMenu.update({ open: false });
  if (typeof cleanup === "function") cleanup();
  cleanup = null;
  view.replaceChildren();
  view.classList.toggle("full-bleed", Boolean(route.fullBleed));
  title.textContent = route.title;
  document.title = route.title === "Home" ? "Cairn" : `${route.title} · Cairn`;
  const topLevel = !parentPath(route);
  brand.hidden = !topLevel;
  backButton.hidden = topLevel;
  backButton.dataset.parent = parentPath(route) ?? "";
  for (const link of document.querySelectorAll(".bottom-nav a")) {
    if (link.dataset.tab === route.tab) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  window.scrollTo(0, 0);
  try {
    const module = await route.view();
    if (current !== navigation) return;
    cleanup = await module.render(view, params, hashQuery(location.hash));
  } catch (error) {
    console.error(error);
    view.replaceChildren(h("p", { class: "notice notice--error", role: "alert" }, "This screen could not be opened. Reload the page and try again."));
  }
  // The new screen's heading takes focus (and so is what a screen reader reads); not on the first load.
  if (current === navigation && current > 1 && !document.querySelector("dialog[open]")) title.focus({ preventScroll: true });
}

backButton.addEventListener("click", () => {
  if (depth > 0) history.back();
  else location.hash = `#/${backButton.dataset.parent || fallbackPath}`;
});

// Profile menu (top right): account entries, the field guide and Log out, reachable from every screen.
const profilePanel = document.getElementById("profile-menu");
const profileMenu = createDisclosure({ button: document.getElementById("profile-button"), panel: profilePanel });

function renderProfileMenu() {
  const account = currentAccount();
  const items = account
    ? [
      { label: "Profile", href: "#/profile" },
      { label: "Field guide", href: "#/flora" },
      { label: "Settings", href: "#/settings" },
      { label: "Log out", action: () => logOut() },
    ]
    : [
      { label: "Log in", href: "#/login" },
      { label: "Create account", href: "#/register" },
      { label: "Field guide", href: "#/flora" },
      { label: "Settings", href: "#/settings" },
    ];
  profilePanel.replaceChildren(...[
    account ? h("p", { class: "menu__header" }, `Signed in as ${account.username}`) : null,
    h("ul", { class: "menu__list" }, items.map((item) => h("li", {},
      item.href ? h("a", { href: item.href }, item.label) : h("button", { type: "button", onclick: item.action }, item.label)))),
  ].filter(Boolean));
}

// The connection indicator: offline or unreachable, and writes still waiting to be sent.
const connectionStatus = document.getElementById("connection-status");

async function renderConnection() {
  const state = connectionState();
  const waiting = (await outbox.items()).filter((item) => item.state === "pending" || item.state === "sending").length;
  const waitingText = waiting ? ` ${waiting === 1 ? "1 change waits" : `${waiting} changes wait`} to be sent.` : "";
  let text = "";
  if (state === "offline") text = `You are offline. What you save stays on this device until you are back online.${waitingText}`;
  else if (state === "unreachable") text = `Cannot reach the Cairn server. What you save stays on this device until it answers.${waitingText}`;
  else if (waiting) text = waitingText.trim();
  connectionStatus.hidden = !text;
  document.body.classList.toggle("has-connection-status", Boolean(text));
  connectionStatus.dataset.state = text ? state : "";
  connectionStatus.replaceChildren(h("span", {}, text));
  if (waiting && state !== "offline") {
    connectionStatus.append(h("button", {
      class: "button button--secondary button--small", type: "button", onclick: () => outbox.flush({ force: true }),
    }, "Send now"));
  }
}

onConnectionChange(renderConnection);
outbox.subscribe(renderConnection);
window.addEventListener("online", () => loadAccount({ refresh: true }).then(() => outbox.flush({ force: true })));

renderProfileMenu();
window.addEventListener("cairn:account", () => {
  renderProfileMenu();
  outbox.flush();
});
window.addEventListener("hashchange", navigate);
navigate();
loadAccount().then(() => outbox.flush()).finally(renderConnection);

if ("serviceWorker" in navigator) {
  // A tapped notification while the app is open (sw.js): go to its screen, again if it is the one shown.
  navigator.serviceWorker.addEventListener("message", (event) => {
    if (!isNavigateMessage(event.data)) return;
    const hash = appHash(event.data.url, location.origin);
    if (!hash) return;
    if (hash === location.hash) navigate();
    else location.hash = hash;
  });
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch((error) => console.warn("service worker", error));
}
