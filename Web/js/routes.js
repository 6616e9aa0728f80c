// Every screen of the web app: its hash path, title, bottom-navigation tab and view module.
// Paths may hold parameters (":id"). A view module exports `render(container, params)`, which may return
// a cleanup function called when the user leaves the screen.

export const routes = [
  { path: "home", title: "Home", tab: "home", view: () => import("./views/home.js") },
  { path: "browse", title: "Browse", tab: "browse", view: () => import("./views/browse.js") },
  { path: "chat", title: "Chat", tab: "chat", view: () => import("./views/chat.js") },
  { path: "map", title: "Map", tab: "map", fullBleed: true, view: () => import("./views/map.js") },
  { path: "runs", title: "Run Planner", tab: "home", view: () => import("./views/runs.js") },
  { path: "runs/planned", title: "Planned Routes", tab: "home", view: () => import("./views/planned-runs.js") },
  { path: "settings", title: "Settings", view: () => import("./views/settings.js") },
  { path: "login", title: "Log in", view: () => import("./views/login.js") },
  { path: "register", title: "Register", view: () => import("./views/register.js") },
  { path: "account-created", title: "Account Created", view: () => import("./views/account-created.js") },
  { path: "forgot-password", title: "Forgot my Password", view: () => import("./views/forgot-password.js") },
  { path: "verify-email/:token", title: "Confirm Email", view: () => import("./views/verify-email.js") },
  { path: "profile", title: "Profile", view: () => import("./views/profile.js") },
  { path: "profile/edit", title: "Edit Profile", view: () => import("./views/edit-profile.js") },
  { path: "settings/account", title: "Account", view: () => import("./views/settings-account.js") },
  { path: "settings/password", title: "Change Password", view: () => import("./views/change-password.js") },
  { path: "settings/username", title: "Change Username", view: () => import("./views/change-username.js") },
];

export const fallbackPath = "home";

/** The route matching a hash such as "#/runs/42", with its parameters; null when none matches. */
export function match(hash) {
  const parts = hash.replace(/^#\/?/, "").split("?")[0].split("/").filter(Boolean);
  for (const route of routes) {
    const pattern = route.path.split("/");
    if (pattern.length !== parts.length) continue;
    const params = {};
    const matches = pattern.every((segment, i) => {
      if (segment.startsWith(":")) {
        params[segment.slice(1)] = decodeURIComponent(parts[i]);
        return true;
      }
      return segment === parts[i];
    });
    if (matches) return { route, params };
  }
  return null;
}
