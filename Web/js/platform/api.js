// JSON over fetch. Failures become ApiError carrying the server's problem+json document, so screens can
// show `detail` and put each field error next to its field. Whether the server answered at all goes to
// connection.js, which drives the app-wide offline indicator.
import { reportServerReached } from "./connection.js";

export class ApiError extends Error {
  constructor(status, problem) {
    super(problem?.detail || `The server answered ${status}.`);
    this.status = status;
    this.problem = problem;
  }

  /** Field name → message, from a 422 problem's `errors`. */
  get fieldErrors() {
    const result = {};
    for (const error of this.problem?.errors ?? []) result[error.field] = error.detail;
    return result;
  }
}

export async function api(path, { method = "GET", body, headers = {}, signal } = {}) {
  let response;
  try {
    response = await fetch(path, {
      method,
      signal,
      credentials: "same-origin",
      headers: {
        Accept: "application/json",
        // Marks requests as the app's own; the server refuses cookie-authenticated changes without it (CSRF).
        "X-Cairn-Request": "1",
        ...(body !== undefined && !(body instanceof Blob) ? { "Content-Type": "application/json" } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : body instanceof Blob ? body : JSON.stringify(body),
    });
  } catch (error) {
    if (error.name === "AbortError") throw error;
    reportServerReached(false);
    throw new ApiError(0, { detail: "Cannot reach the Cairn server. Check your connection and try again." });
  }
  reportServerReached(true);
  const type = response.headers.get("Content-Type") ?? "";
  // A body cut short by the caller's abort is an abort, not an empty answer.
  const unreadable = (error) => {
    if (error.name === "AbortError") throw error;
    return null;
  };
  const data = type.includes("json") ? await response.json().catch(unreadable) : null;
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

let clientConfig;
/** This installation's settings for the web app (tiles…), fetched once. */
export function getClientConfig() {
  clientConfig ??= api("/api/client-config").catch(() => ({ tile_url: "", tile_attribution: "" }));
  return clientConfig;
}
