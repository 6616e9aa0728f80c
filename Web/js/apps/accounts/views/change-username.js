// Change Username (spotme 5.3.1, 5.3.3): the new name, confirmed with the current password.
import { accountNeededPanel, loadAccount, setAccount } from "../../../platform/account.js";
import { api } from "../../../platform/api.js";
import { h } from "../../../platform/dom.js";
import { control, field, form, notice, submit, values } from "../../../platform/forms.js";

export async function render(container) {
  const account = await loadAccount();
  if (!account) {
    container.append(accountNeededPanel("change your username"));
    return;
  }
  container.append(
    h("h2", {}, "Change your username"),
    h("p", { class: "muted" }, "You are ", h("strong", {}, account.username), ". Friends find you by your username."),
    form(async (element) => {
      const updated = await api("/api/account/username", { method: "PUT", body: values(element, "username", "current_password") });
      setAccount(updated);
      control(element, "current_password").value = "";
      notice(element, `Your username is now ${updated.username}.`, "success");
    },
      field("username", "New username", { autocomplete: "username", value: account.username, hint: "3–30 letters, digits, dots, dashes or underscores." }),
      field("current_password", "Current password", { type: "password", autocomplete: "current-password" }),
      submit("Change username"),
    ),
    h("p", {}, h("a", { href: "#/settings/account" }, "Back to Account")),
  );
}
