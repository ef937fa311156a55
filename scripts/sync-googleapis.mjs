#!/usr/bin/env node
// Copies the google/api and google/rpc protos that a2a.proto and the plugin need from the
// pinned npm package `google-proto-files` into the vendored buf module third_party/googleapis.
// There is no network to the Buf Schema Registry here, so buf.build/googleapis/googleapis
// cannot be a dependency. Run `npm run sync-googleapis` after bumping google-proto-files;
// `node scripts/sync-googleapis.mjs --check` exits 1 when the vendored copy is stale.
import { readFileSync, writeFileSync, mkdirSync, existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const files = [
  "google/api/annotations.proto",
  "google/api/client.proto",
  "google/api/field_behavior.proto",
  "google/api/http.proto",
  "google/api/launch_stage.proto",
  // For the gRPC binding's error details (grpc-status-details-bin: google.rpc.Status + ErrorInfo).
  "google/rpc/error_details.proto",
  "google/rpc/status.proto",
];

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const source = dirname(createRequire(import.meta.url).resolve("google-proto-files/package.json"));
const target = join(root, "third_party", "googleapis");
const check = process.argv.includes("--check");

let stale = 0;
for (const file of files) {
  const want = readFileSync(join(source, file));
  const path = join(target, file);
  const have = existsSync(path) ? readFileSync(path) : undefined;
  if (have?.equals(want)) continue;
  if (check) {
    console.error(`stale: third_party/googleapis/${file} differs from google-proto-files`);
    stale++;
    continue;
  }
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, want);
  console.log(`synced third_party/googleapis/${file}`);
}
process.exit(stale > 0 ? 1 : 0);
