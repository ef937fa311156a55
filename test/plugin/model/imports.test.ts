// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * plugin/src/model has no import cycle: a static scan of the relative imports and re-exports of
 * its files (type-only ones included: a cycle of types is still two modules that cannot be read
 * apart). Imports leaving the folder are not followed.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../support/repo-root.js";

const modelDir = join(repoRoot, "plugin", "src", "model");

/** The relative specifiers a module imports or re-exports (static, side-effect and dynamic forms). */
function relativeImports(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  const found: string[] = [];
  for (const m of code.matchAll(/\b(?:import|export)\b[^"';]*?\bfrom\s*["'](\.{1,2}\/[^"']+)["']/g))
    found.push(m[1]!);
  for (const m of code.matchAll(/\bimport\s*(?:\(\s*)?["'](\.{1,2}\/[^"']+)["']/g))
    found.push(m[1]!);
  return found;
}

/** The import graph of the folder's modules: file name → the folder's files it imports. */
function importGraph(dir: string): Map<string, string[]> {
  const files = readdirSync(dir).filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = relativeImports(readFileSync(join(dir, file), "utf8"))
      .map((spec) => resolve(dir, spec.replace(/\.js$/, ".ts")))
      .filter((path) => resolve(path, "..") === resolve(dir))
      .map((path) => path.slice(resolve(dir).length + 1));
    graph.set(
      file,
      [...new Set(targets)].filter((t) => files.includes(t)),
    );
  }
  return graph;
}

/** Every cycle found by a depth-first walk, each as the path that closes it ("a.ts → b.ts → a.ts"). */
function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const cycles: string[] = [];
  const done = new Set<string>();
  const stack: string[] = [];
  const visit = (file: string): void => {
    const at = stack.indexOf(file);
    if (at >= 0) {
      cycles.push([...stack.slice(at), file].join(" → "));
      return;
    }
    if (done.has(file)) return;
    stack.push(file);
    for (const next of graph.get(file) ?? []) visit(next);
    stack.pop();
    done.add(file);
  };
  for (const file of [...graph.keys()].sort()) visit(file);
  return cycles;
}

describe("plugin/src/model imports", () => {
  it("finds imports of every form, and the cycles they close", () => {
    const source = [
      'import type { A } from "./a.js";',
      "import {\n  b,\n  type B,\n} from './b.js';",
      'export type { C } from "./c.js";',
      'import "./d.js";',
      'const e = await import("./e.js");',
      'import { f } from "../f.js";',
      'import { g } from "@bufbuild/protobuf";',
      '// import { h } from "./h.js";',
    ].join("\n");
    expect(relativeImports(source)).toEqual([
      "./a.js",
      "./b.js",
      "./c.js",
      "../f.js",
      "./d.js",
      "./e.js",
    ]);
    const graph = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", ["a.ts"]],
      ["d.ts", ["a.ts"]],
    ]);
    expect(importCycles(graph)).toEqual(["a.ts → b.ts → c.ts → a.ts"]);
    expect(
      importCycles(
        new Map([
          ["a.ts", ["b.ts"]],
          ["b.ts", []],
        ]),
      ),
    ).toEqual([]);
  });

  it("has no import cycle", () => {
    const graph = importGraph(modelDir);
    expect(graph.size).toBeGreaterThan(10);
    // The scan sees the model's own imports (a scan that found none would pass vacuously).
    expect(graph.get("service-model.ts")).toEqual(
      expect.arrayContaining(["task-runtime.ts", "operation-model.ts"]),
    );
    expect(importCycles(graph)).toEqual([]);
  });
});
