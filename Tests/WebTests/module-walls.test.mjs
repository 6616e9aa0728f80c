// The web app's walls (docs/architecture.md, "Web app"): an app's files import only their own app folder and
// the platform (Web/js/platform/), and the platform imports no app. What two apps share moves down into the
// platform, as the Map's polyline decoding and its registry of lines to show did.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const js = resolve(dirname(fileURLToPath(import.meta.url)), "../../Web/js");

function files(folder) {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(folder, entry.name)) : entry.name.endsWith(".js") ? [join(folder, entry.name)] : []);
}

/** Every relative module a file imports, statically (`from "…"`, `import "…"`) or dynamically (`import("…")`). */
export function importsOf(source) {
  const specifiers = [];
  const pattern = /(?:\bfrom\s*|\bimport\s*\(?\s*)["'](\.{1,2}\/[^"']+)["']/g;
  for (const match of source.matchAll(pattern)) specifiers.push(match[1]);
  return specifiers;
}

/** The area of the web app a file belongs to: "platform", "apps/<name>", or "apps" for apps/index.js. */
function area(file) {
  const parts = relative(js, file).split(sep);
  if (parts[0] === "apps") return parts.length > 2 ? `apps/${parts[1]}` : "apps";
  return parts[0] === "platform" ? "platform" : "shell";
}

function crossings() {
  const found = [];
  for (const file of files(js)) {
    const from = area(file);
    for (const specifier of importsOf(readFileSync(file, "utf8"))) {
      const to = area(resolve(dirname(file), specifier));
      const allowed = from === to || to === "platform" || (from === "apps" && to.startsWith("apps/"))
        || (from === "shell");
      if (!allowed) found.push(`${relative(js, file)} imports ${specifier}`);
    }
  }
  return found;
}

test("the import scanner sees static, bare and dynamic imports", () => {
  const source = `import { a } from "../x.js";\nimport "./y.js";\nconst v = () => import("../../z.js");\nimport { b } from "node:fs";`;
  assert.deepEqual(importsOf(source), ["../x.js", "./y.js", "../../z.js"]);
});

test("apps import only their own folder and the platform, and the platform no app", () => {
  assert.deepEqual(crossings(), []);
});
