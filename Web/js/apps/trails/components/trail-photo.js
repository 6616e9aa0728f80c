// A trail's photo — the trailhead's, a safety guideline's, a point of interest's, a focal point's — loaded lazily
// in a box sized before it arrives, so nothing moves. Where there is no photo (or it cannot be loaded), a plain
// drawing of the kind of thing, labelled as a drawing so nobody takes it for the place itself; never a broken image.
import { h, icon } from "../../../platform/dom.js";

const drawings = {
  trail: "M3 20 9 8l4 7 3-4 5 9z M14 5a2 2 0 1 0 0.01 0",
  animal: "M12 20c-3 0-5-2-5-4s2-4 5-4 5 2 5 4-2 4-5 4z M6 11a2 2.5 0 1 0 .01 0 M18 11a2 2.5 0 1 0 .01 0 M9.5 7a2 2.5 0 1 0 .01 0 M14.5 7a2 2.5 0 1 0 .01 0",
  plant: "M12 22V11 M12 11C12 6 8 3 4 3c0 5 3 8 8 8z M12 14c0-4 3-7 8-7 0 4-3 7-8 7z",
  equipment: "M7 7h10a2 2 0 0 1 2 2v11H5V9a2 2 0 0 1 2-2z M9 7V4h6v3 M5 13h14 M10 13v3h4v-3",
  water: "M4 4h16 M8 4c0 6 1 10 4 16 M12 4c0 6 1 10 4 16 M16 4c0 5 0 9 3 12 M3 20h18",
  view: "M2 12s4-7 10-7 10 7 10 7-4 7-10 7S2 12 2 12z M12 9a3 3 0 1 0 .01 0",
  place: "M12 21s-7-6-7-12a7 7 0 0 1 14 0c0 6-7 12-7 12z M12 7a2 2 0 1 0 .01 0",
};

/** The drawing for each kind of item (safety, point of interest, focal point; `trailhead`). */
const drawingOf = {
  trailhead: "trail", peak: "trail",
  wildlife: "animal", animal: "animal",
  dangerous_plant: "plant", edible_plant: "plant", plant: "plant",
  equipment: "equipment",
  waterfall: "water", lake: "water",
  scenic_overlook: "view", viewpoint: "view",
};

const sizes = { thumb: [96, 96], wide: [640, 360] };

/**
 * `url` as an image of `size` ("thumb": 96 px square; "wide": the page's width at 16:9), described by `alt`
 * (empty when the text beside it says it all); without one, the drawing for `kind`.
 */
export function trailPhoto(url, { alt = "", kind = "trailhead", size = "thumb" } = {}) {
  const drawing = () => {
    const label = size === "wide" ? "Drawing — no photo of this yet" : "Drawing";
    return h("span", { class: `trail-photo trail-photo--${size} trail-photo--drawing`, role: "img", "aria-label": `${label}${alt ? `: ${alt}` : ""}` },
      icon(drawings[drawingOf[kind] ?? "place"]),
      h("span", { class: "trail-photo__label", "aria-hidden": "true" }, label));
  };
  if (!url) return drawing();
  const [width, height] = sizes[size];
  const image = h("img", { class: `trail-photo trail-photo--${size}`, src: url, alt, loading: "lazy", decoding: "async", width, height });
  image.addEventListener("error", () => image.replaceWith(drawing()), { once: true });
  return image;
}
