// Favourites (GoSki UC10, functionality 8): the mountains the skier keeps, latest first; each opens its page.
import { accountNeededPanel, loadAccount } from "../../../platform/account.js";
import { h } from "../../../platform/dom.js";
import { favourites } from "../api.js";
import { createMountainList } from "../components/mountain-list.js";

export async function render(container) {
  const account = await loadAccount();
  if (!account) {
    container.append(accountNeededPanel("keep favourite mountains"));
    return;
  }
  const status = h("p", { class: "muted small", role: "status" }, "Loading your favourites…");
  const list = createMountainList("Favourite mountains");
  container.append(status, list.element);
  try {
    const answer = await favourites();
    list.update(answer.mountains);
    status.textContent = answer.mountains.length ? "" : "No favourites yet. Tap the star on a mountain's page to keep it here.";
  } catch (error) {
    status.textContent = error.message;
  }
}
