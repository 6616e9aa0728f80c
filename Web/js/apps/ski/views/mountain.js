// A mountain's page (GoSki UC6, stories 2 and 4): address, altitudes, the weather now (temperature and
// humidity) with the next days, ticket prices with their season, "as of" date and demo marking, pistes with
// their difficulty in the chosen convention (North America or Europe), length and open state, lifts, the
// favourite button, directions handed to the phone's maps app, "Ski together" (the person's groups, and the
// members who share their location on the mountain's map: Community's group map, UC12), and the mountain's
// ratings and forum.
import { currentAccount, handleSignInRequired, loadAccount, requireAccount } from "../../../platform/account.js";
import { h, icon } from "../../../platform/dom.js";
import { mountComponent } from "../../../platform/shared-components.js";
import { formatDistance, formatElevation } from "../../../platform/units.js";
import { createWeatherCard } from "../../../platform/weather/weather-card.js";
import { getMountain, setFavourite } from "../api.js";
import { getConvention, setConvention } from "../convention.js";
import { openConditionSheet } from "../components/condition-sheet.js";
import { conventionNames, difficultyMark, directionLinks, formatCapacity, formatPrice, ticketKinds, todayText, verticalDrop } from "../format.js";

const starPath = "M12 3l2.8 5.8 6.2.9-4.5 4.4 1.1 6.2L12 17.4l-5.6 2.9 1.1-6.2L3 9.7l6.2-.9z";

export function difficultySymbol(mark) {
  return h("span", { class: `piste-mark piste-mark--${mark.shape} piste-mark--${mark.colour}`, "aria-hidden": "true" },
    mark.shape === "double-diamond" ? [h("span"), h("span")] : null);
}

/** The mountain's page from the server, or null after saying in `container` why there is none. */
export async function loadMountainPage(container, id) {
  try {
    return await getMountain(id);
  } catch (error) {
    container.append(h("p", { class: "notice notice--error", role: "alert" },
      error.status === 404 ? "There is no such ski mountain." : error.message));
    return null;
  }
}

