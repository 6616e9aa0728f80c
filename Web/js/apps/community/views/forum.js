// A forum's screen, `#/forums/<KIND:ID>`: the community's own (Best Moments, General) or any module's.
import { createForum } from "../components/forum.js";
import { communityForums, forumName } from "../forums.js";

export async function render(container, params) {
  const subject = decodeURIComponent(params.subject);
  const name = forumName(subject);
  document.getElementById("screen-title")?.replaceChildren(name);
  const forum = createForum({ subject, title: name, about: communityForums[subject]?.about ?? "" });
  container.append(forum.element);
  return () => forum.destroy();
}
