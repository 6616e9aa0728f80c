// The field guide's filtering on the device (Web/js/apps/flora/filtering.js): the server's rules, offline.
import assert from "node:assert/strict";
import { test } from "node:test";
import { groupFilters, prepare, search } from "../../Web/js/apps/flora/filtering.js";

const tags = [
  { id: "order-asterales", name: "Asterales", kind: "order", parent_id: null },
  { id: "family-asteraceae", name: "Asteraceae", kind: "family", parent_id: "order-asterales" },
  { id: "family-campanulaceae", name: "Campanulaceae", kind: "family", parent_id: "order-asterales" },
  { id: "family-poaceae", name: "Poaceae", kind: "family", parent_id: null },
];

function entry(id, family, group, colors, months) {
  return {
    species: {
      id, scientific_name: id, common_name: id, family, group, flower_colors: colors, flowering_months: months,
      habitats: [], sensitive: false,
    },
    tags: [tags.find((tag) => tag.id === `family-${family.toLowerCase()}`)],
  };
}

const filter = (id, group, field, value, exclusive = false, appliesTo = []) =>
  ({ id, group, label: id, exclusive, field, value, applies_to: appliesTo });

const catalogue = prepare({
  version: 1,
  tags,
  species: [
    entry("daisy", "Asteraceae", "wildflower", ["white"], [7]),
    entry("sunflower", "Asteraceae", "wildflower", ["yellow"], [7, 8]),
    entry("harebell", "Campanulaceae", "wildflower", ["blue"], [8]),
    entry("hairgrass", "Poaceae", "graminoid", [], [7]),
  ],
  filters: [
    filter("wildflowers", "Plant group", "group", "wildflower", true),
    filter("grasses", "Plant group", "group", "graminoid", true),
    filter("white", "Colour", "color", "white", false, ["wildflowers"]),
    filter("yellow", "Colour", "color", "yellow", false, ["wildflowers"]),
    filter("july", "In bloom", "month", "7"),
    filter("august", "In bloom", "month", "8"),
    filter("asterales", "Family", "tag", "order-asterales", false, ["wildflowers"]),
  ],
});

test("filters of one group are alternatives, groups combine, and facets count what each would leave", () => {
  const result = search(catalogue, { filters: ["white", "yellow", "july"] });
  assert.deepEqual(result.species.map((s) => s.id), ["daisy", "sunflower"]);
  const count = (id) => result.available_filters.find((f) => f.id === id).count;
  assert.equal(count("asterales"), 2);
  assert.equal(count("august"), 2);
  assert.equal(result.available_filters.find((f) => f.id === "white").selected, true);
});

test("a parent tag finds its families", () => {
  assert.deepEqual(search(catalogue, { filters: ["asterales"] }).species.map((s) => s.id).sort(), ["daisy", "harebell", "sunflower"]);
});

test("an exclusive filter narrows the menu and refuses the others", () => {
  const result = search(catalogue, { exclusive: "grasses" });
  assert.deepEqual(result.species.map((s) => s.id), ["hairgrass"]);
  assert.deepEqual(result.available_filters.map((f) => f.id), ["july", "august"]);
  assert.equal(result.exclusive_filters.find((f) => f.id === "wildflowers").count, 3);
  assert.throws(() => search(catalogue, { exclusive: "grasses", filters: ["white"] }), /does not apply to grasses/);
});

test("nothing matching is an empty list", () => {
  const result = search(catalogue, { filters: ["white", "august"] });
  assert.equal(result.count, 0);
  assert.deepEqual(groupFilters(result.available_filters).map((g) => g.group), ["Colour", "In bloom", "Family"]);
});

test("Wi-Fi only holds uploads back only where the browser says the phone is on another network", async () => {
  const { mayUploadNow } = await import("../../Web/js/apps/flora/sync-settings.js");
  assert.equal(mayUploadNow("any", { type: "cellular" }), true);
  assert.equal(mayUploadNow("wifi", { type: "cellular" }), false);
  assert.equal(mayUploadNow("wifi", { type: "wifi" }), true);
  assert.equal(mayUploadNow("wifi", undefined), true);
});
