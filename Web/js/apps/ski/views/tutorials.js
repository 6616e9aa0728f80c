// Tutorials (GoSki story 3, UC7, functionality 3): technique videos in three levels — Beginner, Intermediate,
// Advanced. YouTube and Vimeo videos play right here behind a privacy-enhanced facade (nothing is loaded from
// them before play); other links open outside Cairn, marked so. The list is kept on the device for offline
// use. Admins get "Edit tutorials": add, edit, delete and move within a level.
import { loadAccount } from "../../../platform/account.js";
import { h, icon } from "../../../platform/dom.js";
import { offlineStore } from "../../../platform/offline/store.js";
import { confirmSheet } from "../../../platform/sheet.js";
import { deleteTutorial, editTutorial, tutorials } from "../api.js";
import { createTutorialPlayer } from "../components/tutorial-player.js";
import { openTutorialSheet } from "../components/tutorial-sheet.js";
import { embedAddress, levelNames, levelTexts, linkHost, providerNames } from "../tutorials.js";

const outsidePath = "M14 4h6v6 M20 4l-9 9 M18 14v6H4V6h6";

export async function render(container) {
  const account = await loadAccount();
  const admin = account?.role === "admin";
  const state = { catalogue: null, offline: false, savedAt: null, editing: false, left: false, players: [] };
  const status = h("p", { class: "muted small", role: "status" }, "Loading tutorials…");
  const notice = h("div");
  const body = h("div", { class: "ski-tutorials" });
  const editButton = admin ? h("button", { class: "button button--secondary", type: "button", "aria-pressed": "false" }, "Edit tutorials") : null;
  editButton?.addEventListener("click", () => {
    state.editing = !state.editing;
    editButton.setAttribute("aria-pressed", String(state.editing));
    editButton.textContent = state.editing ? "Done editing" : "Edit tutorials";
    draw();
  });
  const jump = h("nav", { class: "ski-levels", "aria-label": "Skill levels" },
    ...Object.entries(levelNames).map(([level, name]) => h("button", {
      class: "ski-levels__item", type: "button",
      onclick: () => document.getElementById(`tutorials-${level}`)?.scrollIntoView({ behavior: "smooth", block: "start" }),
    }, name)));
  container.append(...[
    h("p", { class: "ski-tutorials__intro" }, "Pick your level and press play: the videos play here, without leaving Cairn."),
    jump, editButton ? h("div", { class: "button-row" }, editButton) : null, notice, status, body].filter(Boolean));

  async function load() {
    try {
      const { value, offline, savedAt } = await offlineStore("ski").load("tutorials", tutorials);
      if (state.left) return;
      Object.assign(state, { catalogue: value, offline: Boolean(offline), savedAt });
      status.textContent = "";
      draw();
    } catch (error) {
      if (state.left) return;
      status.textContent = error.status === 0 ? "No connection, and the tutorials were not kept on this device yet." : error.message;
    }
  }

  function draw() {
    for (const player of state.players) player.destroy();
    state.players = [];
    notice.replaceChildren(...(state.offline
      ? [h("p", { class: "notice notice--info" }, `Offline: the list as kept on ${new Date(state.savedAt).toLocaleString()}. Videos need a connection.`)]
      : []));
    body.replaceChildren(...state.catalogue.levels.map(levelSection));
  }

  function levelSection({ level, tutorials: items }) {
    return h("section", { class: `ski-level ski-level--${level}`, id: `tutorials-${level}`, "aria-labelledby": `tutorials-${level}-title` },
      h("h2", { id: `tutorials-${level}-title`, class: "ski-level__title" }, levelNames[level]),
      h("p", { class: "muted small" }, levelTexts[level]),
      items.length
        ? h("ol", { class: "ski-tutorial-list", "aria-label": `${levelNames[level]} tutorials` }, ...items.map((tutorial, index) => tutorialItem(tutorial, index, items)))
        : h("p", { class: "muted" }, "No tutorials at this level yet."),
      state.editing ? h("button", { class: "button button--secondary", type: "button", onclick: () => add(level) }, `Add a ${levelNames[level].toLowerCase()} tutorial`) : null);
  }

  function tutorialItem(tutorial, index, items) {
    const embeddable = embedAddress(tutorial) !== null;
    const title = h("h3", { class: "ski-tutorial__title" }, tutorial.title,
      tutorial.demo ? h("span", { class: "badge badge--demo" }, "Demo entry") : null);
    let content;
    if (embeddable) {
      const player = createTutorialPlayer(tutorial);
      state.players.push(player);
      content = [title, h("p", { class: "muted small" }, `${providerNames[tutorial.provider]} video`), player.element];
    } else {
      content = [h("a", { class: "ski-tutorial__link", href: tutorial.url, target: "_blank", rel: "noopener noreferrer" },
        h("span", { class: "ski-tutorial__link-title" }, tutorial.title,
          tutorial.demo ? h("span", { class: "badge badge--demo" }, "Demo entry") : null),
        h("span", { class: "ski-tutorial__outside small" },
          h("span", { "aria-hidden": "true" }, icon(outsidePath)),
          ` Opens outside Cairn · ${linkHost(tutorial.url)}`))];
    }
    return h("li", { class: "ski-tutorial" }, ...content, state.editing ? editTools(tutorial, index, items) : null);
  }

  function editTools(tutorial, index, items) {
    const tool = (label, text, action, disabled = false) =>
      h("button", { class: "button button--secondary ski-tutorial__tool", type: "button", "aria-label": `${label} “${tutorial.title}”`, disabled, onclick: action }, text);
    return h("div", { class: "ski-tutorial__tools" },
      tool("Move up", "↑ Up", () => move(tutorial, index - 1), index === 0),
      tool("Move down", "↓ Down", () => move(tutorial, index + 1), index === items.length - 1),
      tool("Edit", "Edit", () => edit(tutorial)),
      tool("Delete", "Delete", () => remove(tutorial)));
  }

  async function changed(action) {
    try {
      await action();
      await load();
    } catch (error) {
      notice.replaceChildren(h("p", { class: "notice notice--error", role: "alert" }, error.message));
    }
  }

  async function add(level) {
    if (await openTutorialSheet({ level })) await load();
  }

  async function edit(tutorial) {
    if (await openTutorialSheet({ tutorial })) await load();
  }

  function move(tutorial, position) {
    return changed(() => editTutorial(tutorial.id, { level: tutorial.level, title: tutorial.title, url: tutorial.url, position }));
  }

  async function remove(tutorial) {
    const sure = await confirmSheet({
      title: "Delete this tutorial?", text: `“${tutorial.title}” leaves the ${levelNames[tutorial.level].toLowerCase()} list for everyone.`,
      confirmLabel: "Delete tutorial", danger: true,
    });
    if (sure) await changed(() => deleteTutorial(tutorial.id));
  }

  await load();
  return () => {
    state.left = true;
    for (const player of state.players) player.destroy();
  };
}
