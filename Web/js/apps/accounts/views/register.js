// Register (trailz 3.2.2.3, niwot 6.1, goski UC1): every field checked by the server, each error shown
// next to its field. Success → Account Created; or, where the server finishes sign-ups by email
// (CAIRN_RESET_UNKNOWN_EMAIL=hide), "Check your inbox" until the mailed link is opened.
import { register } from "../../../platform/account.js";
import { h } from "../../../platform/dom.js";
import { field, form, passwordRule, submit, values } from "../../../platform/forms.js";

export function render(container) {
  container.append(
    h("h2", {}, "Create your account"),
    h("p", { class: "muted" }, "One account for trails, runs, parking, the field guide and ski."),
    form(async (element) => {
      const fields = values(element, "first_name", "last_name", "username", "email", "password", "password_confirmation");
      const { pending } = await register(fields);
      if (pending) showCheckInbox(container, pending);
      else location.hash = "#/account-created";
    },
      field("first_name", "First name", { autocomplete: "given-name" }),
      field("last_name", "Last name", { autocomplete: "family-name" }),
      field("username", "Username", { autocomplete: "username", hint: "3–30 letters, digits, dots, dashes or underscores." }),
      field("email", "Email address", { type: "email", autocomplete: "email" }),
      field("password", "Password", { type: "password", autocomplete: "new-password", hint: passwordRule }),
      field("password_confirmation", "Confirm password", { type: "password", autocomplete: "new-password" }),
      submit("Register"),
    ),
    h("p", {}, "Already have an account? ", h("a", { href: "#/login" }, "Log in")),
  );
}

function showCheckInbox(container, detail) {
  const heading = h("h2", { tabindex: "-1" }, "Check your inbox");
  container.replaceChildren(
    h("div", { class: "empty-state" },
      h("div", { class: "empty-state__icon", "aria-hidden": "true" }, "✉"),
      heading,
      h("p", { role: "status" }, detail),
      h("p", { class: "muted" }, "Open the link in the email on this device to keep what you did as a guest."),
      h("a", { class: "button", href: "#/login" }, "Go to Log in"),
    ),
  );
  heading.focus();
}
