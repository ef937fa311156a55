// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The two gRPC stacks of the runtime share only runtime/src/grpc-wire: a static scan of the imports and
 * re-exports of their files. The grpc-js stack (runtime/src/grpc-js) imports nothing from the Connect
 * stack (runtime/src/grpc), type-only imports included; grpc-wire imports from neither, and loads neither
 * Connect nor grpc-js (an `import type` of them is erased, anything else is not).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../support/repo-root.js";

const src = join(repoRoot, "runtime", "src");

/** One import or re-export of a module: its specifier, and whether it is erased at run time (`import type`, `export type`). */
interface ImportOf {
  readonly specifier: string;
  readonly typeOnly: boolean;
}

/** The specifiers a module imports or re-exports (static, side-effect and dynamic forms), comments left out. */
function importsOf(source: string): ImportOf[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  const found: ImportOf[] = [];
  for (const m of code.matchAll(
    /\b(?:import|export)\b(\s+type\b)?[^"';]*?\bfrom\s*["']([^"']+)["']/g,
  ))
    found.push({ specifier: m[2]!, typeOnly: m[1] !== undefined });
  for (const m of code.matchAll(/\bimport\s*(?:\(\s*)?["']([^"']+)["']/g))
    found.push({ specifier: m[1]!, typeOnly: false });
  return found;
}

/** The `.ts` modules of a folder of runtime/src (tests left out), each with its imports. */
function modulesOf(folder: string): { readonly file: string; readonly imports: ImportOf[] }[] {
  const dir = join(src, folder);
  return readdirSync(dir)
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts") && !f.endsWith(".test.ts"))
    .sort()
    .map((file) => ({
      file: `${folder}/${file}`,
      imports: importsOf(readFileSync(join(dir, file), "utf8")),
    }));
}

/** The folder of runtime/src a relative specifier of a module in `folder` points into ("grpc", "http", …), or undefined for a package. */
function targetFolder(folder: string, specifier: string): string | undefined {
  if (!specifier.startsWith(".")) return undefined;
  const target = relative(src, resolve(src, folder, specifier));
  return target.includes("/") ? target.slice(0, target.indexOf("/")) : "";
}

/** `file: specifier` of every import of the folder's modules that `bad` picks. */
function offending(folder: string, bad: (i: ImportOf) => boolean): string[] {
  return modulesOf(folder).flatMap(({ file, imports }) =>
    imports.filter(bad).map((i) => `${file}: ${i.specifier}`),
  );
}

describe("the gRPC stacks' imports", () => {
  it("finds imports of every form, type-only ones told apart", () => {
    const source = [
      'import type { A } from "../grpc/a.js";',
      "import {\n  b,\n  type B,\n} from '../grpc/b.js';",
      'export type { C } from "../grpc-wire/c.js";',
      'export { d } from "./d.js";',
      'import "../grpc/e.js";',
      'const f = await import("@connectrpc/connect");',
      '// import { g } from "../grpc/g.js";',
      '/* import { h } from "../grpc/h.js"; */',
    ].join("\n");
    expect(importsOf(source)).toEqual([
      { specifier: "../grpc/a.js", typeOnly: true },
      { specifier: "../grpc/b.js", typeOnly: false },
      { specifier: "../grpc-wire/c.js", typeOnly: true },
      { specifier: "./d.js", typeOnly: false },
      { specifier: "../grpc/e.js", typeOnly: false },
      { specifier: "@connectrpc/connect", typeOnly: false },
    ]);
    expect(targetFolder("grpc-js", "../grpc/status.js")).toBe("grpc");
    expect(targetFolder("grpc-js", "../gen/grpc/reflection/v1/reflection_pb.js")).toBe("gen");
    expect(targetFolder("grpc-js", "../grpc-wire/limits.js")).toBe("grpc-wire");
    expect(targetFolder("grpc-js", "./reflection.js")).toBe("grpc-js");
    expect(targetFolder("grpc-js", "../own-json.js")).toBe("");
    expect(targetFolder("grpc-js", "@grpc/grpc-js")).toBeUndefined();
  });

  it("keep the grpc-js stack off the Connect stack's files", () => {
    const modules = modulesOf("grpc-js");
    // The scan sees the stack's own imports (one that found none would pass vacuously).
    expect(modules.map((m) => m.file)).toEqual(
      expect.arrayContaining(["grpc-js/server.ts", "grpc-js/index.ts", "grpc-js/reflection.ts"]),
    );
    expect(
      modules.find((m) => m.file === "grpc-js/server.ts")?.imports.map((i) => i.specifier),
    ).toEqual(expect.arrayContaining(["../grpc-wire/session-guard.js"]));
    expect(offending("grpc-js", (i) => targetFolder("grpc-js", i.specifier) === "grpc")).toEqual(
      [],
    );
    expect(
      offending("grpc-js", (i) => !i.typeOnly && i.specifier.startsWith("@connectrpc/")),
    ).toEqual([]);
  });

  it("keep grpc-wire free of both stacks", () => {
    expect(modulesOf("grpc-wire").length).toBeGreaterThan(5);
    expect(
      offending("grpc-wire", (i) =>
        ["grpc", "grpc-js"].includes(targetFolder("grpc-wire", i.specifier) ?? ""),
      ),
    ).toEqual([]);
    // Connect and grpc-js are optional peer dependencies: what both stacks load must not need either.
    expect(
      offending(
        "grpc-wire",
        (i) => !i.typeOnly && /^(@connectrpc\/|@grpc\/grpc-js)/.test(i.specifier),
      ),
    ).toEqual([]);
  });
});
