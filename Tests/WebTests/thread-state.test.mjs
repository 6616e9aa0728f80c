import assert from "node:assert/strict";
import { test } from "node:test";
import { mergeMessages } from "../../Web/js/apps/community/thread-state.js";
import { starText } from "../../Web/js/apps/community/stars.js";

const message = (seq, extra = {}) => ({ id: `m${seq}`, seq, text: `Message ${seq}`, deleted: false, edited_at: null, ...extra });

test("messages are kept once each, in order of their numbers", () => {
  const merged = mergeMessages([message(3), message(1)], [message(2), message(3), message(1)]);
  assert.deepEqual(merged.map((m) => m.seq), [1, 2, 3]);
});

test("a replayed older version does not undo an edit or a delete", () => {
  const edited = message(1, { text: "Edited", edited_at: "2026-05-01T10:00:00Z" });
  const deleted = message(2, { text: "", deleted: true });
  const merged = mergeMessages([edited, deleted], [message(1), message(2)]);
  assert.equal(merged[0].text, "Edited");
  assert.equal(merged[1].deleted, true);
  const later = mergeMessages(merged, [message(1, { text: "Again", edited_at: "2026-05-01T11:00:00Z" })]);
  assert.equal(later[0].text, "Again");
});

test("twenty missed messages arriving after a reconnect show once each, in order", () => {
  const shown = [1, 2, 3].map((seq) => message(seq));
  const missed = Array.from({ length: 20 }, (_, index) => message(index + 4));
  const merged = mergeMessages(mergeMessages(shown, missed.slice(10)), missed);
  assert.deepEqual(merged.map((m) => m.seq), Array.from({ length: 23 }, (_, index) => index + 1));
});

test("stars show the rating filled and the rest empty", () => {
  assert.equal(starText(3), "★★★☆☆");
  assert.equal(starText(0), "☆☆☆☆☆");
  assert.equal(starText(7), "★★★★★");
});
