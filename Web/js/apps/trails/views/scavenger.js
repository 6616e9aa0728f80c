// The scavenger hunt (Trailz 3.2.6.7): the trail's focal points — plants, animals, points of interest — each
// with its picture and a checkbox, kept per person per trail on the server.
import { handleSignInRequired, loadAccount, accountNeededPanel } from "../../../platform/account.js";
import { h } from "../../../platform/dom.js";
import { getTrail, setFocalPoint } from "../api.js";
import { trailPhoto } from "../components/trail-photo.js";
import { focalKindNames, hasScavengerHunt } from "../trail-format.js";

export async function render(container, params) {
  const account = await loadAccount();
  if (!account) {
    container.append(accountNeededPanel("keep your scavenger hunt"));
    return;
  }
  let trail;
  try {
    trail = await getTrail(params.id);
  } catch (error) {
    container.append(h("p", { class: "notice notice--error", role: "alert" }, error.message));
    return;
  }
  container.append(h("h2", {}, trail.summary.name));
  if (!hasScavengerHunt(trail.summary)) {
    container.append(h("p", { class: "muted" }, "Scavenger hunts are on easy and moderate trails only."));
    return;
  }
  const status = h("p", { class: "muted small", role: "status" });
  const found = () => trail.focal_points.filter((point) => point.checked).length;
  const count = h("p", {}, `${found()} of ${trail.focal_points.length} found`);
  container.append(count, status);
  for (const [kind, title] of Object.entries(focalKindNames)) {
    const points = trail.focal_points.filter((point) => point.kind === kind);
    if (!points.length) continue;
    container.append(h("section", { "aria-labelledby": `hunt-${kind}` },
      h("h3", { id: `hunt-${kind}` }, title),
      h("ul", { class: "check-list scavenger-list" }, ...points.map((point) => {
        const box = h("input", { type: "checkbox", id: `focal-${point.id}`, checked: point.checked });
        box.addEventListener("change", async () => {
          box.disabled = true;
          try {
            await setFocalPoint(trail.summary.id, point.id, box.checked);
            point.checked = box.checked;
            status.textContent = box.checked ? `${point.name} found.` : `${point.name} unticked.`;
          } catch (error) {
            box.checked = point.checked;
            if (!handleSignInRequired(error, "keep your scavenger hunt")) status.textContent = error.message;
          }
          box.disabled = false;
          count.textContent = `${found()} of ${trail.focal_points.length} found`;
        });
        return h("li", { class: "scavenger-item" },
          trailPhoto(point.photo_url, { alt: point.name, kind: point.kind }),
          box, h("label", { for: `focal-${point.id}` }, h("strong", {}, point.name), point.text ? ` — ${point.text}` : ""));
      }))));
  }
}
