import { loadAccount } from "../../../platform/account.js";
import { apps } from "../catalogue.js";
import { h, icon } from "../../../platform/dom.js";
import { permissionState } from "../../../platform/location.js";
import { homeView } from "../../../platform/map/base-map.js";
import { startOnboardingIfDue } from "../../../platform/onboarding.js";
import { createRainBanner } from "../../../platform/weather/rain-banner.js";
import { createWeatherCard } from "../../../platform/weather/weather-card.js";

export async function render(container) {
  const account = await loadAccount();
  const banner = createRainBanner({
    actionLabel: "Plan a sheltered run",
    onChoose: () => { location.hash = "#/runs?sheltered=1"; },
  });
  const card = createWeatherCard();
  container.append(...[
    h("h2", {}, "Get outside"),
    account ? null : h("div", { class: "notice notice--info", role: "note" },
      h("p", {}, "You are exploring as a guest. Log in or create an account to save trails, record runs and keep your settings."),
      h("div", { class: "button-row" },
        h("a", { class: "button button--secondary", href: "#/login" }, "Log in"),
        h("a", { class: "button button--secondary", href: "#/register" }, "Create account"))),
    h("p", { class: "muted" }, "Everything on this server, with one account and one map."),
    banner.element,
    card.element,
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
  ].filter(Boolean));
  startOnboardingIfDue();

  // The map's home area at once; the person's own position instead as soon as a fix comes.
  let left = false;
  let located = false;
  const showWeatherFor = ({ place, name, note }) => {
    if (left) return;
    card.update({ location: place, placeName: name, note });
    banner.update({ location: place });
  };
  homeWeatherPlace().then((home) => { if (!located) showWeatherFor(home); });
  positionWeatherPlace().then((found) => {
    if (!found) return;
    located = true;
    showWeatherFor(found);
  });

  return () => {
    left = true;
    card.destroy();
    banner.destroy();
  };
}

/** The person's position for the weather when they have already allowed location (Home never asks), or null. */
async function positionWeatherPlace() {
  if (await permissionState() !== "granted") return null;
  const fix = await new Promise((resolve) => {
    navigator.geolocation.getCurrentPosition(
      (position) => resolve({ lat: position.coords.latitude, lon: position.coords.longitude }),
      () => resolve(null),
      { maximumAge: 5 * 60 * 1000, timeout: 10000 },
    );
  });
  return fix ? { place: fix, name: "Your location", note: "" } : null;
}

/** The map's home area, for the weather until (or unless) the person's position is known. */
async function homeWeatherPlace() {
  const { center, name } = await homeView();
  return {
    place: { lat: center[0], lon: center[1] },
    name,
    note: "Weather for the map's home area. Allow location on the Map screen to see the weather where you are.",
  };
}
