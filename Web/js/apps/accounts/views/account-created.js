// Account Created (niwot 6.1.4): the account exists, the confirmation email is on its way.
import { loadAccount } from "../../../platform/account.js";
import { h } from "../../../platform/dom.js";

export async function render(container) {
  const account = await loadAccount();
  if (!account) {
    location.replace("#/login");
    return;
  }
  container.append(
    h("div", { class: "empty-state" },
      h("div", { class: "empty-state__icon", "aria-hidden": "true" }, "✓"),
      h("h2", {}, `Welcome, ${account.profile.first_name}!`),
      h("p", {}, "Your account is ready. You are signed in as ", h("strong", {}, account.username), "."),
      h("p", {}, `We sent a confirmation email to ${account.email}. Open its link to confirm your address.`),
      h("a", { class: "button", href: "#/home" }, "Go to Home"),
    ),
  );
}
