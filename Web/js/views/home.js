import { loadAccount } from "../account.js";
import { apps } from "../apps.js";
import { h, icon } from "../dom.js";
import { startOnboardingIfDue } from "../onboarding.js";

export async function render(container) {
  const account = await loadAccount();
  container.append(
    h("h2", {}, "Get outside"),
    account ? null : h("p", { class: "notice notice--info", role: "note" },
      "You are exploring as a guest. ", h("a", { href: "#/login" }, "Log in"), " or ",
      h("a", { href: "#/register" }, "create an account"), " to save trails, record runs and keep your settings."),
    h("p", { class: "muted" }, "Everything on this server, with one account and one map."),
    h("div", { class: "card-grid", role: "list", "aria-label": "Apps" },
      apps.map((app) => {
        const content = [
          h("div", { class: "card__icon" }, icon(app.icon)),
          h("div", {},
            h("h3", { class: "card__title" }, app.name),
            h("p", { class: "card__text" }, app.text),
            app.available ? null : h("p", { class: "card__text" }, h("em", {}, "Not set up on this server yet.")),
          ),
        ];
        return app.available
          ? h("a", { class: "card", role: "listitem", href: app.href }, content)
          : h("div", { class: "card", role: "listitem", "aria-disabled": "true" }, content);
      }),
    ),
  );
  startOnboardingIfDue();
}
