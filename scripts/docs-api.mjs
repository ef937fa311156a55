#!/usr/bin/env node
// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
// `npm run docs:api [-- <typedoc options>]`: the API reference of @protoc-gen-a2a/runtime, generated from its TSDoc by
// TypeDoc (typedoc.json) into docs/api/ (gitignored). The entry points are the sources of runtime/package.json's
// `exports` (the `@protoc-gen-a2a/source` condition), so a new entry point is documented without editing anything.
// Warnings are errors (a `{@link}` that does not resolve, or resolves to something not documented): exit 1.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const pkg = JSON.parse(readFileSync(join(root, "runtime", "package.json"), "utf8"));
// The source of an entry: the condition's path, or its `default` where it has a browser build too (./grpc-client).
const sourceOf = (target) => {
  const source = typeof target === "object" ? target["@protoc-gen-a2a/source"] : undefined;
  return typeof source === "string" ? source : source?.default;
};
const entryPoints = Object.values(pkg.exports)
  .map(sourceOf)
  .filter((source) => typeof source === "string")
  .map((source) => join("runtime", source));
const typedoc = join(
  dirname(createRequire(import.meta.url).resolve("typedoc/package.json")),
  "bin",
  "typedoc",
);
const args = [
  "--options",
  "typedoc.json",
  ...entryPoints.flatMap((e) => ["--entryPoints", e]),
  ...process.argv.slice(2),
];
const result = spawnSync(process.execPath, [typedoc, ...args], { cwd: root, stdio: "inherit" });
process.exit(result.status ?? 1);
