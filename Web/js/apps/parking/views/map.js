// The live parking map (SpotMe 1–4, 7): a full-screen map of the campus with a pin per lot coloured by its
// congestion, a lot sheet with permit rules, occupancy and the typical day's histogram, the spots as coloured
// rectangles near the maximum zoom, soft holds with "Was that you?", and the parked car kept on the device.
// Live changes come over the realtime socket; the last snapshot is kept on the device and shown with its age
// when the server cannot be reached.
/* global L */
import { currentAccount, loadAccount } from "../../../platform/account.js";
import { h, icon } from "../../../platform/dom.js";
import { ensureLocationPermission, permissionState, watchLocation } from "../../../platform/location.js";
import { createBaseMap } from "../../../platform/map/base-map.js";
import { offlineStore } from "../../../platform/offline/store.js";
import { subscribe } from "../../../platform/realtime.js";
import { confirmSheet, openSheet } from "../../../platform/sheet.js";
import { formatDistance } from "../../../platform/units.js";
import {
  answerHold, getLive, getLot, getPermits, getTypical, getWalkingRoute, holdSpot, readHold, releaseHold,
} from "../api.js";
import {
  ageText, hourly, isoWeekday, levelColours, levelNames, occupancyText, permitNames, spotColours, spotState,
  stepWeekday, weekdayNames,
} from "../congestion.js";
import { deviceId, devicePermits, forgetParkedCar, parkedCar, saveParkedCar } from "../parked-car.js";

/** CSU Fresno, where the demo campus is. */
const campus = { center: [36.8125, -119.7455], zoom: 16 };
/** Spots are drawn within 3 zoom levels of the maximum (19), seed 2.3.2. */
const spotZoom = 16;
const holdKey = "cairn.parking.hold";
/** Walking pace for the route's minutes: 4.8 km/h. */
const walkMetersPerMinute = 80;

const icons = {
  compass: "M12 2 15 12 12 22 9 12z M12 2v10",
  car: "M5 16V11l2-5h10l2 5v5z M5 16v3 M19 16v3 M7 13h.01 M17 13h.01",
  person: "M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8z M4 21c0-4 4-6 8-6s8 2 8 6",
  refresh: "M20 12a8 8 0 1 1-2.3-5.7 M20 4v5h-5",
};

