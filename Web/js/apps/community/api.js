// The community API: people, friends, blocks, reviews and message threads (docs/community.md).
import { api } from "../../platform/api.js";

const json = (method, body) => ({ method, body });
const enc = encodeURIComponent;

export const searchPeople = (text) => api(`/api/people?q=${enc(text)}`);
export const personProfile = (username) => api(`/api/people/${enc(username)}`);
export const friends = () => api("/api/friends");
export const sendFriendRequest = (username) => api("/api/friends/requests", json("POST", { username }));
export const acceptFriendRequest = (id) => api(`/api/friends/requests/${id}/accept`, json("POST"));
export const declineFriendRequest = (id) => api(`/api/friends/requests/${id}`, json("DELETE"));
export const removeFriend = (userId) => api(`/api/friends/${userId}`, json("DELETE"));
export const block = (username) => api("/api/blocks", json("POST", { username }));
export const unblock = (userId) => api(`/api/blocks/${userId}`, json("DELETE"));

export const reviews = (subject, offset = 0) => api(`/api/reviews?subject=${enc(subject)}&offset=${offset}`);
export const saveReview = (subject, rating, text) => api(`/api/reviews/${enc(subject)}`, json("PUT", { rating, text }));
export const deleteReview = (subject) => api(`/api/reviews/${enc(subject)}`, json("DELETE"));
export const voteOnReview = (id, vote) => api(`/api/reviews/${id}/votes`, json("POST", { vote }));
export const reportReview = (id, reason) => api(`/api/reviews/${id}/reports`, json("POST", { reason }));

export const threads = () => api("/api/threads");
export const startThread = (id, members) => api("/api/threads", json("POST", { id, members }));
export const messages = (threadId, query = "") => api(`/api/threads/${threadId}/messages${query ? `?${query}` : ""}`);
export const sendMessage = (threadId, id, text) => api(`/api/threads/${threadId}/messages`, json("POST", { id, text }));
export const editMessage = (threadId, id, text) => api(`/api/threads/${threadId}/messages/${id}`, json("PATCH", { text }));
export const deleteMessage = (threadId, id) => api(`/api/threads/${threadId}/messages/${id}`, json("DELETE"));
export const inviteToThread = (threadId, members) => api(`/api/threads/${threadId}/members`, json("POST", { members }));
export const removeFromThread = (threadId, userId) => api(`/api/threads/${threadId}/members/${userId}`, json("DELETE"));
export const markRead = (threadId, seq) => api(`/api/threads/${threadId}/read`, json("POST", { seq }));

/** A new id for a message or thread, made on this device (a resend never duplicates). */
export function newId() {
  return crypto.randomUUID();
}

export const forumTopics = (subject, offset = 0) => api(`/api/forums/${enc(subject)}/topics?offset=${offset}`);
export const forumTopic = (id, offset = 0) => api(`/api/forum-topics/${id}?offset=${offset}`);
/** `post`: { id, title, text, photo?, pin? } — `id` made on this device, so a retry never posts twice. */
export const createForumTopic = (subject, post) => api(`/api/forums/${enc(subject)}/topics`, json("POST", post));
export const commentOnForumTopic = (topicId, post) => api(`/api/forum-topics/${topicId}/posts`, json("POST", post));
export const deleteForumPost = (id) => api(`/api/forum-posts/${id}`, json("DELETE"));
export const reportForumPost = (id, reason) => api(`/api/forum-posts/${id}/reports`, json("POST", { reason }));

export const locationShare = () => api("/api/location/share");
/** `share`: { friends: [ids], groups: [ids], minutes: 15…1440 }. */
export const startSharing = (share) => api("/api/location/share", json("PUT", share));
export const stopSharing = () => api("/api/location/share", json("DELETE"));
export const sendPosition = (position) => api("/api/location/position", json("PUT", position));
export const friendPositions = () => api("/api/location/friends");
export const groups = () => api("/api/groups");
export const createGroup = (group) => api("/api/groups", json("POST", group));
/** Invites friends of the asker to a group they are a member of. */
export const inviteToGroup = (id, members) => api(`/api/groups/${id}/members`, json("POST", { members }));
export const joinGroup = (id) => api(`/api/groups/${id}/join`, json("POST"));
export const leaveGroup = (id, userId) => api(`/api/groups/${id}/members/${userId}`, json("DELETE"));

export const moderationQueue = () => api("/api/moderation/reports");
/** `action`: hide (with a `reason` its author sees), restore or dismiss. */
export const decideReport = (kind, id, action, reason = "") => api(`/api/moderation/${kind}/${id}/decision`, json("POST", { action, ...(reason ? { reason } : {}) }));
