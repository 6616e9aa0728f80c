// Web Push for this device (issue 19): whether the browser can receive notifications, subscribing with the
// server's VAPID key and telling the server, unsubscribing, and the per-kind switches (which apply to every
// device of the account). The service worker (sw.js) shows what arrives.
import { api } from "./api.js";

/** The kinds of notification a person can switch, in the order Settings shows them. */
export const pushKinds = [
  { id: "messages", label: "New messages" },
  { id: "friend_requests", label: "Friend requests" },
  { id: "trail_suggestions", label: "Weekly trail suggestions" },
];

/** Whether this browser has what push needs (a service worker, the Push API, notifications). */
export function pushSupported() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

/** The key as `pushManager.subscribe` wants it: base64url → bytes. */
export function keyBytes(base64url) {
  const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/");
  const padded = base64 + "=".repeat((4 - (base64.length % 4)) % 4);
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
}

async function registration() {
  return (await navigator.serviceWorker.getRegistration("/")) ?? null;
}

/** This device's current subscription, or null. */
export async function currentSubscription() {
  if (!pushSupported()) return null;
  const reg = await registration();
  return reg ? reg.pushManager.getSubscription() : null;
}

/**
 * Turns notifications on for this device. Resolves { ok: true } or { ok: false, reason } where reason is
 * "unsupported" (no push service: headless browsers, some private windows) or "denied" (the person or the
 * browser blocked notifications for this site).
 */
export async function enablePush() {
  if (!pushSupported()) return { ok: false, reason: "unsupported" };
  const permission = await Notification.requestPermission();
  if (permission === "denied") return { ok: false, reason: "denied" };
  if (permission !== "granted") return { ok: false, reason: "dismissed" };
  const reg = (await registration()) ?? (await navigator.serviceWorker.register("/sw.js", { scope: "/" }));
  let subscription;
  try {
    const { public_key: key } = await api("/api/push/key");
    // A browser without a push service (headless Chromium) may never answer: 15 s is far beyond a real one.
    subscription = (await reg.pushManager.getSubscription())
      ?? (await withTimeout(reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) }), 15000));
  } catch (error) {
    if (error?.status !== undefined) throw error;
    return { ok: false, reason: "unsupported" };
  }
  await api("/api/push/subscriptions", { method: "PUT", body: subscription.toJSON() });
  return { ok: true };
}

function withTimeout(promise, ms) {
  let timer;
  const timeout = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error("push service timeout")), ms); });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Turns notifications off for this device (the server forgets it; other devices keep theirs). */
export async function disablePush() {
  const subscription = await currentSubscription();
  if (!subscription) return;
  const endpoint = subscription.endpoint;
  await subscription.unsubscribe().catch(() => {});
  await api("/api/push/subscriptions", { method: "DELETE", body: { endpoint } }).catch((error) => {
    if (error.status !== 404) throw error;
  });
}

export function loadPushPreferences() {
  return api("/api/push/preferences");
}

export function savePushPreference(kind, on) {
  return api("/api/push/preferences", { method: "PUT", body: { kinds: { [kind]: on } } });
}
