// The catalogue on the device: fetched when there is a signal and kept (offline store "flora"), so the guide,
// its filters and species pages work on the ridge. Prepared once per version.
import { offlineStore } from "../../platform/offline/store.js";
import { getCatalogue } from "./api.js";
import { prepare } from "./filtering.js";

const store = offlineStore("flora");
let prepared = null;

/** Resolves to { prepared, offline, savedAt }; rejects when there is neither a signal nor a kept copy. */
export async function loadCatalogue() {
  const { value, offline, savedAt } = await store.load("catalogue", getCatalogue);
  if (!prepared || prepared.version !== value.version || prepared.source !== value) {
    prepared = { ...prepare(value), source: value };
  }
  return { prepared, offline, savedAt, catalogue: value };
}

/** One species' page from the kept catalogue, or undefined. */
export async function speciesEntry(id) {
  const { catalogue, offline } = await loadCatalogue();
  const entry = catalogue.species.find((item) => item.species.id === id);
  return entry ? { entry, offline } : undefined;
}
