// Bundles generated-example/agent/main.ts with esbuild (no TypeScript loader needed on Node 20) and runs it.
import { join } from "node:path";
import { bundleExampleAgent, repoRoot } from "../../scripts/bundle-example-agent.mjs";

const outfile = join(repoRoot, "node_modules", ".cache", "example", "main.mjs");
await import(await bundleExampleAgent({ outfile }));
