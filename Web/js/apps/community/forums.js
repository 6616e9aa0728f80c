// What the forums share: the names of the community's own forums, and where a forum's screens are.

/** The community's own forums; a module's forum (a trail's) is named by the screen that links to it. */
export const communityForums = {
  "community:best-moments": { name: "Best Moments", about: "Photos from days out: a view, a summit, a lake at dawn." },
  "community:general": { name: "General", about: "Questions, tips and plans for everyone on this Cairn." },
};

/** The forum's name as its screen shows it. */
export function forumName(subject, fallback = "Forum") {
  return communityForums[subject]?.name ?? fallback;
}

export const forumPath = (subject) => `#/forums/${encodeURIComponent(subject)}`;
export const newTopicPath = (subject) => `#/forums/${encodeURIComponent(subject)}/new`;
export const topicPath = (id) => `#/forum-topics/${id}`;

/** A pin as people read it: "60.16990° N, 24.93840° E". */
export function pinText(pin) {
  const lat = `${Math.abs(pin.lat).toFixed(5)}° ${pin.lat >= 0 ? "N" : "S"}`;
  const lon = `${Math.abs(pin.lon).toFixed(5)}° ${pin.lon >= 0 ? "E" : "W"}`;
  return `${lat}, ${lon}`;
}
