// The Current Hike card (Trailz 3.2.3.2–3.2.3.5): Start; while hiking the stopwatch, steps, speed, the path
// and calories (when the profile allows) with Stop; once stopped the summary (time, average speed, total
// steps, calories, the rating) with Save, and what happened to the save.
import { h } from "../../../platform/dom.js";

/**
 * `mapElement` is the hike's map (the path); `on…` run on the person's taps. The card is built once per
 * shape (phase, calories shown, rating, save state, error); the figures that change every second (stopwatch,
 * steps, speed, distance, calories) are text nodes updated in place, so the map, the buttons and focus stay.
 */
export function createHikeCard({ mapElement, onStart, onStop, onSave, onRetry }) {
  const element = h("article", { class: "hike-card", "aria-labelledby": "hike-card-title" });
  let shape = "";
  let texts = new Map();

  return {
    element,
    update(view) {
      const next = JSON.stringify({
        phase: view.phase, calories: view.kcal !== null, rating: view.rating, error: view.error,
        save: view.save && { state: view.save.state, error: Boolean(view.save.error), message: view.save.state === "failed" ? view.save.error : null },
      });
      if (next !== shape) {
        shape = next;
        texts = new Map();
        element.replaceChildren(...parts(view).filter(Boolean));
        return;
      }
      for (const [name, value] of Object.entries(changing(view))) {
        for (const node of texts.get(name) ?? []) if (node.data !== value) node.data = value;
      }
    },
    destroy() {},
  };

  /** The figures that change while hiking, as shown. */
  function changing({ stopwatch, steps, speed, kcal, distance }) {
    return { stopwatch, steps: String(steps), speed, distance, kcal: kcal !== null ? `${Math.round(kcal)} kcal` : "" };
  }

  /** A text node for the figure `name`, updated in place until the card's shape changes. */
  function text(name, value) {
    const node = document.createTextNode(value);
    texts.set(name, [...(texts.get(name) ?? []), node]);
    return node;
  }

  function parts({ phase, stopwatch, steps, speed, kcal, distance, rating, save, error }) {
    const title = h("h2", { id: "hike-card-title" }, phase === "stopped" ? "Hike summary" : "Current Hike");
    const errorLine = error ? h("p", { class: "notice notice--error", role: "alert" }, error) : null;
    const shown = changing({ stopwatch, steps, speed, kcal, distance });
    if (phase === "idle") {
      return [title, h("p", { class: "hike-stopwatch", "aria-label": "Stopwatch" }, text("stopwatch", shown.stopwatch)), errorLine,
        h("p", { class: "muted" }, "Start when you set off: Cairn records your path, time, steps and speed."),
        h("button", { class: "button button--large", type: "button", onclick: onStart }, "Start hike")];
    }
    const figures = [
      ["Time", "stopwatch"], [phase === "stopped" ? "Average speed" : "Speed", "speed"],
      [phase === "stopped" ? "Total steps" : "Steps", "steps"], ["Distance", "distance"],
      ...(kcal !== null ? [["Calories", "kcal"]] : []),
    ];
    const list = h("dl", { class: "run-figures hike-figures", "aria-label": phase === "stopped" ? "Hike summary figures" : "Hike figures" },
      figures.flatMap(([term, name]) => [h("dt", {}, term), h("dd", {}, text(name, shown[name]))]));
    const result = [title, phase === "hiking" ? h("p", { class: "hike-stopwatch", "aria-label": "Stopwatch" }, text("stopwatch", shown.stopwatch)) : null, list, mapElement, errorLine];
    if (phase === "hiking") {
      result.push(h("button", { class: "button button--danger button--large", type: "button", onclick: onStop }, "Stop"));
      return result.filter(Boolean);
    }
    result.push(h("p", {}, rating ? `You rated this hike ${rating} of 5 stars.` : "Not rated."));
    if (!save) result.push(h("button", { class: "button button--large", type: "button", onclick: onSave }, "Save"));
    else if (save.state === "guest") result.push(h("p", { role: "status" }, "Kept on this device: log in or create an account and this hike joins your history."));
    else if (save.state === "failed") {
      result.push(h("p", { class: "notice notice--error", role: "alert" }, `Your hike was not saved: ${save.error}`),
        h("button", { class: "button", type: "button", onclick: onRetry }, "Try again"));
    } else if (save.state !== "synced") {
      result.push(h("p", { role: "status" }, save.error ? "Kept on this device: your hike is sent as soon as the server can be reached." : "Saving your hike…"));
    }
    return result.filter(Boolean);
  }
}
