// Your Permits (SpotMe 5.4): a checklist of Green, Yellow, Black and Handicap (none by default), kept on the
// server for a signed-in driver and saved as soon as a box changes.
import { accountNeededPanel, loadAccount } from "../../../platform/account.js";
import { h } from "../../../platform/dom.js";
import { getPermits, putPermits } from "../api.js";
import { permitNames, permitOrder } from "../congestion.js";

export async function render(container) {
  const account = await loadAccount().catch(() => null);
  if (!account) {
    container.append(accountNeededPanel("keep your permits"));
    return;
  }
  const status = h("p", { class: "muted small", role: "status" });
  let permits = [];
  try {
    permits = (await getPermits()).permits;
  } catch (error) {
    status.textContent = error.message;
  }
  const boxes = permitOrder.map((permit) => {
    const box = h("input", { type: "checkbox", id: `permit-${permit}`, name: permit });
    box.checked = permits.includes(permit);
    box.addEventListener("change", save);
    return h("li", { class: "check-row" }, box, h("label", { for: `permit-${permit}` }, `${permitNames[permit]} permit`));
  });
  async function save() {
    const chosen = permitOrder.filter((p) => container.querySelector(`#permit-${p}`).checked);
    status.textContent = "Saving…";
    try {
      const saved = await putPermits(chosen);
      status.textContent = saved.permits.length ? `Saved: ${saved.permits.map((p) => permitNames[p]).join(", ")}.` : "Saved: no permits.";
    } catch (error) {
      status.textContent = `Not saved: ${error.message}`;
    }
  }
  container.append(
    h("p", {}, "Tick the permits you hold. Spots needing others are marked in red, and holds warn you."),
    h("ul", { class: "check-list" }, ...boxes),
    status);
}
