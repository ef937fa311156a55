// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
// Bundles the plugin into plugin/dist/protoc-gen-a2a.mjs (ESM) and plugin/dist/chunks/ (what only the
// other commands load).
//
// Why a bundle: @bufbuild/protoplugin imports TypeScript (about 1 s of start-up) only
// to transpile for target=js/dts. protoc-gen-a2a emits TypeScript only, so the
// bundle replaces `typescript` and `@typescript/vfs` with stubs that throw, and
// start-up drops to what @bufbuild/protobuf costs.
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

const here = dirname(fileURLToPath(import.meta.url));

// The build needs the clone's devDependencies. Run as `prepare` of a folder install (`npm install ../protoc-gen-a2a`)
// from a fresh clone, they are not there: say what to do rather than "Cannot find package 'esbuild'".
async function devDependency(name) {
  try {
    return await import(name);
  } catch (e) {
    if (e?.code !== "ERR_MODULE_NOT_FOUND") throw e;
    const clone = join(here, "..");
    console.error(
      `protoc-gen-a2a: cannot build the plugin in ${clone}: its devDependencies are not installed (${name} is missing).\n` +
        `  Run \`npm ci && npm run build && npm run build:runtime\` in ${clone} first, then install the folders\n` +
        `  (${clone} and ${join(clone, "runtime")}), or install the tarballs of \`npm pack\` and \`npm pack --workspace @protoc-gen-a2a/runtime\`.`,
    );
    process.exit(1);
  }
}
const { build } = await devDependency("esbuild");
const { default: Handlebars } = await devDependency("handlebars");

// Two lookups of @bufbuild/protoplugin are linear in the size of the proto file and run once per use:
// `allNames(file)` (behind every importSchema/importShape) names every type of the file again on each
// call, and `findComments` (behind getComments) scans every source location of the file. On a large
// API (compute.proto: 993 RPCs, 2,197 messages, 75,000 locations) that is quadratic and took most of the plugin's
// time (issue #28). Both are pure functions of an immutable descriptor, so the bundle memoizes them:
// the names once per file, the locations indexed by path once per file (the first location of a
// path wins, as in the scan). The output does not change. Each patch must apply exactly, or the
// build fails (a new protoplugin version: check whether it still needs them).
const protopluginPatches = [
  {
    file: /@bufbuild[\\/]protoplugin[\\/]dist[\\/]esm[\\/]names\.js$/,
    find: "function allNames(file) {",
    replace: [
      "const allNamesCache = new WeakMap();",
      "function allNames(file) {",
      "    let names = allNamesCache.get(file);",
      "    if (names === undefined) {",
      "        names = allNamesUncached(file);",
      "        allNamesCache.set(file, names);",
      "    }",
      "    return names;",
      "}",
      "function allNamesUncached(file) {",
    ].join("\n"),
  },
  {
    file: /@bufbuild[\\/]protoplugin[\\/]dist[\\/]esm[\\/]source-code-info\.js$/,
    find: "function findComments(sourceCodeInfo, sourcePath) {",
    replace: [
      "const locationsByPath = new WeakMap();",
      "function findComments(sourceCodeInfo, sourcePath) {",
      "    if (!sourceCodeInfo) {",
      "        return findCommentsScan(sourceCodeInfo, sourcePath);",
      "    }",
      "    let index = locationsByPath.get(sourceCodeInfo);",
      "    if (index === undefined) {",
      "        index = new Map();",
      "        for (const location of sourceCodeInfo.location) {",
      '            const key = location.path.join(",");',
      "            if (!index.has(key)) index.set(key, location);",
      "        }",
      "        locationsByPath.set(sourceCodeInfo, index);",
      "    }",
      '    const location = index.get(sourcePath.join(","));',
      "    return findCommentsScan({ location: location === undefined ? [] : [location] }, sourcePath);",
      "}",
      "function findCommentsScan(sourceCodeInfo, sourcePath) {",
    ].join("\n"),
  },
];

/** esbuild plugin applying {@link protopluginPatches}. */
const patchProtoplugin = {
  name: "patch-protoplugin",
  setup(b) {
    for (const patch of protopluginPatches) {
      b.onLoad({ filter: patch.file }, (args) => {
        const source = readFileSync(args.path, "utf8");
        if (source.split(patch.find).length !== 2)
          throw new Error(
            `protoplugin patch: "${patch.find}" not found exactly once in ${args.path}`,
          );
        return { contents: source.replace(patch.find, patch.replace), loader: "js" };
      });
    }
  },
};

// The templates the plugin renders (templates/*.hbs; render-template.ts), precompiled here: the bundle's
// src/emit/template-engine.ts is this module, on Handlebars' runtime (no compiler loaded, nothing compiled
// per run). Same compile options as the source module's, read from it.
const templateEngine = {
  name: "precompiled-templates",
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]emit[\\/]template-engine\.ts$/ }, (args) => {
      const options = /^export const TEMPLATE_OPTIONS = (\{[^;]*\});$/m.exec(
        readFileSync(args.path, "utf8"),
      );
      if (options === null)
        throw new Error(`precompiled-templates: no TEMPLATE_OPTIONS in ${args.path}`);
      const compileOptions = Function(`return ${options[1]}`)();
      const templates = join(here, "..", "templates");
      const specs = readdirSync(templates)
        .filter((name) => name.endsWith(".hbs"))
        .sort()
        .map(
          (name) =>
            `  ${JSON.stringify(name)}: ${Handlebars.precompile(readFileSync(join(templates, name), "utf8"), compileOptions)},`,
        );
      return {
        loader: "js",
        resolveDir: dirname(args.path),
        contents: [
          'import Handlebars from "handlebars/runtime";',
          `export const TEMPLATE_OPTIONS = ${options[1]};`,
          "const hb = Handlebars.create();",
          "const specs = {",
          ...specs,
          "};",
          "export function compileTemplate(name) {",
          "  const spec = specs[name];",
          '  if (spec === undefined) throw new Error("template " + name + " is not in the bundle (npm run build)");',
          "  return hb.template(spec);",
          "}",
        ].join("\n"),
      };
    });
  },
};

// The plugin's entry, and chunks for what only the other commands (init, scaffold-binding, diff,
// check-generated) load: the plugin run by buf or protoc parses only what it uses.
const dist = join(here, "dist");
const result = await build({
  entryPoints: { "protoc-gen-a2a": join(here, "src/cli.ts") },
  outdir: dist,
  outExtension: { ".js": ".mjs" },
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  metafile: true,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  legalComments: "eof", // keep the bundled dependencies' license notices
  // ts-morph (and the TypeScript it carries) only for scaffold-binding, loaded when that runs: not bundled.
  external: ["ts-morph"],
  logLevel: "warning",
  plugins: [patchProtoplugin, templateEngine],
  alias: {
    typescript: join(here, "stubs/typescript.mjs"),
    "@typescript/vfs": join(here, "stubs/typescript-vfs.mjs"),
  },
  banner: {
    // Handlebars' CommonJS build calls require(); give the ESM bundle one.
    js: [
      "// protoc-gen-a2a, bundled with its dependencies (each under its own license: @bufbuild/protobuf and",
      "// @bufbuild/protoplugin Apache-2.0, handlebars MIT). Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0",
      'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);',
    ].join("\n"),
  },
});

// Chunks of earlier builds (hashed names) are removed once this one is written.
const written = new Set(Object.keys(result.metafile.outputs).map((file) => join(here, "..", file)));
for (const name of readdirSync(join(dist, "chunks"))) {
  if (!written.has(join(dist, "chunks", name))) rmSync(join(dist, "chunks", name), { force: true });
}
