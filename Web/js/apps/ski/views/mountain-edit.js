// The admin's mountain editor (issue 21: "an admin editor … for prices and the rest"): the mountain's facts,
// its ticket prices (add, change, delete; as-of date and source), each piste open or closed with its grooming,
// each lift open or closed. Each form is checked by the server as a whole and its errors appear next to their
// fields; a new price's id is made when its form appears, so a retried save never adds it twice.
import { adminOrExplain } from "../../../platform/account.js";
import { h } from "../../../platform/dom.js";
import { field, form, notice, submit } from "../../../platform/forms.js";
import { confirmSheet } from "../../../platform/sheet.js";
import { deletePrice, editLift, editMountain, editPiste, getMountain, putPrice } from "../api.js";
import { conventionNames, ticketKinds } from "../format.js";
import { loadMountainPage } from "./mountain.js";

const groomingNames = { none: "Not known", classic: "Groomed (classic)", mogul: "Moguls", backcountry: "Not groomed (backcountry)" };

/** A labelled `<select>` whose errors come back under `name`, like `field()` from forms.js. */
function choiceField(name, label, options, value) {
  const id = `field-${name}-${crypto.randomUUID().slice(0, 8)}`;
  return h("div", { class: "field", dataset: { field: name } },
    h("label", { for: id }, label),
    h("select", { id, name, "aria-describedby": `${id}-error` },
      ...Object.entries(options).map(([key, text]) => h("option", { value: key, selected: key === value }, text))),
    h("p", { class: "field-error", id: `${id}-error`, "aria-live": "polite" }));
}

/** The value of the control `name` in `element`, trimmed. */
function read(element, name) {
  return element.querySelector(`[name="${name}"]`)?.value.trim() ?? "";
}

/** A number as typed: a number when it reads as one, the text otherwise (so the server names the field). */
function numeric(text) {
  if (text === "") return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : text;
}

export async function render(container, params) {
  if (!(await adminOrExplain(container, "edit mountains"))) return;
  let page = await loadMountainPage(container, params.id);
  if (!page) return;
  const mountainID = page.mountain.id;
  const heading = document.querySelector(".app-bar h1");
  if (heading) heading.textContent = `Edit ${page.mountain.name}`;

  const facts = mountainForm(page, (updated) => {
    page = updated;
    if (heading) heading.textContent = `Edit ${page.mountain.name}`;
  });
  const prices = h("div", { class: "stack" });
  function renderPrices() {
    prices.replaceChildren(
      ...page.prices.map((price) => priceForm(mountainID, price, renderAfter)),
      priceForm(mountainID, null, renderAfter));
  }
  async function renderAfter() {
    page = await getMountain(mountainID);
    renderPrices();
  }
  renderPrices();

  container.append(
    h("p", {}, h("a", { href: `#/ski/mountains/${mountainID}` }, "Back to the mountain page")),
    h("section", { "aria-labelledby": "edit-facts-title" }, h("h2", { id: "edit-facts-title" }, "The mountain"), facts),
    h("section", { "aria-labelledby": "edit-prices-title" }, h("h2", { id: "edit-prices-title" }, "Ticket prices"), prices),
    h("section", { "aria-labelledby": "edit-pistes-title" }, h("h2", { id: "edit-pistes-title" }, "Pistes"),
      page.pistes.length ? h("ul", { class: "ski-edit-list", "aria-label": "Pistes" }, ...page.pistes.map((piste) => pisteRow(mountainID, piste)))
        : h("p", { class: "muted" }, "No pistes are known for this mountain.")),
    h("section", { "aria-labelledby": "edit-lifts-title" }, h("h2", { id: "edit-lifts-title" }, "Lifts"),
      page.lifts.length ? h("ul", { class: "ski-edit-list", "aria-label": "Lifts" }, ...page.lifts.map((lift) => liftRow(mountainID, lift)))
        : h("p", { class: "muted" }, "No lifts are known for this mountain.")));
}

function mountainForm(page, onSaved) {
  const m = page.mountain;
  return form(async (element) => {
    const body = {
      name: read(element, "name"), address: read(element, "address"), country: read(element, "country"),
      lat: numeric(read(element, "lat")), lon: numeric(read(element, "lon")),
      base_altitude_m: numeric(read(element, "base_altitude_m")), summit_altitude_m: numeric(read(element, "summit_altitude_m")),
      website: read(element, "website") || undefined, piste_convention: read(element, "piste_convention"),
    };
    const updated = await editMountain(m.id, body);
    onSaved(updated);
    notice(element, "The mountain is saved.", "success");
  },
  field("name", "Name", { value: m.name, maxlength: 120 }),
  field("address", "Address", { value: m.address, maxlength: 300 }),
  field("country", "Country (two letters)", { value: m.country, maxlength: 2 }),
  field("lat", "Latitude", { value: String(m.lat), inputmode: "decimal" }),
  field("lon", "Longitude", { value: String(m.lon), inputmode: "decimal" }),
  field("base_altitude_m", "Base altitude (m)", { value: m.base_altitude_m ?? "", inputmode: "numeric", hint: "Leave empty when not known." }),
  field("summit_altitude_m", "Summit altitude (m)", { value: m.summit_altitude_m ?? "", inputmode: "numeric", hint: "Leave empty when not known." }),
  field("website", "Website", { value: page.website ?? "", type: "url" }),
  choiceField("piste_convention", "Piste signs", conventionNames, m.piste_convention),
  submit("Save mountain"));
}

