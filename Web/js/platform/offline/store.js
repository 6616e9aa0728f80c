// The offline store: data an app keeps on the device so its screens open with no connection (a runner's
// planned routes, a field guide's plants). Each app has its own corner, named after it; values are
// anything IndexedDB can hold (plain objects, arrays, Blobs). What is kept belongs to the person signed in:
// it is all forgotten when they log out.
import { idbStore } from "./idb.js";

const records = idbStore("records");

/**
 * The store of `app` ("runs"): { get(key), set(key, value), delete(key), keys(), load(key, fetch) }.
 * `get` resolves to { value, savedAt } or undefined.
 */
export function offlineStore(app) {
  const prefix = `${app}/`;
  return {
    get: (key) => records.get(prefix + key),
    set: (key, value) => records.put({ value, savedAt: Date.now() }, prefix + key),
    delete: (key) => records.delete(prefix + key),
    async keys() {
      return (await records.keys()).filter((key) => key.startsWith(prefix)).map((key) => key.slice(prefix.length));
    },
    /**
     * Marks data for offline use: `fetch()` it and keep a copy; when the server cannot be reached (status 0),
     * answer the copy instead. Resolves to { value, savedAt, offline } — `offline` is true for the copy.
     * Rejects as `fetch` did when there is no copy, or when the server answered with an error.
     */
    async load(key, fetch) {
      try {
        const value = await fetch();
        await records.put({ value, savedAt: Date.now() }, prefix + key);
        return { value, savedAt: Date.now(), offline: false };
      } catch (error) {
        if ((error?.status ?? 0) !== 0) throw error;
        const kept = await records.get(prefix + key);
        if (!kept) throw error;
        return { value: kept.value, savedAt: kept.savedAt, offline: true };
      }
    },
  };
}

/** Forgets every app's kept data (at log out, so the next person on the device does not see it). */
export function forgetOfflineData() {
  return records.clear();
}
