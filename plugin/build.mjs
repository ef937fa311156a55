// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
// Bundles the plugin into one ESM file, plugin/dist/protoc-gen-a2a.mjs.
//
// Why a bundle: @bufbuild/protoplugin imports TypeScript (about 1 s of start-up) only
// to transpile for target=js/dts. protoc-gen-a2a emits TypeScript only, so the
// bundle replaces `typescript` and `@typescript/vfs` with stubs that throw, and
// start-up drops to what @bufbuild/protobuf costs.
import { build } from "esbuild";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

const here = dirname(fileURLToPath(import.meta.url));

await build({
  entryPoints: [join(here, "src/cli.ts")],
  outfile: join(here, "dist/protoc-gen-a2a.mjs"),
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  legalComments: "eof", // keep the bundled dependencies' license notices
  // ts-morph (and the TypeScript it carries) only for scaffold-binding, loaded when that runs: not bundled.
  external: ["ts-morph"],
  logLevel: "warning",
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
