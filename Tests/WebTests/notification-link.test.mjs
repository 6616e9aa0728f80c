// Tapped notifications' urls (Web/js/platform/notification-link.js).
import assert from "node:assert/strict";
import { test } from "node:test";
import { appHash, isNavigateMessage } from "../../Web/js/platform/notification-link.js";

const origin = "https://cairn.example.org";

test("a path of the app becomes its hash route", () => {
  assert.equal(appHash("/#/trails?show=suggested", origin), "#/trails?show=suggested");
  assert.equal(appHash(`${origin}/#/messages/42`, origin), "#/messages/42");
  assert.equal(appHash("/", origin), "#/");
  assert.equal(appHash("/#section", origin), "#/");
});

test("another origin or another page is not followed", () => {
  assert.equal(appHash("https://evil.example.net/#/trails", origin), null);
  assert.equal(appHash("/dev/outbox#/trails", origin), null);
  assert.equal(appHash("http://[bad", origin), null);
});

test("only the service worker's navigate messages count", () => {
  assert.equal(isNavigateMessage({ type: "cairn:navigate", url: "/#/trails" }), true);
  assert.equal(isNavigateMessage({ type: "cairn:navigate" }), false);
  assert.equal(isNavigateMessage({ type: "other", url: "/#/" }), false);
  assert.equal(isNavigateMessage(null), false);
});
