// How people look across the community's screens: a picture or initials, and a name.
import { h } from "../../platform/dom.js";

/** The person's picture, or their initials on a coloured disc (deleted accounts: a grey disc). */
export function personAvatar(person, size = "") {
  const classes = `person-avatar${size ? ` person-avatar--${size}` : ""}`;
  if (person?.avatar_url) return h("img", { class: classes, src: person.avatar_url, alt: "" });
  const initials = (person?.name ?? "?").split(/\s+/).filter(Boolean).slice(0, 2).map((part) => part[0]).join("").toUpperCase();
  return h("span", { class: classes, "aria-hidden": "true", dataset: { hue: String(hue(person?.username ?? "")) } }, initials || "?");
}

function hue(text) {
  let sum = 0;
  for (const char of text) sum = (sum * 31 + char.codePointAt(0)) % 360;
  return Math.floor(sum / 60);
}

/** "3 min ago", "Yesterday 14:05", "12 Mar": when something happened, short. */
export function shortTime(iso, now = new Date()) {
  const date = new Date(iso);
  const seconds = (now - date) / 1000;
  if (seconds < 60) return "just now";
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  const sameDay = date.toDateString() === now.toDateString();
  const time = date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  if (sameDay) return time;
  if (seconds < 7 * 86400) return `${date.toLocaleDateString([], { weekday: "short" })} ${time}`;
  return date.toLocaleDateString([], { day: "numeric", month: "short" });
}
