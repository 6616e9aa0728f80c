// The admin's tutorial sheet: add a tutorial (level, title, address) or change one. A new tutorial's id is made
// when the sheet opens, so sending it again after a lost answer never adds it twice. Errors appear next to
// their fields.
import { h } from "../../../platform/dom.js";
import { control, field, form } from "../../../platform/forms.js";
import { openSheet } from "../../../platform/sheet.js";
import { addTutorial, editTutorial } from "../api.js";
import { levelNames } from "../tutorials.js";

function levelField(value) {
  const id = "tutorial-level";
  return h("div", { class: "field", dataset: { field: "level" } },
    h("label", { for: id }, "Level"),
    h("select", { id, name: "level", "aria-describedby": `${id}-error` },
      ...Object.entries(levelNames).map(([level, name]) => h("option", { value: level, selected: level === value }, name))),
    h("p", { class: "field-error", id: `${id}-error`, "aria-live": "polite" }));
}

/** Resolves to the saved tutorial, or null when the sheet was closed without saving. */
export function openTutorialSheet({ tutorial = null, level = "beginner" } = {}) {
  const id = tutorial?.id ?? crypto.randomUUID();
  return new Promise((resolve) => {
    let saved = null;
    const editor = form(async (element) => {
      const body = {
        level: control(element, "level").value,
        title: control(element, "title").value,
        url: control(element, "url").value.trim(),
      };
      saved = tutorial ? await editTutorial(id, body) : await addTutorial({ id, ...body });
      sheet.close("saved");
    },
    levelField(tutorial?.level ?? level),
    field("title", "Title", { value: tutorial?.title, maxlength: 120 }),
    field("url", "Video address", {
      type: "url", inputmode: "url", value: tutorial?.url, autocomplete: "off",
      hint: "https:// — a YouTube or Vimeo video plays here; any other page opens outside Cairn.",
    }),
    h("div", { class: "button-row" }, h("button", { class: "button", type: "submit" }, tutorial ? "Save changes" : "Add tutorial")));
    const sheet = openSheet({ title: tutorial ? "Edit tutorial" : "Add a tutorial", content: [editor], onClose: () => resolve(saved) });
    control(editor, "title").focus();
  });
}
