// Importing CSV files into the field guide (niwot-field-guide 5.2.4): species, tags, filters, observations.
// All or nothing: the server lists every bad row by file, line and column. Researchers and admins.
import { loadAccount } from "../../../platform/account.js";
import { h } from "../../../platform/dom.js";
import { field, form, notice, submit } from "../../../platform/forms.js";
import { importFiles } from "../api.js";

const kinds = [
  ["species", "Species (species.csv)"],
  ["tags", "Tags (tags.csv)"],
  ["filters", "Filters (filters.csv)"],
  ["observations", "Observations (observations.csv)"],
];

export async function render(container) {
  const account = await loadAccount();
  if (!account || !["researcher", "admin"].includes(account.role)) {
    container.append(h("div", { class: "empty-state" }, h("h2", {}, "For researchers"),
      h("p", {}, "Only researchers import into the field guide. Ask an administrator to give your account the researcher role.")));
    return;
  }
  const report = h("ul", { class: "flora-report", "aria-label": "Import problems" });
  const element = form(async (formElement) => {
    report.replaceChildren();
    const data = new FormData();
    for (const [name] of kinds) {
      const file = formElement.querySelector(`[name=${name}]`).files?.[0];
      if (file) data.append(name, file, file.name);
    }
    try {
      const result = await importFiles(data);
      notice(formElement, kinds.map(([name]) => {
        const counts = result[name];
        return `${name}: ${counts.created} new, ${counts.updated} changed, ${counts.unchanged} unchanged`;
      }).join("; ") + ".", "success");
    } catch (error) {
      report.replaceChildren(...(error.problem?.errors ?? []).map((issue) => h("li", {}, issue.detail)));
      notice(formElement, error.problem?.errors ? `Nothing was imported: ${error.problem.errors.length} problems, listed below.` : error.message);
    }
  }, ...kinds.map(([name, label]) => field(name, label, { type: "file", accept: ".csv,text/csv" })), submit("Import"));
  container.append(
    h("h2", {}, "Import CSV"),
    h("p", { class: "muted" }, "UTF-8 CSV files with a header line. Nothing is imported when a row is wrong; every problem is listed with its line. docs/flora.md lists the columns."),
    element, report);
}
