// The pure part of a conversation's state: messages kept once each (by id), in order of their numbers, the
// newest version of each winning. Unit-tested in Tests/WebTests/thread-state.test.mjs.

/** `known` with `incoming` merged in: one entry per id, sorted by `seq`, later edits replacing earlier ones. */
export function mergeMessages(known, incoming) {
  const byId = new Map(known.map((message) => [message.id, message]));
  for (const message of incoming) {
    const current = byId.get(message.id);
    if (!current || version(message) >= version(current)) byId.set(message.id, message);
  }
  return [...byId.values()].sort((a, b) => a.seq - b.seq);
}

function version(message) {
  if (message.deleted) return Number.MAX_SAFE_INTEGER;
  return message.edited_at ? Date.parse(message.edited_at) : 0;
}

