// Star ratings as text: "★★★☆☆".

/** `rating` (0–5) filled stars, the rest empty. */
export function starText(rating) {
  const filled = Math.max(0, Math.min(5, Math.round(rating)));
  return "★".repeat(filled) + "☆".repeat(5 - filled);
}
