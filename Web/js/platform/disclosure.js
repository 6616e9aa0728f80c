// A disclosure: a button that shows and hides a panel of links (the profile menu, a card's options). Not an
// ARIA menu: the panel holds ordinary links and buttons reached with Tab. Escape or a tap elsewhere closes
// it; Escape gives focus back to the button.

/** Wires `button` to show and hide `panel`. Returns { element: panel, update({ open }), destroy() }. */
export function createDisclosure({ button, panel }) {
  if (!panel.id) throw new Error("A disclosure's panel needs an id for aria-controls.");
  button.setAttribute("aria-controls", panel.id);

  const update = ({ open }) => {
    panel.hidden = !open;
    button.setAttribute("aria-expanded", String(open));
  };
  const onButton = (event) => {
    event.stopPropagation();
    update({ open: panel.hidden });
  };
  const onDocumentClick = (event) => {
    if (!panel.hidden && !panel.contains(event.target) && event.target !== button) update({ open: false });
  };
  const onKey = (event) => {
    if (event.key !== "Escape" || panel.hidden) return;
    update({ open: false });
    button.focus();
  };
  // A link or button inside the panel has done its job once chosen.
  const onPanelClick = (event) => {
    if (event.target.closest("a, button")) update({ open: false });
  };

  button.addEventListener("click", onButton);
  panel.addEventListener("click", onPanelClick);
  document.addEventListener("click", onDocumentClick);
  document.addEventListener("keydown", onKey);
  update({ open: false });

  return {
    element: panel,
    update,
    destroy() {
      button.removeEventListener("click", onButton);
      panel.removeEventListener("click", onPanelClick);
      document.removeEventListener("click", onDocumentClick);
      document.removeEventListener("keydown", onKey);
    },
  };
}
