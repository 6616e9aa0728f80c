// Sync Status (niwot-field-guide 3.2.4): every observation of the person, pending (on this phone, waiting for
// a connection), synced (on the server, with a researcher's verdict) or failed (refused, with the reason, to
// retry or discard); "Upload now"; and when to upload (any connection, or Wi-Fi only). Needs an account.
import { accountNeededPanel, loadAccount } from "../../../platform/account.js";
import { h } from "../../../platform/dom.js";
import { outbox } from "../../../platform/offline/outbox.js";
import { offlineStore } from "../../../platform/offline/store.js";
import { myObservations } from "../api.js";
import { setSyncOn, syncChoices, syncOn } from "../sync-settings.js";

const stateLabels = { pending: "Pending", sending: "Uploading", failed: "Failed", synced: "Synced" };
const verdicts = { unverified: "waiting for a researcher", verified: "verified by a researcher", rejected: "rejected" };

export async function render(container) {
  if (!(await loadAccount())) {
    container.append(accountNeededPanel("record observations"));
    return;
  }
  const store = offlineStore("flora");
  const state = { device: [], server: [], serverNote: "", left: false };
  const status = h("p", { class: "muted small", role: "status" });
  const list = h("ul", { class: "list flora-sync", "aria-label": "My observations" });
  const setting = h("fieldset", { class: "flora-filters__group" },
    h("legend", {}, "Upload observations on"),
    syncChoices.map((choice) => h("div", { class: "choice" },
      h("input", {
        type: "radio", name: "flora-sync-on", id: `flora-sync-${choice.value}`, checked: syncOn() === choice.value,
        onchange: () => { setSyncOn(choice.value); outbox.flush({ force: true }); },
      }),
      h("label", { for: `flora-sync-${choice.value}` }, choice.label))),
    h("p", { class: "muted small" }, "Wi-Fi only holds uploads back while the phone says it is on a mobile network."));
  container.append(
    h("h2", {}, "Sync status"),
    h("div", { class: "button-row" },
      h("button", { class: "button", type: "button", onclick: () => outbox.flush({ force: true }).then(refresh) }, "Upload now"),
      h("a", { class: "button button--secondary", href: "#/flora/record" }, "Record a sighting")),
    status, list, setting);

  function draw() {
    if (state.left) return;
    const rows = [];
    const onServer = new Set(state.server.map((item) => item.id));
    for (const item of state.device) {
      const id = item.request.path.split("/").pop();
      if (item.state === "synced" && onServer.has(id)) continue;
      rows.push(h("li", { class: "flora-sync__item", dataset: { state: item.state } },
        h("p", {}, h("strong", {}, item.label), ` · ${new Date(item.request.body.observed_at).toLocaleString()}`),
        h("p", { class: `flora-sync__state flora-sync__state--${item.state}` },
          stateLabels[item.state] ?? item.state,
          item.state === "failed" && item.error ? `: ${item.error}` : "",
          item.state === "pending" && item.error ? ` (last try: ${item.error})` : ""),
        item.state === "failed" ? h("div", { class: "button-row" },
          h("button", { class: "button button--small", type: "button", onclick: () => outbox.retry(item.id) }, "Retry"),
          h("button", { class: "button button--secondary button--small", type: "button", onclick: () => outbox.discard(item.id) }, "Discard"))
          : null));
    }
    for (const observation of state.server) {
      rows.push(h("li", { class: "flora-sync__item", dataset: { state: "synced" } },
        h("p", {}, h("strong", {}, observation.species_common_name), ` · ${new Date(observation.observed_at).toLocaleString()}`),
        h("p", { class: "flora-sync__state flora-sync__state--synced" },
          `Synced, ${verdicts[observation.status] ?? observation.status}`,
          observation.rejection_reason ? `: ${observation.rejection_reason}` : "")));
    }
    list.replaceChildren(...rows);
    const waiting = state.device.filter((item) => item.state === "pending" || item.state === "sending").length;
    status.textContent = [
      rows.length ? "" : "No observations yet.",
      waiting ? `${waiting} waiting to upload.` : "",
      state.serverNote,
    ].filter(Boolean).join(" ");
  }

  async function refresh() {
    state.device = await outbox.items({ app: "flora", kind: "observation" });
    draw();
    try {
      const { value, offline, savedAt } = await store.load("mine", myObservations);
      state.server = value.observations;
      state.serverNote = offline ? `Uploaded observations as of ${new Date(savedAt).toLocaleString()} (no connection).` : "";
    } catch (error) {
      state.serverNote = error.status === 0 ? "Uploaded observations will show when there is a connection." : error.message;
    }
    if (state.left) return;
    state.device = await outbox.items({ app: "flora", kind: "observation" });
    draw();
  }

  const unsubscribe = outbox.subscribe((item) => {
    if (item.app !== "flora") return;
    if (item.state === "synced") refresh();
    else outbox.items({ app: "flora", kind: "observation" }).then((items) => { state.device = items; draw(); });
  });
  await refresh();
  return () => {
    state.left = true;
    unsubscribe?.();
  };
}
