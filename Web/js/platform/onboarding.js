// First landing on Home after registering (trailz 3.2.2.3.5): the location-permission explanation, then
// two spotlights — the profile icon, then Browse — each dismissed by a tap.
import { currentAccount, takeOnboarding } from "./account.js";
import { h } from "./dom.js";
import { ensureLocationPermission } from "./location.js";

const spotlightDelayMs = 2000;

export async function startOnboardingIfDue() {
  if (!takeOnboarding(currentAccount())) return;
  const landed = Date.now();
  await ensureLocationPermission();
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, spotlightDelayMs - (Date.now() - landed))));
  if (!location.hash.startsWith("#/home")) return;
  await spotlight(document.getElementById("profile-button"), "Finish your profile",
    "Tap your profile icon, then Profile, to add a picture and a few words about you.");
  await spotlight(document.querySelector('.bottom-nav a[data-tab="browse"]'), "Browse",
    "Browse trails, ski mountains and plants here.");
}

/** Dims the screen except `target` and explains it; resolves when the user taps anywhere. */
function spotlight(target, title, text) {
  return new Promise((resolve) => {
    if (!target) {
      resolve();
      return;
    }
    const box = target.getBoundingClientRect();
    const pad = 6;
    const ring = h("div", { class: "spotlight__ring" });
    Object.assign(ring.style, {
      left: `${box.left - pad}px`, top: `${box.top - pad}px`, width: `${box.width + pad * 2}px`, height: `${box.height + pad * 2}px`,
    });
    const bubble = h("div", { class: "spotlight__bubble" },
      h("h2", { id: "spotlight-title" }, title),
      h("p", {}, text),
      h("p", { class: "small" }, "Tap anywhere to continue."));
    const below = box.top < window.innerHeight / 2;
    bubble.style[below ? "top" : "bottom"] = below ? `${box.bottom + 16}px` : `${window.innerHeight - box.top + 16}px`;
    const overlay = h("div", { class: "spotlight", role: "dialog", "aria-modal": "true", "aria-labelledby": "spotlight-title", tabindex: "-1" }, ring, bubble);
    const dismiss = () => {
      overlay.remove();
      resolve();
    };
    overlay.addEventListener("click", dismiss);
    overlay.addEventListener("keydown", (event) => { if (["Escape", "Enter", " "].includes(event.key)) dismiss(); });
    document.body.append(overlay);
    overlay.focus();
  });
}
