// Campus parking (SpotMe): the live map of lots and spots with congestion pins, soft holds, the parked car
// kept on the device, and the driver's account menu with permits and a weekly schedule.

export const routes = [
  { path: "parking", title: "Parking", tab: "home", view: () => import("./views/map.js"), fullBleed: true },
  { path: "parking/account", title: "Parking Account", tab: "home", parent: "parking", view: () => import("./views/account.js") },
  { path: "parking/permits", title: "Your Permits", tab: "home", parent: "parking/account", view: () => import("./views/permits.js") },
  { path: "parking/schedule", title: "Weekly Schedule", tab: "home", parent: "parking/account", view: () => import("./views/schedule.js") },
];
