// The realtime client's logic, free of the browser: one socket shared by every subscription, reconnection with
// backoff, and resuming each topic after the last sequence number it saw. realtime.js binds it to WebSocket,
// timers and the page's events; Tests/WebTests/realtime.test.mjs drives it with a fake socket and clock.
//
// Protocol (GET /api/realtime, JSON text frames): the client sends subscribe {topic, after?}, unsubscribe
// {topic}, pong; the server sends hello {ping_seconds}, subscribed {topic, seq}, event {topic, seq, payload},
// reset {topic, seq, reason}, unsubscribed {topic, reason}, error {topic, code, message} and ping.

/** Reconnection timing: the first retry after about a second, doubling to 30 s, each ±20 %. */
export const reconnect = Object.freeze({ firstDelayMs: 1_000, maxDelayMs: 30_000, jitter: 0.2 });

/** The wait before reconnecting after `failures` attempts in a row (1 or more); `random()` in [0, 1). */
export function reconnectDelayMs(failures, random = Math.random) {
  const base = Math.min(reconnect.maxDelayMs, reconnect.firstDelayMs * 2 ** Math.max(0, failures - 1));
  return Math.round(base * (1 - reconnect.jitter + 2 * reconnect.jitter * random()));
}

/** Errors after which a subscription is over (the server will refuse it again). */
const finalErrors = new Set(["forbidden", "unknown_topic", "too_many_subscriptions", "bad_message"]);

/**
 * A realtime client over `openSocket(url)` (anything with send, close, readyState and the on… callbacks of a
 * WebSocket). `timers` is { set(fn, ms) → id, clear(id) }; `reportReached(bool)` tells the connection
 * indicator whether the server answered. An idle socket (no subscriptions) is closed after `lingerMs`, so that
 * moving between screens does not reconnect.
 */
