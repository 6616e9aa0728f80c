// Adding trails (admins; issue 20: "GPX 1.1 and GeoJSON upload"): a GPX or GeoJSON file sent to
// `POST /api/trails/import`, optionally with demo facts; the trails it made or updated, each a link to edit it.
// A refused file's reason appears next to the file field.
import { adminOrExplain } from "../../../platform/account.js";
import { h } from "../../../platform/dom.js";
import { control, field, form, notice, setFieldError, submit } from "../../../platform/forms.js";
import { formatDistance } from "../../../platform/units.js";
import { importTrailFile } from "../api.js";
import { difficultyNames } from "../trail-format.js";

export async function render(container) {
  if (!(await adminOrExplain(container, "add trails"))) return;
  const results = h("section", { "aria-labelledby": "import-results-title", hidden: true });
  const demo = h("input", { type: "checkbox", name: "demo", id: "trail-import-demo" });
  const element = form(async (formElement) => {
    const file = control(formElement, "file").files?.[0];
    if (!file) {
      setFieldError(formElement, "file", "Choose a GPX or GeoJSON file.");
      return;
    }
    const answer = await importTrailFile(file, { demo: demo.checked });
    notice(formElement, `${answer.created} new and ${answer.updated} updated ${answer.created + answer.updated === 1 ? "trail" : "trails"} from ${file.name}.`, "success");
    results.hidden = false;
    results.replaceChildren(
      h("h2", { id: "import-results-title" }, "Trails of the file"),
      h("ul", { class: "list" }, ...answer.trails.map((trail) => h("li", {},
        h("a", { href: `#/trails/${trail.id}` }, trail.name), ` — ${difficultyNames[trail.difficulty]}, ${formatDistance(trail.length_meters)} `,
        h("a", { href: `#/trails/${trail.id}/edit`, "aria-label": `Edit ${trail.name}` }, "Edit")))));
  },
  h("p", {}, "A GPX file (each track one trail) or a GeoJSON file (each line one trail, with name, description, difficulty, city and region properties). Uploading the same file again updates its trails."),
  field("file", "GPX or GeoJSON file", { type: "file", accept: ".gpx,.geojson,.json,application/gpx+xml,application/geo+json" }),
  h("div", { class: "field" },
    h("label", { class: "check", for: "trail-import-demo" }, demo, " Fill fees, hours, rangers and safety with demo text (marked as demo)")),
  h("div", { class: "button-row" }, submit("Upload trails")));
  element.setAttribute("aria-label", "Upload trails");
  element.classList.add("trail-editor");
  container.append(element, results);
}
