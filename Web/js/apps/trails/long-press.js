// Long press (Trailz §1.4: holding a finger down two or more seconds) on an element: `onLongPress` runs once the
// pointer has stayed down `ms`; lifting it, leaving, or moving more than a few pixels cancels.
export const longPressMs = 2000;

export function onLongPress(element, onLongPress, { ms = longPressMs, tolerance = 10 } = {}) {
  let timer = null;
  let start = null;
  const cancel = () => {
    clearTimeout(timer);
    timer = null;
  };
  const down = (event) => {
    if (event.button > 0) return;
    start = { x: event.clientX, y: event.clientY };
    cancel();
    timer = setTimeout(() => {
      timer = null;
      onLongPress(event);
    }, ms);
  };
  const move = (event) => {
    if (timer && start && Math.hypot(event.clientX - start.x, event.clientY - start.y) > tolerance) cancel();
  };
  element.addEventListener("pointerdown", down);
  element.addEventListener("pointermove", move);
  for (const name of ["pointerup", "pointercancel", "pointerleave"]) element.addEventListener(name, cancel);
  element.addEventListener("contextmenu", (event) => event.preventDefault());
  return cancel;
}
