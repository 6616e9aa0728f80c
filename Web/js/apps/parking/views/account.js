// The parking account menu (SpotMe 5): Update Account, Your Permits, Weekly Schedule, Log Out, and — last, set
// apart — Delete Account. Guests are offered logging in or registering.
import { accountNeededPanel, loadAccount, logOut } from "../../../platform/account.js";
import { h } from "../../../platform/dom.js";
import { confirmSheet } from "../../../platform/sheet.js";

export async function render(container) {
  const account = await loadAccount().catch(() => null);
  if (!account) {
    container.append(accountNeededPanel("keep your permits and weekly schedule"));
    return;
  }
  const item = (label, href) => h("li", {}, h("a", { class: "menu-link", href }, label));
  container.append(
    h("h2", {}, `Hello, ${account.username}`),
    h("ul", { class: "menu-list parking-menu" },
      item("Update Account", "#/settings/account"),
      item("Your Permits", "#/parking/permits"),
      item("Weekly Schedule", "#/parking/schedule"),
      h("li", {}, h("button", { class: "menu-link", type: "button", onclick: () => logOut() }, "Log Out"))),
    h("section", { class: "danger-zone parking-delete" },
      h("button", {
        class: "button button--danger", type: "button",
        onclick: async () => {
          const go = await confirmSheet({
            title: "Delete your account?",
            text: "Deleting your account also deletes your parking permits and weekly schedule from this server. You confirm with your password on the next screen.",
            confirmLabel: "Continue", danger: true,
          });
          if (go) location.hash = "#/settings/account";
        },
      }, "Delete Account")),
  );
}
