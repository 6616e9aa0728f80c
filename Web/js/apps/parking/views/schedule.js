// The weekly parking schedule (SpotMe 6): Sunday–Saturday × 48 half hours. Press on an empty cell and drag to
// make a block (the selection stops at taken cells); tap a block to choose its lot, resize it or delete it.
// Blocks are green when their lot is typically under 85 % full at the block's start, yellow when fuller, red
// when the lot needs a permit the driver has not listed then — recoloured from fresh typical data each time
// the screen opens. Saved to the server after every change; the calendar feed shows it in a phone's calendar.
import { accountNeededPanel, loadAccount } from "../../../platform/account.js";
import { h } from "../../../platform/dom.js";
import { offlineStore } from "../../../platform/offline/store.js";
import { confirmSheet, openSheet } from "../../../platform/sheet.js";
import { getFeed, getLots, getPermits, getSchedule, getTypical, makeFeed, putSchedule, revokeFeed } from "../api.js";
import { blockColour, clockText, dragRange, permitNames } from "../congestion.js";

/** Columns Sunday … Saturday, as ISO weekdays. */
const columns = [7, 1, 2, 3, 4, 5, 6];
const columnNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const longNames = { 1: "Monday", 2: "Tuesday", 3: "Wednesday", 4: "Thursday", 5: "Friday", 6: "Saturday", 7: "Sunday" };

