// A trail card (Trailz 3.2.4.2.1, 3.2.4.9): the trailhead photo's thumbnail (or a drawing when it has none), name,
// difficulty, length, rating and the hunting and accessibility badges; the whole card opens the trail.
import { h } from "../../../platform/dom.js";
import { formatDistance } from "../../../platform/units.js";
import { rating } from "../api.js";
import { difficultyNames } from "../trail-format.js";
import { trailPhoto } from "./trail-photo.js";

const ratings = new Map();

export function createTrailCard(trail) {
  const ratingLine = h("span", { class: "trail-card__rating muted" });
  const photo = trailPhoto(trail.thumbnail_url, { alt: trail.thumbnail_url ? `Trailhead of ${trail.name}` : "", kind: "trailhead" });
  const element = h("a", { class: "card trail-card", href: `#/trails/${trail.id}` },
    photo,
    h("span", { class: "trail-card__body" },
      h("span", { class: "card__title" }, trail.name),
      h("span", { class: "card__text" }, [trail.city, trail.region].filter(Boolean).join(", ")),
      h("span", { class: "trail-card__facts" },
        h("span", { class: `badge difficulty difficulty--${trail.difficulty}` }, difficultyNames[trail.difficulty]),
        h("span", {}, formatDistance(trail.length_meters)),
        trail.distance_meters != null ? h("span", { class: "muted" }, `${formatDistance(trail.distance_meters)} away`) : null),
      h("span", { class: "trail-card__badges" },
        trail.hunting_area ? h("span", { class: "badge badge--hunting" }, "Hunting area") : null,
        trail.accessible ? h("span", { class: "badge badge--access" }, "Accessible") : null,
        trail.favourite ? h("span", { class: "badge" }, "★ Favorite") : null),
      ratingLine));
  showRating(trail.id, ratingLine);
  return { element };
}

async function showRating(id, line) {
  try {
    if (!ratings.has(id)) ratings.set(id, rating(id));
    const page = await ratings.get(id);
    line.textContent = page.review_count
      ? `★ ${page.average_rating.toFixed(1)} (${page.review_count === 1 ? "1 review" : `${page.review_count} reviews`})`
      : "No reviews yet";
  } catch {
    ratings.delete(id);
  }
}
