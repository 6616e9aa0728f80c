// Where a tapped notification leads (issue 20): the service worker (sw.js) asks an open app window to go to the
// notification's url by message, and the window follows it when it is a screen of this app.

/** The app's hash route ("#/trails?show=suggested") for a notification's url on `origin`; null for a url
 * elsewhere (another origin, or another page than the app shell). */
export function appHash(url, origin) {
  let parsed;
  try {
    parsed = new URL(url, origin);
  } catch {
    return null;
  }
  if (parsed.origin !== origin || parsed.pathname !== "/") return null;
  return parsed.hash.startsWith("#/") ? parsed.hash : "#/";
}

/** Whether a message from the service worker asks the window to open a notification's url. */
export function isNavigateMessage(data) {
  return data?.type === "cairn:navigate" && typeof data.url === "string";
}
