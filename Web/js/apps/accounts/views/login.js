// Login (trailz 3.2.2.1–3, niwot 6.2): username or email and password; Forgot my password; Register;
// continue as a guest (goski UC3).
import { logIn, takeFlash } from "../../../platform/account.js";
import { h } from "../../../platform/dom.js";
import { field, form, notice, submit, values } from "../../../platform/forms.js";

export function render(container) {
  const message = takeFlash();
  const loginForm = form(async (element) => {
    const { login, password } = values(element, "login", "password");
    await logIn(login.trim(), password);
    location.hash = "#/home";
  },
    field("login", "Username or email", { autocomplete: "username" }),
    field("password", "Password", { type: "password", autocomplete: "current-password" }),
    submit("Log in"),
  );
  if (message) notice(loginForm, message, "info");
  container.append(
    h("h2", {}, "Welcome back"),
    loginForm,
    h("p", {}, h("a", { href: "#/forgot-password" }, "Forgot my password")),
    h("div", { class: "stack" },
      h("a", { class: "button button--secondary button--block", href: "#/register" }, "Register for an account"),
      h("a", { class: "button button--secondary button--block", href: "#/home" }, "Continue as guest"),
    ),
    h("p", { class: "muted small" }, "As a guest you can browse and plan; saving, recording and sharing need an account."),
  );
}