/** The form of one price, or of a new one (`price` null). */
function priceForm(mountainID, price, onChanged) {
  const id = price?.id ?? crypto.randomUUID();
  const name = price ? `${ticketKinds[price.kind] ?? price.kind} ${price.season}` : "New price";
  const today = new Date().toISOString().slice(0, 10);
  const element = form(async (formElement) => {
    const saved = await putPrice(mountainID, id, {
      kind: read(formElement, "kind"), amount: read(formElement, "amount"), currency: read(formElement, "currency"),
      season: read(formElement, "season"), as_of: read(formElement, "as_of"), source: read(formElement, "source"),
    });
    await onChanged(saved);
  },
  h("h3", {}, name),
  choiceField("kind", "Ticket", ticketKinds, price?.kind ?? "adult_day"),
  field("amount", "Price", { value: price ? String(price.amount) : "", inputmode: "decimal", hint: "Such as 69 or 69.50." }),
  field("currency", "Currency", { value: price?.currency ?? "USD", maxlength: 3 }),
  field("season", "Season", { value: price?.season ?? "", hint: "Such as 2025/26." }),
  field("as_of", "Price as of", { type: "date", value: price?.as_of ?? today }),
  field("source", "Source", { value: price && !price.demo ? price.source : "", hint: "A web address, or where the price was read." }),
  h("div", { class: "button-row" },
    submit(price ? "Save price" : "Add price"),
    price ? h("button", { class: "button button--secondary button--danger", type: "button", onclick: async () => {
      const sure = await confirmSheet({ title: "Delete this price?", text: `${name} will no longer be shown.`, confirmLabel: "Delete price", cancelLabel: "Keep it", danger: true });
      if (!sure) return;
      try {
        await deletePrice(mountainID, id);
        await onChanged(null);
      } catch (error) {
        notice(element, error.message);
      }
    } }, "Delete price") : null));
  element.setAttribute("aria-label", name);
  element.classList.add("ski-price-form");
  return element;
}

function pisteRow(mountainID, piste) {
  const status = h("p", { class: "small", role: "status" });
  const open = h("input", { type: "checkbox", id: `piste-open-${piste.id}`, checked: piste.open });
  const grooming = h("select", { id: `piste-grooming-${piste.id}`, "aria-label": `Grooming of ${piste.name}` },
    ...Object.entries(groomingNames).map(([key, text]) => h("option", { value: key, selected: key === (piste.grooming ?? "none") }, text)));
  async function save(change) {
    status.textContent = "Saving…";
    try {
      const saved = await editPiste(mountainID, piste.id, change);
      open.checked = saved.open;
      status.textContent = `${saved.name} is ${saved.open ? "open" : "closed"}.`;
    } catch (error) {
      status.textContent = Object.values(error.fieldErrors ?? {}).join(" ") || error.message;
    }
  }
  open.addEventListener("change", () => save({ open: open.checked }));
  grooming.addEventListener("change", () => save({ grooming: grooming.value }));
  return h("li", { class: "ski-edit-row" },
    h("span", { class: "ski-edit-row__name" }, piste.name),
    h("div", { class: "choice" }, open, h("label", { for: open.id }, `${piste.name} is open`)),
    grooming, status);
}

function liftRow(mountainID, lift) {
  const status = h("p", { class: "small", role: "status" });
  const open = h("input", { type: "checkbox", id: `lift-open-${lift.id}`, checked: lift.open });
  open.addEventListener("change", async () => {
    status.textContent = "Saving…";
    try {
      const saved = await editLift(mountainID, lift.id, { open: open.checked });
      open.checked = saved.open;
      status.textContent = `${saved.name} is ${saved.open ? "open" : "closed"}.`;
    } catch (error) {
      status.textContent = error.message;
    }
  });
  return h("li", { class: "ski-edit-row" },
    h("span", { class: "ski-edit-row__name" }, lift.name),
    h("div", { class: "choice" }, open, h("label", { for: open.id }, `${lift.name} is open`)),
    status);
}
