// A weather card for a place: the weather now, the next days' forecast and a 2-hour rain line. Used on
// Home, and by trail pages (trailz 3.2.4.14), ski mountain pages (goski: weather, temperature, humidity) and
// the run planner (run-route-planner 8). Temperatures follow Settings and change at once when they do;
// "Demo weather" is shown whenever the values are made up; stale and unavailable answers say so.
import { h } from "../dom.js";
import { formatSpeed, formatTemperature } from "../units.js";
import { ageText, clockTime, fetchWeather, unreachable } from "./weather-api.js";
import { weatherIcon } from "./weather-icons.js";

const refreshMs = 10 * 60 * 1000;
let cards = 0;

/**
 * Creates a card. `location` is { lat, lon } (or null until known), `placeName` says where that is
 * ("Your location", a trail's name), `note` a line under it, `days` how many forecast days (1–7). Returns
 * { element, update({ location, placeName, note }), refresh(), destroy() }.
 */
export function createWeatherCard({ location = null, placeName = "", note = "", days = 4, headingLevel = 3 } = {}) {
  const titleId = `weather-card-title-${++cards}`;
  const element = h("section", { class: "weather-card", "aria-labelledby": titleId });
  const state = { location, placeName, note, answers: null, loading: false };
  let generation = 0;

  const render = () => {
    const { answers } = state;
    const header = h("header", { class: "weather-card__header" },
      h(`h${headingLevel}`, { id: titleId, class: "weather-card__title" }, "Weather"),
      state.placeName ? h("span", { class: "weather-card__place" }, state.placeName) : null,
      isDemo(answers) ? h("span", { class: "badge badge--demo" }, "Demo weather") : null,
    );
    const body = [];
    if (!state.location || !answers) {
      body.push(h("p", { class: "muted small" }, state.location ? "Loading the weather…" : "Finding where you are…"));
    } else if (["current", "forecast", "nowcast"].every((kind) => answers[kind].status === "unavailable")) {
      body.push(h("p", { class: "notice notice--error weather-card__unavailable" }, answers.current.message));
    } else {
      body.push(renderNow(answers.current), renderRain(answers.nowcast), renderDays(answers.forecast));
      const stale = ["current", "nowcast", "forecast"].map((kind) => answers[kind]).find((answer) => answer.stale);
      if (stale) body.push(h("p", { class: "notice notice--info weather-card__stale" }, `Updated ${ageText(stale.age_seconds)}. ${stale.message}`));
      body.push(renderSources(answers));
    }
    if (state.note) body.push(h("p", { class: "muted small" }, state.note));
    element.setAttribute("aria-busy", String(state.loading));
    element.replaceChildren(header, ...body);
  };

  const refresh = async () => {
    if (!state.location) return render();
    const current = ++generation;
    state.loading = true;
    render();
    const kinds = { current: {}, forecast: { days: String(days) }, nowcast: {} };
    const results = await Promise.all(Object.entries(kinds).map(([kind, params]) =>
      fetchWeather(kind, state.location, params).catch(unreachable)));
    if (current !== generation) return;
    state.answers = Object.fromEntries(Object.keys(kinds).map((kind, index) => [kind, results[index]]));
    state.loading = false;
    render();
  };

  const onSettings = () => render();
  window.addEventListener("cairn:settings", onSettings);
  const timer = setInterval(() => { if (document.visibilityState === "visible") refresh(); }, refreshMs);
  refresh();

  return {
    element,
    /** Shows the weather of another place (a new location fetches it again). */
    update({ location = state.location, placeName = state.placeName, note = "" } = {}) {
      const moved = location?.lat !== state.location?.lat || location?.lon !== state.location?.lon;
      Object.assign(state, { location, placeName, note });
      if (moved) {
        state.answers = null;
        refresh();
      } else {
        render();
      }
    },
    refresh,
    destroy() {
      generation += 1;
      clearInterval(timer);
      window.removeEventListener("cairn:settings", onSettings);
    },
  };
}

function isDemo(answers) {
  return Boolean(answers) && Object.values(answers).some((answer) => answer.source?.demo);
}

function renderNow(answer) {
  const report = answer.report;
  if (!report) return h("p", { class: "muted small" }, answer.message);
  const details = [report.condition_text];
  if (report.humidity_percent != null) details.push(`Humidity ${report.humidity_percent}%`);
  if (report.wind_speed_kmh != null) details.push(`Wind ${formatSpeed(report.wind_speed_kmh)}`);
  return h("div", { class: "weather-now" },
    weatherIcon(report.condition, report.condition_text),
    h("p", { class: "weather-now__temperature", "aria-label": `Temperature now ${formatTemperature(report.temperature_c)}` },
      formatTemperature(report.temperature_c)),
    h("p", { class: "weather-now__details" }, details.join(" · ")),
  );
}

function renderRain(answer) {
  const report = answer.report;
  if (!report) return h("p", { class: "weather-rain muted small" }, answer.message);
  let text;
  if (!report.rain) text = "No rain expected in the next 2 hours";
  else if (report.rain_starts_at && new Date(report.rain_starts_at) > new Date()) text = `Rain expected from ${clockTime(report.rain_starts_at)}`;
  else text = "Rain now or soon";
  const detail = report.area ? `${report.summary} in ${report.area}` : null;
  const scale = Math.max(1, ...report.periods.map((period) => period.precipitation_mm ?? 0));
  return h("div", { class: `weather-rain${report.rain ? " weather-rain--wet" : ""}` },
    h("p", { class: "weather-rain__text" }, h("strong", {}, text), detail ? ` · ${detail}` : null),
    h("div", { class: "weather-rain__bars", "aria-hidden": "true" },
      report.periods.map((period) => h("span", {
        class: `weather-rain__bar${period.rain ? " weather-rain__bar--wet" : ""}`,
        style: `--amount: ${period.precipitation_mm == null ? (period.rain ? 1 : 0) : Math.min(1, period.precipitation_mm / scale)}`,
      }))),
  );
}

function renderDays(answer) {
  const report = answer.report;
  if (!report) return h("p", { class: "muted small" }, answer.message);
  return h("ol", { class: "weather-days", "aria-label": `${report.days.length}-day forecast` },
    report.days.map((day, index) => h("li", { class: "weather-day" },
      h("span", { class: "weather-day__name" }, dayName(day.date, index)),
      weatherIcon(day.condition, day.condition_text),
      h("span", { class: "weather-day__high" }, h("span", { class: "visually-hidden" }, "High "), formatTemperature(day.high_c)),
      h("span", { class: "weather-day__low" }, h("span", { class: "visually-hidden" }, "Low "), formatTemperature(day.low_c)),
    )),
  );
}

function renderSources(answers) {
  const names = [...new Set(Object.values(answers).filter((answer) => answer.source).map((answer) => answer.source.name))];
  return h("p", { class: "weather-card__source muted small" }, `Source: ${names.join(", ")}`);
}

function dayName(date, index) {
  if (index === 0) return "Today";
  const [year, month, day] = date.split("-").map(Number);
  return new Date(year, month - 1, day).toLocaleDateString([], { weekday: "short" });
}
