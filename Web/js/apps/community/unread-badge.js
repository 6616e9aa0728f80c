// The Messages tab's badge: how many messages wait unread, kept live from the person's own realtime topic.
import { loadAccount } from "../../platform/account.js";
import { subscribe } from "../../platform/realtime.js";
import * as community from "./api.js";

let stop = null;
let following = null;

async function refresh() {
  const tab = document.querySelector('.bottom-nav a[data-tab="messages"]');
  if (!tab) return;
  const account = await loadAccount().catch(() => null);
  if (!account) {
    show(tab, 0);
    stop?.();
    stop = null;
    following = null;
    return;
  }
  try {
    const list = await community.threads();
    show(tab, list.unread);
    if (following !== list.topic) {
      stop?.();
      following = list.topic;
      stop = subscribe(list.topic, { onEvent: refresh, onReset: refresh });
    }
  } catch {
    // Offline or signed out meanwhile: the next change or navigation tries again.
  }
}

function show(tab, count) {
  let badge = tab.querySelector(".count-badge");
  if (!count) {
    badge?.remove();
    tab.setAttribute("aria-label", "Messages");
    return;
  }
  if (!badge) {
    badge = document.createElement("span");
    badge.className = "count-badge count-badge--tab";
    badge.setAttribute("aria-hidden", "true");
    tab.append(badge);
  }
  badge.textContent = count > 99 ? "99+" : String(count);
  tab.setAttribute("aria-label", `Messages, ${count} unread`);
}

refresh();
window.addEventListener("cairn:account", refresh);
