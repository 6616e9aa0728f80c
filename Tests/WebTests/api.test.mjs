// api(): answers, problems and aborts, over a stubbed fetch.
import assert from "node:assert/strict";
import { test } from "node:test";
import { api, ApiError } from "../../Web/js/platform/api.js";

/** Makes fetch answer `status` with a JSON body read by `json`. */
function answer(status, json) {
  globalThis.fetch = async () => ({
    ok: status >= 200 && status < 300,
    status,
    headers: new Headers({ "Content-Type": "application/json" }),
    json,
  });
}

test("a JSON answer is returned", async () => {
  answer(200, async () => ({ suggestions: [] }));
  assert.deepEqual(await api("/api/x"), { suggestions: [] });
});

test("a problem becomes an ApiError with its fields", async () => {
  answer(422, async () => ({ detail: "Check the fields.", errors: [{ field: "q", detail: "Too short." }] }));
  await assert.rejects(api("/api/x"), (error) => {
    assert.ok(error instanceof ApiError);
    assert.equal(error.message, "Check the fields.");
    assert.deepEqual(error.fieldErrors, { q: "Too short." });
    return true;
  });
});

test("an abort while the body is read is an abort, not an empty answer", async () => {
  answer(200, async () => { throw new DOMException("The operation was aborted.", "AbortError"); });
  await assert.rejects(api("/api/x"), { name: "AbortError" });
});
