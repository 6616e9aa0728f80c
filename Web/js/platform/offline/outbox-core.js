// The outbox's logic, free of the browser so `node --test` can drive it with a fake store and clock.
// Web/js/platform/offline/outbox.js builds the app's one outbox from it on IndexedDB and fetch.
//
// An item is one write the person made: { id, app, kind, label, owner, request: { method, path, body },
// state, attempts, error, nextAttemptAt, createdAt, updatedAt, syncedAt, response }. Its id is made on the
// device and sent as the request's Idempotency-Key, so the server applies it once however often it is sent.
// States: "pending" (waiting to be sent, `error` says why the last try failed), "sending", "synced"
// (`response` is the server's answer) and "failed" (refused by the server for good, `error` says why;
// it waits for the person to retry or discard it).

/** How long to wait between tries: doubling from the first delay up to the cap, give or take the jitter. */
export const backoff = Object.freeze({ firstDelayMs: 5_000, maxDelayMs: 15 * 60_000, jitter: 0.2 });

/** How long a synced item stays readable (so a screen can say "saved") before it is dropped. */
export const keepSyncedMs = 7 * 24 * 60 * 60_000;

/** The wait before the next try after `attempts` failed ones; `random()` in [0, 1) spreads retries out. */
export function retryDelayMs(attempts, random = Math.random) {
  const base = Math.min(backoff.maxDelayMs, backoff.firstDelayMs * 2 ** Math.max(0, attempts - 1));
  return Math.round(base * (1 - backoff.jitter + 2 * backoff.jitter * random()));
}

/**
 * Whether a failed send may succeed later: no answer at all (offline: status 0), a timeout, too many
 * requests, or a server error. Anything else (a 4xx refusal) fails the item until the person acts.
 */
export function isRetryable(error) {
  const status = error?.status ?? 0;
  return status === 0 || status === 408 || status === 425 || status === 429 || status >= 500;
}

/**
 * An outbox over `store` ({ all(), put(item), delete(id) }, all async). `send(item)` performs the request
 * and resolves to the server's answer or rejects with an error carrying `status` (0 when unreachable) and
 * a human `message`. `canSend(item)` (may be async) holds back items that may not go now (another account's).
 * `exclusive(work)` runs a flush alone (across tabs in the browser). `schedule(fn, ms)`/`cancel(timer)`
 * set the retry timer.
 */
export function createOutbox({
  store, send, canSend = () => true, now = Date.now, random = Math.random, newId = () => crypto.randomUUID(),
  exclusive = (work) => work(), schedule = (fn, ms) => setTimeout(fn, ms), cancel = (timer) => clearTimeout(timer),
}) {
  const listeners = new Set();
  let running = null;
  let again = false;
  let forceNext = false;
  let timer = null;

  const save = async (item) => {
    await store.put(item);
    for (const listener of listeners) listener(item);
    return item;
  };

  const byAge = (a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1);

  /** One pass over the items that are due (every pending one when forced). */
  async function pass(force) {
    const items = (await store.all()).sort(byAge);
    for (const stored of items) {
      // "sending" can only be left over from a pass that a reload cut short: the lock is ours now.
      if (stored.state !== "pending" && stored.state !== "sending") continue;
      if (!(await canSend(stored))) continue;
      if (!force && stored.state === "pending" && stored.nextAttemptAt > now()) continue;
      const item = await save({ ...stored, state: "sending", updatedAt: now() });
      const attempts = item.attempts + 1;
      try {
        const response = await send(item);
        await save({ ...item, state: "synced", attempts, error: null, response: response ?? null, syncedAt: now(), updatedAt: now() });
      } catch (error) {
        const message = error?.message || "The write could not be sent.";
        if (isRetryable(error)) {
          await save({ ...item, state: "pending", attempts, error: message, nextAttemptAt: now() + retryDelayMs(attempts, random), updatedAt: now() });
          // No connection: the items after this one would fail the same way.
          if ((error?.status ?? 0) === 0) break;
        } else {
          await save({ ...item, state: "failed", attempts, error: message, updatedAt: now() });
        }
      }
    }
    for (const item of items) {
      if (item.state === "synced" && now() - item.syncedAt > keepSyncedMs) await store.delete(item.id);
    }
  }

  /** Sets the timer for the earliest retry still due. */
  async function planNextTry() {
    if (timer !== null) cancel(timer);
    timer = null;
    const waiting = [];
    for (const item of await store.all()) {
      if (item.state === "pending" && (await canSend(item))) waiting.push(item);
    }
    if (!waiting.length) return;
    const next = Math.min(...waiting.map((item) => item.nextAttemptAt));
    timer = schedule(() => {
      timer = null;
      flush();
    }, Math.max(0, next - now()));
  }

  /**
   * Sends every item that is due, oldest first; `force` sends pending items at once, ignoring the backoff
   * (the person asked, or the connection just came back). Resolves when the pass is over.
   */
  function flush({ force = false } = {}) {
    if (force) forceNext = true;
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          const forced = forceNext;
          forceNext = false;
          await exclusive(() => pass(forced));
          await planNextTry();
        } while (again);
      } finally {
        running = null;
      }
    })();
    return running;
  }

  return {
    /**
     * Keeps a write and sends it as soon as it can: `{ app, kind, label, owner, request: { method, path,
     * body } }`. Resolves to the stored item (pending) once it is safe on the device.
     */
    async enqueue({ app, kind, label = "", owner = null, request }) {
      const time = now();
      const item = await save({
        id: newId(), app, kind, label, owner, request, state: "pending", attempts: 0, error: null,
        nextAttemptAt: time, createdAt: time, updatedAt: time, syncedAt: null, response: null,
      });
      flush();
      return item;
    },

    /** The items, oldest first; `app` and `kind` narrow them down. */
    async items({ app, kind } = {}) {
      return (await store.all())
        .filter((item) => (app === undefined || item.app === app) && (kind === undefined || item.kind === kind))
        .sort(byAge);
    },

    /** One item by id, or undefined. */
    async item(id) {
      return (await store.all()).find((item) => item.id === id);
    },

    flush,

    /** Tries a pending or failed item again now. */
    async retry(id) {
      const item = await this.item(id);
      if (!item || item.state === "synced") return;
      await save({ ...item, state: "pending", nextAttemptAt: now(), updatedAt: now() });
      await flush({ force: true });
    },

    /** Drops an item that will not be sent (the person gave up on it). */
    async discard(id) {
      const item = await this.item(id);
      if (!item) return;
      await store.delete(id);
      for (const listener of listeners) listener({ ...item, state: "discarded" });
    },

    /** Calls `listener(item)` after every change of an item; returns a function that stops it. */
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
