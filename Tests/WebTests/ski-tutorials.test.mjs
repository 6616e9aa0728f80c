// The ski tutorials' pure rules (Web/js/apps/ski/tutorials.js): only privacy-enhanced players, only for ids
// that look like the provider's, and the host an outside link names.
import assert from "node:assert/strict";
import { test } from "node:test";
import { embedAddress, levelNames, linkHost } from "../../Web/js/apps/ski/tutorials.js";

test("YouTube videos play from youtube-nocookie.com and Vimeo videos with dnt=1", () => {
  assert.equal(embedAddress({ provider: "youtube", video_id: "Cx8GJ0K1b4M" }), "https://www.youtube-nocookie.com/embed/Cx8GJ0K1b4M?autoplay=1");
  assert.equal(embedAddress({ provider: "vimeo", video_id: "148751763" }), "https://player.vimeo.com/video/148751763?dnt=1&autoplay=1");
});

test("other links and odd ids never become a frame", () => {
  assert.equal(embedAddress({ provider: "other", video_id: null }), null);
  assert.equal(embedAddress({ provider: "youtube", video_id: "x\" onload=\"1" }), null);
  assert.equal(embedAddress({ provider: "youtube", video_id: "../../evil" }), null);
  assert.equal(embedAddress({ provider: "vimeo", video_id: "12ab" }), null);
  assert.equal(embedAddress({ provider: "youtube" }), null);
});

test("levels run from beginner to advanced and outside links name their host", () => {
  assert.deepEqual(Object.keys(levelNames), ["beginner", "intermediate", "advanced"]);
  assert.equal(linkHost("https://www.thesnowpros.org/learn"), "thesnowpros.org");
  assert.equal(linkHost("https://en.wikipedia.org/wiki/Mogul_skiing"), "en.wikipedia.org");
});
