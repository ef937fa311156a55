// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
import { pathToFileURL } from "node:url";
import { build } from "esbuild";

/**
 * Imports a TypeScript module (e.g. test/tck/expected-outcomes.ts) from a runner script: plain Node
 * does not load TypeScript, so `entry` is bundled with esbuild into `outfile` (inside the
 * repository, so that its external packages resolve from node_modules), which is then imported
 * afresh (not from Node's module cache).
 * @param {string} entry the .ts file
 * @param {string} outfile where the bundle goes
 * @returns {Promise<Record<string, unknown>>} the module's exports
 */
export async function importTypeScript(entry, outfile) {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    logLevel: "warning",
  });
  return import(`${pathToFileURL(outfile).href}?${Date.now()}`);
}
