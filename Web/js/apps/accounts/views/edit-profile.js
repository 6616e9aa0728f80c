// Edit Profile (trailz 3.2.6.5.6): picture, name, About Me (300 characters), optional age, weight and
// height in the user's units. The picture is shrunk on the device and re-checked by the server.
import { accountNeededPanel, loadAccount, setAccount } from "../../../platform/account.js";
import { api, ApiError } from "../../../platform/api.js";
import { h } from "../../../platform/dom.js";
import { control, field, form, showError, submit, values } from "../../../platform/forms.js";
import { getSettings } from "../../../platform/settings.js";

const aboutLimit = 300;

export async function render(container) {
  const account = await loadAccount({ refresh: true });
  if (!account) {
    container.append(accountNeededPanel("edit a profile"));
    return;
  }
  const p = account.profile;
  const imperial = getSettings().elevation === "ft";
  let picture = null;
  let removePicture = false;

  const preview = h("img", { class: "avatar avatar--large", src: p.avatar_url, alt: "Your profile picture" });
  const pictureField = field("avatar", "Profile picture", { type: "file", accept: "image/png,image/jpeg", hint: "A PNG or JPEG photo. It is resized and its location data removed." });
  const removeButton = h("button", {
    class: "button button--secondary", type: "button", hidden: !p.has_custom_avatar,
    onclick: () => {
      picture = null;
      removePicture = true;
      preview.src = "/icons/avatar-default.svg";
      removeButton.hidden = true;
    },
  }, "Remove picture");
  const counter = h("p", { class: "field-hint", "aria-live": "polite" });
  const aboutField = field("about_me", "About Me", { multiline: true, maxlength: aboutLimit, value: p.about_me });

  const editForm = form(async (element) => {
    const fields = values(element, "first_name", "last_name", "about_me", "age", "weight", "height");
    const number = (text) => (text.trim() === "" ? null : Number(text));
    const weight = number(fields.weight);
    const height = number(fields.height);
    const body = {
      first_name: fields.first_name, last_name: fields.last_name, about_me: fields.about_me, age: number(fields.age),
      weight_kg: weight == null ? null : imperial ? Math.round(weight / 2.20462 * 10) / 10 : weight,
      height_cm: height == null ? null : imperial ? Math.round(height * 2.54 * 10) / 10 : height,
      units: account.profile.units ?? undefined,
    };
    let updated;
    try {
      updated = await api("/api/account/profile", { method: "PUT", body });
    } catch (error) {
      throw renamed(error, { weight_kg: "weight", height_cm: "height" });
    }
    if (picture) updated = await api("/api/account/avatar", { method: "PUT", body: picture, headers: { "Content-Type": picture.type } });
    else if (removePicture) updated = await api("/api/account/avatar", { method: "DELETE" });
    setAccount(updated);
    location.hash = "#/profile";
  },
    h("div", { class: "avatar-edit" }, preview, removeButton),
    pictureField,
    field("first_name", "First name", { autocomplete: "given-name", value: p.first_name }),
    field("last_name", "Last name", { autocomplete: "family-name", value: p.last_name }),
    aboutField,
    counter,
    field("age", "Age", { type: "number", inputmode: "numeric", min: 13, max: 120, value: p.age ?? "" }),
    field("weight", imperial ? "Weight (lb)" : "Weight (kg)", {
      type: "number", inputmode: "decimal", step: "0.1",
      value: p.weight_kg == null ? "" : imperial ? Math.round(p.weight_kg * 2.20462) : p.weight_kg,
    }),
    field("height", imperial ? "Height (in)" : "Height (cm)", {
      type: "number", inputmode: "decimal", step: "0.1",
      value: p.height_cm == null ? "" : imperial ? Math.round(p.height_cm / 2.54) : p.height_cm,
    }),
    submit("✓ Save"),
  );

  const about = control(editForm, "about_me");
  const count = () => { counter.textContent = `${about.value.length} of ${aboutLimit} characters`; };
  about.addEventListener("input", count);
  count();

  control(editForm, "avatar").addEventListener("change", async (event) => {
    const file = event.target.files?.[0];
    if (!file) return;
    try {
      picture = await shrink(file);
      removePicture = false;
      preview.src = URL.createObjectURL(picture);
      removeButton.hidden = false;
    } catch {
      picture = null;
      showError(editForm, new ApiError(422, { detail: "This file is not a picture.", errors: [{ field: "avatar", detail: "Choose a PNG or JPEG picture." }] }));
    }
  });

  container.append(h("h2", {}, "Edit your profile"), editForm, h("p", {}, h("a", { href: "#/profile" }, "Cancel")));
}

/** The picture drawn upright at most 512 pixels wide, as JPEG (photos) or PNG (anything with transparency). */
async function shrink(file) {
  const bitmap = await createImageBitmap(file, { imageOrientation: "from-image" });
  const scale = Math.min(1, 512 / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement("canvas");
  canvas.width = Math.max(1, Math.round(bitmap.width * scale));
  canvas.height = Math.max(1, Math.round(bitmap.height * scale));
  canvas.getContext("2d").drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  const type = file.type === "image/png" ? "image/png" : "image/jpeg";
  return new Promise((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error("no image"))), type, 0.9));
}

/** The same error with its field names mapped to this form's (weight_kg → weight). */
function renamed(error, names) {
  if (!(error instanceof ApiError) || !error.problem?.errors) return error;
  return new ApiError(error.status, {
    ...error.problem,
    errors: error.problem.errors.map((item) => ({ ...item, field: names[item.field] ?? item.field })),
  });
}
