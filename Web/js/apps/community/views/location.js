// Share my location, `#/location` (Trailz 3.2.6.8, GoSki story 10 / UC12): off by default. The person chooses
// friends and groups and how long (15 minutes to 24 hours), then starts; they can stop at any time. Groups are
// made and joined here too.
import { accountNeededPanel, loadAccount } from "../../../platform/account.js";
import { h } from "../../../platform/dom.js";
import { ensureLocationPermission } from "../../../platform/location.js";
import { confirmSheet, openSheet } from "../../../platform/sheet.js";
import * as community from "../api.js";
import { onSharingChange, startSending, stopSending } from "../live-sharing.js";
import { personAvatar } from "../people.js";

const durations = [[15, "15 minutes"], [60, "1 hour"], [240, "4 hours"], [480, "8 hours"], [1440, "24 hours"]];

export async function render(container) {
  const account = await loadAccount();
  if (!account) {
    container.append(accountNeededPanel("share your location with friends"));
    return;
  }
  const body = h("div", { class: "location-screen" });
  container.append(body);
  let state = { share: null, friends: [], groups: [], error: "" };

  async function load() {
    try {
      const [share, overview, groups] = await Promise.all([community.locationShare(), community.friends(), community.groups()]);
      state = { share, friends: overview.friends.map((f) => f.person), groups: groups.groups, error: "" };
    } catch (error) {
      state.error = error.message;
    }
    draw();
  }

  function draw() {
    const share = state.share;
    const parts = [];
    parts.push(h("p", { class: "muted" }, "Your location is private. Share it only with the people you choose, for as long as you choose. Only your latest position is kept, and it is deleted when sharing ends."));
    if (state.error) parts.push(h("p", { class: "notice notice--error", role: "alert" }, state.error));
    if (share?.sharing) {
      const until = new Date(share.ends_at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
      const names = [...share.friends.map((p) => p.name), ...share.groups.map((g) => g.name)].join(", ");
      parts.push(h("div", { class: "notice notice--success", role: "status" },
        h("p", {}, h("strong", {}, "Sharing your location"), ` with ${names} until ${until}.`)),
      h("div", { class: "button-row" },
        h("button", { class: "button button--danger", type: "button", onclick: stop }, "Stop sharing"),
        h("a", { class: "button button--secondary", href: "#/location/map" }, "Friends on the map")));
    } else {
      parts.push(startForm());
    }
    parts.push(groupsSection());
    body.replaceChildren(...parts);
  }

  function startForm() {
    const error = h("p", { class: "field-error", id: "share-error", "aria-live": "polite" });
    const friendBoxes = state.friends.map((person) => h("label", { class: "check-row" },
      h("input", { type: "checkbox", value: person.id, dataset: { kind: "friend" } }), personAvatar(person, "small"), person.name));
    const groupBoxes = state.groups.filter((g) => g.my_status === "member").map((group) => h("label", { class: "check-row" },
      h("input", { type: "checkbox", value: group.id, dataset: { kind: "group" } }), `Group: ${group.name}`));
    const duration = h("select", { id: "share-duration" }, durations.map(([minutes, label]) => h("option", { value: minutes, selected: minutes === 60 }, label)));
    return h("section", { "aria-labelledby": "share-title" },
      h("h2", { id: "share-title" }, "Share my location"),
      friendBoxes.length || groupBoxes.length
        ? h("fieldset", { class: "check-list", "aria-describedby": error.id }, h("legend", {}, "With"), ...friendBoxes, ...groupBoxes)
        : h("p", { class: "muted" }, "Add friends first: you can share only with friends and groups."),
      h("div", { class: "field" }, h("label", { for: duration.id }, "For"), duration),
      error,
      h("div", { class: "button-row" }, h("button", { class: "button", type: "button", onclick: async (event) => {
        const chosen = [...event.target.closest("section").querySelectorAll("input:checked")];
        const friends = chosen.filter((c) => c.dataset.kind === "friend").map((c) => c.value);
        const groups = chosen.filter((c) => c.dataset.kind === "group").map((c) => c.value);
        if (!friends.length && !groups.length) {
          error.textContent = "Choose at least one friend or group to share with.";
          return;
        }
        if (await ensureLocationPermission({ force: true }) !== "granted") {
          error.textContent = "Allow location for this site to share it.";
          return;
        }
        try {
          const share = await community.startSharing({ friends, groups, minutes: Number(duration.value) });
          startSending(share.ends_at);
          await load();
        } catch (problem) {
          error.textContent = Object.values(problem.fieldErrors ?? {})[0] ?? problem.message;
        }
      } }, "Start sharing")));
  }

  async function stop() {
    if (!await confirmSheet({ title: "Stop sharing?", text: "Nobody sees your location from now on, and your last position is deleted.", confirmLabel: "Stop sharing" })) return;
    try {
      await community.stopSharing();
      stopSending();
    } catch (error) {
      state.error = error.message;
    }
    await load();
  }

  function groupsSection() {
    return h("section", { "aria-labelledby": "groups-title" },
      h("h2", { id: "groups-title" }, "Groups"),
      state.groups.length ? h("ul", { class: "person-list" }, state.groups.map((group) => h("li", { class: "group-item" },
        h("p", {}, h("strong", {}, group.name), h("span", { class: "small muted" }, ` · ${group.members.map((p) => p.name).join(", ")}${group.invited.length ? ` · invited: ${group.invited.map((p) => p.name).join(", ")}` : ""}`)),
        h("div", { class: "button-row" },
          group.my_status === "invited"
            ? h("button", { class: "button button--small", type: "button", onclick: () => act(() => community.joinGroup(group.id)) }, `Join ${group.name}`)
            : null,
          h("button", { class: "button button--small button--secondary", type: "button", onclick: () => act(() => community.leaveGroup(group.id, account.id)) },
            group.my_status === "invited" ? "Decline" : `Leave ${group.name}`))))) : h("p", { class: "muted" }, "No groups yet."),
      h("button", { class: "button button--secondary", type: "button", onclick: newGroup }, "New group"));
  }

  async function act(action) {
    try {
      await action();
    } catch (error) {
      state.error = error.message;
    }
    await load();
  }

  function newGroup() {
    const name = h("input", { id: "group-name", maxlength: 60 });
    const error = h("p", { class: "field-error", "aria-live": "polite" });
    const boxes = state.friends.map((person) => h("label", { class: "check-row" }, h("input", { type: "checkbox", value: person.id }), person.name));
    const sheet = openSheet({
      title: "New group",
      content: [
        h("div", { class: "field" }, h("label", { for: name.id }, "Group name"), name),
        boxes.length ? h("fieldset", { class: "check-list" }, h("legend", {}, "Invite"), ...boxes) : null,
        error,
        h("div", { class: "button-row" },
          h("button", { class: "button", type: "button", onclick: async () => {
            try {
              const members = boxes.map((box) => box.querySelector("input")).filter((input) => input.checked).map((input) => input.value);
              await community.createGroup({ id: community.newId(), name: name.value, members });
              sheet.close();
              await load();
            } catch (problem) {
              error.textContent = Object.values(problem.fieldErrors ?? {})[0] ?? problem.message;
            }
          } }, "Create group"),
          h("button", { class: "button button--secondary", type: "button", onclick: () => sheet.close() }, "Cancel")),
      ].filter(Boolean),
    });
  }

  const stopListening = onSharingChange(() => load());
  await load();
  return () => stopListening();
}
