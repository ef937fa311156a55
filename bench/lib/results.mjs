// Figures a bench script hands to bench/all.mjs (`npm run bench`), which prints every script's rows in
// one table and every target in one list. A script writes them when given `--results <file>`.
import { writeFileSync } from "node:fs";

/**
 * @typedef {object} ResultRow one measured server in one scenario
 * @property {string} scenario   e.g. "jsonrpc-message", "grpc-task", "sse-fanout-10k"
 * @property {string} server     e.g. "bare", "example", "example-sqlite", "sdk", "grpc-js"
 * @property {string} unit       what `value` counts: "req/s", "events/s" or "s"
 * @property {number} value
 * @property {number} [p50]      ms
 * @property {number} [p99]      ms (for streams: the delivery delay)
 * @property {number} [rssMiB]   server RSS at the end of the run
 * @property {number} [heapMiB]  server heap used at the end of the run
 * @property {number} [serverCpu] server CPU time / wall time (1 = one core)
 * @property {number} [clientCpu] load generator CPU time / wall time
 * @property {string} [vsBare]   ratio text against this scenario's baseline, e.g. "0.31×"
 * @property {string} [vsSdk]    ratio text against @a2a-js/sdk in the same scenario
 * @property {string} [note]     e.g. "client-bound", "3 errors"
 */

/**
 * @typedef {object} ResultTarget one target of issue #16
 * @property {string} name     e.g. "JSON-RPC Message reply ≥ 0.5× bare"
 * @property {string} measured e.g. "0.31×"
 * @property {boolean} pass
 */

/** Writes `{ bench, rows, targets, notes }` as JSON to `file` (nothing when `file` is empty). */
export function writeResults(file, { bench, rows, targets = [], notes = [] }) {
  if (!file) return;
  writeFileSync(file, `${JSON.stringify({ bench, rows, targets, notes }, null, 2)}\n`);
}
