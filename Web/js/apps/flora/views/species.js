// A species' page (niwot-field-guide 1.3): what it looks like, where and when it flowers, its family, and
// the buttons Upload a sighting, View sightings map and Back. From the catalogue kept on the device.
import { h } from "../../../platform/dom.js";
import { formatElevation } from "../../../platform/units.js";
import { illustration } from "../components/illustration.js";
import { speciesEntry } from "../catalogue.js";

const monthNames = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const groupNames = { wildflower: "Wildflower", graminoid: "Grass, sedge or rush", "shrub-tree": "Shrub or tree", "fern-ally": "Fern or spikemoss" };

export async function render(container, params) {
  let found;
  try {
    found = await speciesEntry(params.id);
  } catch (error) {
    container.append(h("p", { class: "notice notice--error", role: "alert" }, error.status === 0
      ? "The field guide has not been downloaded to this device yet. Open it once with a connection."
      : error.message));
    return;
  }
  if (!found) {
    container.append(h("p", { class: "notice notice--error", role: "alert" }, "The field guide has no such plant."),
      h("a", { class: "button button--secondary", href: "#/flora" }, "Back to the field guide"));
    return;
  }
  const { entry } = found;
  const species = entry.species;
  const facts = [
    ["Family", species.family],
    ["Plant group", groupNames[species.group] ?? species.group],
    species.flower_colors.length ? ["Flower colour", species.flower_colors.join(", ")] : null,
    species.flowering_months.length ? ["Flowers in", species.flowering_months.map((m) => monthNames[m - 1]).join(", ")] : null,
    species.habitats.length ? ["Habitat", species.habitats.map((habitat) => habitat.replace(/-/g, " ")).join(", ")] : null,
    entry.elevation_min_m != null && entry.elevation_max_m != null
      ? ["Elevation", `${formatElevation(entry.elevation_min_m)} to ${formatElevation(entry.elevation_max_m)}`] : null,
    ["Sightings", `${entry.observation_count} recorded, ${entry.verified_count} verified by researchers`],
  ].filter(Boolean);
  const otherTags = entry.tags.filter((tag) => tag.kind !== "family").map((tag) => tag.name);
  container.append(...[
    species.image_url
      ? h("figure", { class: "flora-photo" }, h("img", { src: species.image_url, alt: `${species.common_name} (${species.scientific_name})` }))
      : illustration(species, { large: true }),
    h("h2", {}, species.common_name),
    h("p", { class: "flora-scientific" }, h("i", {}, species.scientific_name)),
    species.sensitive
      ? h("p", { class: "notice notice--info", role: "note" }, "A sensitive species: its sightings are shown to the public at generalised places, to protect it.")
      : null,
    h("p", {}, entry.description),
    h("dl", { class: "details" }, facts.flatMap(([term, value]) => [h("dt", {}, term), h("dd", {}, value)])),
    otherTags.length ? h("p", { class: "muted small" }, `Tags: ${otherTags.join(" · ")}`) : null,
    h("div", { class: "button-row" },
      h("a", { class: "button", href: `#/flora/record?species=${encodeURIComponent(species.id)}` }, "Upload a sighting"),
      h("a", { class: "button button--secondary", href: `#/flora/species/${encodeURIComponent(species.id)}/map` }, "View sightings map"),
      h("button", {
        class: "button button--secondary", type: "button",
        // The app bar's Back knows whether there is a screen of Cairn to go back to.
        onclick: () => document.getElementById("back-button").click(),
      }, "Back"),
    ),
  ].filter(Boolean));
}
