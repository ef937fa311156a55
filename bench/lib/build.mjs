// Bundles bench entries (TypeScript) with esbuild into node_modules/.cache/bench/.
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build, stop as stopEsbuild } from "esbuild";
import { runtimeFromSource } from "../../scripts/runtime-from-source.mjs";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const cacheDir = join(root, "node_modules", ".cache", "bench");

/** Bundles `{ outName: "bench/…/x.ts" }` into `cacheDir/outName.mjs`; returns `{ outName: file }`. */
export async function bundle(entries) {
  mkdirSync(cacheDir, { recursive: true });
  await build({
    entryPoints: Object.fromEntries(
      Object.entries(entries).map(([name, path]) => [name, join(root, path)]),
    ),
    outdir: cacheDir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external", // resolved from the project's node_modules at run time
    plugins: [runtimeFromSource], // …but the runtime from its sources
    logLevel: "warning",
  });
  await stopEsbuild(); // ends esbuild's service process
  return Object.fromEntries(
    Object.keys(entries).map((name) => [name, join(cacheDir, `${name}.mjs`)]),
  );
}
