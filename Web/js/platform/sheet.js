// Sheets: the one way Cairn shows a modal dialog. A native <dialog> opened with showModal(), so focus stays
// inside it, Escape closes it and the page behind is inert; focus goes back where it was when it closes.
// Every open sheet closes when the person navigates to another screen (the router calls closeSheets()).
import { h } from "./dom.js";

const openSheets = new Set();
let counter = 0;

/**
 * Opens a sheet headed `title` holding `content` (nodes or text). `onClose(result)` runs once when it closes,
 * with the value passed to `close(result)`, or "dismissed" after Escape, a tap outside it, or navigation.
 * Returns { element, close(result) }.
 */
export function openSheet({ title, content = [], onClose = () => {} }) {
  const titleId = `sheet-title-${++counter}`;
  const element = h("dialog", { class: "sheet", "aria-labelledby": titleId },
    h("h2", { id: titleId }, title),
    ...content,
  );
  const previousFocus = document.activeElement;
  let result = "dismissed";
  let finished = false;

  const close = (value = "dismissed") => {
    if (finished) return;
    result = value;
    element.close();
  };
  const sheet = { element, close };

  element.addEventListener("close", () => {
    if (finished) return;
    finished = true;
    openSheets.delete(sheet);
    element.remove();
    if (previousFocus?.isConnected && !document.querySelector("dialog[open]")) previousFocus.focus?.();
    onClose(result);
  });
  // A tap on the backdrop (outside the sheet's box) dismisses it, like Escape.
  element.addEventListener("click", (event) => {
    if (event.target !== element) return;
    const box = element.getBoundingClientRect();
    const inside = event.clientX >= box.left && event.clientX <= box.right && event.clientY >= box.top && event.clientY <= box.bottom;
    if (!inside) close();
  });

  document.body.append(element);
  openSheets.add(sheet);
  element.showModal();
  return sheet;
}

/** Asks a yes/no question in a sheet; resolves true only when the person confirms. */
export function confirmSheet({ title, text, confirmLabel, cancelLabel = "Cancel", danger = false }) {
  return new Promise((resolve) => {
    const sheet = openSheet({
      title,
      content: [
        h("p", {}, text),
        h("div", { class: "button-row" },
          h("button", { class: `button${danger ? " button--danger" : ""}`, type: "button", onclick: () => sheet.close("confirmed") }, confirmLabel),
          h("button", { class: "button button--secondary", type: "button", onclick: () => sheet.close() }, cancelLabel),
        ),
      ],
      onClose: (result) => resolve(result === "confirmed"),
    });
  });
}

/** Closes every open sheet (on navigation). */
export function closeSheets() {
  for (const sheet of [...openSheets]) sheet.close();
}
