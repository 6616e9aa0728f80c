// Change Password (niwot 6.3.3, spotme 5.3.2–5.3.3): current password, new password, confirmation.
import { accountNeededPanel, loadAccount } from "../../../platform/account.js";
import { api } from "../../../platform/api.js";
import { h } from "../../../platform/dom.js";
import { clearErrors, field, form, notice, passwordRule, submit, values } from "../../../platform/forms.js";

export async function render(container) {
  if (!(await loadAccount())) {
    container.append(accountNeededPanel("change your password"));
    return;
  }
  container.append(
    h("h2", {}, "Change your password"),
    form(async (element) => {
      await api("/api/account/password", {
        method: "PUT",
        body: values(element, "current_password", "new_password", "new_password_confirmation"),
      });
      for (const input of element.querySelectorAll("input")) input.value = "";
      clearErrors(element);
      notice(element, "Your password was changed. Your other devices were signed out.", "success");
    },
      field("current_password", "Current password", { type: "password", autocomplete: "current-password" }),
      field("new_password", "New password", { type: "password", autocomplete: "new-password", hint: passwordRule }),
      field("new_password_confirmation", "Confirm new password", { type: "password", autocomplete: "new-password" }),
      submit("Change password"),
    ),
    h("p", {}, h("a", { href: "#/settings/account" }, "Back to Account")),
  );
}
