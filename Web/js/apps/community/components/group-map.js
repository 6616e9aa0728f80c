// Groups on a place's map (GoSki story 10, UC12, functionality 10: "Ski together" on a mountain's page): the
// person's groups and invitations (join, decline), a new group with friends invited, more friends invited, their
// location shared with a group in one tap (and stopped), and a map of the place with the members of their groups
// who share with them, by name and "seen … ago", live (components/people-layer.js). Who sees whom is the
// server's rule (docs/community.md, "Live location and groups"): nobody outside a share's audience sees anything.
// createGroupMap({ place: { name, lat, lon }, title }) → { element, destroy() }; other apps mount it by name
// (`mountComponent("group-map", …)`).
/* global L */
import { loadAccount } from "../../../platform/account.js";
import { h } from "../../../platform/dom.js";
import { ensureLocationPermission } from "../../../platform/location.js";
import { createBaseMap } from "../../../platform/map/base-map.js";
import { confirmSheet, openSheet } from "../../../platform/sheet.js";
import * as community from "../api.js";
import { onSharingChange, startSending, stopSending } from "../live-sharing.js";
import { createPeopleLayer, describePosition } from "./people-layer.js";

/** How long a share started here runs: a day on the mountain. */
const shareMinutes = 240;

export function createGroupMap({ place, title = "Ski together" }) {
  const headingId = `group-map-title-${Math.random().toString(36).slice(2, 8)}`;
  const body = h("div", { class: "group-map__body" });
  const element = h("section", { class: "group-map", "aria-labelledby": headingId }, h("h2", { id: headingId }, title), body);
  const state = { account: null, groups: [], friends: [], share: null, positions: [], waiting: [], error: "", notice: "" };
  let mapElement = null;
  let baseMap = null;
  let layer = null;
  let destroyed = false;
  let stopListening = () => {};

  const memberIDs = () => new Set(state.groups.filter((group) => group.my_status === "member")
    .flatMap((group) => group.members.map((person) => person.id)));

  async function load() {
    try {
      const [groups, overview, share] = await Promise.all([community.groups(), community.friends(), community.locationShare()]);
      state.groups = groups.groups;
      state.friends = overview.friends.map((friend) => friend.person);
      state.share = share;
      state.error = "";
      await layer?.load();
    } catch (error) {
      state.error = error.message;
    }
    if (!destroyed) draw();
  }

  function draw() {
    const parts = [];
    if (state.error) parts.push(h("p", { class: "notice notice--error", role: "alert" }, state.error));
    parts.push(h("p", { class: "visually-hidden", role: "status" }, state.notice));
    parts.push(state.positions.length
      ? h("ul", { class: "group-map__people", "aria-label": `Your groups on ${place.name}` },
        state.positions.map((position) => h("li", {}, describePosition(position))))
      : h("p", { class: "muted" }, state.waiting.length
        ? `Waiting for ${state.waiting.map((share) => share.person.name).join(", ")}'s first position.`
        : "Nobody in your groups shares their location right now."));
    parts.push(shareStatus());
    const groups = state.groups;
    parts.push(h("h3", {}, "Your groups"),
      groups.length ? h("ul", { class: "person-list", "aria-label": "Your groups" }, groups.map(groupItem))
        : h("p", { class: "muted" }, "No groups yet. Make one with the friends you ski with."),
      h("div", { class: "button-row" }, h("button", { class: "button button--secondary", type: "button", onclick: newGroup }, "Create a group")));
    body.replaceChildren(...parts.filter(Boolean));
  }

  function shareStatus() {
    const share = state.share;
    if (!share?.sharing) return null;
    const until = new Date(share.ends_at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    const names = [...share.friends.map((p) => p.name), ...share.groups.map((g) => g.name)].join(", ");
    return h("div", { class: "notice notice--success" },
      h("p", {}, h("strong", {}, "Sharing your location"), ` with ${names} until ${until}.`),
      h("div", { class: "button-row" }, h("button", { class: "button button--small button--danger", type: "button", onclick: stop }, "Stop sharing")));
  }

  function groupItem(group) {
    const sharedWith = state.share?.sharing && state.share.groups.some((g) => g.id === group.id);
    const invitable = state.friends.filter((friend) => ![...group.members, ...group.invited].some((p) => p.id === friend.id));
    return h("li", { class: "group-item" },
      h("p", {}, h("strong", {}, group.name),
        h("span", { class: "small muted" }, ` · ${group.members.map((p) => p.name).join(", ")}${group.invited.length ? ` · invited: ${group.invited.map((p) => p.name).join(", ")}` : ""}`)),
      h("div", { class: "button-row" }, ...(group.my_status === "invited"
        ? [h("button", { class: "button button--small", type: "button", "aria-label": `Join ${group.name}`, onclick: () => act(() => community.joinGroup(group.id), `You joined ${group.name}.`) }, "Join"),
          h("button", { class: "button button--small button--secondary", type: "button", "aria-label": `Decline ${group.name}`, onclick: () => act(() => community.leaveGroup(group.id, state.account.id), "Invitation declined.") }, "Decline")]
        : [sharedWith ? null : h("button", { class: "button button--small", type: "button", "aria-label": `Share my location with ${group.name}`, onclick: () => shareWith(group) }, "Share my location"),
          invitable.length ? h("button", { class: "button button--small button--secondary", type: "button", "aria-label": `Invite friends to ${group.name}`, onclick: () => invite(group, invitable) }, "Invite friends") : null,
        ].filter(Boolean))));
  }

  async function act(action, notice) {
    try {
      await action();
      state.notice = notice;
    } catch (error) {
      state.error = error.message;
    }
    await load();
  }

  async function shareWith(group) {
    if (await ensureLocationPermission({ force: true }) !== "granted") {
      state.error = "Allow location for this site to share it.";
      draw();
      return;
    }
    const current = state.share?.sharing ? state.share : null;
    const left = current ? Math.ceil((Date.parse(current.ends_at) - Date.now()) / 60_000) : 0;
    await act(async () => {
      const share = await community.startSharing({
        friends: current ? current.friends.map((p) => p.id) : [],
        groups: [...new Set([...(current ? current.groups.map((g) => g.id) : []), group.id])],
        minutes: Math.min(1440, Math.max(shareMinutes, left)),
      });
      startSending(share.ends_at);
    }, `You share your location with ${group.name}.`);
  }

  async function stop() {
    if (!await confirmSheet({ title: "Stop sharing?", text: "Nobody sees your location from now on, and your last position is deleted.", confirmLabel: "Stop sharing" })) return;
    await act(async () => {
      await community.stopSharing();
      stopSending();
    }, "You stopped sharing your location.");
  }

  function friendBoxes(friends) {
    return friends.map((person) => h("label", { class: "check-row" }, h("input", { type: "checkbox", value: person.id }), person.name));
  }

  function chosen(boxes) {
    return boxes.map((box) => box.querySelector("input")).filter((input) => input.checked).map((input) => input.value);
  }

  function newGroup() {
    const name = h("input", { id: "group-map-name", maxlength: 60, value: `${place.name} crew` });
    const error = h("p", { class: "field-error", "aria-live": "polite" });
    const boxes = friendBoxes(state.friends);
    const sheet = openSheet({
      title: "New group",
      content: [
        h("div", { class: "field" }, h("label", { for: name.id }, "Group name"), name),
        boxes.length ? h("fieldset", { class: "check-list" }, h("legend", {}, "Invite"), ...boxes)
          : h("p", { class: "muted" }, "You have no friends on Cairn yet: ", h("a", { href: "#/friends" }, "add friends"), " to invite them."),
        error,
        h("div", { class: "button-row" },
          h("button", { class: "button", type: "button", onclick: async () => {
            try {
              await community.createGroup({ id: community.newId(), name: name.value, members: chosen(boxes) });
              sheet.close();
              state.notice = `Group ${name.value.trim()} created.`;
              await load();
            } catch (problem) {
              error.textContent = Object.values(problem.fieldErrors ?? {})[0] ?? problem.message;
            }
          } }, "Create group"),
          h("button", { class: "button button--secondary", type: "button", onclick: () => sheet.close() }, "Cancel")),
      ],
    });
  }

  function invite(group, friends) {
    const error = h("p", { class: "field-error", "aria-live": "polite" });
    const boxes = friendBoxes(friends);
    const sheet = openSheet({
      title: `Invite to ${group.name}`,
      content: [
        h("fieldset", { class: "check-list" }, h("legend", {}, "Friends"), ...boxes),
        error,
        h("div", { class: "button-row" },
          h("button", { class: "button", type: "button", onclick: async () => {
            const members = chosen(boxes);
            if (!members.length) {
              error.textContent = "Choose at least one friend to invite.";
              return;
            }
            try {
              await community.inviteToGroup(group.id, members);
              sheet.close();
              state.notice = "Invitations sent.";
              await load();
            } catch (problem) {
              error.textContent = Object.values(problem.fieldErrors ?? {})[0] ?? problem.message;
            }
          } }, "Invite"),
          h("button", { class: "button button--secondary", type: "button", onclick: () => sheet.close() }, "Cancel")),
      ],
    });
  }

  async function start() {
    state.account = await loadAccount();
    if (destroyed) return;
    if (!state.account) {
      body.replaceChildren(h("p", { class: "muted" }, `Make a group with your friends and see each other on the map of ${place.name}: log in or create an account to ski together.`),
        h("div", { class: "button-row" },
          h("a", { class: "button button--secondary", href: "#/login" }, "Log in"),
          h("a", { class: "button button--secondary", href: "#/register" }, "Create account")));
      return;
    }
    element.insertBefore(h("p", { class: "muted small" },
      "Your location stays private: the members of a group see it only while you share it with that group."), body);
    mapElement = h("div", { class: "group-map__map" });
    element.insertBefore(mapElement, body);
    baseMap = await createBaseMap(mapElement, { label: `Group map of ${place.name}`, view: { center: [place.lat, place.lon], zoom: 13 } });
    if (destroyed) {
      baseMap.destroy();
      return;
    }
    let fitted = false;
    layer = createPeopleLayer({
      map: baseMap.map,
      include: (person) => person.id !== state.account.id && memberIDs().has(person.id),
      reload: () => load(),
      onChange({ positions, waiting }) {
        state.positions = positions;
        state.waiting = waiting;
        if (!fitted && positions.length) {
          fitted = true;
          baseMap.map.fitBounds(L.latLngBounds([[place.lat, place.lon], ...positions.map((p) => [p.lat, p.lon])]).pad(0.3), { maxZoom: 15 });
        }
        if (!destroyed) draw();
      },
    });
    stopListening = onSharingChange(() => load());
    await load();
  }

  start();
  return {
    element,
    destroy() {
      destroyed = true;
      stopListening();
      layer?.destroy();
      baseMap?.destroy();
    },
  };
}