export async function render(container) {
  const account = await loadAccount().catch(() => null);
  if (!account) {
    container.append(accountNeededPanel("keep a weekly schedule"));
    return;
  }
  const state = { blocks: [], lots: new Map(), permits: [], typical: new Map(), drag: null };
  const status = h("p", { class: "muted small", role: "status" });
  const grid = h("div", { class: "schedule-grid", role: "grid", "aria-label": "Weekly parking schedule" });
  const feedArea = h("div", { class: "schedule-feed" });
  container.append(
    h("p", { class: "small" }, "Press an empty half hour and drag to make a block; tap a block to choose its lot, resize or delete it."),
    h("ul", { class: "map-legend schedule-legend" },
      h("li", {}, h("span", { class: "schedule-key schedule-key--green" }), "Usually room"),
      h("li", {}, h("span", { class: "schedule-key schedule-key--yellow" }), "Usually 85 % full or more"),
      h("li", {}, h("span", { class: "schedule-key schedule-key--red" }), "Needs a permit you have not listed")),
    status, grid, feedArea);

  try {
    const [schedule, lots, permits] = await Promise.all([
      getSchedule(), offlineStore("parking").load("lots", getLots), getPermits()]);
    state.blocks = schedule.blocks;
    for (const lot of lots.value.lots) state.lots.set(lot.id, lot);
    state.permits = permits.permits;
  } catch (error) {
    status.textContent = error.message;
    return;
  }
  await refreshTypical();
  draw();
  drawFeed();

  async function refreshTypical() {
    const wanted = new Set(state.blocks.filter((b) => b.lot_id).map((b) => `${b.lot_id}/${b.weekday}`));
    await Promise.all([...wanted].map(async (key) => {
      const [lot, weekday] = key.split("/");
      try {
        const { value } = await offlineStore("parking").load(`typical/${lot}/${weekday}`, () => getTypical(lot, Number(weekday)));
        state.typical.set(key, value.blocks);
      } catch { /* no colour data: green */ }
    }));
  }

  function typicalAt(block) {
    const blocks = state.typical.get(`${block.lot_id}/${block.weekday}`);
    return blocks?.find((b) => b.start_minute === block.start_minute)?.occupancy ?? null;
  }

  function blockAt(weekday, row) {
    const minute = row * 30;
    return state.blocks.find((b) => b.weekday === weekday && b.start_minute <= minute && minute < b.end_minute);
  }

  function draw() {
    const header = h("div", { class: "schedule-row schedule-row--head", role: "row" },
      h("span", { class: "schedule-time", role: "columnheader" }, ""),
      ...columnNames.map((name) => h("span", { role: "columnheader", class: "schedule-day" }, name)));
    const rows = [];
    for (let row = 0; row < 48; row += 1) {
      const cells = columns.map((weekday) => {
        const block = blockAt(weekday, row);
        const selected = state.drag && state.drag.weekday === weekday && row >= state.drag.from && row <= state.drag.to;
        if (block) {
          const lot = block.lot_id ? state.lots.get(block.lot_id) : null;
          const colour = blockColour(block, lot, state.permits, typicalAt(block));
          const first = block.start_minute === row * 30;
          const label = `${longNames[weekday]} ${clockText(block.start_minute)}–${clockText(block.end_minute)}${lot ? `, ${lot.name}` : ", no lot chosen"}`;
          return h("button", {
            class: `schedule-cell schedule-cell--block schedule-cell--${colour}${first ? " schedule-cell--first" : ""}`,
            type: "button", role: "gridcell", "aria-label": label, "data-block": block.id,
            onclick: () => blockSheet(block),
          }, first ? (lot ? lot.code : "?") : "");
        }
        return h("button", {
          class: `schedule-cell${selected ? " schedule-cell--selected" : ""}`, type: "button", role: "gridcell",
          "aria-label": `${longNames[weekday]} ${clockText(row * 30)}, empty`, "data-weekday": weekday, "data-row": row,
          onpointerdown: (event) => startDrag(event, weekday, row),
          onkeydown: (event) => { if (event.key === "Enter" || event.key === " ") { event.preventDefault(); create(weekday, row, row); } },
        });
      });
      rows.push(h("div", { class: "schedule-row", role: "row" },
        h("span", { class: "schedule-time", role: "rowheader" }, row % 2 === 0 ? clockText(row * 30) : ""), ...cells));
    }
    grid.replaceChildren(header, ...rows);
  }

  function startDrag(event, weekday, row) {
    event.preventDefault();
    state.drag = { weekday, start: row, from: row, to: row };
    draw();
    const move = (e) => {
      const target = document.elementFromPoint(e.clientX, e.clientY)?.closest?.(".schedule-cell");
      const over = target?.dataset.row !== undefined ? Number(target.dataset.row) : target?.dataset.block ? null : undefined;
      if (over === undefined || over === null || Number(target.dataset.weekday) !== weekday) return;
      const [from, to] = dragRange(state.drag.start, over, (r) => Boolean(blockAt(weekday, r)));
      if (from !== state.drag.from || to !== state.drag.to) {
        state.drag.from = from;
        state.drag.to = to;
        draw();
      }
    };
    const up = () => {
      document.removeEventListener("pointermove", move);
      document.removeEventListener("pointerup", up);
      const { from, to } = state.drag;
      state.drag = null;
      create(weekday, from, to);
    };
    document.addEventListener("pointermove", move);
    document.addEventListener("pointerup", up);
  }

  async function create(weekday, from, to) {
    const block = { id: crypto.randomUUID(), weekday, start_minute: from * 30, end_minute: (to + 1) * 30, lot_id: null };
    state.blocks.push(block);
    draw();
    await save();
    blockSheet(block);
  }

  async function save() {
    status.textContent = "Saving…";
    try {
      const saved = await putSchedule(state.blocks);
      state.blocks = saved.blocks;
      await refreshTypical();
      status.textContent = "Saved.";
    } catch (error) {
      status.textContent = `Not saved: ${error.message}`;
    }
    draw();
  }

  function blockSheet(block) {
    const when = `${longNames[block.weekday]} ${clockText(block.start_minute)}–${clockText(block.end_minute)}`;
    const lotButtons = [...state.lots.values()].map((lot) => {
      const colour = blockColour({ ...block, lot_id: lot.id }, lot, state.permits, null);
      const mark = colour === "red" ? ` ⚠ needs ${permitNames[lot.permit]}` : "";
      return h("button", {
        class: `button button--secondary schedule-lot${block.lot_id === lot.id ? " is-current" : ""}${colour === "red" ? " schedule-lot--red" : ""}`,
        type: "button", onclick: () => sheet.close(`lot:${lot.id}`),
      }, `${lot.name}${mark}`);
    });
    const times = (from, to) => Array.from({ length: to - from + 1 }, (_, i) => (from + i) * 30);
    const startSelect = h("select", { id: "block-start" }, ...times(0, 47).map((m) => h("option", { value: m }, clockText(m))));
    const endSelect = h("select", { id: "block-end" }, ...times(1, 48).map((m) => h("option", { value: m }, m === 1440 ? "24:00" : clockText(m))));
    startSelect.value = String(block.start_minute);
    endSelect.value = String(block.end_minute);
    const sheet = openSheet({
      title: when,
      content: [
        h("p", {}, "Where do you want to park?"),
        h("div", { class: "schedule-lots" }, ...lotButtons),
        h("h3", {}, "Resize"),
        h("div", { class: "schedule-resize" },
          h("label", { for: "block-start" }, "Starts"), startSelect,
          h("label", { for: "block-end" }, "Ends"), endSelect,
          h("button", { class: "button", type: "button", onclick: () => sheet.close("resize") }, "Apply")),
        h("button", { class: "button button--danger", type: "button", onclick: () => sheet.close("delete") }, "Delete block"),
      ],
      onClose: async (result) => {
        // The saved schedule is made of new objects: act on this block as it is now.
        const id = block.id.toLowerCase();
        block = state.blocks.find((b) => b.id.toLowerCase() === id);
        if (!block) return;
        if (result.startsWith("lot:")) {
          block.lot_id = result.slice(4);
          await save();
        } else if (result === "resize") {
          const start = Number(startSelect.value);
          const end = Number(endSelect.value);
          const clash = state.blocks.some((b) => b !== block && b.weekday === block.weekday && b.start_minute < end && start < b.end_minute);
          if (end <= start || clash) {
            status.textContent = end <= start ? "A block ends after it starts." : "Blocks may not overlap.";
            return;
          }
          block.start_minute = start;
          block.end_minute = end;
          await save();
        } else if (result === "delete") {
          if (await confirmSheet({ title: "Delete this block?", text: `${when} is freed.`, confirmLabel: "Delete", danger: true })) {
            state.blocks = state.blocks.filter((b) => b !== block);
            await save();
          }
        }
      },
    });
  }

  async function drawFeed() {
    const feed = await getFeed().catch(() => ({ active: false }));
    const make = h("button", { class: "button button--secondary", type: "button", onclick: async () => {
      const made = await makeFeed();
      feedArea.replaceChildren(
        h("p", {}, "Subscribe to this address in your phone's calendar (it works until you revoke it):"),
        h("input", { class: "schedule-feed-url", readonly: true, value: made.url, "aria-label": "Calendar address" }),
        revoke);
    } }, feed.active ? "Make a new calendar address" : "Add to my calendar");
    const revoke = h("button", { class: "button button--secondary", type: "button", onclick: async () => {
      await revokeFeed();
      drawFeed();
    } }, "Revoke the calendar address");
    feedArea.replaceChildren(
      h("h3", {}, "In your calendar"),
      h("p", { class: "small muted" }, feed.active ? "Your schedule has a calendar address; a new one replaces it." : "Show this schedule in your phone's calendar."),
      ...[make, feed.active ? revoke : null].filter(Boolean));
  }
}