export async function render(container) {
  const state = {
    lots: new Map(), spots: new Map(), spotLots: new Map(), live: new Map(), asOf: null, offline: false, savedAt: null,
    timeZone: "America/Los_Angeles", hold: loadHold(), permits: null, left: false, me: null, framed: false,
  };
  const status = h("p", { class: "map-status notice", role: "status" });
  const mapElement = h("div", { class: "map" });
  const holdBar = h("div", { class: "parking-hold", "aria-live": "polite" });
  const toolbar = h("div", { class: "parking-toolbar" });
  container.append(h("section", { class: "map-screen" }, mapElement, toolbar, status, holdBar));
  const { map, destroy } = await createBaseMap(mapElement, { label: "Campus parking map", view: campus });
  const pinLayer = L.layerGroup().addTo(map);
  const spotLayer = L.layerGroup().addTo(map);
  const carLayer = L.layerGroup().addTo(map);
  const walkLayer = L.layerGroup().addTo(map);
  const unsubscribers = new Map();
  const pins = new Map();

  function toolButton(label, path, onClick) {
    return h("button", { class: "parking-tool", type: "button", "aria-label": label, title: label, onclick: onClick }, icon(path));
  }
  toolbar.append(
    toolButton("Face north", icons.compass, () => map.setView(map.getCenter(), map.getZoom())),
    toolButton("Parked car", icons.car, () => carSheet()),
    toolButton("Parking account", icons.person, () => { location.hash = "#/parking/account"; }),
    toolButton("Refresh occupancy", icons.refresh, () => load()),
  );

  // --- Data ---------------------------------------------------------------------------------------------
  async function load() {
    status.textContent = "Loading parking…";
    try {
      // One snapshot of the whole campus (GET /api/parking/live); changes after it come over the socket.
      const { value, offline, savedAt } = await offlineStore("parking").load("live", getLive);
      if (state.left) return;
      state.offline = Boolean(offline);
      state.savedAt = savedAt;
      state.timeZone = value.time_zone;
      state.asOf = value.as_of;
      for (const lot of value.lots) state.lots.set(lot.id, lot);
      for (const spot of value.spots) applySpot(spot);
      for (const lot of value.lots) redrawSpotsOf(lot.id);
      showStatus();
      if (!state.framed && value.lots.length) {
        // The whole campus in view the first time.
        state.framed = true;
        // At once, not animated: Leaflet starts an animated zoom a frame later, so a walk framed in between
        // would be undone by it.
        map.fitBounds(L.latLngBounds(value.lots.map((lot) => [lot.center.lat, lot.center.lon])), { padding: [40, 40], maxZoom: 17, animate: false });
      }
      drawPins();
      if (!offline) follow();
      await drawSpots();
    } catch (error) {
      status.textContent = error.status === 0
        ? "Parking cannot be reached, and no snapshot is kept on this device yet."
        : error.message;
    }
  }

  function showStatus() {
    status.textContent = state.offline
      ? `No connection — showing the snapshot from ${ageText(state.savedAt)}.`
      : "";
  }

  function follow() {
    for (const lot of state.lots.values()) {
      if (unsubscribers.has(lot.id)) continue;
      unsubscribers.set(lot.id, subscribe(`parking.lot.${lot.id}`, {
        onEvent: (change) => applyChange(change),
        onReset: () => reloadLot(lot.id),
      }));
    }
  }

  /** A spot's live state, as the snapshot (`held`) or a change (`free` with `held_until`) says it. */
  function applySpot(spot, lotId = spot.lot_id) {
    const held = spot.status === "held" || (spot.status === "free" && spot.held_until);
    const status = spot.status === "held" ? "free" : spot.status;
    state.live.set(spot.id, { id: spot.id, lot_id: lotId, status: held ? "held" : status, held_until: spot.held_until ?? null });
    const known = state.spots.get(spot.id);
    if (known) Object.assign(known, { status, held_until: spot.held_until ?? null });
  }

  function applyChange(change) {
    state.lots.set(change.lot.id, change.lot);
    for (const spot of change.spots) applySpot(spot, change.lot.id);
    drawPin(change.lot);
    redrawSpotsOf(change.lot.id);
    watchHeldSpot(change.spots);
    keepSnapshot();
  }

  async function reloadLot(id) {
    try {
      const detail = await getLot(id);
      state.lots.set(id, detail.lot);
      storeSpots(detail);
      drawPin(detail.lot);
      redrawSpotsOf(id);
    } catch { /* the next change or refresh catches up */ }
  }

  function keepSnapshot() {
    offlineStore("parking").set("live", {
      lots: [...state.lots.values()], spots: [...state.live.values()], as_of: new Date().toISOString(), time_zone: state.timeZone,
    });
  }

  function storeSpots(detail) {
    for (const spot of detail.spots) {
      state.spots.set(spot.id, spot);
      state.spotLots.set(spot.id, detail.lot.id);
      applySpot(spot, detail.lot.id);
    }
  }

  // --- Pins ---------------------------------------------------------------------------------------------
  function drawPins() {
    for (const lot of state.lots.values()) drawPin(lot);
  }

  function drawPin(lot) {
    const level = lot.occupancy.level;
    const label = `${lot.name}: ${occupancyText(lot.occupancy)}, ${levelNames[level]}`;
    const html = `<span class="parking-pin__code"></span>`;
    let marker = pins.get(lot.id);
    if (!marker) {
      marker = L.marker([lot.center.lat, lot.center.lon], {
        icon: L.divIcon({ className: "parking-pin", html, iconSize: [44, 44], iconAnchor: [22, 22] }),
        keyboard: true, title: label, alt: label,
      }).addTo(pinLayer);
      marker.on("click", () => lotSheet(state.lots.get(lot.id)));
      pins.set(lot.id, marker);
    }
    const element = marker.getElement();
    if (element) {
      element.querySelector(".parking-pin__code").textContent = lot.code;
      element.style.background = levelColours[level];
      element.dataset.level = level;
      element.setAttribute("role", "button");
      element.setAttribute("aria-label", label);
      element.title = label;
    }
  }

  // --- Spots --------------------------------------------------------------------------------------------
  async function drawSpots() {
    spotLayer.clearLayers();
    if (map.getZoom() < spotZoom) return;
    const view = map.getBounds();
    for (const lot of state.lots.values()) {
      const outline = L.geoJSON(lot.outline).getBounds();
      if (!view.intersects(outline)) continue;
      if (![...state.spotLots.values()].includes(lot.id) && !state.offline) {
        try {
          storeSpots(await getLot(lot.id));
        } catch { continue; }
      }
      redrawSpotsOf(lot.id);
    }
  }

  const spotShapes = new Map();
  function redrawSpotsOf(lotId) {
    if (map.getZoom() < spotZoom) return;
    const view = map.getBounds().pad(0.1);
    for (const [spotId, owner] of state.spotLots) {
      if (owner !== lotId) continue;
      const spot = state.spots.get(spotId);
      const shape = spotShapes.get(spotId);
      const inView = view.contains([spot.center.lat, spot.center.lon]);
      if (!inView) {
        if (shape) { spotLayer.removeLayer(shape); spotShapes.delete(spotId); }
        continue;
      }
      const look = spotState(spot);
      const style = { color: "#111827", weight: 1, fillColor: spotColours[look], fillOpacity: 0.85 };
      if (shape && spotLayer.hasLayer(shape)) {
        shape.setStyle(style);
      } else {
        const polygon = L.geoJSON(spot.outline, { style: () => style });
        polygon.on("click", () => spotSheet(spotId));
        polygon.addTo(spotLayer);
        spotShapes.set(spotId, polygon);
      }
      const path = spotShapes.get(spotId).getLayers()[0]?.getElement?.();
      if (path) {
        path.setAttribute("role", "button");
        path.setAttribute("aria-label", `Spot ${spot.label}: ${look === "held" ? "held" : look}`);
        path.dataset.state = look;
      }
    }
  }
  map.on("moveend zoomend", () => { spotShapes.clear(); drawSpots(); });

  // --- Lot sheet ----------------------------------------------------------------------------------------
  function lotSheet(lot) {
    let weekday = isoWeekday(new Date(), state.timeZone);
    const chart = h("div", { class: "parking-histogram", role: "img" });
    const dayName = h("strong", { class: "parking-day" });
    async function showDay() {
      dayName.textContent = weekdayNames[weekday - 1];
      chart.replaceChildren(h("p", { class: "muted small" }, "Loading…"));
      try {
        const typical = await offlineStore("parking").load(`typical/${lot.id}/${weekday}`, () => getTypical(lot.id, weekday));
        const hours = hourly(typical.value.blocks);
        chart.setAttribute("aria-label", `Typical occupancy on ${weekdayNames[weekday - 1]}s by hour`);
        chart.replaceChildren(...hours.map((value, hour) => h("span", {
          class: `parking-bar${value !== null && value >= 0.85 ? " parking-bar--red" : value !== null && value >= 0.65 ? " parking-bar--yellow" : ""}`,
          style: `height: ${value === null ? 0 : Math.max(2, Math.round(value * 100))}%`,
          title: `${hour}:00 — ${value === null ? "no data" : `${Math.round(value * 100)} %`}`,
        })));
      } catch {
        chart.replaceChildren(h("p", { class: "muted small" }, "The typical day is not available offline yet."));
      }
    }
    openSheet({
      title: lot.name,
      content: [
        h("p", { class: "parking-occupancy" },
          h("span", { class: "parking-dot", style: `background: ${levelColours[lot.occupancy.level]}` }),
          ` ${occupancyText(lot.occupancy)} (${levelNames[lot.occupancy.level]})`),
        h("p", {}, `${permitNames[lot.permit]} permit ${lot.permit_required_now ? "needed now" : "not needed now"}: `,
          lot.permit_windows.map((w) => w.text).join("; ") + "."),
        h("p", { class: "muted small" }, "Accessible spots need a Handicap permit in the same hours."),
        h("div", { class: "parking-day-picker" },
          h("button", { class: "button button--secondary", type: "button", "aria-label": "Previous day", onclick: () => { weekday = stepWeekday(weekday, -1); showDay(); } }, "‹"),
          dayName,
          h("button", { class: "button button--secondary", type: "button", "aria-label": "Next day", onclick: () => { weekday = stepWeekday(weekday, 1); showDay(); } }, "›")),
        chart,
        h("p", { class: "muted small" }, "Typical occupancy by hour: the mean of the last four weeks."),
        h("button", { class: "button", type: "button", onclick: () => { map.setView([lot.center.lat, lot.center.lon], 18); document.querySelector("dialog[open]")?.close(); } }, "Show spots"),
      ],
    });
    showDay();
  }

  // --- Holds --------------------------------------------------------------------------------------------
  async function myPermits() {
    if (state.permits) return state.permits;
    const account = currentAccount() ?? (await loadAccount().catch(() => null));
    if (!account) return devicePermits();
    try {
      state.permits = (await getPermits()).permits;
    } catch {
      state.permits = [];
    }
    return state.permits;
  }

  async function spotSheet(spotId) {
    const spot = state.spots.get(spotId);
    const lot = state.lots.get(state.spotLots.get(spotId));
    const look = spotState(spot);
    if (look !== "free") {
      openSheet({ title: `Spot ${spot.label}`, content: [h("p", {}, look === "held" ? "Someone is on their way to this spot." : look === "occupied" ? "A car is parked here." : "This spot's sensor has not reported lately.")] });
      return;
    }
    const permits = await myPermits();
    const needs = lot.permit_required_now ? spot.permit : null;
    const warning = needs && !permits.includes(needs)
      ? h("p", { class: "parking-warning" }, `This spot needs a ${permitNames[needs]} permit now, which you have not listed. You can still hold it.`)
      : null;
    const sheet = openSheet({
      title: `Spot ${spot.label}`,
      content: [
        h("p", {}, `Free, in ${lot.name}.`),
        h("button", { class: "button", type: "button", onclick: () => sheet.close("hold") }, "Mark for occupation"),
        warning,
      ].filter(Boolean),
      onClose: async (result) => {
        if (result !== "hold") return;
        const sure = await confirmSheet({
          title: "Hold this spot?", text: "The hold lasts 10 minutes while you drive there. It does not stop another car from parking first.",
          confirmLabel: "Hold for 10 minutes",
        });
        if (sure) await takeHold(spotId);
      },
    });
  }

  async function takeHold(spotId) {
    try {
      const grant = await holdSpot(spotId, deviceId());
      setHold({ id: grant.hold.id, token: grant.token, hold: grant.hold });
      await reloadLot(grant.hold.lot_id);
    } catch (error) {
      openSheet({ title: "Not held", content: [h("p", {}, error.status === 409 ? "This spot is no longer available. Choose another free spot." : error.message)] });
    }
  }

  function loadHold() {
    try { return JSON.parse(sessionStorage.getItem(holdKey) ?? "null"); } catch { return null; }
  }

  function setHold(hold) {
    state.hold = hold;
    if (hold) sessionStorage.setItem(holdKey, JSON.stringify(hold)); else sessionStorage.removeItem(holdKey);
    drawHold();
  }

  let asking = false;
  function drawHold() {
    const current = state.hold?.hold;
    if (!current || !["active", "car_arrived"].includes(current.state) || Date.parse(current.expires_at) <= Date.now()) {
      holdBar.replaceChildren();
      clearWalk();
      return;
    }
    const until = new Date(current.expires_at).toLocaleTimeString([], { hour: "numeric", minute: "2-digit" });
    const { lat, lon } = current.location;
    holdBar.replaceChildren(...[
      h("p", {}, h("strong", {}, `Holding spot ${current.spot_label}`), ` in ${current.lot_name} until ${until}.`),
      current.permit_warning ? h("p", { class: "parking-warning" }, current.permit_warning) : null,
      walk.line,
      h("div", { class: "button-row" },
        h("a", { class: "button", href: `geo:${lat},${lon}?q=${lat},${lon}(${encodeURIComponent(`Spot ${current.spot_label}`)})` }, "Navigate"),
        h("button", { class: "button button--secondary", type: "button", onclick: () => cancelHold() }, "Release")),
    ].filter(Boolean));
    showWalk(current);
    if (current.state === "car_arrived") askWasThatYou();
  }

  // --- Walking route to the held spot (the street network, through GET /api/streets/route) ---------------
  const walk = { hold: null, line: h("p", { class: "parking-walk small", role: "status" }) };

  function clearWalk() {
    walk.hold = null;
    walk.line.textContent = "";
    walkLayer.clearLayers();
  }

  /** One position fix, or null when location is not allowed or no fix comes within 20 s. */
  async function currentPosition() {
    if (await permissionState() !== "granted") return null;
    return new Promise((resolve) => {
      let stop = () => {};
      const timer = setTimeout(() => { stop(); resolve(null); }, 20000);
      stop = watchLocation(
        (fix) => { clearTimeout(timer); stop(); resolve(fix); },
        () => { clearTimeout(timer); stop(); resolve(null); },
      );
    });
  }

  /** Draws the walk from the driver's position to the held spot, once per hold, with its length and minutes. */
  async function showWalk(current) {
    if (walk.hold === current.id) return;
    walk.hold = current.id;
    walkLayer.clearLayers();
    walk.line.textContent = "Finding a walking route to the spot…";
    const here = await currentPosition();
    if (walk.hold !== current.id) return;
    if (!here) {
      walk.line.textContent = "Your position is unknown, so no walking route is drawn. Allow location for this site to see it.";
      return;
    }
    try {
      const route = await getWalkingRoute(here, current.location);
      if (walk.hold !== current.id) return;
      const minutes = Math.max(1, Math.round(route.length_m / walkMetersPerMinute));
      L.geoJSON(route.geometry, { style: () => ({ color: "#1d4ed8", weight: 5, opacity: 0.85 }) }).addTo(walkLayer);
      L.polyline([[here.lat, here.lon], [current.location.lat, current.location.lon]], { opacity: 0 }).addTo(walkLayer);
      walk.line.textContent = `Walking route to spot ${current.spot_label}: ${formatDistance(route.length_m)}, about ${minutes} min.`;
      // The whole walk in view, above the hold's card as it now reads (instead of the whole campus on first open).
      state.framed = true;
      map.fitBounds(L.featureGroup(walkLayer.getLayers()).getBounds(), {
        paddingTopLeft: [40, 40], paddingBottomRight: [72, holdBar.offsetHeight + 40], maxZoom: 18, animate: false,
      });
    } catch (error) {
      if (walk.hold !== current.id) return;
      walk.line.textContent = error.status === 422 || error.status === 503
        ? `No walking route to spot ${current.spot_label} from where you are: the street map ${error.status === 503 ? "is not loaded on this server" : "has no path between you and the spot"}. Use Navigate.`
        : `No walking route: ${error.message}`;
    }
  }

  async function cancelHold() {
    const hold = state.hold;
    if (!hold) return;
    try { await releaseHold(hold.id, hold.token); } catch { /* it ends by itself */ }
    setHold(null);
    await reloadLot(hold.hold.lot_id);
  }

  function watchHeldSpot(spots) {
    const hold = state.hold?.hold;
    if (!hold) return;
    if (spots.some((s) => s.id === hold.spot_id && s.status === "occupied")) pollHold();
  }

  async function pollHold() {
    const hold = state.hold;
    if (!hold) return;
    try {
      const fresh = await readHold(hold.id, hold.token);
      // A newer hold (the driver was moved meanwhile) is not overwritten by an older answer.
      if (state.hold?.id === hold.id) setHold({ ...hold, hold: fresh });
    } catch (error) {
      if (error.status === 404 && state.hold?.id === hold.id) setHold(null);
    }
  }

  function askWasThatYou() {
    if (asking) return;
    asking = true;
    const hold = state.hold;
    const sheet = openSheet({
      title: "Was that you?",
      content: [
        h("p", {}, `A car just parked in spot ${hold.hold.spot_label}.`),
        h("div", { class: "button-row" },
          h("button", { class: "button", type: "button", onclick: () => sheet.close("yes") }, "Yes, that was me"),
          h("button", { class: "button button--secondary", type: "button", onclick: () => sheet.close("no") }, "No")),
      ],
      onClose: async (result) => {
        if (result === "yes") {
          const answered = await answerHold(hold.id, hold.token, true, []).catch(() => null);
          setHold(null);
          const place = answered?.hold.location ?? hold.hold.location;
          if (await confirmSheet({ title: "Save where you parked?", text: "Your car's place is kept on this device only.", confirmLabel: "Save my car here" })) {
            saveParkedCar(place.lat, place.lon);
            drawCar();
          }
        } else if (result === "no") {
          try {
            const moved = await answerHold(hold.id, hold.token, false, await myPermits());
            setHold({ id: moved.hold.id, token: moved.token, hold: moved.hold });
            status.textContent = `Redirected to spot ${moved.hold.spot_label}, the nearest free one you have a permit for.`;
            map.setView([moved.hold.location.lat, moved.hold.location.lon], Math.max(map.getZoom(), 18));
            await reloadLot(moved.hold.lot_id);
          } catch (error) {
            setHold(null);
            status.textContent = error.message;
          }
        }
        asking = false;
      },
    });
  }

  const poller = setInterval(() => { if (state.hold) pollHold(); else drawHold(); }, 10000);

  // --- Parked car (device only) -------------------------------------------------------------------------
  function drawCar() {
    carLayer.clearLayers();
    const car = parkedCar();
    if (!car) return;
    L.marker([car.lat, car.lon], {
      icon: L.divIcon({ className: "parking-car", html: "🚗", iconSize: [32, 32] }), title: "Your parked car", alt: "Your parked car",
    }).addTo(carLayer);
  }

  async function hereOrAsk() {
    const permission = await ensureLocationPermission();
    if (permission !== "granted") {
      openSheet({ title: "Location needed", content: [h("p", {}, "Allow location for this site in your browser's or phone's settings to save where you parked.")] });
      return null;
    }
    return new Promise((resolve) => {
      const stop = watchLocation((fix) => { stop(); resolve(fix); });
    });
  }

  async function carSheet() {
    const car = parkedCar();
    if (!car) {
      if (!(await confirmSheet({ title: "Save where you parked?", text: "Your current location is kept on this device only, never sent.", confirmLabel: "Save my location" }))) return;
      const fix = await hereOrAsk();
      if (fix) { saveParkedCar(fix.lat, fix.lon); drawCar(); }
      return;
    }
    const sheet = openSheet({
      title: "Your parked car",
      content: [
        h("p", { class: "muted small" }, `Saved ${ageText(car.saved_at)}, on this device only.`),
        h("div", { class: "button-row" },
          h("button", { class: "button", type: "button", onclick: () => sheet.close("locate") }, "Locate"),
          h("button", { class: "button button--secondary", type: "button", onclick: () => sheet.close("update") }, "Update"),
          h("button", { class: "button button--danger", type: "button", onclick: () => sheet.close("forget") }, "Forget")),
      ],
      onClose: async (result) => {
        if (result === "locate") map.setView([car.lat, car.lon], 18);
        if (result === "update" && await confirmSheet({ title: "Update your car's place?", text: "Your current location replaces the saved one.", confirmLabel: "Update" })) {
          const fix = await hereOrAsk();
          if (fix) { saveParkedCar(fix.lat, fix.lon); drawCar(); }
        }
        if (result === "forget" && await confirmSheet({ title: "Forget your car's place?", text: "The saved place is deleted from this device.", confirmLabel: "Forget", danger: true })) {
          forgetParkedCar();
          drawCar();
        }
      },
    });
  }

  drawCar();
  drawHold();
  await load();
  if (state.hold) pollHold();

  return () => {
    state.left = true;
    clearInterval(poller);
    for (const stop of unsubscribers.values()) stop();
    destroy();
  };
}
