// Accounts: sign-up, login, password reset, profile, and Settings (units and the account).
export const routes = [
  { path: "settings", title: "Settings", view: () => import("./views/settings.js") },
  { path: "login", title: "Log in", view: () => import("./views/login.js") },
  { path: "register", title: "Register", view: () => import("./views/register.js") },
  { path: "account-created", title: "Account Created", view: () => import("./views/account-created.js") },
  { path: "forgot-password", title: "Forgot my Password", view: () => import("./views/forgot-password.js") },
  { path: "confirm-sign-up/:token", title: "Finish Signing Up", parent: "home", view: () => import("./views/confirm-sign-up.js") },
  { path: "verify-email/:token", title: "Confirm Email", parent: "home", view: () => import("./views/verify-email.js") },
  { path: "profile", title: "Profile", view: () => import("./views/profile.js") },
  { path: "profile/edit", title: "Edit Profile", view: () => import("./views/edit-profile.js") },
  { path: "settings/account", title: "Account", view: () => import("./views/settings-account.js") },
  { path: "settings/password", title: "Change Password", parent: "settings/account", view: () => import("./views/change-password.js") },
  { path: "settings/username", title: "Change Username", parent: "settings/account", view: () => import("./views/change-username.js") },
];
