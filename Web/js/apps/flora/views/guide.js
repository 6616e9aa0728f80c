// The field guide (niwot-field-guide 1.2, 2): every plant by common name; the filter menu narrows the list
// with each selection; "No Flora Found" when nothing matches. Works with no signal from the catalogue kept on
// the device. With `?pick=1` it is the species chooser of a new observation (3.1.2).
import { loadAccount } from "../../../platform/account.js";
import { h } from "../../../platform/dom.js";
import { illustration } from "../components/illustration.js";
import { openFilterSheet } from "../components/filter-sheet.js";
import { loadCatalogue } from "../catalogue.js";
import { search } from "../filtering.js";

/** The last selection, so coming back to the guide keeps it. */
let remembered = { exclusive: null, filters: [] };

export async function render(container, _params, query) {
  const picking = query.get("pick") === "1";
  const account = await loadAccount();
  const researcher = ["researcher", "admin"].includes(account?.role);
  const status = h("p", { class: "muted small", role: "status" }, "Loading the field guide…");
  const summary = h("p", { class: "flora-summary" });
  const list = h("ul", { class: "list flora-list", "aria-label": "Plants" });
  const empty = h("p", { class: "empty-state", hidden: true }, "No Flora Found");
  const filterButton = h("button", { class: "button", type: "button" }, "Filters");
  container.append(...[
    h("h2", {}, picking ? "Which plant did you see?" : "Alpine plants of Niwot Ridge"),
    picking ? h("p", { class: "muted" }, "Narrow the list with the filters, then choose the plant.") : null,
    h("div", { class: "button-row" },
      filterButton,
      picking ? null : h("a", { class: "button button--secondary", href: "#/flora/record" }, "Record a sighting"),
      picking ? null : h("a", { class: "button button--secondary", href: "#/flora/sync" }, "Sync status"),
    ),
    researcher && !picking ? h("div", { class: "button-row" },
      h("a", { class: "button button--secondary", href: "#/flora/review" }, "Review observations"),
      h("a", { class: "button button--secondary", href: "#/flora/import" }, "Import CSV"),
      h("a", { class: "button button--secondary", href: "/api/flora/export/dwca.zip", download: "" }, "Darwin Core export")) : null,
    summary,
    status,
    empty,
    list,
  ].filter(Boolean));

  let loaded;
  try {
    loaded = await loadCatalogue();
  } catch (error) {
    status.textContent = error.status === 0
      ? "The field guide has not been downloaded to this device yet. Open it once with a connection."
      : error.message;
    return;
  }
  const { prepared, offline, savedAt } = loaded;
  status.textContent = offline ? `No connection: the guide as downloaded on ${new Date(savedAt).toLocaleDateString()}.` : "";

  let selection = remembered;
  const safeSearch = (chosen) => {
    try {
      return search(prepared, chosen);
    } catch {
      return search(prepared, { exclusive: null, filters: [] });
    }
  };

  function draw(result) {
    const chosen = [
      ...result.exclusive_filters.filter((filter) => filter.selected),
      ...result.available_filters.filter((filter) => filter.selected),
    ].map((filter) => filter.label);
    filterButton.textContent = chosen.length ? `Filters (${chosen.length})` : "Filters";
    summary.textContent = chosen.length
      ? `${result.count} of ${prepared.entries.length} plants: ${chosen.join(", ")}`
      : `${prepared.entries.length} plants`;
    empty.hidden = result.count !== 0;
    list.replaceChildren(...result.species.map((species) => h("li", {},
      h("a", {
        class: "flora-item",
        href: picking ? `#/flora/record?species=${encodeURIComponent(species.id)}` : `#/flora/species/${encodeURIComponent(species.id)}`,
      },
      illustration(species),
      h("span", { class: "flora-item__text" },
        h("span", { class: "flora-item__name" }, species.common_name),
        h("span", { class: "flora-item__detail" }, h("i", {}, species.scientific_name), ` · ${species.family}`)),
      ))));
  }

  draw(safeSearch(selection));
  filterButton.addEventListener("click", () => openFilterSheet({
    selection,
    search: safeSearch,
    onChange: (next, result) => {
      selection = next;
      remembered = next;
      draw(result);
    },
  }));
}
