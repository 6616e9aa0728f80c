// Favorites (Trailz 3.2.4.3): the person's favourite trails, latest first; each page is kept on the device so
// favourites open offline.
import { accountNeededPanel, loadAccount } from "../../../platform/account.js";
import { h } from "../../../platform/dom.js";
import { favourites } from "../api.js";
import { createTrailCard } from "../components/trail-card.js";
import { loadTrail, trailStore } from "../trail-data.js";

export async function render(container) {
  const account = await loadAccount();
  if (!account) {
    container.append(accountNeededPanel("keep favorite trails"));
    return;
  }
  const status = h("p", { class: "muted small", role: "status" }, "Loading your favorites…");
  const list = h("div", { class: "card-grid", "aria-label": "Favorite trails" });
  container.append(status, list);
  const store = trailStore();
  try {
    const page = await store.load("favourites", favourites);
    const trails = page.value.trails;
    list.replaceChildren(...trails.map((trail) => createTrailCard(trail).element));
    status.textContent = page.offline
      ? "No connection: your favorites as last saved on this device."
      : trails.length ? "" : "No favorites yet. Tap the star on a trail's page to keep it here.";
    if (!page.offline) for (const trail of trails) loadTrail(trail.id).catch(() => {});
  } catch (error) {
    status.textContent = error.message;
  }
}