export async function render(container, params) {
  const cleanups = [];
  const page = await loadMountainPage(container, params.id);
  if (!page) return;
  await loadAccount();
  const mountain = page.mountain;
  document.title = `${mountain.name} · Cairn`;
  const heading = document.querySelector(".app-bar h1");
  if (heading) heading.textContent = mountain.name;
  const state = { favourite: mountain.favourite, convention: getConvention() };

  const star = h("button", { class: "favourite-star", type: "button", "aria-pressed": String(state.favourite), "aria-label": "Favourite" }, icon(starPath));
  const starNote = h("span", { class: "visually-hidden", role: "status" });
  star.addEventListener("click", async () => {
    if (!(await requireAccount("keep favourite mountains"))) return;
    const on = !state.favourite;
    try {
      await setFavourite(mountain.id, on);
      state.favourite = on;
      star.setAttribute("aria-pressed", String(on));
      starNote.textContent = on ? "Added to your favourites." : "Removed from your favourites.";
    } catch (error) {
      if (!handleSignInRequired(error, "keep favourite mountains")) starNote.textContent = error.message;
    }
  });
  if (!currentAccount()) star.title = "Log in to keep favourites";

  const weather = createWeatherCard({ location: { lat: mountain.lat, lon: mountain.lon }, placeName: mountain.name, days: 3, headingLevel: 2 });
  cleanups.push(() => weather.destroy());

  const links = directionLinks(mountain);
  const together = h("div", { class: "ski-together" });
  const pistesSection = h("section", { "aria-labelledby": "pistes-title" });
  const conventionChoice = h("fieldset", { class: "segmented ski-convention" },
    h("legend", {}, "Piste signs"),
    h("div", { class: "segmented__options" },
      ...Object.entries(conventionNames).map(([value, label]) => h("label", {},
        h("input", { type: "radio", name: "ski-convention", value, checked: state.convention === value,
          onchange: () => { state.convention = value; setConvention(value); renderPistes(); } }),
        h("span", {}, label)))));

  function renderPistes() {
    const open = page.pistes.filter((piste) => piste.open).length;
    pistesSection.replaceChildren(
      h("h2", { id: "pistes-title" }, "Pistes"),
      h("p", { class: "muted small" }, `${open} of ${page.pistes.length} open.`),
      conventionChoice,
      page.pistes.length ? h("ul", { class: "ski-pistes", "aria-label": "Pistes" },
        ...page.pistes.map((piste) => {
          const mark = difficultyMark(piste.difficulty, state.convention);
          return h("li", { class: "ski-piste" },
            difficultySymbol(mark),
            h("span", { class: "ski-piste__body" },
              h("span", { class: "ski-piste__name" }, piste.name),
              h("span", { class: "muted small" }, [mark.label, formatDistance(piste.length_m), piste.grooming ? `groomed: ${piste.grooming}` : null].filter(Boolean).join(" · "))),
            h("span", { class: `badge ${piste.open ? "badge--open" : "badge--closed"}` }, piste.open ? "Open" : "Closed"),
            h("p", { class: "ski-piste__today small" }, todayText(piste.today) ? `Today: ${todayText(piste.today)}` : "No reports today.",
              ...piste.today.notes.map((text) => h("q", { class: "ski-piste__note" }, text))),
            h("button", { class: "button button--small button--secondary", type: "button", "aria-label": `Report conditions on ${piste.name}`,
              onclick: async () => {
                const today = await openConditionSheet(mountain, piste);
                if (!today) return;
                piste.today = today;
                renderPistes();
              } }, "Report"));
        })) : h("p", { class: "muted" }, "No pistes are known for this mountain yet."),
      page.pistes.some((piste) => piste.demo) ? h("p", { class: "muted small" }, "Demo pistes: names, lengths and open states are examples, not the resort's.") : null);
  }
  renderPistes();

  const altitude = (metres) => (Number.isFinite(metres) ? formatElevation(metres) : "Altitude not known");
  const drop = verticalDrop(mountain);
  const facts = [
    ["Address", mountain.address],
    ["Base", altitude(mountain.base_altitude_m)],
    ["Summit", altitude(mountain.summit_altitude_m)],
    drop === null ? null : ["Vertical", formatElevation(drop)],
    ["Website", page.website ? h("a", { href: page.website, target: "_blank", rel: "noopener" }, new URL(page.website).host) : "Not known"],
  ];

  container.append(...[
    h("div", { class: "trail-head ski-head" },
      h("div", {},
        h("p", { class: "muted" }, mountain.address),
        mountain.demo ? h("span", { class: "badge badge--demo" }, "Demo data") : null),
      star, starNote),
    currentAccount()?.role === "admin" ? h("div", { class: "button-row" },
      h("a", { class: "button button--secondary", href: `#/ski/mountains/${mountain.id}/edit` }, "Edit")) : null,
    weather.element,
    h("section", { "aria-labelledby": "about-title" },
      h("h2", { id: "about-title" }, "About the mountain"),
      h("dl", { class: "trail-facts" }, ...facts.filter(Boolean).flatMap(([term, value]) => [h("dt", {}, term), h("dd", {}, value)])),
      h("div", { class: "button-row" },
        h("a", { class: "button", href: links.geo }, "Directions"),
        h("a", { class: "button button--secondary", href: links.web, target: "_blank", rel: "noopener" }, "Directions on the web"))),
    h("section", { "aria-labelledby": "prices-title" },
      h("h2", { id: "prices-title" }, "Ticket prices"),
      page.prices.length ? h("table", { class: "ski-prices" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Ticket"), h("th", { scope: "col" }, "Price"), h("th", { scope: "col" }, "Season"))),
        h("tbody", {}, ...page.prices.map((price) => h("tr", {},
          h("th", { scope: "row" }, ticketKinds[price.kind] ?? price.kind),
          h("td", {}, formatPrice(price), price.demo ? h("span", { class: "badge badge--demo" }, "Demo") : null),
          h("td", {}, price.season))))) : h("p", { class: "muted" }, "No ticket price is known for this mountain."),
      page.prices.length ? h("p", { class: "muted small" },
        `As of ${new Date(`${page.prices[0].as_of}T12:00:00Z`).toLocaleDateString(undefined, { year: "numeric", month: "long", day: "numeric" })} · Source: ${page.prices[0].source}`) : null),
    pistesSection,
    h("section", { "aria-labelledby": "lifts-title" },
      h("h2", { id: "lifts-title" }, "Lifts"),
      page.lifts.length ? h("ul", { class: "ski-lifts", "aria-label": "Lifts" },
        ...page.lifts.map((lift) => h("li", {},
          h("span", {}, lift.name, h("span", { class: "muted small" },
            ` · ${[lift.kind.replaceAll("_", " "), Number.isFinite(lift.length_m) ? formatDistance(lift.length_m) : null, formatCapacity(lift.capacity_per_hour)].filter(Boolean).join(" · ")}`)),
          h("span", { class: `badge ${lift.open ? "badge--open" : "badge--closed"}` }, lift.open ? "Open" : "Closed")))) : h("p", { class: "muted" }, "No lifts are known."),
      page.lifts.some((lift) => lift.demo) ? h("p", { class: "muted small" }, "Demo lifts: names and open states are examples.") : null),
    together,
    h("nav", { class: "list trail-sections", "aria-label": "More about this mountain" },
      h("a", { href: `#/forums/${encodeURIComponent(`mountain:${mountain.id}`)}` }, "Mountain Forum")),
  ].filter(Boolean));

  const groupMap = await mountComponent("group-map", { place: { name: mountain.name, lat: mountain.lat, lon: mountain.lon }, title: "Ski together" });
  if (groupMap) {
    together.append(groupMap.element);
    cleanups.push(() => groupMap.destroy());
  }
  const reviews = await mountComponent("reviews", { subject: `mountain:${mountain.id}`, title: "Ratings" });
  if (reviews && container.isConnected) {
    container.append(reviews.element);
    cleanups.push(() => reviews.destroy?.());
  }
  return () => cleanups.forEach((cleanup) => cleanup());
}
