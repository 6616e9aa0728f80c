// Weather icons as inline SVG, each labelled with the condition it shows (trailz 3.2.4.14: sunny, partly
// cloudy, rainy, snowy, windy — plus cloudy, thunder and fog).
import { icon } from "../dom.js";

const cloud = "M7 15h10a4 4 0 0 0 .5-7.97A6 6 0 0 0 6.1 8 3.5 3.5 0 0 0 7 15z";

const paths = {
  sunny: "M12 7a5 5 0 1 0 .01 0 M12 1v2 M12 21v2 M4.2 4.2l1.4 1.4 M18.4 18.4l1.4 1.4 M1 12h2 M21 12h2 M4.2 19.8l1.4-1.4 M18.4 5.6l1.4-1.4",
  partly_cloudy: "M8 2v1.5 M2 8h1.5 M3.8 3.8l1 1 M12.2 3.8l-1 1 M5 10.7a3.2 3.2 0 1 1 5.9-2.5 M9 21h8a3.5 3.5 0 0 0 .4-6.97A5 5 0 0 0 8.1 15 3 3 0 0 0 9 21z",
  cloudy: "M7 19h10a4 4 0 0 0 .5-7.97A6 6 0 0 0 6.1 12 3.5 3.5 0 0 0 7 19z",
  rainy: `${cloud} M8 18l-1 3 M12 18l-1 3 M16 18l-1 3`,
  snowy: `${cloud} M8 18.5v.01 M12 18.5v.01 M16 18.5v.01 M10 21.5v.01 M14 21.5v.01`,
  windy: "M3 8h10a3 3 0 1 0-3-3 M3 12h15a3 3 0 1 1-3 3 M3 16h8",
  thunder: `${cloud} M13 15l-3 4h4l-2 4`,
  fog: "M4 7h16 M3 11h18 M5 15h14 M7 19h10",
};

export const umbrellaPath = "M12 3a9 9 0 0 1 9 9H3a9 9 0 0 1 9-9z M12 12v7a2 2 0 0 1-4 0";

/** The icon for a condition ("partly_cloudy"…), labelled `label` for assistive technology. */
export function weatherIcon(condition, label) {
  const svg = icon(paths[condition] ?? paths.cloudy);
  svg.removeAttribute("aria-hidden");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  svg.classList.add("weather-icon", `weather-icon--${condition}`);
  return svg;
}
