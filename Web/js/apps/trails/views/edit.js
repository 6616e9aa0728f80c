// The admin's trail editor (issue 20: "an admin editor for every field"): the trail's name, description, place,
// difficulty, disability access, photo and trailhead; fees, season hours, parking and additional fees; the
// hunting notice; amenities; rangers, safety guidelines, points of interest and scavenger focal points as lists
// to add to and remove from. Saved as one `PATCH /api/trails/{id}`, checked by the server as a whole: each error
// appears next to its field. Each photo can be chosen from the device (a picker beside its address field): once
// the facts are saved, the chosen photos go up one by one, `PUT /api/trails/{id}/photos/{place}`.
import { adminOrExplain } from "../../../platform/account.js";
import { ApiError } from "../../../platform/api.js";
import { h } from "../../../platform/dom.js";
import { control, field, form, notice, submit } from "../../../platform/forms.js";
import { editTrail, getTrail, uploadTrailPhoto } from "../api.js";
import { createPhotoPicker } from "../components/photo-picker.js";
import { draftOf, editBody, editLists, editorField, photoUploads } from "../trail-edit.js";
import { trailStore } from "../trail-data.js";
import { amenityNames, difficultyNames, focalKindNames, poiKindNames, safetyKindNames } from "../trail-format.js";

let counter = 0;

/** A labelled `<select>` whose errors come back under `name`, like `field()` from forms.js. */
function choiceField(name, label, options, value) {
  const id = `trail-edit-${++counter}`;
  return h("div", { class: "field", dataset: { field: name } },
    h("label", { for: id }, label),
    h("select", { id, name, "aria-describedby": `${id}-error` },
      ...Object.entries(options).map(([key, text]) => h("option", { value: key, selected: key === value }, text))),
    h("p", { class: "field-error", id: `${id}-error`, "aria-live": "polite" }));
}

function checkField(name, label, checked) {
  const id = `trail-edit-${++counter}`;
  return h("div", { class: "field", dataset: { field: name } },
    h("label", { class: "check", for: id }, h("input", { id, name, type: "checkbox", checked, "aria-describedby": `${id}-error` }), ` ${label}`),
    h("p", { class: "field-error", id: `${id}-error`, "aria-live": "polite" }));
}

/** An item's photo address field and its picker (errors of an upload come back under `…photo`). */
function photoFields(item, p, what, kind) {
  return [
    field(`${p}.photo_url`, "Photo address", { value: item.photo_url, hint: "https://…, or choose a photo below." }),
    createPhotoPicker({ item, address: `${p}.photo_url`, name: `${p}.photo`, what, kind }).element,
  ];
}

/** What each list's item is made of, as fields named `list[index].key`. */
const itemFields = {
  rangers: (item, p) => [
    field(`${p}.name`, "Name", { value: item.name, maxlength: 100 }),
    field(`${p}.phones`, "Phone numbers", { value: item.phones, multiline: true, hint: "One per line, such as +358 29 533 6912." }),
  ],
  safety: (item, p, n) => [
    choiceField(`${p}.kind`, "Section", safetyKindNames, item.kind),
    field(`${p}.name`, "Name", { value: item.name, maxlength: 120 }),
    field(`${p}.text`, "Description", { value: item.text, multiline: true }),
    field(`${p}.warning_signs`, "Warning signs", { value: item.warning_signs, multiline: true, hint: "For predatory wildlife." }),
    ...photoFields(item, p, `photo of safety guideline ${n}`, item.kind),
  ],
  points_of_interest: (item, p, n) => [
    field(`${p}.name`, "Name", { value: item.name, maxlength: 120 }),
    choiceField(`${p}.kind`, "Kind", poiKindNames, item.kind),
    field(`${p}.history`, "History", { value: item.history, multiline: true }),
    field(`${p}.lat`, "Latitude", { value: item.lat, inputmode: "decimal" }),
    field(`${p}.lon`, "Longitude", { value: item.lon, inputmode: "decimal" }),
    ...photoFields(item, p, `photo of point of interest ${n}`, item.kind),
  ],
  focal_points: (item, p, n) => [
    choiceField(`${p}.kind`, "Kind", Object.fromEntries(Object.entries(focalKindNames).map(([k, v]) => [k, v.replace(/s$/, "")])), item.kind),
    field(`${p}.name`, "Name", { value: item.name, maxlength: 120 }),
    field(`${p}.text`, "Clue", { value: item.text, multiline: true }),
    ...photoFields(item, p, `photo of focal point ${n}`, item.kind),
  ],
};

