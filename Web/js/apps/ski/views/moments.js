// Best Moments (GoSki story 9, UC11, functionality 9): the community's global photo forum inside the ski app —
// every skier's photos large, latest first, "New post" for a photo and a few words. The list is the community's
// forum component (mounted by name: the apps do not import each other); guests read, posting needs an account.
import { h } from "../../../platform/dom.js";
import { mountComponent } from "../../../platform/shared-components.js";

export const momentsSubject = "community:best-moments";

export async function render(container) {
  container.append(h("section", { class: "ski-hero ski-hero--moments", "aria-labelledby": "moments-title" },
    h("h2", { id: "moments-title", class: "ski-hero__title" }, "Best Moments"),
    h("p", { class: "ski-hero__text" }, "Powder mornings, bluebird summits, first runs: share a photo from your day on the mountain.")));
  const forum = await mountComponent("forum", { subject: momentsSubject, title: "Best Moments", layout: "gallery" });
  if (!forum) {
    container.append(h("p", { class: "notice notice--error", role: "alert" }, "Best Moments is not available on this Cairn."));
    return;
  }
  container.append(forum.element);
  return () => forum.destroy();
}
