// The trail page (Trail Description, Trailz 3.2.1.9–10, 3.2.4): the name and favourite star, the 4-day weather
// at the trailhead, General Information, the Traversal map, Start, Directions and GPX, the buttons to the
// sub-pages and the scavenger hunt, and the reviews. Opens offline once seen.
/* global L */
import { currentAccount, handleSignInRequired, loadAccount, requireAccount } from "../../../platform/account.js";
import { h, icon } from "../../../platform/dom.js";
import { createBaseMap } from "../../../platform/map/base-map.js";
import { mountComponent } from "../../../platform/shared-components.js";
import { formatDistance, formatElevation } from "../../../platform/units.js";
import { createWeatherCard } from "../../../platform/weather/weather-card.js";
import { gpxURL, setFavourite } from "../api.js";
import { trailPhoto } from "../components/trail-photo.js";
import { loadTrailPage, trailStore } from "../trail-data.js";
import { difficultyColours, difficultyNames, hasScavengerHunt, sections, stepsText } from "../trail-format.js";

const starPath = "M12 3l2.8 5.8 6.2.9-4.5 4.4 1.1 6.2L12 17.4l-5.6 2.9 1.1-6.2L3 9.7l6.2-.9z";

export async function render(container, params) {
  const cleanups = [];
  const answer = await loadTrailPage(container, params.id);
  if (!answer) return;
  await loadAccount();
  const trail = answer.value;
  const summary = trail.summary;
  document.title = `${summary.name} · Cairn`;
  const heading = document.querySelector(".app-bar h1");
  if (heading) heading.textContent = summary.name;
  const state = { favourite: summary.favourite };

  const star = h("button", { class: "favourite-star", type: "button", "aria-pressed": String(state.favourite), "aria-label": "Favorite" }, icon(starPath));
  const starNote = h("span", { class: "visually-hidden", role: "status" });
  star.addEventListener("click", async () => {
    if (!(await requireAccount("keep favorite trails"))) return;
    const on = !state.favourite;
    try {
      await setFavourite(summary.id, on);
      state.favourite = on;
      star.setAttribute("aria-pressed", String(on));
      starNote.textContent = on ? "Added to your favorites." : "Removed from your favorites.";
      const kept = trailStore();
      await kept.set(`trail/${summary.id}`, { ...trail, summary: { ...summary, favourite: on } });
    } catch (error) {
      if (!handleSignInRequired(error, "keep favorite trails")) starNote.textContent = error.message;
    }
  });

  const weather = createWeatherCard({
    location: { lat: summary.trailhead.lat, lon: summary.trailhead.lon }, placeName: summary.name, days: 4, headingLevel: 2,
  });
  cleanups.push(() => weather.destroy());

  const facts = [
    ["Length", formatDistance(summary.length_meters)],
    ["Difficulty", difficultyNames[summary.difficulty]],
    ["Steps", stepsText(trail.steps)],
    ["Elevation gain", trail.elevation_gain_meters != null ? formatElevation(trail.elevation_gain_meters) : "Not known"],
    ["Elevation loss", trail.elevation_loss_meters != null ? formatElevation(trail.elevation_loss_meters) : "Not known"],
    ["Steepest grade", trail.max_grade_percent != null ? `${trail.max_grade_percent} %` : "Not known"],
    ["Disability access", summary.accessible ? "Yes" : "No"],
    ["Where", [summary.city, summary.region].filter(Boolean).join(", ") || "—"],
  ];
  const { lat, lon } = summary.trailhead;
  const mapElement = h("div", { class: "trail-traversal-map" });

  container.append(...[
    trailPhoto(summary.photo_url, { alt: `Trailhead of ${summary.name}`, kind: "trailhead", size: "wide" }),
    h("div", { class: "trail-head" },
      h("div", {},
        h("p", { class: "muted" }, [summary.city, summary.region].filter(Boolean).join(", ")),
        h("span", { class: `badge difficulty difficulty--${summary.difficulty}` }, difficultyNames[summary.difficulty]),
        summary.hunting_area ? h("span", { class: "badge badge--hunting" }, "Hunting area") : null),
      star, starNote),
    currentAccount()?.role === "admin" ? h("div", { class: "button-row" },
      h("a", { class: "button button--secondary", href: `#/trails/${summary.id}/edit` }, "Edit")) : null,
    answer.offline ? h("p", { class: "notice notice--info" }, `No connection: this page as saved on ${new Date(answer.savedAt).toLocaleDateString()}.`) : null,
    trail.demo_facts ? h("p", { class: "notice notice--info" }, "Demo information: fees, hours, rangers and safety texts on this trail are examples, not the park's.") : null,
    weather.element,
    h("section", { "aria-labelledby": "general-title" },
      h("h2", { id: "general-title" }, "General Information"),
      trail.description ? h("p", {}, trail.description) : null,
      h("dl", { class: "trail-facts" }, ...facts.flatMap(([term, value]) => [h("dt", {}, term), h("dd", {}, value)])),
      h("p", { class: "muted small" }, trail.elevation_source)),
    h("section", { "aria-labelledby": "traversal-title" },
      h("h2", { id: "traversal-title" }, "Traversal"),
      mapElement,
      h("div", { class: "button-row" },
        h("a", { class: "button", href: `#/hikes?${new URLSearchParams({ trail: summary.id, name: summary.name })}` }, "Start"),
        h("a", { class: "button button--secondary", href: `#/trails/${summary.id}/directions` }, "Directions"),
        h("a", { class: "button button--secondary", href: gpxURL(summary.id), download: `${summary.name}.gpx` }, "Download GPX"))),
    h("nav", { class: "list trail-sections", "aria-label": "More about this trail" },
      ...sections.map((section) => h("a", { href: `#/trails/${summary.id}/${section.id}` }, section.label)),
      h("a", { href: `#/forums/${encodeURIComponent(`trail:${summary.id}`)}` }, "Community Forum"),
      hasScavengerHunt(summary) ? h("a", { href: `#/trails/${summary.id}/scavenger` }, "Scavenger Hunt") : null),
  ].filter(Boolean));

  const reviews = await mountComponent("reviews", { subject: `trail:${summary.id}`, title: "Reviews" });
  if (reviews && container.isConnected) {
    container.append(reviews.element);
    cleanups.push(() => reviews.destroy?.());
  }

  const { map, destroy } = await createBaseMap(mapElement, { label: `Map of ${summary.name}`, view: { center: [lat, lon], zoom: 14 } });
  cleanups.push(destroy);
  const line = L.geoJSON(trail.geometry, { style: { color: difficultyColours[summary.difficulty], weight: 5, opacity: 0.9 } }).addTo(map);
  L.circleMarker([lat, lon], { radius: 8, color: "#1b4332", fillColor: "#fff", fillOpacity: 1, weight: 3 })
    .bindTooltip("Trailhead").addTo(map);
  map.fitBounds(line.getBounds(), { padding: [20, 20], maxZoom: 16 });
  if (!currentAccount()) star.title = "Log in to keep favorites";

  return () => cleanups.forEach((cleanup) => cleanup());
}