const scalarKeys = [
  "name", "description", "city", "region", "difficulty", "photo_url", "lat", "lon", "fees", "season_hours",
  "parking_rules", "additional_fees", "hunting_notice",
];

/** The form's values into `draft` (list items keep what the form does not show, such as a focal point's id). */
function readForm(element, draft) {
  const value = (name) => control(element, name)?.value ?? "";
  for (const key of scalarKeys) draft[key] = value(key);
  for (const key of ["accessible", "hunting_area", "demo_facts"]) draft[key] = !!control(element, key)?.checked;
  draft.amenities = [...element.querySelectorAll('input[name="amenities"]:checked')].map((input) => input.value);
  for (const [list, items] of Object.entries(draft).filter(([key]) => key in editLists)) {
    items.forEach((item, index) => {
      for (const key of Object.keys(item)) {
        const input = control(element, `${list}[${index}].${key}`);
        if (input) item[key] = input.value;
      }
    });
  }
}

export async function render(container, params) {
  if (!(await adminOrExplain(container, "edit trails"))) return;
  let trail;
  try {
    trail = await getTrail(params.id);
  } catch (error) {
    container.append(h("p", { class: "notice notice--error", role: "alert" }, error.status === 404 ? "There is no such trail." : error.message));
    return;
  }
  const id = trail.summary.id;
  const heading = document.querySelector(".app-bar h1");
  const title = () => { if (heading) heading.textContent = `Edit ${trail.summary.name}`; };
  title();
  const draft = draftOf(trail);

  const trailheadPicker = createPhotoPicker({ item: draft, address: "photo_url", name: "photo", what: "trailhead photo", kind: "trailhead" });
  const listHolders = {};

  /** The saved trail's photo addresses into the draft, the address fields and the pickers. */
  function showPhotos(saved) {
    const fresh = draftOf(saved);
    draft.photo_url = fresh.photo_url;
    const address = control(element, "photo_url");
    if (address) address.value = fresh.photo_url;
    trailheadPicker.update();
    for (const list of ["safety", "points_of_interest", "focal_points"]) {
      draft[list].forEach((item, index) => { item.photo_url = fresh[list][index]?.photo_url ?? ""; });
      renderList(list);
    }
  }
  function renderList(list) {
    const { label, add, blank } = editLists[list];
    listHolders[list].replaceChildren(
      ...draft[list].map((item, index) => h("fieldset", { class: "trail-edit-item" },
        h("legend", {}, `${label} ${index + 1}`),
        ...itemFields[list](item, `${list}[${index}]`, index + 1),
        h("button", { class: "button button--secondary button--small", type: "button", onclick: () => {
          readForm(element, draft);
          draft[list].splice(index, 1);
          renderList(list);
        } }, `Remove ${label.toLowerCase()} ${index + 1}`))),
      h("button", { class: "button button--secondary", type: "button", onclick: () => {
        readForm(element, draft);
        draft[list].push(blank());
        renderList(list);
        listHolders[list].querySelector("fieldset:last-of-type input, fieldset:last-of-type select")?.focus();
      } }, add));
  }
  const listSection = (list, titleText) => {
    listHolders[list] = h("div", { class: "stack" });
    renderList(list);
    return h("section", { class: "field", dataset: { field: list }, "aria-labelledby": `edit-${list}-title` },
      h("h2", { id: `edit-${list}-title` }, titleText),
      h("p", { class: "field-error", "aria-live": "polite" }),
      listHolders[list]);
  };

  const element = form(async (formElement) => {
    readForm(formElement, draft);
    const body = editBody(draft);
    let saved;
    try {
      saved = await editTrail(id, body);
    } catch (error) {
      if (error instanceof ApiError && error.problem?.errors) {
        // A message that names the API's member (points_of_interest[0].position.lat …) names the field's label.
        error.problem.errors = error.problem.errors.map((item) => {
          const name = editorField(item.field);
          const label = control(formElement, name)?.labels?.[0]?.textContent.trim();
          const detail = label && item.detail?.startsWith(item.field) ? `${label}${item.detail.slice(item.field.length)}` : item.detail;
          return { ...item, field: name, detail };
        });
      }
      throw error;
    }
    const uploads = photoUploads(draft, body);
    const refused = [];
    for (const upload of uploads) {
      try {
        await uploadTrailPhoto(id, upload.place, upload.photo);
        upload.item.pending_photo = null;
      } catch (error) {
        const detail = Object.values(error.fieldErrors ?? {})[0] ?? error.message;
        refused.push({ field: upload.field, detail: `Not saved: ${detail}` });
      }
    }
    if (uploads.length > refused.length) saved = await getTrail(id);
    trail = saved;
    showPhotos(saved);
    await trailStore().set(`trail/${id}`, saved).catch(() => {});
    title();
    if (refused.length) throw new ApiError(422, { detail: `${saved.summary.name} is saved, but not every photo.`, errors: refused });
    notice(formElement, `${saved.summary.name} is saved.`, "success");
  },
  h("section", { "aria-labelledby": "edit-trail-title" },
    h("h2", { id: "edit-trail-title" }, "The trail"),
    field("name", "Name", { value: draft.name, maxlength: 120 }),
    field("description", "Description", { value: draft.description, multiline: true }),
    field("city", "City", { value: draft.city, maxlength: 100 }),
    field("region", "Region or state", { value: draft.region, maxlength: 100 }),
    choiceField("difficulty", "Difficulty", difficultyNames, draft.difficulty),
    checkField("accessible", "Disability accessible", draft.accessible),
    field("photo_url", "Trailhead photo address", { value: draft.photo_url, hint: "https://…, or choose a photo below; leave empty for none." }),
    trailheadPicker.element,
    field("lat", "Trailhead latitude", { value: draft.lat, inputmode: "decimal" }),
    field("lon", "Trailhead longitude", { value: draft.lon, inputmode: "decimal" })),
  h("section", { "aria-labelledby": "edit-visit-title" },
    h("h2", { id: "edit-visit-title" }, "Additional information"),
    field("fees", "Admission fees", { value: draft.fees, multiline: true }),
    field("season_hours", "Season hours", { value: draft.season_hours, multiline: true }),
    field("parking_rules", "Parking regulations", { value: draft.parking_rules, multiline: true }),
    field("additional_fees", "Additional fees", { value: draft.additional_fees, multiline: true }),
    checkField("demo_facts", "These facts are demo text, not the park's", draft.demo_facts)),
  h("section", { "aria-labelledby": "edit-hunting-title" },
    h("h2", { id: "edit-hunting-title" }, "Hunting"),
    checkField("hunting_area", "Hunting takes place on or near this trail", draft.hunting_area),
    field("hunting_notice", "Hunting notice", { value: draft.hunting_notice, multiline: true, hint: "Seasons, what to wear." })),
  h("fieldset", { class: "field trail-edit-amenities", dataset: { field: "amenities" } },
    h("legend", {}, "Amenities"),
    h("p", { class: "field-error", "aria-live": "polite" }),
    ...Object.entries(amenityNames).map(([key, name]) => h("label", { class: "check" },
      h("input", { type: "checkbox", name: "amenities", value: key, checked: draft.amenities.includes(key) }), ` ${name}`))),
  listSection("rangers", "Park rangers"),
  listSection("safety", "Safety guidelines"),
  listSection("points_of_interest", "Points of interest"),
  listSection("focal_points", "Scavenger hunt"),
  h("div", { class: "button-row" }, submit("Save trail")));
  element.classList.add("trail-editor");
  element.setAttribute("aria-label", "Edit the trail");

  container.append(h("p", {}, h("a", { href: `#/trails/${id}` }, "Back to the trail page")), element);
}
