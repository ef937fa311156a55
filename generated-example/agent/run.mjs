// Bundles generated-example/agent/main.ts with esbuild (no TypeScript loader needed on Node 20) and runs it.
import { build } from "esbuild";
import { runtimeFromSource } from "../../scripts/runtime-from-source.mjs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

const here = dirname(fileURLToPath(import.meta.url));
const outfile = join(here, "..", "..", "node_modules", ".cache", "example", "main.mjs");
await build({
  entryPoints: [join(here, "main.ts")],
  outfile,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  plugins: [runtimeFromSource],
  logLevel: "warning",
});
await import(outfile);
