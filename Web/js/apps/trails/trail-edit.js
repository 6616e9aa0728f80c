// The admin editor's pure part (node --test: Tests/WebTests/trails.test.mjs): a trail's page as the editor's
// draft, the draft as `PATCH /api/trails/{id}`'s body, the photos chosen in it as uploads, and the server's field
// names as the editor's fields.

const blankRanger = () => ({ name: "", phones: "" });
const blankSafety = () => ({ kind: "wildlife", name: "", text: "", warning_signs: "", photo_url: "" });
const blankPOI = () => ({ name: "", kind: "scenic_overlook", history: "", lat: "", lon: "", photo_url: "" });
const blankFocal = () => ({ id: "", kind: "plant", name: "", text: "", photo_url: "" });

/** The editor's lists: their API member, item label, blank item and the fields of an item. */
export const editLists = {
  rangers: { label: "Ranger", add: "Add a ranger", blank: blankRanger },
  safety: { label: "Safety guideline", add: "Add a safety guideline", blank: blankSafety },
  points_of_interest: { label: "Point of interest", add: "Add a point of interest", blank: blankPOI },
  focal_points: { label: "Focal point", add: "Add a focal point", blank: blankFocal },
};

/** The editor's state for a trail's page (`GET /api/trails/{id}`): every value as the form shows it. */
export function draftOf(trail) {
  const s = trail.summary;
  const text = (value) => (value === null || value === undefined ? "" : String(value));
  return {
    name: s.name, description: text(trail.description), city: text(s.city), region: text(s.region),
    difficulty: s.difficulty, accessible: !!s.accessible, photo_url: text(s.photo_url),
    lat: text(s.trailhead.lat), lon: text(s.trailhead.lon),
    fees: text(trail.fees), season_hours: text(trail.season_hours), parking_rules: text(trail.parking_rules),
    additional_fees: text(trail.additional_fees), hunting_area: !!s.hunting_area, hunting_notice: text(trail.hunting_notice),
    demo_facts: !!trail.demo_facts, amenities: [...(trail.amenities ?? [])],
    rangers: (trail.rangers ?? []).map((ranger) => ({ name: ranger.name, phones: ranger.phones.join("\n") })),
    safety: (trail.safety ?? []).map((item) => ({
      kind: item.kind, name: item.name, text: item.text, warning_signs: text(item.warning_signs), photo_url: text(item.photo_url),
    })),
    points_of_interest: (trail.points_of_interest ?? []).map((poi) => ({
      name: poi.name, kind: poi.kind, history: text(poi.history), lat: text(poi.position.lat), lon: text(poi.position.lon),
      photo_url: text(poi.photo_url),
    })),
    focal_points: (trail.focal_points ?? []).map((point) => ({
      id: point.id, kind: point.kind, name: point.name, text: text(point.text), photo_url: text(point.photo_url),
    })),
  };
}

/** A number as typed: a number when it reads as one, the text otherwise (so the server names the field). */
function numeric(value) {
  const text = String(value ?? "").trim();
  if (text === "") return text;
  const number = Number(text);
  return Number.isFinite(number) ? number : text;
}

/** A focal point's id from its name for a new one: lower-case letters, digits and hyphens. */
export function focalID(name, index) {
  const slug = String(name).normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
    .replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 40).replace(/-+$/, "");
  return slug || `point-${index + 1}`;
}

/** The draft as the admin PATCH's body: every fact, empty optional ones as null or left out. */
export function editBody(draft) {
  const text = (value) => String(value ?? "").trim();
  const photo = (value) => (text(value) ? { photo_url: text(value) } : {});
  return {
    name: text(draft.name), description: text(draft.description), city: text(draft.city), region: text(draft.region),
    difficulty: draft.difficulty, accessible: !!draft.accessible, photo_url: text(draft.photo_url) || null,
    trailhead: { lat: numeric(draft.lat), lon: numeric(draft.lon) },
    fees: text(draft.fees), season_hours: text(draft.season_hours), parking_rules: text(draft.parking_rules),
    additional_fees: text(draft.additional_fees), hunting_area: !!draft.hunting_area,
    hunting_notice: text(draft.hunting_notice) || null, demo_facts: !!draft.demo_facts, amenities: [...draft.amenities],
    rangers: draft.rangers.map((ranger) => ({
      name: text(ranger.name), phones: text(ranger.phones).split(/[\n,;]/).map((phone) => phone.trim()).filter(Boolean),
    })),
    safety: draft.safety.map((item) => ({
      kind: item.kind, name: text(item.name), text: text(item.text),
      ...(text(item.warning_signs) ? { warning_signs: text(item.warning_signs) } : {}), ...photo(item.photo_url),
    })),
    points_of_interest: draft.points_of_interest.map((poi) => ({
      name: text(poi.name), kind: poi.kind, history: text(poi.history),
      position: { lat: numeric(poi.lat), lon: numeric(poi.lon) }, ...photo(poi.photo_url),
    })),
    focal_points: draft.focal_points.map((point, index) => ({
      id: text(point.id) || focalID(point.name, index), kind: point.kind, name: text(point.name), text: text(point.text),
      ...photo(point.photo_url),
    })),
  };
}

/**
 * The photos chosen in the editor (`pending_photo`: `{ photo, thumbnail }` from platform/photo.js) as the uploads
 * to make once `body` is saved: `{ place, field, photo, item }` — `place` as `PUT /api/trails/{id}/photos/{place}`
 * names it (a focal point by the id `body` gave it), `field` the picker's for its errors.
 */
export function photoUploads(draft, body) {
  const uploads = [];
  const add = (item, place, field) => {
    const chosen = item.pending_photo;
    if (chosen) uploads.push({ place, field, photo: { photo: chosen.photo, thumbnail: chosen.thumbnail }, item });
  };
  add(draft, "trailhead", "photo");
  draft.safety.forEach((item, index) => add(item, `safety.${index}`, `safety[${index}].photo`));
  draft.points_of_interest.forEach((item, index) =>
    add(item, `points_of_interest.${index}`, `points_of_interest[${index}].photo`));
  draft.focal_points.forEach((item, index) =>
    add(item, `focal_points.${body.focal_points[index].id}`, `focal_points[${index}].photo`));
  return uploads;
}

/**
 * The editor's field for a field error of the server: a phone's error goes to its ranger's phone list, a
 * position's to its latitude or longitude field, the rest as named.
 */
export function editorField(name) {
  return name
    .replace(/^(rangers\[\d+\]\.phones)\[\d+\]$/, "$1")
    .replace(/^(points_of_interest\[\d+\])\.position\.(lat|lon)$/, "$1.$2")
    .replace(/^(points_of_interest\[\d+\])\.position$/, "$1.lat")
    .replace(/^trailhead\.(lat|lon)$/, "$1")
    .replace(/^trailhead$/, "lat");
}
