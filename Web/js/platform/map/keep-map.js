// "Keep the map on this device": a sheet that fetches every tile of the covered area (tile-store.js) so the
// map draws everywhere in it with no connection, shows how far it got, and can remove what it kept.
import { h } from "../dom.js";
import { openSheet } from "../sheet.js";
import { forgetKeptMap, keepMap, keptState, maxKeptTiles } from "./tile-store.js";

const size = (bytes) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`);

/** Opens the sheet for the basemap described by `info` (its TileJSON). */
export function openKeepMapSheet(info) {
  const status = h("p", { role: "status" }, "Checking what is on this device…");
  const progress = h("progress", { max: "1", value: "0", hidden: true, "aria-label": "Map tiles saved" });
  const keep = h("button", { class: "button", type: "button", hidden: true }, "Keep the map");
  const remove = h("button", { class: "button button--secondary", type: "button", hidden: true }, "Remove the kept map");
  const actions = h("div", { class: "button-row" }, keep, remove);
  let controller = null;
  const sheet = openSheet({
    title: `Keep the map of ${info.name}`,
    content: [h("p", {}, `With the map kept on this device, every street of ${info.name} draws with no connection.`), progress, status, actions],
    onClose: () => controller?.abort(),
  });

  const show = (state) => {
    progress.hidden = true;
    if (state.total > maxKeptTiles) {
      status.textContent = `This map has ${state.total} tiles, too many to keep on a phone. The areas you look at stay on this device.`;
      keep.hidden = true;
      remove.hidden = true;
    } else if (state.kept >= state.total) {
      status.textContent = `The map of ${info.name} is kept on this device: ${state.total} tiles, ${size(state.bytes)}.`;
      keep.hidden = true;
      remove.hidden = false;
    } else {
      status.textContent = state.kept
        ? `${state.kept} of ${state.total} tiles are on this device (${size(state.bytes)}), from the areas you looked at.`
        : `The whole map is ${state.total} tiles.`;
      keep.hidden = false;
      remove.hidden = state.kept === 0;
    }
  };

  keep.addEventListener("click", async () => {
    controller = new AbortController();
    keep.disabled = true;
    progress.hidden = false;
    try {
      const state = await keepMap(info, {
        signal: controller.signal,
        onProgress: ({ done, total }) => {
          progress.max = total;
          progress.value = done;
          status.textContent = `Saving the map: ${done} of ${total} tiles…`;
        },
      });
      show(state);
    } catch (error) {
      if (error.name === "AbortError") return;
      progress.hidden = true;
      status.textContent = navigator.onLine
        ? `The map could not be saved: ${error.message}. Try again.`
        : "You are offline, so the map cannot be fetched now. The areas you looked at stay on this device.";
    } finally {
      keep.disabled = false;
    }
  });
  remove.addEventListener("click", async () => {
    await forgetKeptMap();
    show(await keptState(info));
    keep.focus();
  });

  keptState(info).then(show, () => { status.textContent = "This browser cannot keep the map on the device."; });
  return sheet;
}
