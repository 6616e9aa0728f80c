// Sending the person's position while they share it: from start-up (a share survives a reload) until it ends or
// they stop it. A position goes at most once a minute, and at once when sharing starts; when the share has
// ended the server answers 409 and sending stops.
import { loadAccount } from "../../platform/account.js";
import { watchLocation } from "../../platform/location.js";
import * as community from "./api.js";

const intervalMs = 60_000;
let stopWatching = null;
let endTimer = null;
let lastSent = 0;
let latest = null;
let listeners = new Set();

/** Called with { sharing, endsAt, error } whenever that changes. Returns the function that stops listening. */
export function onSharingChange(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function tell(state) {
  for (const listener of listeners) listener(state);
}

async function send(fix) {
  latest = fix;
  if (Date.now() - lastSent < intervalMs) return;
  lastSent = Date.now();
  try {
    await community.sendPosition({ lat: fix.lat, lon: fix.lon, ...(Number.isFinite(fix.accuracy) ? { accuracy_m: Math.min(fix.accuracy, 100000) } : {}) });
  } catch (error) {
    if (error.status === 409 || error.status === 401) stopSending();
  }
}

/** Starts sending for a share that ends at `endsAt` (ISO). */
export function startSending(endsAt) {
  stopSending({ quiet: true });
  lastSent = 0;
  stopWatching = watchLocation(send, (reason) => tell({ sharing: true, endsAt, error: reason }));
  const left = Date.parse(endsAt) - Date.now();
  endTimer = setTimeout(() => stopSending(), Math.max(0, left));
  // Resend the latest fix every minute even when standing still, so "last seen" stays fresh.
  const keepAlive = setInterval(() => { if (latest) send(latest); }, intervalMs);
  const stopWatch = stopWatching;
  stopWatching = () => { stopWatch(); clearInterval(keepAlive); };
  tell({ sharing: true, endsAt });
}

export function stopSending({ quiet = false } = {}) {
  stopWatching?.();
  stopWatching = null;
  clearTimeout(endTimer);
  latest = null;
  if (!quiet) tell({ sharing: false });
}

async function resume() {
  const account = await loadAccount().catch(() => null);
  if (!account) {
    stopSending({ quiet: true });
    return;
  }
  try {
    const share = await community.locationShare();
    if (share.sharing && !stopWatching) startSending(share.ends_at);
  } catch {
    // Offline: the next start-up or account change tries again.
  }
}

if (typeof window !== "undefined") {
  resume();
  window.addEventListener("cairn:account", resume);
}
