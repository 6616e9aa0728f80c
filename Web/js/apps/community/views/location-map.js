// Friends on the map, `#/location/map`: the people sharing their location with the person, drawn as their
// profile pictures (or initials) where they last were, live as positions arrive and re-read every minute.
// A tap shows the name and when that was; a position older than two minutes says the signal was lost.
/* global L */
import { accountNeededPanel, loadAccount } from "../../../platform/account.js";
import { h } from "../../../platform/dom.js";
import { createBaseMap } from "../../../platform/map/base-map.js";
import { subscribe } from "../../../platform/realtime.js";
import * as community from "../api.js";
import { personAvatar, shortTime } from "../people.js";

const staleMs = 120_000;

export async function render(container) {
  const account = await loadAccount();
  if (!account) {
    container.append(accountNeededPanel("see your friends on the map"));
    return;
  }
  const mapElement = h("div", { class: "map" });
  const status = h("p", { class: "map-status notice notice--info", role: "status" });
  container.append(h("section", { class: "map-screen" }, mapElement, status));
  const { map, destroy } = await createBaseMap(mapElement, { label: "Friends on the map" });
  const people = new Map();  // sharer id → { marker, position, stop }
  let fitted = false;

  const describe = (position) => {
    const stale = Date.now() - Date.parse(position.recorded_at) > staleMs;
    return `${position.person.name} · ${stale ? "last seen" : "seen"} ${shortTime(position.recorded_at)}`;
  };

  function place(position) {
    const id = position.person.id;
    let entry = people.get(id);
    if (!entry) {
      const icon = L.divIcon({ className: "friend-marker", html: "", iconSize: [44, 44], iconAnchor: [22, 22] });
      const marker = L.marker([position.lat, position.lon], { icon, keyboard: true, title: position.person.name, alt: position.person.name }).addTo(map);
      marker.getElement()?.append(personAvatar(position.person));
      marker.getElement()?.setAttribute("aria-label", position.person.name);
      marker.bindPopup("");
      entry = { marker, position, stop: follow(position.topic) };
      people.set(id, entry);
    }
    entry.position = position;
    entry.marker.setLatLng([position.lat, position.lon]);
    entry.marker.getElement()?.classList.toggle("friend-marker--stale", Date.now() - Date.parse(position.recorded_at) > staleMs);
    entry.marker.setPopupContent(h("p", { class: "friend-popup" }, describe(position)));
  }

  function remove(id) {
    const entry = people.get(id);
    if (!entry) return;
    entry.stop();
    entry.marker.remove();
    people.delete(id);
  }

  const following = new Map();
  function follow(topic) {
    if (following.has(topic)) return following.get(topic);
    const stop = subscribe(topic, {
      onEvent: (payload) => {
        if (payload.type === "position") place(payload.position);
        else if (payload.type === "stopped") load();
      },
      onReset: () => load(),
      onEnd: () => load(),
    });
    const wrapped = () => { stop(); following.delete(topic); };
    following.set(topic, wrapped);
    return wrapped;
  }

  async function load() {
    let data;
    try {
      data = await community.friendPositions();
    } catch (error) {
      status.textContent = error.message;
      return;
    }
    const shown = new Set(data.positions.map((p) => p.person.id));
    for (const id of [...people.keys()]) if (!shown.has(id)) remove(id);
    data.positions.forEach(place);
    data.waiting.forEach((share) => follow(share.topic));
    const waitingNames = data.waiting.map((share) => share.person.name);
    status.textContent = data.positions.length || waitingNames.length
      ? [data.positions.map(describe).join("; "), waitingNames.length ? `Waiting for ${waitingNames.join(", ")}'s first position.` : ""].filter(Boolean).join(" ")
      : "Nobody shares their location with you right now.";
    if (!fitted && data.positions.length) {
      fitted = true;
      map.fitBounds(L.latLngBounds(data.positions.map((p) => [p.lat, p.lon])).pad(0.3), { maxZoom: 16 });
    }
  }

  let stopPerson = () => {};
  try {
    const list = await community.threads();
    stopPerson = subscribe(list.topic, { onEvent: (payload) => { if (payload.type === "locations" || payload.type === "friends") load(); } });
  } catch {
    // The map still refreshes every minute.
  }
  await load();
  const timer = setInterval(load, 60_000);
  return () => {
    clearInterval(timer);
    stopPerson();
    for (const id of [...people.keys()]) remove(id);
    for (const stop of [...following.values()]) stop();
    destroy();
  };
}
