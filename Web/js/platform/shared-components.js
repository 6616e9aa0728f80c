// Components one app offers to others, without either importing the other (the module walls): the offering
// app registers a loader at start-up, from its routes.js, and a screen of another app mounts it by name.
//
//   registerComponent("reviews", () => import("./components/reviews.js").then((m) => m.createReviews));
//   const reviews = await mountComponent("reviews", { subject: "trail:<id>" });   // null when none is offered

const loaders = new Map();

/** Offers `name`: `load()` resolves a factory `create(options) → { element, destroy? }`. */
export function registerComponent(name, load) {
  loaders.set(name, load);
}

/** A component made by the app offering `name`, or null when no app offers it. */
export async function mountComponent(name, options) {
  const load = loaders.get(name);
  if (!load) return null;
  const create = await load();
  return create(options);
}
