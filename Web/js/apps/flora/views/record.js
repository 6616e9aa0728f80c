// Recording an observation (niwot-field-guide 3.1, 3.2): the plant chosen with the filters, a photo from the
// camera with "Use this photo" or "Retake", the GPS position with its accuracy, the date and time, and a
// comment. Saved on the device first (the outbox, IndexedDB) and uploaded by its device-made id when there is
// a connection, so nothing recorded on the ridge is lost. Needs an account.
import { accountNeededPanel, loadAccount } from "../../../platform/account.js";
import { h } from "../../../platform/dom.js";
import { clearErrors, field, form, notice, setFieldError, submit } from "../../../platform/forms.js";
import { queueWrite } from "../../../platform/offline/outbox.js";
import { formatDistance } from "../../../platform/units.js";
import { observationPath } from "../api.js";
import { speciesEntry } from "../catalogue.js";
import { preparePhoto } from "../../../platform/photo.js";

export async function render(container, _params, query) {
  if (!(await loadAccount())) {
    container.append(accountNeededPanel("record observations"));
    return;
  }
  const state = { species: null, photo: null, pendingPhoto: null, fix: null, locating: false, left: false };
  const speciesID = query.get("species");
  if (speciesID) {
    try {
      state.species = (await speciesEntry(speciesID))?.entry.species ?? null;
    } catch {
      state.species = null;
    }
  }

  // The plant.
  const speciesField = h("div", { class: "field", dataset: { field: "species_id" } },
    h("p", { class: "field-label" }, "Plant"),
    state.species
      ? h("p", {}, h("strong", {}, state.species.common_name), " ", h("i", {}, state.species.scientific_name), " ",
        h("a", { href: "#/flora?pick=1" }, "Change"))
      : h("a", { class: "button button--secondary", href: "#/flora?pick=1" }, "Choose the plant with the filters"),
    h("input", { type: "hidden", name: "species_id", value: state.species?.id ?? "" }),
    h("p", { class: "field-error", "aria-live": "polite" }));

  // The photo: taken, then kept or taken again.
  const photoInput = h("input", { type: "file", accept: "image/*", capture: "environment", id: "flora-photo-input", hidden: true });
  const photoArea = h("div", { class: "flora-photo-area" });
  const photoField = h("div", { class: "field", dataset: { field: "photo" } },
    h("p", { class: "field-label" }, "Photo"), photoInput, photoArea,
    h("p", { class: "field-error", "aria-live": "polite" }));

  // Where and when.
  const locationText = h("p", { role: "status" }, "No position yet.");
  const locationField = h("div", { class: "field", dataset: { field: "latitude" } },
    h("p", { class: "field-label" }, "Location"), locationText,
    h("button", { class: "button button--secondary", type: "button", onclick: locate }, "Use my GPS position"),
    h("p", { class: "field-error", "aria-live": "polite" }));
  const when = field("observed_at", "Date and time seen", { type: "datetime-local", value: localDateTime(new Date()) });
  const comment = field("comment", "Comment", { multiline: true, maxlength: 2000, hint: "What you noticed: how many plants, flowering, anything unusual." });

  const element = form(save, speciesField, photoField, locationField, when, comment, submit("Save observation"));
  container.append(h("h2", {}, "Record a sighting"),
    h("p", { class: "muted" }, "Saved on this phone first; it is uploaded when there is a connection."), element);

  function clearFieldError(name) {
    element.querySelector(`[data-field="${name}"] .field-error`).textContent = "";
    element.querySelector(`[data-field="${name}"] [aria-invalid]`)?.removeAttribute("aria-invalid");
  }

  function drawPhoto() {
    if (state.pendingPhoto) {
      photoArea.replaceChildren(
        h("img", { class: "flora-preview", src: state.pendingPhoto.photo, alt: "The photo just taken" }),
        h("p", {}, "Is this photo good?"),
        h("div", { class: "button-row" },
          h("button", { class: "button", type: "button", onclick: () => { state.photo = state.pendingPhoto; state.pendingPhoto = null; drawPhoto(); } }, "Use this photo"),
          h("button", { class: "button button--secondary", type: "button", onclick: retake }, "Retake")));
    } else if (state.photo) {
      photoArea.replaceChildren(
        h("img", { class: "flora-preview", src: state.photo.thumbnail, alt: "The photo of this observation" }),
        h("button", { class: "button button--secondary", type: "button", onclick: retake }, "Retake"));
    } else {
      photoArea.replaceChildren(h("label", { class: "button button--secondary", for: "flora-photo-input" }, "Take a photo"));
    }
  }

  function retake() {
    state.pendingPhoto = null;
    state.photo = null;
    photoInput.value = "";
    drawPhoto();
    photoInput.click();
  }

  photoInput.addEventListener("change", async () => {
    const file = photoInput.files?.[0];
    if (!file) return;
    try {
      state.pendingPhoto = await preparePhoto(file);
      clearFieldError("photo");
    } catch {
      setFieldError(element, "photo", "This picture cannot be read; take it again.");
    }
    drawPhoto();
  });
  drawPhoto();

  function locate() {
    if (!("geolocation" in navigator)) {
      setFieldError(element, "latitude", "This device cannot tell its position.");
      return;
    }
    locationText.textContent = "Finding your position…";
    navigator.geolocation.getCurrentPosition(
      (position) => {
        if (state.left) return;
        state.fix = { lat: position.coords.latitude, lon: position.coords.longitude, accuracy: position.coords.accuracy };
        locationText.textContent = `${state.fix.lat.toFixed(5)}, ${state.fix.lon.toFixed(5)} (within ${formatDistance(state.fix.accuracy)})`;
        clearFieldError("latitude");
      },
      (error) => {
        if (state.left) return;
        locationText.textContent = "No position yet.";
        setFieldError(element, "latitude", error.code === error.PERMISSION_DENIED
          ? "Location is blocked for Cairn; allow it in the browser's site settings."
          : "No GPS position could be found; try again in the open.");
      },
      { enableHighAccuracy: true, timeout: 60000, maximumAge: 10000 },
    );
  }

  async function save(formElement) {
    clearErrors(formElement);
    const observedAt = new Date(formElement.querySelector("[name=observed_at]").value);
    let bad = false;
    if (!state.species) { setFieldError(formElement, "species_id", "Choose the plant you saw."); bad = true; }
    if (!state.fix) { setFieldError(formElement, "latitude", "Add your GPS position."); bad = true; }
    if (Number.isNaN(observedAt.getTime()) || observedAt.getTime() > Date.now() + 600_000) {
      setFieldError(formElement, "observed_at", "Enter when you saw the plant (not in the future).");
      bad = true;
    }
    if (state.pendingPhoto) { setFieldError(formElement, "photo", "Choose Use this photo or Retake."); bad = true; }
    if (bad) return;
    const id = crypto.randomUUID();
    const body = {
      species_id: state.species.id, latitude: state.fix.lat, longitude: state.fix.lon, accuracy_m: state.fix.accuracy,
      observed_at: observedAt.toISOString(), comment: formElement.querySelector("[name=comment]").value.trim(),
      photo: state.photo?.photo ?? null, thumbnail: state.photo?.thumbnail ?? null,
    };
    await queueWrite({ app: "flora", kind: "observation", label: state.species.common_name, request: { method: "PUT", path: observationPath(id), body } });
    notice(formElement, "Saved on this phone.", "success");
    location.hash = "#/flora/sync";
  }

  return () => { state.left = true; };
}

/** `2024-07-14T10:30` in local time, what a datetime-local field holds. */
function localDateTime(date) {
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60000);
  return local.toISOString().slice(0, 16);
}
