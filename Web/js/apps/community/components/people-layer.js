// The people sharing their location with the signed-in person, on a map someone else made: each as their picture
// or initials where they last were, live as positions arrive on their topics (and re-read every minute, and when
// the person's own topic says shares changed), greyed when the signal is lost, a tap → name and "seen … ago".
// `include(person)` narrows who is drawn (the mountain's group map: members of the person's groups only);
// `onChange({ positions, waiting })` hears what is drawn, for a screen's own status text; `reload` is what the
// person's own topic triggers (by default the layer's `load`; a screen that also shows groups reloads them too).
// createPeopleLayer({ map, include?, onChange?, reload? }) → { load(), destroy() }.
/* global L */
import { subscribe } from "../../../platform/realtime.js";
import { h } from "../../../platform/dom.js";
import * as community from "../api.js";
import { personAvatar, shortTime } from "../people.js";

const staleMs = 120_000;

/** "Ada Walker · seen 3 min ago", or "last seen" when the position is over two minutes old. */
export function describePosition(position, now = Date.now()) {
  const stale = now - Date.parse(position.recorded_at) > staleMs;
  return `${position.person.name} · ${stale ? "last seen" : "seen"} ${shortTime(position.recorded_at)}`;
}

export function createPeopleLayer({ map, include = () => true, onChange = () => {}, reload = null }) {
  const people = new Map();  // sharer id → { marker, position }
  const following = new Map();  // topic → stop
  let destroyed = false;

  function place(position) {
    if (!include(position.person)) return;
    const id = position.person.id;
    let entry = people.get(id);
    if (!entry) {
      const icon = L.divIcon({ className: "friend-marker", html: "", iconSize: [44, 44], iconAnchor: [22, 22] });
      const marker = L.marker([position.lat, position.lon], { icon, keyboard: true, title: position.person.name, alt: position.person.name }).addTo(map);
      marker.getElement()?.append(personAvatar(position.person));
      marker.getElement()?.setAttribute("aria-label", position.person.name);
      marker.bindPopup("");
      entry = { marker, position };
      people.set(id, entry);
    }
    entry.position = position;
    entry.marker.setLatLng([position.lat, position.lon]);
    entry.marker.getElement()?.classList.toggle("friend-marker--stale", Date.now() - Date.parse(position.recorded_at) > staleMs);
    entry.marker.setPopupContent(h("p", { class: "friend-popup" }, describePosition(position)));
  }

  function remove(id) {
    people.get(id)?.marker.remove();
    people.delete(id);
  }

  function follow(topic) {
    if (following.has(topic)) return;
    following.set(topic, subscribe(topic, {
      onEvent: (payload) => {
        if (payload.type === "position") {
          place(payload.position);
          report(last.waiting);
        } else if (payload.type === "stopped") load().catch(() => {});
      },
      onReset: () => load().catch(() => {}),
      onEnd: () => { following.delete(topic); load().catch(() => {}); },
    }));
  }

  let last = { positions: [], waiting: [] };
  function report(waiting) {
    last = { positions: [...people.values()].map((entry) => entry.position), waiting };
    onChange(last);
  }

  async function load() {
    if (destroyed) return last;
    const data = await community.friendPositions();
    if (destroyed) return last;
    const positions = data.positions.filter((p) => include(p.person));
    const waiting = data.waiting.filter((share) => include(share.person));
    const shown = new Set(positions.map((p) => p.person.id));
    for (const id of [...people.keys()]) if (!shown.has(id)) remove(id);
    positions.forEach(place);
    [...positions, ...waiting].forEach((share) => follow(share.topic));
    report(waiting);
    return last;
  }

  let stopPerson = () => {};
  community.threads().then((list) => {
    if (destroyed) return;
    stopPerson = subscribe(list.topic, { onEvent: (payload) => { if (["locations", "friends", "groups"].includes(payload.type)) Promise.resolve((reload ?? load)()).catch(() => {}); } });
  }).catch(() => {
    // The layer still re-reads every minute.
  });
  const timer = setInterval(() => load().catch(() => {}), 60_000);

  return {
    load,
    destroy() {
      destroyed = true;
      clearInterval(timer);
      stopPerson();
      for (const id of [...people.keys()]) remove(id);
      for (const stop of following.values()) stop();
      following.clear();
    },
  };
}
