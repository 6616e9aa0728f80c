// The signed-in account as the web app knows it: loaded once from /api/account, shared by every screen,
// and announced with a "cairn:account" event when it changes. `null` means a guest.
import { api, ApiError } from "./api.js";
import { h } from "./dom.js";
import { clearGuestData, collectGuestData, registerGuestData } from "./guest.js";
import { getSettings, updateSettings } from "./settings.js";
import { forgetOfflineData } from "./offline/store.js";
import { openSheet } from "./sheet.js";
import { disablePush } from "./push.js";

const cacheKey = "cairn.account";
const onboardingKey = "cairn.onboarding";
const flashKey = "cairn.flash";
let current;

// The device's units are guest data too: a guest's choice becomes the new account's.
registerGuestData("settings", {
  collect: () => {
    const { distance, temperature, elevation } = getSettings();
    return { units: { distance, temperature, elevation } };
  },
});

/** The account, or null for a guest. Offline, the last known account (name and picture only) stands in. */
export async function loadAccount({ refresh = false } = {}) {
  if (current !== undefined && !refresh) return current;
  try {
    setAccount(await api("/api/account"));
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) setAccount(null);
    else current = cachedAccount();
  }
  return current;
}

export function currentAccount() {
  return current ?? null;
}

/** The signed-in account's hashed id (what the device keeps to tell accounts apart), or null for a guest. */
export async function accountIdHash() {
  const account = current;
  if (!account) return null;
  return account.id ? hashed(account.id) : account.id_hash ?? null;
}

/** Replaces the known account (after login, sign-up, an edit) and tells every listener. */
export function setAccount(account) {
  current = account;
  if (account) {
    // trailz 3.5.6: the device keeps a hashed identifier, never the raw one, plus what the menu shows.
    hashed(account.id).then((idHash) => localStorage.setItem(cacheKey, JSON.stringify({
      id_hash: idHash, username: account.username, profile: { display_name: account.profile.display_name, avatar_url: account.profile.avatar_url },
    })));
    if (account.profile.units) updateSettings(account.profile.units, { fromAccount: true });
  } else {
    // Someone was signed in on this device: what was kept offline for them goes with them.
    if (localStorage.getItem(cacheKey)) forgetOfflineData().catch((error) => console.warn("offline data not forgotten", error));
    localStorage.removeItem(cacheKey);
  }
  window.dispatchEvent(new CustomEvent("cairn:account", { detail: account }));
}

function cachedAccount() {
  try {
    return JSON.parse(localStorage.getItem(cacheKey) ?? "null");
  } catch {
    return null;
  }
}

async function hashed(text) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/**
 * Signs up with what the guest did on this device; the first Home visit then shows the onboarding. Resolves
 * `{ account }` when the account exists now, or `{ pending: detail }` when the server finishes sign-ups through
 * a mailed link (CAIRN_RESET_UNKNOWN_EMAIL=hide): the guest's data then stays on the device until the link is
 * opened.
 */
export async function register(fields) {
  const guestData = await collectGuestData();
  const answer = await api("/api/account", {
    method: "POST",
    body: { ...fields, units: guestData.settings?.units, guest_data: guestData },
  });
  if (!answer.account) return { pending: answer.detail };
  await clearGuestData();
  signedUp(answer.account);
  return { account: answer.account };
}

/** Finishes a sign-up with the token of its mailed link: the account is made and signed in. */
export async function confirmSignUp(token) {
  const session = await api("/api/account/sign-up-confirmation", {
    method: "POST",
    body: { token, guest_data: await collectGuestData() },
  });
  await clearGuestData();
  signedUp(session.account);
  return session.account;
}

function signedUp(account) {
  localStorage.setItem(onboardingKey, account.id);
  setAccount(account);
}

export async function logIn(login, password) {
  const session = await api("/api/session", { method: "POST", body: { login, password, guest_data: await collectGuestData() } });
  await clearGuestData();
  setAccount(session.account);
  return session.account;
}

