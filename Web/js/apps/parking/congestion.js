// Pure rules of the parking screens (unit tests: Tests/WebTests/parking.test.mjs).

export const levelColours = { green: "#15803d", yellow: "#ca8a04", red: "#b91c1c", unknown: "#6b7280" };
export const levelNames = { green: "light", yellow: "busy", red: "nearly full", unknown: "no data" };
export const spotColours = { free: "#16a34a", held: "#eab308", occupied: "#dc2626", unknown: "#9ca3af", closed: "#9ca3af" };
export const permitNames = { green: "Green", yellow: "Yellow", black: "Black", handicap: "Handicap" };
export const permitOrder = ["green", "yellow", "black", "handicap"];

/** What colour a spot shows at `now` (ms): held (yellow) only while the hold lasts. */
export function spotState(spot, now = Date.now()) {
  if (spot.status === "free" && spot.held_until && Date.parse(spot.held_until) > now) return "held";
  return spot.status;
}

/** "120 of 150 taken" with the unknown ones said apart. */
export function occupancyText(occupancy) {
  const parts = [`${occupancy.taken} of ${occupancy.total} taken`];
  if (occupancy.unknown) parts.push(`${occupancy.unknown} without data`);
  return parts.join(", ");
}

/** The 48 half-hour blocks folded into 24 hourly means (null where no data). */
export function hourly(blocks) {
  const hours = [];
  for (let hour = 0; hour < 24; hour += 1) {
    const values = blocks.filter((b) => Math.floor(b.start_minute / 60) === hour && b.occupancy !== null && b.occupancy !== undefined)
      .map((b) => b.occupancy);
    hours.push(values.length ? values.reduce((a, b) => a + b, 0) / values.length : null);
  }
  return hours;
}

/** ISO weekday (1 = Monday … 7 = Sunday) of `date` in `timeZone`. */
export function isoWeekday(date, timeZone) {
  const name = new Intl.DateTimeFormat("en-US", { weekday: "short", timeZone }).format(date);
  return ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].indexOf(name) + 1;
}

export const weekdayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

/** The next ISO weekday after `weekday` by `step` (±1), wrapping around the week. */
export function stepWeekday(weekday, step) {
  return ((weekday - 1 + step + 7) % 7) + 1;
}

/** Whether `lot` needs its permit at `minute` of ISO `weekday`. */
export function permitNeeded(lot, weekday, minute) {
  return lot.permit_windows.some((w) => w.weekdays.includes(weekday) && minute >= toMinute(w.start) && minute < toMinute(w.end));
}

function toMinute(text) {
  const [h, m] = text.split(":").map(Number);
  return h * 60 + m;
}

/**
 * A schedule block's colour (seed 6.4): red when its lot needs a permit the driver lacks at the block's start,
 * yellow when the lot is typically ≥ 85 % full then, green otherwise; `none` without a lot.
 */
export function blockColour(block, lot, permits, typical) {
  if (!lot) return "none";
  if (permitNeeded(lot, block.weekday, block.start_minute) && !permits.includes(lot.permit)) return "red";
  if (typical !== null && typical !== undefined && typical >= 0.85) return "yellow";
  return "green";
}

/** "7:30" for 450. */
export function clockText(minute) {
  return `${Math.floor(minute / 60)}:${String(minute % 60).padStart(2, "0")}`;
}

/** "12 minutes ago", "just now", "3 hours ago" for the age of a snapshot. */
export function ageText(savedAt, now = Date.now()) {
  const minutes = Math.round((now - savedAt) / 60000);
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes} ${minutes === 1 ? "minute" : "minutes"} ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} ${hours === 1 ? "hour" : "hours"} ago`;
  const days = Math.round(hours / 24);
  return `${days} days ago`;
}

/** Cells of a schedule drag from `start` to `end` row (inclusive) on one day, stopping at taken cells. */
export function dragRange(startRow, endRow, taken) {
  const step = endRow >= startRow ? 1 : -1;
  let last = startRow;
  for (let row = startRow + step; step > 0 ? row <= endRow : row >= endRow; row += step) {
    if (taken(row)) break;
    last = row;
  }
  return step > 0 ? [startRow, last] : [last, startRow];
}
