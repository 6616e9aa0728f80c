// The People Picker (Trailz 3.2.6.1.2): choose one or more friends, then the checkmark starts the conversation
// (or opens the one already kept with a single friend).
import { accountNeededPanel, loadAccount } from "../../../platform/account.js";
import { h, icon } from "../../../platform/dom.js";
import * as community from "../api.js";
import { personAvatar } from "../people.js";

export async function render(container) {
  if (!await loadAccount()) {
    container.append(accountNeededPanel("message your friends"));
    return;
  }
  const overview = await community.friends();
  if (!overview.friends.length) {
    container.append(h("div", { class: "empty-state" },
      h("h2", {}, "No friends yet"),
      h("p", {}, "Add friends first; then you can write to them."),
      h("a", { class: "button", href: "#/friends" }, "Find friends")));
    return;
  }
  const chosen = new Set();
  const notice = h("p", { class: "form-notice", role: "alert" });
  const done = h("button", { class: "fab", type: "button", "aria-label": "Start conversation", disabled: true }, icon("M5 12l5 5 9-10"));
  const items = overview.friends.map(({ person }) => {
    const box = h("input", { type: "checkbox", id: `pick-${person.id}`, value: person.id });
    box.addEventListener("change", () => {
      if (box.checked) chosen.add(person.id); else chosen.delete(person.id);
      done.disabled = chosen.size === 0;
    });
    return h("li", {}, h("label", { class: "person-row", for: box.id }, box, personAvatar(person), h("span", {}, person.name), h("span", { class: "muted small" }, `@${person.username}`)));
  });
  done.addEventListener("click", async () => {
    done.disabled = true;
    try {
      const thread = await community.startThread(community.newId(), [...chosen]);
      location.hash = `#/messages/${thread.id}`;
    } catch (error) {
      notice.textContent = error.message;
      done.disabled = false;
    }
  });
  container.append(
    h("p", { class: "muted" }, "Choose who to write to."),
    h("ul", { class: "person-list", "aria-label": "Friends" }, items),
    notice,
    done,
  );
}
