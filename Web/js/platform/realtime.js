// Live updates from the server for any screen: `subscribe(topic, { onEvent, onReset, onEnd, onError })` returns
// the function that stops following. Every subscription of the tab shares one WebSocket to /api/realtime, which
// reconnects with backoff and resumes each topic after the last event it saw (or calls onReset when the server
// no longer has what was missed: reload the state then). The logic is in realtime-core.js.
//
// WebSockets bypass the service worker, so this works the same whether the app opened from its cache or not.
// A failed connection attempt marks the server unreachable for the connection indicator; an open socket marks
// it reachable.
import { reportServerReached } from "./connection.js";
import { createRealtimeClient } from "./realtime-core.js";

let client;

function realtimeClient() {
  if (client) return client;
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  client = createRealtimeClient({
    url: `${scheme}//${location.host}/api/realtime`,
    openSocket: (url) => new WebSocket(url),
    timers: { set: (fn, ms) => setTimeout(fn, ms), clear: (id) => clearTimeout(id) },
    reportReached: reportServerReached,
    log: (text) => console.info(text),
  });
  window.addEventListener("online", () => client.connectNow());
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") client.connectNow();
  });
  return client;
}

/**
 * Follows `topic` (`parking.lot.7`, `chat.conversation.12`…). `onEvent(payload, { topic, seq })` gets each
 * event once, in order; `onReset({ topic, seq, reason })` says updates were missed — reload what the screen
 * shows; `onEnd({ topic, reason })` says the server withdrew access; `onError({ topic, code, message })` says
 * it refused the subscription (`forbidden`, `unknown_topic`…). Returns the function that stops following.
 */
export function subscribe(topic, handlers) {
  return realtimeClient().subscribe(topic, handlers);
}

/** Whether the live connection is open, and the last sequence number of each followed topic. */
export function realtimeState() {
  return client ? client.state() : { connected: false, connecting: false, failures: 0, topics: {} };
}
