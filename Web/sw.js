// Cairn's service worker: keeps the app shell so Cairn opens without a network.
// Same-origin files are fetched from the network first (so updates show at once on a LAN) and fall back
// to the cache; the API is never cached here (the map's tiles are kept by platform/map/tile-store.js).
// Navigations fall back to the cached shell.
const cacheName = "cairn-shell-v32";
const shell = [
  "/",
  "/index.html",
  "/manifest.webmanifest",
  "/css/app.css",
  "/icons/icon.svg",
  "/icons/icon-192.png",
  "/icons/avatar-default.svg",
  "/js/apps/accounts/routes.js",
  "/js/apps/accounts/views/account-created.js",
  "/js/apps/accounts/views/change-password.js",
  "/js/apps/accounts/views/change-username.js",
  "/js/apps/accounts/views/confirm-sign-up.js",
  "/js/apps/accounts/views/edit-profile.js",
  "/js/apps/accounts/views/forgot-password.js",
  "/js/apps/accounts/views/login.js",
  "/js/apps/accounts/views/profile.js",
  "/js/apps/accounts/views/register.js",
  "/js/apps/accounts/views/settings-account.js",
  "/js/apps/accounts/views/settings.js",
  "/js/apps/accounts/views/verify-email.js",
  "/js/apps/activities/api.js",
  "/js/apps/activities/components/activity-card.js",
  "/js/apps/activities/components/hike-card.js",
  "/js/apps/activities/components/privacy-zone.js",
  "/js/apps/activities/current.js",
  "/js/apps/activities/figures.js",
  "/js/apps/activities/navigation/follower.js",
  "/js/apps/activities/routes.js",
  "/js/apps/activities/views/activity.js",
  "/js/apps/activities/views/all-hikes.js",
  "/js/apps/activities/views/hikes.js",
  "/js/apps/activities/views/history.js",
  "/js/apps/activities/views/run.js",
  "/js/apps/community/api.js",
  "/js/apps/community/components/forum-post.js",
  "/js/apps/community/components/forum.js",
  "/js/apps/community/components/group-map.js",
  "/js/apps/community/components/people-layer.js",
  "/js/apps/community/components/post-composer.js",
  "/js/apps/community/components/reviews.js",
  "/js/apps/community/forums.js",
  "/js/apps/community/live-sharing.js",
  "/js/apps/community/people.js",
  "/js/apps/community/routes.js",
  "/js/apps/community/stars.js",
  "/js/apps/community/thread-state.js",
  "/js/apps/community/unread-badge.js",
  "/js/apps/community/views/community.js",
  "/js/apps/community/views/conversation.js",
  "/js/apps/community/views/forum-new.js",
  "/js/apps/community/views/forum-topic.js",
  "/js/apps/community/views/forum.js",
  "/js/apps/community/views/friends.js",
  "/js/apps/community/views/location-map.js",
  "/js/apps/community/views/location.js",
  "/js/apps/community/views/messages.js",
  "/js/apps/community/views/moderation.js",
  "/js/apps/community/views/new-message.js",
  "/js/apps/community/views/person.js",
  "/js/apps/flora/api.js",
  "/js/apps/flora/catalogue.js",
  "/js/apps/flora/components/filter-sheet.js",
  "/js/apps/flora/components/illustration.js",
  "/js/apps/flora/filtering.js",
  "/js/apps/flora/routes.js",
  "/js/apps/flora/send-condition.js",
  "/js/apps/flora/sync-settings.js",
  "/js/apps/flora/views/guide.js",
  "/js/apps/flora/views/import.js",
  "/js/apps/flora/views/map.js",
  "/js/apps/flora/views/record.js",
  "/js/apps/flora/views/review.js",
  "/js/apps/flora/views/species.js",
  "/js/apps/flora/views/sync.js",
  "/js/apps/parking/api.js",
  "/js/apps/parking/congestion.js",
  "/js/apps/parking/parked-car.js",
  "/js/apps/parking/routes.js",
  "/js/apps/parking/views/account.js",
  "/js/apps/parking/views/map.js",
  "/js/apps/parking/views/permits.js",
  "/js/apps/parking/views/schedule.js",
  "/js/apps/ski/api.js",
  "/js/apps/ski/components/condition-sheet.js",
  "/js/apps/ski/components/mountain-list.js",
  "/js/apps/ski/components/tutorial-player.js",
  "/js/apps/ski/components/tutorial-sheet.js",
  "/js/apps/ski/convention.js",
  "/js/apps/ski/format.js",
  "/js/apps/ski/position.js",
  "/js/apps/ski/routes.js",
  "/js/apps/ski/tutorials.js",
  "/js/apps/ski/views/favourites.js",
  "/js/apps/ski/views/home.js",
  "/js/apps/ski/views/moments.js",
  "/js/apps/ski/views/mountain-edit.js",
  "/js/apps/ski/views/mountain.js",
  "/js/apps/ski/views/nearby.js",
  "/js/apps/ski/views/search.js",
  "/js/apps/ski/views/tutorials.js",
  "/js/apps/trails/api.js",
  "/js/apps/trails/components/filter-sheet.js",
  "/js/apps/trails/components/photo-picker.js",
  "/js/apps/trails/components/trail-card.js",
  "/js/apps/trails/components/trail-photo.js",
  "/js/apps/trails/filters.js",
  "/js/apps/trails/long-press.js",
  "/js/apps/trails/position.js",
  "/js/apps/trails/routes.js",
  "/js/apps/trails/trail-data.js",
  "/js/apps/trails/trail-edit.js",
  "/js/apps/trails/trail-format.js",
  "/js/apps/trails/views/browse.js",
  "/js/apps/trails/views/directions.js",
  "/js/apps/trails/views/edit.js",
  "/js/apps/trails/views/favourites.js",
  "/js/apps/trails/views/import.js",
  "/js/apps/trails/views/legend.js",
  "/js/apps/trails/views/map.js",
  "/js/apps/trails/views/scavenger.js",
  "/js/apps/trails/views/section.js",
  "/js/apps/trails/views/trail.js",
  "/js/apps/home/catalogue.js",
  "/js/apps/home/routes.js",
  "/js/apps/home/views/browse.js",
  "/js/apps/home/views/home.js",
  "/js/apps/home/views/map.js",
  "/js/apps/index.js",
  "/js/apps/runs/api.js",
  "/js/apps/runs/components/address-field.js",
  "/js/apps/runs/components/distance-field.js",
  "/js/apps/runs/components/landmark-field.js",
  "/js/apps/runs/components/plan-results.js",
  "/js/apps/runs/components/planned-run-item.js",
  "/js/apps/runs/components/planner-map.js",
  "/js/apps/runs/components/route-card.js",
  "/js/apps/runs/components/route-layers.js",
  "/js/apps/runs/components/route-type-field.js",
  "/js/apps/runs/distance.js",
  "/js/apps/runs/guest-routes.js",
  "/js/apps/runs/pace.js",
  "/js/apps/runs/route-facts.js",
  "/js/apps/runs/routes.js",
  "/js/apps/runs/views/planned-runs.js",
  "/js/apps/runs/views/planner.js",
  "/js/main.js",
  "/js/platform/account.js",
  "/js/platform/api.js",
  "/js/platform/connection.js",
  "/js/platform/disclosure.js",
  "/js/platform/dom.js",
  "/js/platform/forms.js",
  "/js/platform/guest.js",
  "/js/platform/location.js",
  "/js/platform/map/base-map.js",
  "/js/platform/map/basemap-glyphs.js",
  "/js/platform/map/basemap-layer.js",
  "/js/platform/map/basemap-style.js",
  "/js/platform/map/keep-map.js",
  "/js/platform/map/label-placement.js",
  "/js/platform/map/location-layer.js",
  "/js/platform/map/map-paths.js",
  "/js/platform/map/polyline.js",
  "/js/platform/map/street-layer.js",
  "/js/platform/map/tile-math.js",
  "/js/platform/map/tile-store.js",
  "/js/platform/map/vector-tile.js",
  "/js/platform/next-run.js",
  "/js/platform/offline/idb.js",
  "/js/platform/offline/outbox-core.js",
  "/js/platform/offline/outbox.js",
  "/js/platform/offline/store.js",
  "/js/platform/onboarding.js",
  "/js/platform/photo.js",
  "/js/platform/realtime-core.js",
  "/js/platform/realtime.js",
  "/js/platform/router.js",
  "/js/platform/push.js",
  "/js/platform/notification-link.js",
  "/js/platform/settings.js",
  "/js/platform/sheet.js",
  "/js/platform/shared-components.js",
  "/js/platform/units.js",
  "/js/platform/weather/rain-banner.js",
  "/js/platform/weather/weather-api.js",
  "/js/platform/weather/weather-card.js",
  "/js/platform/weather/weather-icons.js",
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

// Web Push (platform/push.js): the server sends {kind, title, body, tag, url}, encrypted for this browser.
self.addEventListener("push", (event) => {
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch {
    message = { body: event.data?.text() ?? "" };
  }
  const title = message.title || "Cairn";
  event.waitUntil(self.registration.showNotification(title, {
    body: message.body || "",
    tag: message.tag || undefined,
    renotify: Boolean(message.tag),
    icon: "/icons/icon-192.png",
    badge: "/icons/icon-192.png",
    data: { url: message.url || "/#/" },
  }));
});

// A tap opens what the notification is about (a conversation, the friends list), in an open window if any.
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL(event.notification.data?.url || "/#/", self.location.origin).href;
  event.waitUntil((async () => {
    const windows = await clients.matchAll({ type: "window", includeUncontrolled: true });
    for (const client of windows) {
      const at = new URL(client.url);
      if (at.origin !== self.location.origin || !("focus" in client)) continue;
      // An open app window moves to the screen itself (a hash route: no reload, also when this worker does not
      // control it yet); any other page of the origin is navigated.
      if (at.pathname === "/") client.postMessage({ type: "cairn:navigate", url: target });
      else await client.navigate(target).catch(() => {});
      return client.focus();
    }
    return clients.openWindow(target);
  })());
});
