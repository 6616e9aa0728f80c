// The realtime client's logic (Web/js/platform/realtime-core.js) over a fake socket and fake timers: one socket
// for every subscription, backoff, resume from the last sequence numbers, resets, the watchdog.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createRealtimeClient, reconnect, reconnectDelayMs } from "../../Web/js/platform/realtime-core.js";

/** Timers run by hand: `advance(ms)` fires whatever falls due, in order. */
function fakeTimers() {
  let now = 0;
  let ids = 0;
  const pending = new Map();
  return {
    set(fn, ms) {
      const id = ++ids;
      pending.set(id, { at: now + ms, fn });
      return id;
    },
    clear(id) { pending.delete(id); },
    advance(ms) {
      const end = now + ms;
      for (;;) {
        const next = [...pending.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
        if (!next) break;
        pending.delete(next[0]);
        now = next[1].at;
        next[1].fn();
      }
      now = end;
    },
    get count() { return pending.size; },
  };
}

function harness(options = {}) {
  const timers = fakeTimers();
  const sockets = [];
  const reached = [];
  const client = createRealtimeClient({
    url: "ws://cairn.test/api/realtime",
    openSocket: (url) => {
      const socket = {
        url, sent: [], closedWith: null, readyState: 0,
        send(text) { this.sent.push(JSON.parse(text)); },
        close(code) { this.closedWith = code; },
        // The server's side:
        accept() { this.readyState = 1; this.onopen?.(); },
        push(message) { this.onmessage?.({ data: JSON.stringify(message) }); },
        drop(code = 1006) { this.readyState = 3; this.onclose?.({ code }); },
      };
      sockets.push(socket);
      return socket;
    },
    timers,
    random: () => 0.5,
    reportReached: (value) => reached.push(value),
    ...options,
  });
  return { client, timers, sockets, reached, last: () => sockets[sockets.length - 1] };
}

test("the reconnect delay starts near a second, doubles, and stops at thirty seconds", () => {
  assert.equal(reconnectDelayMs(1, () => 0.5), 1_000);
  assert.equal(reconnectDelayMs(2, () => 0.5), 2_000);
  assert.equal(reconnectDelayMs(4, () => 0.5), 8_000);
  assert.equal(reconnectDelayMs(20, () => 0.5), reconnect.maxDelayMs);
  assert.equal(reconnectDelayMs(1, () => 0), 800, "20 % earlier at the least");
  assert.equal(reconnectDelayMs(1, () => 0.999999), 1_200, "20 % later at the most");
});

test("every subscription shares one socket, and each topic is subscribed once", () => {
  const { client, sockets, last } = harness();
  client.subscribe("parking.lot.1", {});
  client.subscribe("parking.lot.1", {});
  client.subscribe("chat.conversation.9", {});
  last().accept();

  assert.equal(sockets.length, 1);
  assert.deepEqual(last().sent, [
    { type: "subscribe", topic: "parking.lot.1" },
    { type: "subscribe", topic: "chat.conversation.9" },
  ]);
});

test("events reach every handler of their topic once, in order; repeats are ignored", () => {
  const { client, last } = harness();
  const first = [];
  const second = [];
  client.subscribe("parking.lot.1", { onEvent: (payload, meta) => first.push([payload.n, meta.seq]) });
  client.subscribe("parking.lot.1", { onEvent: (payload) => second.push(payload.n) });
  last().accept();
  last().push({ type: "subscribed", topic: "parking.lot.1", seq: 4 });

  last().push({ type: "event", topic: "parking.lot.1", seq: 5, payload: { n: "a" } });
  last().push({ type: "event", topic: "parking.lot.1", seq: 5, payload: { n: "a again" } });
  last().push({ type: "event", topic: "parking.lot.1", seq: 4, payload: { n: "old" } });
  last().push({ type: "event", topic: "parking.lot.1", seq: 6, payload: { n: "b" } });
  last().push({ type: "event", topic: "parking.lot.2", seq: 1, payload: { n: "other lot" } });

  assert.deepEqual(first, [["a", 5], ["b", 6]]);
  assert.deepEqual(second, ["a", "b"]);
});

test("after a drop it reconnects with backoff and resumes each topic after its last sequence number", () => {
  const { client, timers, sockets, last } = harness();
  client.subscribe("parking.lot.1", {});
  client.subscribe("chat.conversation.9", {});
  last().accept();
  last().push({ type: "subscribed", topic: "parking.lot.1", seq: 10 });
  last().push({ type: "subscribed", topic: "chat.conversation.9", seq: 0 });
  last().push({ type: "event", topic: "parking.lot.1", seq: 11, payload: {} });

  last().drop(1001);
  timers.advance(999);
  assert.equal(sockets.length, 1, "waits about a second before reconnecting");
  timers.advance(1);
  assert.equal(sockets.length, 2);
  last().accept();

  assert.deepEqual(last().sent, [
    { type: "subscribe", topic: "parking.lot.1", after: 11 },
    { type: "subscribe", topic: "chat.conversation.9", after: 0 },
  ]);
});

test("failed attempts back off further each time and tell the connection indicator", () => {
  const { client, timers, sockets, reached, last } = harness();
  client.subscribe("parking.lot.1", {});
  last().drop();
  timers.advance(1_000);
  last().drop();
  timers.advance(1_999);
  assert.equal(sockets.length, 2, "the second retry waits two seconds");
  timers.advance(1);
  assert.equal(sockets.length, 3);
  last().accept();

  assert.deepEqual(reached, [false, false, true]);
  assert.equal(client.state().failures, 0);
});

test("a reset moves the topic to the server's sequence number and asks the screen to reload", () => {
  const { client, timers, last } = harness();
  const resets = [];
  const events = [];
  client.subscribe("parking.lot.1", { onReset: (reset) => resets.push(reset), onEvent: (p, m) => events.push(m.seq) });
  last().accept();
  last().push({ type: "subscribed", topic: "parking.lot.1", seq: 3 });
  last().drop();
  timers.advance(1_000);
  last().accept();
  last().push({ type: "subscribed", topic: "parking.lot.1", seq: 90 });
  last().push({ type: "reset", topic: "parking.lot.1", seq: 90, reason: "Too much changed while you were away." });
  last().push({ type: "event", topic: "parking.lot.1", seq: 91, payload: {} });

  assert.deepEqual(resets, [{ topic: "parking.lot.1", seq: 90, reason: "Too much changed while you were away." }]);
  assert.deepEqual(events, [91]);
  assert.equal(client.state().topics["parking.lot.1"], 91);
});

test("a replay after a resume is delivered, and the subscribed message does not skip it", () => {
  const { client, timers, last } = harness();
  const events = [];
  client.subscribe("chat.conversation.9", { onEvent: (p, m) => events.push(m.seq) });
  last().accept();
  last().push({ type: "subscribed", topic: "chat.conversation.9", seq: 2 });
  last().drop();
  timers.advance(1_000);
  last().accept();
  last().push({ type: "subscribed", topic: "chat.conversation.9", seq: 2 });
  for (const seq of [3, 4, 5]) last().push({ type: "event", topic: "chat.conversation.9", seq, payload: {} });

  assert.deepEqual(events, [3, 4, 5]);
});

test("pings are answered, and a silent server is left for a new connection", () => {
  const { client, timers, sockets, last } = harness();
  client.subscribe("parking.lot.1", {});
  last().accept();
  last().push({ type: "hello", ping_seconds: 10 });
  last().push({ type: "ping" });
  assert.deepEqual(last().sent.at(-1), { type: "pong" });

  timers.advance(24_999);
  assert.equal(last().closedWith, null);
  timers.advance(1);
  assert.equal(last().closedWith, 4000, "25 s (2.5 pings) of silence closes it");
  timers.advance(1_000);
  assert.equal(sockets.length, 2);
});

test("the last unsubscribe closes the idle socket after a while; a new subscription in time keeps it", () => {
  const { client, timers, sockets, last } = harness({ lingerMs: 5_000 });
  const stop = client.subscribe("parking.lot.1", {});
  last().accept();
  stop();
  assert.deepEqual(last().sent.at(-1), { type: "unsubscribe", topic: "parking.lot.1" });
  timers.advance(4_000);
  client.subscribe("parking.lot.2", {});
  timers.advance(10_000);
  assert.equal(last().closedWith, null);
  assert.equal(sockets.length, 1);

  const stopAgain = client.subscribe("parking.lot.3", {});
  stopAgain();
  assert.equal(last().closedWith, null, "parking.lot.2 is still followed");
});

test("an idle socket closes without reconnecting", () => {
  const { client, timers, sockets, last } = harness({ lingerMs: 5_000 });
  const stop = client.subscribe("parking.lot.1", {});
  last().accept();
  stop();
  timers.advance(5_000);
  assert.equal(last().closedWith, 1000);
  last().drop(1000);
  timers.advance(60_000);
  assert.equal(sockets.length, 1);
});

test("a refused subscription ends with the server's message; a busy server is asked again", () => {
  const { client, timers, last } = harness();
  const errors = [];
  client.subscribe("chat.conversation.5", { onError: (error) => errors.push(error.code) });
  client.subscribe("parking.lot.1", { onError: (error) => errors.push(error.code) });
  last().accept();
  last().push({ type: "error", topic: "chat.conversation.5", code: "forbidden", message: "Only members can follow it." });
  last().push({ type: "error", topic: "parking.lot.1", code: "unavailable", message: "Try again shortly." });
  timers.advance(1_000);

  assert.deepEqual(errors, ["forbidden", "unavailable"]);
  assert.deepEqual(Object.keys(client.state().topics), ["parking.lot.1"]);
  assert.deepEqual(last().sent.at(-1), { type: "subscribe", topic: "parking.lot.1" });
});

test("a withdrawn subscription tells the screen and is not resumed", () => {
  const { client, timers, last } = harness();
  const ends = [];
  client.subscribe("location.group.3", { onEnd: (end) => ends.push(end.reason) });
  client.subscribe("parking.lot.1", {});
  last().accept();
  last().push({ type: "unsubscribed", topic: "location.group.3", reason: "You left this group." });
  last().drop();
  timers.advance(1_000);
  last().accept();

  assert.deepEqual(ends, ["You left this group."]);
  assert.deepEqual(last().sent, [{ type: "subscribe", topic: "parking.lot.1" }]);
});

test("connectNow skips the backoff wait", () => {
  const { client, timers, sockets, last } = harness();
  client.subscribe("parking.lot.1", {});
  last().drop();
  timers.advance(1_000);
  last().drop();
  client.connectNow();
  assert.equal(sockets.length, 3);
  assert.equal(timers.count, 0, "the pending retry was cancelled");
});
