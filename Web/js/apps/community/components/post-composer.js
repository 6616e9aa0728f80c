// What a forum post is made of in the web app: text, an optional photo (redrawn on the device, so the camera's
// EXIF and GPS never leave the phone; the server strips what is left anyway) and an optional dropped pin (the
// Drop-Pin Map: a map with a fixed pin in its centre, moved under it). Used by New post and by comments.
import { h } from "../../../platform/dom.js";
import { field } from "../../../platform/forms.js";
import { createBaseMap } from "../../../platform/map/base-map.js";
import { openSheet } from "../../../platform/sheet.js";
import { pinText } from "../forums.js";

const maxSide = 2048;

/** Redraws the chosen picture at most 2,048 px a side as JPEG; resolves to a data: URL. */
export async function preparePhoto(file) {
  const bitmap = await createImageBitmap(file);
  try {
    const scale = Math.min(1, maxSide / Math.max(bitmap.width, bitmap.height));
    const canvas = document.createElement("canvas");
    canvas.width = Math.max(1, Math.round(bitmap.width * scale));
    canvas.height = Math.max(1, Math.round(bitmap.height * scale));
    canvas.getContext("2d").drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    return canvas.toDataURL("image/jpeg", 0.85);
  } finally {
    bitmap.close?.();
  }
}

/**
 * The photo and pin fields of a post: { element, value() → { photo?, pin? } (resolves), reset() }. `pinCentre`
 * is where the Drop-Pin Map opens (a trailhead), else the map's home.
 */
export function createAttachments({ pinCentre } = {}) {
  let pin = null;
  let preview = null;
  const photoField = field("photo", "Photo (optional)", { type: "file", accept: "image/jpeg,image/png", hint: "JPEG or PNG. Camera data such as GPS is removed." });
  const input = photoField.querySelector("input");
  const previewBox = h("div", { class: "composer__preview" });
  input.addEventListener("change", () => {
    previewBox.replaceChildren();
    if (preview) URL.revokeObjectURL(preview);
    preview = null;
    const file = input.files?.[0];
    if (!file) return;
    preview = URL.createObjectURL(file);
    previewBox.append(h("img", { src: preview, alt: "The chosen photo", class: "composer__photo" }));
  });
  const pinStatus = h("p", { class: "small", "aria-live": "polite" });
  const pinButton = h("button", { class: "button button--secondary", type: "button", onclick: dropPin }, "Drop a pin");
  const clearButton = h("button", { class: "button button--secondary", type: "button", hidden: true, onclick: () => setPin(null) }, "Remove pin");
  const pinField = h("div", { class: "field", dataset: { field: "pin" } },
    h("p", {}, "Place (optional)"), pinStatus, h("div", { class: "button-row" }, pinButton, clearButton),
    h("p", { class: "field-error", "aria-live": "polite" }));

  function setPin(value) {
    pin = value;
    pinStatus.textContent = pin ? `📍 Pinned: ${pinText(pin)}` : "";
    pinButton.textContent = pin ? "Move the pin" : "Drop a pin";
    clearButton.hidden = !pin;
  }

  async function dropPin() {
    const mapElement = h("div", { class: "map drop-pin-map" });
    const frame = h("div", { class: "drop-pin" }, mapElement, h("div", { class: "drop-pin__marker", "aria-hidden": "true" }, "📍"));
    let made = null;
    const sheet = openSheet({
      title: "Drop a pin",
      content: [
        h("p", { class: "small" }, "Move the map until the pin is on the place."),
        frame,
        h("div", { class: "button-row" },
          h("button", { class: "button", type: "button", onclick: () => {
            const centre = made.map.getCenter();
            setPin({ lat: Number(centre.lat.toFixed(6)), lon: Number(centre.lng.toFixed(6)) });
            sheet.close("chosen");
          } }, "Use this place"),
          h("button", { class: "button button--secondary", type: "button", onclick: () => sheet.close() }, "Cancel")),
      ],
      onClose: () => made?.destroy(),
    });
    const centre = pin ?? pinCentre;
    made = await createBaseMap(mapElement, { label: "Drop-pin map", view: centre ? { center: [centre.lat, centre.lon], zoom: 16 } : undefined });
    made.map.invalidateSize?.();
  }

  return {
    element: h("div", { class: "composer__attachments" }, photoField, previewBox, pinField),
    async value() {
      const file = input.files?.[0];
      return { ...(file ? { photo: await preparePhoto(file) } : {}), ...(pin ? { pin } : {}) };
    },
    reset() {
      input.value = "";
      previewBox.replaceChildren();
      setPin(null);
    },
  };
}
