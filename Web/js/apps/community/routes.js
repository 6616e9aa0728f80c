// Community and social (issue 19): Messages (the Messages tab), conversations, the People Picker, friends,
// people's profiles, and the community's reviews. The Messages tab's unread badge is kept from start-up.
import { registerComponent } from "../../platform/shared-components.js";
if (typeof window !== "undefined") {
  import("./unread-badge.js");
  import("./live-sharing.js");
}

// The reviews of anything (`trail:<id>`, `mountain:<id>`), for other apps' pages (docs/community.md).
registerComponent("reviews", () => import("./components/reviews.js").then((module) => module.createReviews));
// A forum's topics (`community:best-moments`, `mountain:<id>`), for other apps' screens.
registerComponent("forum", () => import("./components/forum.js").then((module) => module.createForum));
// A place's "Ski together": groups, invitations, sharing with a group, and its members on the place's map.
registerComponent("group-map", () => import("./components/group-map.js").then((module) => module.createGroupMap));

export const routes = [
  { path: "messages", title: "Messages", tab: "messages", top: true, view: () => import("./views/messages.js") },
  { path: "messages/new", title: "New Message", tab: "messages", parent: "messages", view: () => import("./views/new-message.js") },
  { path: "messages/:id", title: "Conversation", tab: "messages", parent: "messages", view: () => import("./views/conversation.js") },
  { path: "friends", title: "Friends", view: () => import("./views/friends.js") },
  { path: "people/:username", title: "Profile", parent: "friends", view: () => import("./views/person.js") },
  { path: "community", title: "Community", tab: "home", view: () => import("./views/community.js") },
  { path: "forums/:subject", title: "Forum", tab: "home", parent: "community", view: () => import("./views/forum.js") },
  { path: "forums/:subject/new", title: "New Post", tab: "home", parent: "community", view: () => import("./views/forum-new.js") },
  { path: "location", title: "Share My Location", tab: "home", parent: "community", view: () => import("./views/location.js") },
  { path: "location/map", title: "Friends on the Map", tab: "home", parent: "location", view: () => import("./views/location-map.js") },
  { path: "moderation", title: "Moderation", tab: "home", parent: "community", view: () => import("./views/moderation.js") },
  { path: "forum-topics/:id", title: "Topic", tab: "home", parent: "community", view: () => import("./views/forum-topic.js") },
];
