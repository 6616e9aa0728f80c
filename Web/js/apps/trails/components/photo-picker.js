// A photo picker of the trail editor, beside a photo address field: the photo there now (or its drawing), a
// button to choose a picture — made ready on a canvas (platform/photo.js: at most 2,048 px, a 320 px
// thumbnail, no EXIF) and previewed — and one to remove the photo. Nothing is sent until the editor saves: the
// chosen picture waits in `item.pending_photo`, a removal empties `item.photo_url` and its address field.
import { h } from "../../../platform/dom.js";
import { control, setFieldError } from "../../../platform/forms.js";
import { preparePhoto } from "../../../platform/photo.js";
import { trailPhoto } from "./trail-photo.js";

let counter = 0;

/**
 * `item`: the editor's draft object holding `photo_url` (the trail itself for the trailhead); `address`: the
 * name of its photo address field; `name`: the field this picker's errors come back under; `what`: what the
 * photo shows, for the labels ("trailhead photo"); `kind`: the drawing when there is no photo.
 */
export function createPhotoPicker({ item, address, name, what, kind }) {
  const id = `photo-picker-${++counter}`;
  const input = h("input", { id, type: "file", accept: "image/jpeg,image/png", hidden: true, "aria-describedby": `${id}-error` });
  const preview = h("div", { class: "photo-picker__preview" });
  const remove = h("button", { class: "button button--secondary button--small", type: "button" }, `Remove ${what}`);
  const element = h("div", { class: "field", dataset: { field: name } },
    h("div", { class: "photo-picker" },
      preview,
      h("label", { class: "button button--secondary button--small", for: id }, `Choose ${what}`),
      input,
      remove),
    h("p", { class: "field-error", id: `${id}-error`, "aria-live": "polite" }));

  function draw() {
    const pending = item.pending_photo;
    preview.replaceChildren(pending
      ? h("img", { class: "trail-photo", src: pending.thumbnail, alt: `The chosen ${what}, sent when you save`, width: 96, height: 96 })
      : trailPhoto(item.photo_url, { alt: `The ${what}`, kind }));
    remove.hidden = !pending && !item.photo_url;
  }

  input.addEventListener("change", async () => {
    const file = input.files?.[0];
    if (!file) return;
    const form = element.closest("form");
    try {
      item.pending_photo = await preparePhoto(file);
      element.querySelector(".field-error").textContent = "";
      input.removeAttribute("aria-invalid");
    } catch {
      if (form) setFieldError(form, name, "This picture cannot be read: choose a JPEG or PNG photo.");
    }
    input.value = "";
    draw();
  });
  remove.addEventListener("click", () => {
    item.pending_photo = null;
    item.photo_url = "";
    const field = control(element.closest("form") ?? element, address);
    if (field) field.value = "";
    draw();
  });
  draw();
  return { element, update: draw };
}
