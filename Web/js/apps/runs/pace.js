// The person's running pace, kept on this device for the planner's time estimates (seconds per kilometre).
import { defaultPaceSecondsPerKm } from "./route-facts.js";

const storageKey = "cairn.runs.pace";

/** The pace kept on this device, or the default (6:00 per km) when none or something unreadable is kept. */
export function loadPace() {
  const kept = Number(localStorage.getItem(storageKey));
  return Number.isFinite(kept) && kept >= 150 && kept <= 900 ? kept : defaultPaceSecondsPerKm;
}

export function savePace(secondsPerKm) {
  localStorage.setItem(storageKey, String(secondsPerKm));
}
