// The outbox's retry and state logic (Web/js/platform/offline/outbox-core.js) over a fake store, clock,
// timer and server.
import assert from "node:assert/strict";
import { test } from "node:test";
import { backoff, createOutbox, isRetryable, keepSyncedMs, retryDelayMs } from "../../Web/js/platform/offline/outbox-core.js";

/** A store that keeps copies, as IndexedDB does, and survives "reloads" (new outboxes over it). */
function fakeStore() {
  const items = new Map();
  return {
    items,
    all: async () => [...items.values()].map((item) => structuredClone(item)),
    put: async (item) => { items.set(item.id, structuredClone(item)); },
    delete: async (id) => { items.delete(id); },
  };
}

/** A server that answers from a script of outcomes: "ok", a status number (an error), or 0 (no answer). */
function fakeServer(...script) {
  const sent = [];
  return {
    sent,
    send: async (item) => {
      sent.push({ key: item.id, body: item.request.body });
      const outcome = script.length ? script.shift() : "ok";
      if (outcome === "ok") return { id: `server-${sent.length}` };
      const error = new Error(outcome === 0 ? "Cannot reach the Cairn server." : `The server answered ${outcome}.`);
      error.status = outcome;
      throw error;
    },
  };
}

function harness({ script = [], store = fakeStore(), canSend } = {}) {
  const clock = { now: 1_000_000 };
  const timers = [];
  const server = fakeServer(...script);
  let ids = 0;
  const outbox = createOutbox({
    store, send: server.send, canSend, now: () => clock.now, random: () => 0.5, newId: () => `id-${++ids}`,
    schedule: (fn, ms) => { timers.push({ fn, at: clock.now + ms }); return timers.length; },
    cancel: () => {},
  });
  return { outbox, store, server, clock, timers };
}

const write = { app: "runs", kind: "planned-run", label: "Route 1", request: { method: "POST", path: "/api/runs/planned", body: { length_m: 3000 } } };

test("a write is kept, sent once with its id as the idempotency key, and marked synced with the answer", async () => {
  const { outbox, server } = harness();
  const item = await outbox.enqueue(write);
  assert.equal(item.state, "pending");
  await outbox.flush();
  const [synced] = await outbox.items({ app: "runs" });
  assert.equal(synced.state, "synced");
  assert.deepEqual(synced.response, { id: "server-1" });
  assert.deepEqual(server.sent, [{ key: item.id, body: { length_m: 3000 } }]);
});

test("offline, the write stays pending with the reason and waits for the backoff", async () => {
  const { outbox, server, clock, timers } = harness({ script: [0, 0] });
  const item = await outbox.enqueue(write);
  await outbox.flush();
  let stored = await outbox.item(item.id);
  assert.equal(stored.state, "pending");
  assert.equal(stored.attempts, 1);
  assert.match(stored.error, /Cannot reach/);
  assert.equal(stored.nextAttemptAt, clock.now + backoff.firstDelayMs);
  assert.ok(timers.some((timer) => timer.at === stored.nextAttemptAt), "a retry is scheduled");

  await outbox.flush();
  assert.equal(server.sent.length, 1, "not due yet: nothing is sent");
  clock.now = stored.nextAttemptAt;
  await outbox.flush();
  stored = await outbox.item(item.id);
  assert.equal(stored.attempts, 2);
  assert.equal(stored.nextAttemptAt, clock.now + 2 * backoff.firstDelayMs);
  clock.now = stored.nextAttemptAt;
  await outbox.flush();
  assert.equal((await outbox.item(item.id)).state, "synced");
  assert.equal(server.sent.length, 3);
  assert.ok(server.sent.every((send) => send.key === item.id), "every try carries the same key");
});

test("asking (or the connection coming back) sends at once, whatever the backoff", async () => {
  const { outbox, server } = harness({ script: [0] });
  const item = await outbox.enqueue(write);
  await outbox.flush();
  await outbox.flush({ force: true });
  assert.equal((await outbox.item(item.id)).state, "synced");
  assert.equal(server.sent.length, 2);
});

