// The router's table (Web/js/platform/router.js) and the apps' route tables (Web/js/apps/index.js).
import assert from "node:assert/strict";
import { test } from "node:test";
import { appRoutes, fallbackPath } from "../../Web/js/apps/index.js";
import { hashQuery, match, parentPath, routeTable } from "../../Web/js/platform/router.js";

const view = () => Promise.resolve({});

test("the apps' tables concatenate into one where every path is unique and the fallback exists", () => {
  const table = routeTable(...appRoutes);
  const paths = table.map((route) => route.path);
  assert.equal(new Set(paths).size, paths.length);
  assert.ok(paths.includes(fallbackPath));
  for (const expected of ["home", "browse", "messages", "map", "friends", "runs", "runs/planned", "login", "settings/account"]) {
    assert.ok(paths.includes(expected), expected);
  }
});

test("a path registered by two apps is refused", () => {
  assert.throws(
    () => routeTable([{ path: "home", title: "Home", view }], [{ path: "home", title: "Other home", view }]),
    /Two apps register the screen "home"/,
  );
});

test("a route without a title or view is refused", () => {
  assert.throws(() => routeTable([{ path: "x", view }]), /needs a path, a title and a view/);
  assert.throws(() => routeTable([{ path: "x", title: "X" }]), /needs a path, a title and a view/);
});

test("a hash matches its route with decoded parameters, ignoring the query", () => {
  const table = routeTable([
    { path: "runs", title: "Runs", view },
    { path: "runs/planned", title: "Planned", view },
    { path: "verify-email/:token", title: "Confirm", view },
  ]);
  assert.equal(match(table, "#/runs?sheltered=1").route.title, "Runs");
  assert.equal(match(table, "#/runs/planned").route.title, "Planned");
  assert.deepEqual(match(table, "#/verify-email/a%20b").params, { token: "a b" });
  assert.equal(match(table, "#runs").route.title, "Runs");
  assert.equal(match(table, "#/runs/planned/extra"), null);
  assert.equal(match(table, "#/nowhere"), null);
  assert.equal(match(table, ""), null);
});

test("the query of a hash is read as URL parameters", () => {
  assert.equal(hashQuery("#/runs?sheltered=1&x=2").get("sheltered"), "1");
  assert.equal(hashQuery("#/runs").get("sheltered"), null);
});

test("Back leads to the parent screen, the path's prefix, or Home; top screens have none", () => {
  assert.equal(parentPath({ path: "home", top: true }), null);
  assert.equal(parentPath({ path: "runs/planned" }), "runs");
  assert.equal(parentPath({ path: "settings/password", parent: "settings/account" }), "settings/account");
  assert.equal(parentPath({ path: "login" }), "home");
});

test("every app screen that is not a tab has a Back target that is itself a screen", () => {
  const table = routeTable(...appRoutes);
  const paths = new Set(table.map((route) => route.path));
  for (const route of table.filter((route) => !route.top)) {
    assert.ok(paths.has(parentPath(route)), `${route.path} → ${parentPath(route)}`);
  }
});