/** Logs out (wherever the user is) and shows the Login screen. */
export async function logOut() {
  // This browser stops receiving the account's notifications: the next person to use it must not see them.
  await disablePush().catch((error) => console.warn("push off at log out", error));
  try {
    await api("/api/session", { method: "DELETE" });
  } catch (error) {
    console.warn("log out", error);
  }
  setAccount(null);
  location.hash = "#/login";
}

/** Whether the onboarding (location explanation, spotlights) is due for this account; asking clears it. */
export function takeOnboarding(account) {
  if (!account || localStorage.getItem(onboardingKey) !== account.id) return false;
  localStorage.removeItem(onboardingKey);
  return true;
}

/** A one-time message for the next screen (the Login screen after a deletion, say). */
export function flash(message) {
  sessionStorage.setItem(flashKey, message);
}

export function takeFlash() {
  const message = sessionStorage.getItem(flashKey);
  sessionStorage.removeItem(flashKey);
  return message;
}

/**
 * For account-only actions: resolves true for a signed-in user; for a guest, explains that `action`
 * ("save a trail") needs an account, offers Log in and Create account, and resolves false.
 */
export async function requireAccount(action) {
  if (await loadAccount()) return true;
  showAccountNeeded(action);
  return false;
}

/** After an API call: shows the account-needed sheet when the server answered "sign in required". */
export function handleSignInRequired(error, action) {
  if (error instanceof ApiError && error.problem?.type === "/problems/sign-in-required") {
    showAccountNeeded(action);
    return true;
  }
  return false;
}

/** The panel a guest sees in place of an account-only screen. */
export function accountNeededPanel(action) {
  return h("div", { class: "empty-state" },
    h("h2", {}, "You need an account"),
    h("p", {}, `You are browsing as a guest. Create a free account to ${action}; what you did on this device comes with you.`),
    h("div", { class: "button-row button-row--center" },
      h("a", { class: "button", href: "#/register" }, "Create account"),
      h("a", { class: "button button--secondary", href: "#/login" }, "Log in"),
    ),
  );
}

/**
 * The signed-in admin, or null after `container` says why this screen is not theirs: a guest is asked to sign in,
 * anyone else is told that only admins `action` ("edit trails").
 */
export async function adminOrExplain(container, action) {
  const account = await loadAccount();
  if (!account) {
    container.append(accountNeededPanel(action));
    return null;
  }
  if (account.role !== "admin") {
    container.append(h("div", { class: "empty-state" }, h("h2", {}, "For admins"),
      h("p", {}, `Only admins ${action}. Ask an administrator to give your account the admin role.`)));
    return null;
  }
  return account;
}

function showAccountNeeded(action) {
  const sheet = openSheet({
    title: "You need an account",
    content: [
      h("p", {}, `To ${action}, log in or create a free account. What you did as a guest on this device comes with you.`),
      h("div", { class: "button-row" },
        h("a", { class: "button", href: "#/register" }, "Create account"),
        h("a", { class: "button button--secondary", href: "#/login" }, "Log in"),
        h("button", { class: "button button--secondary", type: "button", onclick: () => sheet.close() }, "Not now"),
      ),
    ],
  });
}

// Units chosen in Settings while signed in follow the account to other devices.
window.addEventListener("cairn:settings", async (event) => {
  const account = currentAccount();
  if (!account?.profile || event.detail?.fromAccount) return;
  const { distance, temperature, elevation } = event.detail;
  const p = account.profile;
  try {
    const updated = await api("/api/account/profile", {
      method: "PUT",
      body: {
        first_name: p.first_name, last_name: p.last_name, about_me: p.about_me, age: p.age, weight_kg: p.weight_kg,
        height_cm: p.height_cm, units: { distance, temperature, elevation },
      },
    });
    current = updated;
  } catch (error) {
    console.warn("units not saved to the account", error);
  }
});