test("without a connection the rest of the queue is not tried in the same pass", async () => {
  let online = false;
  const { outbox, server } = harness({ script: [0], canSend: () => online });
  await outbox.enqueue(write);
  await outbox.enqueue({ ...write, label: "Route 2" });
  online = true;
  await outbox.flush();
  assert.equal(server.sent.length, 1);
  assert.deepEqual((await outbox.items()).map((item) => item.state), ["pending", "pending"]);
});

test("a server error is retried; a refusal fails the item with the server's reason until retried", async () => {
  const { outbox, server } = harness({ script: [503, 422] });
  const first = await outbox.enqueue(write);
  await outbox.flush();
  assert.equal((await outbox.item(first.id)).state, "pending");
  await outbox.flush({ force: true });
  const failed = await outbox.item(first.id);
  assert.equal(failed.state, "failed");
  assert.equal(failed.error, "The server answered 422.");
  await outbox.flush({ force: true });
  assert.equal(server.sent.length, 2, "a failed item waits for the person");
  await outbox.retry(first.id);
  assert.equal((await outbox.item(first.id)).state, "synced");
});

test("a write cut short by a reload is sent again by the next outbox over the same store", async () => {
  const store = fakeStore();
  const first = harness({ store });
  const item = await first.outbox.enqueue(write);
  store.items.set(item.id, { ...store.items.get(item.id), state: "sending" });
  const afterReload = harness({ store });
  await afterReload.outbox.flush();
  assert.equal((await afterReload.outbox.item(item.id)).state, "synced");
  assert.equal(afterReload.server.sent[0].key, item.id);
});

test("items another account made are held back", async () => {
  const { outbox, server } = harness({ canSend: (item) => item.owner === "me" });
  await outbox.enqueue({ ...write, owner: "someone else" });
  const mine = await outbox.enqueue({ ...write, owner: "me" });
  await outbox.flush();
  assert.deepEqual(server.sent.map((send) => send.key), [mine.id]);
});

test("listeners hear every change; discarded items go; synced items are dropped after a week", async () => {
  const { outbox, clock } = harness({ script: [400] });
  const heard = [];
  const stop = outbox.subscribe((item) => heard.push(item.state));
  const refused = await outbox.enqueue(write);
  await outbox.flush();
  assert.deepEqual(heard, ["pending", "sending", "failed"]);
  await outbox.discard(refused.id);
  assert.equal(heard.at(-1), "discarded");
  assert.equal(await outbox.item(refused.id), undefined);
  stop();

  const kept = await outbox.enqueue(write);
  await outbox.flush();
  assert.equal((await outbox.item(kept.id)).state, "synced");
  clock.now += keepSyncedMs + 1;
  await outbox.flush();
  assert.equal(await outbox.item(kept.id), undefined);
  assert.equal(heard.length, 4, "no longer heard after stopping");
});

test("the backoff doubles from the first delay up to its cap, spread by the jitter", () => {
  assert.equal(retryDelayMs(1, () => 0.5), backoff.firstDelayMs);
  assert.equal(retryDelayMs(2, () => 0.5), 2 * backoff.firstDelayMs);
  assert.equal(retryDelayMs(3, () => 0.5), 4 * backoff.firstDelayMs);
  assert.equal(retryDelayMs(40, () => 0.5), backoff.maxDelayMs);
  assert.equal(retryDelayMs(1, () => 0), backoff.firstDelayMs * (1 - backoff.jitter));
  assert.ok(retryDelayMs(1, () => 0.999) <= backoff.firstDelayMs * (1 + backoff.jitter));
});

test("only no answer, timeouts, rate limits and server errors are worth retrying", () => {
  for (const status of [0, 408, 425, 429, 500, 502, 503]) assert.equal(isRetryable({ status }), true, String(status));
  for (const status of [400, 401, 403, 404, 409, 422]) assert.equal(isRetryable({ status }), false, String(status));
  assert.equal(isRetryable(new Error("thrown before any request")), true);
});
