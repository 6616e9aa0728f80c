// A list of mountains (Nearby, Search and Favourites share it): each row opens the mountain's page and shows
// where it is, its distance when known and its adult day ticket — or says that no price is known.
import { h, icon } from "../../../platform/dom.js";
import { formatDistance, formatElevation } from "../../../platform/units.js";
import { formatPrice } from "../format.js";

export const mountainIcon = "M2 20 10 6l4 6 2-3 6 11z M8 9.5l2 1.5 2-2";

export function createMountainRow(mountain) {
  const price = mountain.price
    ? h("span", { class: "ski-row__price" }, formatPrice(mountain.price), h("span", { class: "muted small" }, " adult day"),
      mountain.price.demo ? h("span", { class: "badge badge--demo" }, "Demo price") : null)
    : h("span", { class: "ski-row__price ski-row__price--none muted" }, "No price known");
  return h("li", {},
    h("a", { class: "ski-row", href: `#/ski/mountains/${mountain.id}` },
      h("span", { class: "ski-row__icon", "aria-hidden": "true" }, icon(mountainIcon)),
      h("span", { class: "ski-row__body" },
        h("span", { class: "ski-row__name" }, mountain.name, mountain.favourite ? h("span", { class: "badge" }, "★ Favourite") : null),
        h("span", { class: "muted small" }, mountain.address),
        h("span", { class: "ski-row__facts" },
          mountain.distance_m != null ? h("span", { class: "ski-row__distance" }, `${formatDistance(mountain.distance_m)} away`) : null,
          Number.isFinite(mountain.summit_altitude_m) ? h("span", { class: "muted small" }, `Summit ${formatElevation(mountain.summit_altitude_m)}`) : null),
        price)));
}

/** `label` names the list for screen readers and tests ("Nearby mountains"). */
export function createMountainList(label) {
  const element = h("ol", { class: "ski-list", "aria-label": label });
  return {
    element,
    update(mountains) {
      element.replaceChildren(...mountains.map(createMountainRow));
    },
  };
}
