// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
// An esbuild plugin for in-repository bundles (the example agent, the benches): imports of
// @protoc-gen-a2a/runtime resolve to its TypeScript sources through the package's
// "@protoc-gen-a2a/source" export condition, so nothing needs building first, while every other
// package stays external (`packages: "external"`).
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const runtimeDir = join(dirname(fileURLToPath(import.meta.url)), "..", "runtime");
const { name, exports } = JSON.parse(readFileSync(join(runtimeDir, "package.json"), "utf8"));

export const runtimeFromSource = {
  name: "runtime-from-source",
  setup(build) {
    build.onResolve({ filter: new RegExp(`^${name.replace("/", "\\/")}(/|$)`) }, (args) => {
      const subpath = `.${args.path.slice(name.length)}`;
      const target = exports[subpath]?.["@protoc-gen-a2a/source"];
      if (target === undefined)
        return { errors: [{ text: `${args.path}: no such entry point of ${name}` }] };
      return { path: join(runtimeDir, target) };
    });
  },
};
