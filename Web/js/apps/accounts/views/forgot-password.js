// Forgot my Password (trailz 3.2.2.2): email → 6-digit code (up to 4 tries; then back to Login) → new
// password → "password changed" with "Return to the login page".
import { api, ApiError } from "../../../platform/api.js";
import { flash } from "../../../platform/account.js";
import { h } from "../../../platform/dom.js";
import { field, form, passwordRule, submit, values } from "../../../platform/forms.js";

export function render(container) {
  const step = h("div", {});
  container.append(step);
  showEmailStep(step);
}

function showEmailStep(step) {
  step.replaceChildren(
    h("h2", {}, "Reset your password"),
    h("p", { class: "muted" }, "Enter the email address of your account. We will send you a 6-digit code."),
    form(async (element) => {
      const { email } = values(element, "email");
      const answer = await api("/api/password-reset", { method: "POST", body: { email: email.trim() } });
      showCodeStep(step, email.trim(), answer.detail);
    },
      field("email", "Email address", { type: "email", autocomplete: "email" }),
      submit("Send code"),
    ),
    h("p", {}, h("a", { href: "#/login" }, "Back to login")),
  );
  step.querySelector("input").focus();
}

function showCodeStep(step, email, detail) {
  step.replaceChildren(
    h("h2", {}, "Enter the code"),
    h("p", { role: "status" }, detail),
    form(async (element) => {
      const { code } = values(element, "code");
      const answer = await unlessDead(api("/api/password-reset/verify", { method: "POST", body: { email, code: code.trim() } }));
      if (answer) showPasswordStep(step, answer.reset_token);
    },
      field("code", "6-digit code", { inputmode: "numeric", autocomplete: "one-time-code", maxlength: 6 }),
      submit("Check code"),
    ),
    h("p", { class: "muted small" }, "No email? Look in your spam folder, or ",
      h("a", { href: "#/forgot-password", onclick: (event) => { event.preventDefault(); showEmailStep(step); } }, "send a new code"), "."),
  );
  step.querySelector("input").focus();
}

function showPasswordStep(step, token) {
  step.replaceChildren(
    h("h2", {}, "Choose a new password"),
    form(async (element) => {
      const fields = values(element, "new_password", "new_password_confirmation");
      const done = await unlessDead(api("/api/password-reset/complete", { method: "POST", body: { reset_token: token, ...fields } }));
      if (done !== undefined) showDoneStep(step);
    },
      field("new_password", "New password", { type: "password", autocomplete: "new-password", hint: passwordRule }),
      field("new_password_confirmation", "Confirm new password", { type: "password", autocomplete: "new-password" }),
      submit("Save new password"),
    ),
  );
  step.querySelector("input").focus();
}

/**
 * The request's answer; when the code or token is dead (410: expired, used, 4 wrong entries) the app goes
 * back to Login with the reason (trailz 3.2.2.2.2.2) and this resolves undefined.
 */
async function unlessDead(request) {
  try {
    return (await request) ?? null;
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 410)) throw error;
    flash(error.message);
    location.hash = "#/login";
    return undefined;
  }
}

function showDoneStep(step) {
  step.replaceChildren(
    h("div", { class: "empty-state" },
      h("div", { class: "empty-state__icon", "aria-hidden": "true" }, "✓"),
      h("h2", {}, "Your password was changed"),
      h("p", { role: "status" }, "Log in with your new password. Every device that was signed in has been signed out."),
      h("a", { class: "button", href: "#/login" }, "Return to the login page"),
    ),
  );
}
