// Browse (Trailz 3.2.1.8, 3.2.4.2.1): Suggested Trails — the nearest first when the person's location is known —
// then every trail matching the search and filters, 20 at a time; links to the map and to Favorites. Thursday's
// suggestions notification opens `#/trails?show=suggested`, scrolled to Suggested Trails (3.2.3.1.3).
import { loadAccount } from "../../../platform/account.js";
import { h } from "../../../platform/dom.js";
import { getSettings } from "../../../platform/settings.js";
import { listTrails } from "../api.js";
import { openFilterSheet } from "../components/filter-sheet.js";
import { createTrailCard } from "../components/trail-card.js";
import { loadFilters, saveFilters } from "../filters.js";
import { knownPosition } from "../position.js";
import { filterCount, filterParams } from "../trail-format.js";

export async function render(container, _params, query) {
  const state = { filters: loadFilters(), text: "", page: 1, position: null, left: false };
  const suggested = h("div", { class: "card-grid", "aria-label": "Suggested trails" });
  const suggestedNote = h("p", { class: "muted small" });
  const results = h("div", { class: "card-grid", "aria-label": "All trails" });
  const status = h("p", { class: "muted small", role: "status" });
  const more = h("button", { class: "button button--secondary", type: "button", hidden: true, onclick: () => loadPage(state.page + 1) }, "Show more trails");
  const search = h("input", { id: "trail-search", type: "search", name: "q", placeholder: "Name, city or region", autocomplete: "off" });
  const filterButton = h("button", { class: "button button--secondary", type: "button", onclick: () => chooseFilters() });
  const nearButton = h("button", { class: "button button--secondary", type: "button", hidden: true, onclick: () => locate(true) }, "Use my location");

  const suggestedSection = h("section", { id: "suggested-trails", "aria-labelledby": "suggested-title" },
    h("h2", { id: "suggested-title" }, "Suggested Trails"), suggestedNote, nearButton, suggested);

  const links = h("div", { class: "button-row" },
    filterButton,
    h("a", { class: "button button--secondary", href: "#/trails/map" }, "Trail map"),
    h("a", { class: "button button--secondary", href: "#/trails/favorites" }, "Favorites"));
  loadAccount().then((account) => {
    if (account?.role === "admin" && !state.left) links.append(h("a", { class: "button button--secondary", href: "#/trails/import" }, "Add trails"));
  }).catch(() => {});
  container.append(
    h("form", { class: "trail-search", role: "search", onsubmit: (event) => { event.preventDefault(); state.text = search.value.trim(); loadPage(1); } },
      h("label", { for: "trail-search", class: "visually-hidden" }, "Search trails"),
      search,
      h("button", { class: "button", type: "submit" }, "Search")),
    links,
    suggestedSection,
    h("section", { "aria-labelledby": "all-title" },
      h("h2", { id: "all-title" }, "All Trails"), status, results, more));

  function showFilterButton() {
    const count = filterCount(state.filters);
    filterButton.textContent = count ? `Filters (${count})` : "Filters";
  }

  async function chooseFilters() {
    const chosen = await openFilterSheet(state.filters);
    if (!chosen) return;
    state.filters = chosen;
    saveFilters(chosen);
    showFilterButton();
    loadSuggested();
    loadPage(1);
  }

  function params() {
    const filters = filterParams(state.filters, getSettings().distance);
    if (!state.position) delete filters.radius_km;
    return filters;
  }

  async function loadSuggested() {
    const near = state.position ? `${state.position.lat},${state.position.lon}` : null;
    try {
      const page = await listTrails({ ...params(), near, sort: near ? "distance" : "name", limit: 5 });
      if (state.left) return;
      suggested.replaceChildren(...page.trails.map((trail) => createTrailCard(trail).element));
      suggestedNote.textContent = page.trails.length
        ? (near ? "Trails nearest to you." : "Share your location to see the trails nearest to you first.")
        : "No trail matches these filters.";
      nearButton.hidden = Boolean(near);
    } catch (error) {
      suggestedNote.textContent = error.message;
    }
  }

  async function loadPage(page) {
    status.textContent = "Loading trails…";
    try {
      const answer = await listTrails({ ...params(), q: state.text, near: state.position && state.filters.distance ? `${state.position.lat},${state.position.lon}` : null, page, limit: 20 });
      if (state.left) return;
      state.page = page;
      const cards = answer.trails.map((trail) => createTrailCard(trail).element);
      if (page === 1) results.replaceChildren(...cards); else results.append(...cards);
      status.textContent = answer.total
        ? `${answer.total === 1 ? "1 trail" : `${answer.total} trails`}${state.text ? ` for “${state.text}”` : ""}.`
        : "No trails found. Try another name or fewer filters.";
      more.hidden = page * answer.limit >= answer.total;
    } catch (error) {
      status.textContent = error.status === 0 ? "No connection: trails cannot be loaded. Your favorites open offline." : error.message;
    }
  }

  async function locate(ask) {
    const position = await knownPosition({ ask });
    if (state.left) return;
    if (position) {
      state.position = position;
      loadSuggested();
      if (state.filters.distance) loadPage(1);
    }
  }

  showFilterButton();
  if (query?.get("show") === "suggested") suggestedSection.scrollIntoView({ block: "start" });
  loadSuggested();
  loadPage(1);
  locate(false);
  return () => { state.left = true; };
}
