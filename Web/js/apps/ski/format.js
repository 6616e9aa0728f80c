// Pure formatting for the ski app (unit-tested in Tests/WebTests/ski-format.test.js): piste difficulty in the
// North American or European convention, ticket prices, the convention setting's default from the locale.

/** Regions whose skiers read North America's green circle / blue square / black diamond. */
const northAmericanRegions = new Set(["US", "CA", "AU", "NZ"]);

export const conventionNames = { north_america: "North America", europe: "Europe" };

/** The convention a newcomer from `region` (ISO 3166 code) expects. */
export function defaultConvention(region) {
  return northAmericanRegions.has(String(region || "").toUpperCase()) ? "north_america" : "europe";
}

/**
 * How a piste of OpenStreetMap `piste:difficulty` is marked in `convention`: { label, shape, colour }. North
 * America: green circle (novice, easy), blue square, black diamond, double black diamond (expert, extreme); Europe:
 * green (novice), blue, red, black. Freeride (off-piste routes) and a difficulty the map does not give have
 * their own marks in both.
 */
export function difficultyMark(difficulty, convention) {
  if (difficulty === "freeride") return { label: "Freeride (off-piste)", shape: "freeride", colour: "orange" };
  if (difficulty === "unknown") return { label: "Difficulty not known", shape: "unknown", colour: "grey" };
  if (convention === "north_america") {
    switch (difficulty) {
      case "novice":
      case "easy": return { label: "Green circle", shape: "circle", colour: "green" };
      case "intermediate": return { label: "Blue square", shape: "square", colour: "blue" };
      case "advanced": return { label: "Black diamond", shape: "diamond", colour: "black" };
      default: return { label: "Double black diamond", shape: "double-diamond", colour: "black" };
    }
  }
  switch (difficulty) {
    case "novice": return { label: "Green", shape: "dot", colour: "green" };
    case "easy": return { label: "Blue", shape: "dot", colour: "blue" };
    case "intermediate": return { label: "Red", shape: "dot", colour: "red" };
    default: return { label: "Black", shape: "dot", colour: "black" };
  }
}

/** The API's ticket kinds (`SkiTicketKind`), in the order a price list shows them. */
export const ticketKinds = {
  adult_day: "Adult day ticket",
  youth_day: "Youth day ticket",
  child_day: "Child day ticket",
  senior_day: "Senior day ticket",
  student_day: "Student day ticket",
  half_day: "Half-day ticket",
  night: "Night ticket",
  multi_day: "Multi-day ticket",
  season: "Season pass",
};

/** "$52.00", "CHF 92.00", "¥9,500" in `locale`. */
export function formatPrice(price, locale = undefined) {
  try {
    return new Intl.NumberFormat(locale, { style: "currency", currency: price.currency }).format(price.amount);
  } catch {
    return `${price.amount} ${price.currency}`;
  }
}

/** The vertical drop in metres; null when either altitude is not known. */
export function verticalDrop(mountain) {
  const { base_altitude_m: base, summit_altitude_m: summit } = mountain;
  if (!Number.isFinite(base) || !Number.isFinite(summit)) return null;
  return Math.max(0, summit - base);
}

/** "1,200 persons/hour" — a lift's capacity; "" when not known. */
export function formatCapacity(perHour, locale = undefined) {
  if (!Number.isFinite(perHour)) return "";
  return `${new Intl.NumberFormat(locale).format(perHour)} persons/hour`;
}

/** Directions hand-off: a `geo:` URI (Android opens the maps app) and a web fallback. */
export function directionLinks(mountain) {
  const { lat, lon, name } = mountain;
  return {
    geo: `geo:${lat},${lon}?q=${lat},${lon}(${encodeURIComponent(name)})`,
    apple: `https://maps.apple.com/?daddr=${lat},${lon}&q=${encodeURIComponent(name)}`,
    web: `https://www.openstreetmap.org/directions?to=${lat}%2C${lon}`,
  };
}

export const conditionNames = { groomed: "Groomed", powder: "Powder", icy: "Icy", moguls: "Moguls", closed: "Closed" };

/** "Powder (2 reports) · Icy (1 report)" — today's reports, most reported first; "" without any. */
export function todayText(today) {
  if (!today?.reports) return "";
  return today.conditions.map(({ condition, count }) => `${conditionNames[condition] ?? condition} (${count} ${count === 1 ? "report" : "reports"})`).join(" · ");
}