export function createRealtimeClient({
  url, openSocket, timers, random = Math.random, reportReached = () => {}, lingerMs = 10_000, log = () => {},
}) {
  /** topic → { handlers: Set, seq: number | null } */
  const topics = new Map();
  let socket = null;
  let opened = false;
  let failures = 0;
  let pingSeconds = 25;
  let reconnectTimer = null;
  let watchdogTimer = null;
  let lingerTimer = null;
  const retryTimers = new Map();

  const clear = (timer) => { if (timer !== null) timers.clear(timer); return null; };

  function send(message) {
    if (socket && opened) socket.send(JSON.stringify(message));
  }

  function subscribeMessage(topic) {
    const entry = topics.get(topic);
    return entry.seq === null ? { type: "subscribe", topic } : { type: "subscribe", topic, after: entry.seq };
  }

  function armWatchdog() {
    watchdogTimer = clear(watchdogTimer);
    // Two and a half ping intervals of silence: the connection is dead even if the browser has not noticed.
    watchdogTimer = timers.set(() => {
      log("realtime: no word from the server, reconnecting");
      socket?.close(4000, "no ping");
      closed({ code: 4000 });
    }, pingSeconds * 2_500);
  }

  function open() {
    reconnectTimer = clear(reconnectTimer);
    if (socket || topics.size === 0) return;
    opened = false;
    const current = openSocket(url);
    socket = current;
    current.onopen = () => {
      if (socket !== current) return;
      opened = true;
      failures = 0;
      reportReached(true);
      armWatchdog();
      for (const topic of topics.keys()) send(subscribeMessage(topic));
    };
    current.onmessage = (event) => {
      if (socket !== current) return;
      armWatchdog();
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      receive(message);
    };
    current.onclose = (event) => { if (socket === current) closed(event); };
    current.onerror = () => {};
  }

  function closed(event) {
    const wasOpen = opened;
    socket = null;
    opened = false;
    watchdogTimer = clear(watchdogTimer);
    if (wasOpen) {
      failures = 1;
    } else {
      failures += 1;
      reportReached(false);
    }
    if (topics.size === 0) return;
    log(`realtime: closed (${event?.code ?? "?"}), reconnecting`);
    reconnectTimer = clear(reconnectTimer);
    reconnectTimer = timers.set(open, reconnectDelayMs(failures, random));
  }

  function each(topic, call) {
    for (const handlers of [...(topics.get(topic)?.handlers ?? [])]) {
      try {
        call(handlers);
      } catch (error) {
        log(`realtime: a handler of ${topic} failed: ${error}`);
      }
    }
  }

  function receive(message) {
    const entry = message.topic === undefined ? undefined : topics.get(message.topic);
    switch (message.type) {
      case "hello":
        if (Number.isFinite(message.ping_seconds) && message.ping_seconds > 0) pingSeconds = message.ping_seconds;
        armWatchdog();
        break;
      case "ping":
        send({ type: "pong" });
        break;
      case "subscribed":
        if (entry && entry.seq === null) entry.seq = message.seq;
        break;
      case "event":
        if (!entry || (entry.seq !== null && message.seq <= entry.seq)) break;
        entry.seq = message.seq;
        each(message.topic, (handlers) => handlers.onEvent?.(message.payload, { topic: message.topic, seq: message.seq }));
        break;
      case "reset":
        if (!entry) break;
        entry.seq = message.seq;
        each(message.topic, (handlers) => handlers.onReset?.({ topic: message.topic, seq: message.seq, reason: message.reason }));
        break;
      case "unsubscribed":
        // Without a reason it only confirms our own unsubscribe; with one, the server withdrew access.
        if (!entry || !message.reason) break;
        each(message.topic, (handlers) => handlers.onEnd?.({ topic: message.topic, reason: message.reason }));
        topics.delete(message.topic);
        break;
      case "error":
        if (!entry) {
          log(`realtime: ${message.message}`);
          break;
        }
        each(message.topic, (handlers) => handlers.onError?.({ topic: message.topic, code: message.code, message: message.message }));
        if (finalErrors.has(message.code)) {
          topics.delete(message.topic);
        } else if (!retryTimers.has(message.topic)) {
          // The server could not follow it just now (its database was busy): ask again shortly.
          const topic = message.topic;
          retryTimers.set(topic, timers.set(() => {
            retryTimers.delete(topic);
            if (topics.has(topic)) send(subscribeMessage(topic));
          }, reconnectDelayMs(1, random)));
        }
        break;
      default:
        break;
    }
  }

  return {
    /**
     * Follows `topic`: `onEvent(payload, { topic, seq })` for each event, `onReset({ topic, seq, reason })` when
     * updates were missed (reload the state), `onEnd({ topic, reason })` when the server withdrew access,
     * `onError({ topic, code, message })` when it refused. Returns the function that stops following.
     */
    subscribe(topic, handlers = {}) {
      lingerTimer = clear(lingerTimer);
      let entry = topics.get(topic);
      const added = !entry;
      if (!entry) {
        entry = { handlers: new Set(), seq: null };
        topics.set(topic, entry);
      }
      const own = { ...handlers };
      entry.handlers.add(own);
      if (added && opened) send(subscribeMessage(topic));
      if (!socket && reconnectTimer === null) open();
      let active = true;
      return () => {
        if (!active) return;
        active = false;
        const current = topics.get(topic);
        if (!current || current !== entry) return;
        current.handlers.delete(own);
        if (current.handlers.size > 0) return;
        topics.delete(topic);
        send({ type: "unsubscribe", topic });
        if (topics.size === 0) {
          reconnectTimer = clear(reconnectTimer);
          lingerTimer = clear(lingerTimer);
          lingerTimer = timers.set(() => {
            lingerTimer = null;
            if (topics.size > 0 || !socket) return;
            const idle = socket;
            socket = null;
            opened = false;
            watchdogTimer = clear(watchdogTimer);
            idle.close(1000, "idle");
          }, lingerMs);
        }
      };
    },

    /** Reconnects at once (the network came back, the page became visible), forgetting the backoff. */
    connectNow() {
      if (socket || topics.size === 0) return;
      failures = 0;
      open();
    },

    /** For tests and diagnostics: whether a socket is open, and each topic's last sequence number. */
    state() {
      return {
        connected: opened,
        connecting: Boolean(socket) && !opened,
        failures,
        topics: Object.fromEntries([...topics].map(([topic, entry]) => [topic, entry.seq])),
      };
    },
  };
}
