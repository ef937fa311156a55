// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
// The example agent as `npm run tck:v03` runs it: startExampleAgent() in its default profile, as
// `npm run example` starts it (A2A 0.3 served beside 1.0 on every binding, the hybrid Agent Card),
// on free ports. Loopback webhooks stay refused: the 0.3 TCK only registers https://example.com/…
// webhooks and tests no delivery.
// Bundled with esbuild like `npm run example` (runtime from its sources); started and stopped by
// scripts/tck/agent.mjs's startAgent, which waits for the "example agent: card …" line.
import { join } from "node:path";
import { build } from "esbuild";
import { runtimeFromSource } from "../../runtime-from-source.mjs";

/** The bundle's entry: start, print the card URL as main.ts does, stop on SIGTERM/SIGINT. */
const ENTRY = `
import { startExampleAgent } from "./echo-agent.ts";
const agent = await startExampleAgent({ httpPort: 0, grpcPort: 0 });
const e = agent.endpoints;
console.log(\`example agent: card \${e.cardUrl} · JSON-RPC \${e.jsonrpc} · HTTP+JSON \${e.rest} · gRPC \${e.grpc} (default profile)\`);
let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => {
  if (stopping) return;
  stopping = true;
  agent.close().then(() => process.exit(0), (err) => { console.error("example agent: error while stopping", err); process.exit(1); });
});
`;

/** Bundles the entry into `outfile` (inside the repository, so that its external packages resolve from node_modules). */
export async function bundleV03Agent({ repoRoot, outfile }) {
  await build({
    stdin: {
      contents: ENTRY,
      resolveDir: join(repoRoot, "generated-example", "agent"),
      sourcefile: "tck-v03-agent.ts",
      loader: "ts",
    },
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    plugins: [runtimeFromSource],
    logLevel: "warning",
  });
  return outfile;
}
