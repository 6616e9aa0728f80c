// The field guide's filters on the device, the same rules as the server's (Sources/Flora/Catalogue.swift),
// so the guide filters with no signal: filters of one group are alternatives, groups combine, a tag filter
// matches the tags below it, an exclusive filter narrows the menu to the filters that apply to it, and each
// offered filter counts the species it would leave. Pure: `node --test` drives it.

/** Every tag's ancestors: Map(tagId → Set of ancestor ids). */
export function tagAncestors(tags) {
  const parents = new Map(tags.map((tag) => [tag.id, tag.parent_id ?? null]));
  const result = new Map();
  for (const tag of tags) {
    const seen = new Set();
    let next = tag.parent_id ?? null;
    while (next && !seen.has(next) && next !== tag.id) {
      seen.add(next);
      next = parents.get(next) ?? null;
    }
    result.set(tag.id, seen);
  }
  return result;
}

/** Whether `species` (a catalogue species: { species: summary, tags }) matches `filter`. */
export function matches(filter, entry, speciesTags) {
  const species = entry.species;
  switch (filter.field) {
    case "group": return species.group === filter.value;
    case "color": return species.flower_colors.includes(filter.value);
    case "month": return species.flowering_months.includes(Number(filter.value));
    case "habitat": return species.habitats.includes(filter.value);
    case "tag": return speciesTags.has(filter.value);
    default: return false;
  }
}

/** Prepares a catalogue (GET /api/flora/catalogue) for searching. */
export function prepare(catalogue) {
  const ancestors = tagAncestors(catalogue.tags);
  const entries = [...catalogue.species].sort((a, b) =>
    a.species.common_name.toLowerCase().localeCompare(b.species.common_name.toLowerCase()) ||
    a.species.scientific_name.localeCompare(b.species.scientific_name));
  const tagSets = entries.map((entry) => {
    const set = new Set();
    for (const tag of entry.tags) {
      set.add(tag.id);
      for (const ancestor of ancestors.get(tag.id) ?? []) set.add(ancestor);
    }
    return set;
  });
  const filters = catalogue.filters;
  const matching = new Map(filters.map((filter) => [
    filter.id, new Set(entries.flatMap((entry, index) => (matches(filter, entry, tagSets[index]) ? [index] : []))),
  ]));
  return { entries, filters, matching, version: catalogue.version };
}

/**
 * The species matching { exclusive, filters } and the menu, shaped like GET /api/flora/species:
 * { species, count, exclusive_filters, available_filters }. Throws an Error for unknown or inapplicable ids.
 */
export function search(prepared, { exclusive = null, filters = [] } = {}) {
  const byId = new Map(prepared.filters.map((filter) => [filter.id, filter]));
  if (exclusive && !byId.get(exclusive)?.exclusive) throw new Error(`${exclusive} is not an exclusive filter.`);
  const chosen = [...new Set(filters)].map((id) => {
    const filter = byId.get(id);
    if (!filter || filter.exclusive) throw new Error(`There is no filter ${id}.`);
    if (exclusive && filter.applies_to.length && !filter.applies_to.includes(exclusive)) {
      throw new Error(`The filter ${id} does not apply to ${exclusive}.`);
    }
    return filter;
  });
  const all = new Set(prepared.entries.map((_, index) => index));
  const groups = new Map();
  for (const filter of chosen) {
    const union = groups.get(filter.group) ?? new Set();
    for (const index of prepared.matching.get(filter.id)) union.add(index);
    groups.set(filter.group, union);
  }
  const base = exclusive ? prepared.matching.get(exclusive) : all;
  const intersect = (a, b) => new Set([...a].filter((x) => b.has(x)));
  const matchingExcept = (skipped) => {
    let result = base;
    for (const [group, set] of groups) if (group !== skipped) result = intersect(result, set);
    return result;
  };
  const result = matchingExcept(null);
  const offered = prepared.filters.filter((filter) =>
    !filter.exclusive && (!exclusive || !filter.applies_to.length || filter.applies_to.includes(exclusive)));
  const chosenIds = new Set(chosen.map((filter) => filter.id));
  const option = (filter, count) => ({
    id: filter.id, group: filter.group, label: filter.label, exclusive: filter.exclusive, count,
    selected: filter.exclusive ? filter.id === exclusive : chosenIds.has(filter.id),
  });
  const available = offered.map((filter) => {
    const union = new Set([...(groups.get(filter.group) ?? []), ...prepared.matching.get(filter.id)]);
    return option(filter, intersect(matchingExcept(filter.group), union).size);
  });
  let nonExclusive = all;
  for (const set of groups.values()) nonExclusive = intersect(nonExclusive, set);
  const exclusives = prepared.filters.filter((filter) => filter.exclusive)
    .map((filter) => option(filter, intersect(nonExclusive, prepared.matching.get(filter.id)).size));
  const species = [...result].sort((a, b) => a - b).map((index) => prepared.entries[index].species);
  return { species, count: species.length, exclusive, filters: chosen.map((f) => f.id), exclusive_filters: exclusives, available_filters: available };
}

/** The filters of `options` grouped for the menu: [{ group, filters }], in menu order. */
export function groupFilters(options) {
  const groups = [];
  for (const option of options) {
    let group = groups.find((entry) => entry.group === option.group);
    if (!group) groups.push(group = { group: option.group, filters: [] });
    group.filters.push(option);
  }
  return groups;
}
