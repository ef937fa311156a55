// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
// Bundles the example agent (generated-example/agent/main.ts) with esbuild, so that Node 20 runs it
// without a TypeScript loader: `npm run example`, the TCK runner and the crash-safety harness.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { runtimeFromSource } from "./runtime-from-source.mjs";

/** The repository's root. */
export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * Bundles main.ts into `outfile` (which must lie inside the repository, so that its external
 * packages resolve from node_modules), with the runtime from its sources and any further esbuild
 * `plugins` (e.g. one that points the generated code elsewhere).
 * @param {{ outfile: string, plugins?: import("esbuild").Plugin[] }} options
 */
export async function bundleExampleAgent({ outfile, plugins = [] }) {
  await build({
    entryPoints: [join(repoRoot, "generated-example", "agent", "main.ts")],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    plugins: [runtimeFromSource, ...plugins],
    logLevel: "warning",
  });
  return outfile;
}
