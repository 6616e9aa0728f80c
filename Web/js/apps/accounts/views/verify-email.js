// The confirmation email's link lands here and confirms the address.
import { api } from "../../../platform/api.js";
import { loadAccount } from "../../../platform/account.js";
import { h } from "../../../platform/dom.js";

export async function render(container, { token }) {
  const status = h("p", { role: "status" }, "Confirming your email…");
  container.append(h("h2", {}, "Confirm email"), status);
  try {
    await api("/api/account/email-verification", { method: "POST", body: { token } });
    await loadAccount({ refresh: true });
    status.replaceChildren("Your email address is confirmed. Thank you!");
  } catch (error) {
    status.className = "notice notice--error";
    status.replaceChildren(error.message);
  }
  container.append(h("a", { class: "button", href: "#/home" }, "Go to Home"));
}
