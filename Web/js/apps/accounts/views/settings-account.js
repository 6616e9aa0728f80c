// Settings › Account (spotme Feature 5): who is signed in, profile, username, password, log out, and —
// last, set apart — delete the account, confirmed with a list of what goes and the password.
import { accountNeededPanel, flash, loadAccount, logOut, setAccount } from "../../../platform/account.js";
import { api } from "../../../platform/api.js";
import { h } from "../../../platform/dom.js";
import { field, form, submit, values } from "../../../platform/forms.js";
import { openSheet } from "../../../platform/sheet.js";

export async function render(container) {
  const account = await loadAccount();
  if (!account) {
    container.append(accountNeededPanel("keep your activities, profile and settings"));
    return;
  }
  container.append(
    h("p", { class: "greeting" }, `Signed in as ${account.username}`),
    h("nav", { class: "list", "aria-label": "Account" },
      h("a", { href: "#/profile" }, "Profile"),
      h("a", { href: "#/profile/edit" }, "Edit profile"),
      h("a", { href: "#/settings/username" }, "Change username"),
      h("a", { href: "#/settings/password" }, "Change password"),
      h("button", { type: "button", onclick: () => logOut() }, "Log out"),
    ),
    h("section", { class: "danger-zone", "aria-labelledby": "delete-title" },
      h("h3", { id: "delete-title" }, "Delete account"),
      h("p", { class: "muted small" }, "Removes your account and everything you keep on this server, for good."),
      h("button", { class: "button button--danger", type: "button", onclick: () => confirmDeletion(account) }, "Delete account"),
    ),
  );
}

function confirmDeletion(account) {
  const deletionForm = form(async (element) => {
    await api("/api/account", { method: "DELETE", body: values(element, "current_password") });
    sheet.close("deleted");
    setAccount(null);
    flash("Your account and everything in it were deleted.");
    location.hash = "#/login";
  },
    field("current_password", "Your password", { type: "password", autocomplete: "current-password" }),
    h("div", { class: "button-row" },
      submit("Delete my account", "button--danger"),
      h("button", { class: "button button--secondary", type: "button", onclick: () => sheet.close() }, "Cancel"),
    ),
  );
  const sheet = openSheet({
    title: "Delete your account?",
    content: [
      h("p", {}, `This deletes the account ${account.username} and everything of yours on this server:`),
      h("ul", {},
        h("li", {}, "your profile, picture and settings, and every signed-in device;"),
        h("li", {}, "everything you saved or recorded in every app: trails, reviews and hikes; runs; parking permits and weekly schedule; plant observations; ski groups and messages."),
      ),
      h("p", {}, h("strong", {}, "This cannot be undone."), " Enter your password to confirm."),
      deletionForm,
    ],
  });
}
