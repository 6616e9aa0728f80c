// Cairn's service worker: keeps the app shell so Cairn opens without a network.
// Same-origin files are fetched from the network first (so updates show at once on a LAN) and fall back
// to the cache; the API is never cached here. Navigations fall back to the cached shell.
const cacheName = "cairn-shell-v3";
const shell = [
  "/",
  "/index.html",
  "/manifest.webmanifest",
  "/css/app.css",
  "/icons/icon.svg",
  "/icons/icon-192.png",
  "/js/main.js",
  "/js/dom.js",
  "/js/api.js",
  "/js/apps.js",
  "/js/routes.js",
  "/js/settings.js",
  "/js/units.js",
  "/js/location.js",
  "/js/map/base-map.js",
  "/js/map/location-layer.js",
  "/js/map/street-layer.js",
  "/js/views/home.js",
  "/js/views/browse.js",
  "/js/views/chat.js",
  "/js/views/map.js",
  "/js/views/settings.js",
  "/js/weather/weather-api.js",
  "/js/weather/weather-icons.js",
  "/js/weather/weather-card.js",
  "/js/weather/rain-banner.js",
  "/js/account.js",
  "/js/guest.js",
  "/js/forms.js",
  "/js/onboarding.js",
  "/js/views/login.js",
  "/js/views/register.js",
  "/js/views/account-created.js",
  "/js/views/forgot-password.js",
  "/js/views/verify-email.js",
  "/js/views/profile.js",
  "/js/views/edit-profile.js",
  "/js/views/settings-account.js",
  "/js/views/change-password.js",
  "/js/views/change-username.js",
  "/js/views/runs.js",
  "/js/views/planned-runs.js",
  "/js/runs/address-field.js",
  "/js/runs/route-layers.js",
  "/js/runs/runs-api.js",
  "/icons/avatar-default.svg",
  "/vendor/leaflet/leaflet.js",
  "/vendor/leaflet/leaflet.css",
  "/vendor/leaflet/images/layers.png",
  "/vendor/leaflet/images/marker-icon.png",
];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(cacheName).then((cache) => cache.addAll(shell)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((name) => name.startsWith("cairn-shell-") && name !== cacheName).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin || url.pathname.startsWith("/api/")) return;
  event.respondWith(
    fetch(request)
      .then((response) => {
        if (response.ok && shell.includes(url.pathname)) {
          const copy = response.clone();
          caches.open(cacheName).then((cache) => cache.put(request, copy));
        }
        return response;
      })
      .catch(async () => {
        const cached = await caches.match(request, { ignoreSearch: true });
        if (cached) return cached;
        if (request.mode === "navigate") return caches.match("/index.html");
        return Response.error();
      }),
  );
});
