// The link a sign-up mails (CAIRN_RESET_UNKNOWN_EMAIL=hide) lands here: it makes the account, with what the
// guest did on this device, and signs in.
import { confirmSignUp } from "../../../platform/account.js";
import { h } from "../../../platform/dom.js";

export async function render(container, { token }) {
  const status = h("p", { role: "status" }, "Finishing your sign-up…");
  container.append(h("h2", {}, "Finish signing up"), status);
  try {
    const account = await confirmSignUp(token);
    status.replaceChildren(`Welcome, ${account.profile.first_name}! You are signed in as `, h("strong", {}, account.username), ".");
    container.append(
      h("p", {}, `Your email address ${account.email} is confirmed.`),
      h("a", { class: "button", href: "#/home" }, "Go to Home"),
    );
  } catch (error) {
    status.className = "notice notice--error";
    status.replaceChildren(error.message);
    container.append(h("a", { class: "button", href: "#/register" }, "Sign up again"));
  }
}
