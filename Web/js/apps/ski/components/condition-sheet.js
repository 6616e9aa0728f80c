// The "Report conditions" sheet: how a piste is today (groomed, powder, icy, moguls, closed) and a note. The
// report's id is made when the sheet opens, so sending it again after a lost answer never counts it twice.
import { handleSignInRequired, requireAccount } from "../../../platform/account.js";
import { h } from "../../../platform/dom.js";
import { openSheet } from "../../../platform/sheet.js";
import { reportConditions } from "../api.js";
import { conditionNames } from "../format.js";

/** Resolves to the piste's day after the report (`today`), or null when the sheet was closed. */
export async function openConditionSheet(mountain, piste) {
  if (!(await requireAccount("report piste conditions"))) return null;
  const id = crypto.randomUUID();
  return new Promise((resolve) => {
    let today = null;
    const error = h("p", { class: "field-error", role: "alert" });
    const note = h("textarea", { id: "condition-note", name: "note", maxlength: 280, rows: 2 });
    const send = h("button", { class: "button", type: "submit" }, "Send report");
    const form = h("form", { class: "stack", novalidate: true },
      h("fieldset", { class: "flora-filters__group" },
        h("legend", {}, `How is ${piste.name} today?`),
        ...Object.entries(conditionNames).map(([value, label], index) => h("div", { class: "choice" },
          h("input", { type: "radio", id: `condition-${value}`, name: "condition", value, required: true, checked: index === 0 }),
          h("label", { for: `condition-${value}` }, label)))),
      h("label", { for: "condition-note" }, "Note (optional)"),
      note, error,
      h("div", { class: "button-row" }, send));
    const sheet = openSheet({ title: "Report conditions", content: [form], onClose: () => resolve(today) });
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      error.textContent = "";
      send.disabled = true;
      const condition = form.querySelector("input[name='condition']:checked")?.value;
      try {
        const result = await reportConditions(mountain.id, { id, piste_id: piste.id, condition, ...(note.value.trim() ? { note: note.value.trim() } : {}) });
        today = result.today;
        sheet.close("sent");
      } catch (problem) {
        send.disabled = false;
        if (handleSignInRequired(problem, "report piste conditions")) { sheet.close(); return; }
        error.textContent = problem.status === 422 ? Object.values(problem.fieldErrors).join(" ") || problem.message : problem.message;
      }
    });
  });
}
