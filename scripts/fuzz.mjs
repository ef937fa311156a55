#!/usr/bin/env node
// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * `npm run fuzz`: the long fuzz run of issue #17. Runs the same fast-check properties as the short
 * run in `npm test` (test/fuzz/*.fuzz.test.ts, one vitest process per binding, one after the other)
 * with a large budget, then prints per binding the seed, the inputs run (in-process and over
 * sockets), the rate and the failures, and exits non-zero on any failure.
 *
 *   node scripts/fuzz.mjs [--runs N] [--seed S] [--only jsonrpc,rest,grpc,sse] [--socket-share X]
 *                         [--max-minutes M] [--save DIR] [--strict] [--sweep-every N]
 *                         [--restart-every N] [--heavy N] [--socket-store sqlite|memory]
 *
 * --runs N          inputs per binding (default 1,000,000; sse: 2,000 unless --runs is given)
 * --seed S          the fast-check seed (default: drawn now, printed)
 * --only LIST       the bindings to run (default all: jsonrpc, rest, grpc, sse)
 * --socket-share X  share of the JSON-RPC and HTTP+JSON inputs sent over real sockets (default 0.05;
 *                   gRPC is always over sockets: the grpc-js share of its inputs, default 0.5)
 * --max-minutes M   stop each binding after M minutes and report what ran (default: no limit)
 * --strict          fail on known open findings too (test/fuzz/known-open.ts; otherwise counted and printed)
 * --sweep-every N   still-serves oracle (test/support/fuzz-serving.ts): a full sweep (ListTasks pages and
 *                   GetTask of every stored task on every binding) after N inputs that saved a task
 *                   (default 250; the sweeps are kept to 10% of the time, A2A_FUZZ_SWEEP_SHARE)
 * --restart-every N restart the started agent on its SQLite file, then sweep, after N such socket inputs
 *                   (default 2,000; it is also restarted at the end of each socket property)
 * --heavy N         inputs per 10,000 that are slow: a body or gRPC message at its size limit, and a
 *                   slow reader (each; default 2 here, 1 in npm test)
 * --socket-store S  the started agent's store: sqlite (default; a temporary file) or memory (no
 *                   still-serves oracle over sockets)
 * --save DIR        where failing inputs are written as fixtures (default bench/output/fuzz-failures,
 *                   git-ignored; review them, then move them to test/fuzz/fixtures/ (replayed by
 *                   `npm test`) or, for faults not fixed yet, test/fuzz/fixtures-open/)
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const { values } = parseArgs({
  options: {
    runs: { type: "string" },
    seed: { type: "string" },
    only: { type: "string" },
    "socket-share": { type: "string" },
    "max-minutes": { type: "string" },
    save: { type: "string" },
    strict: { type: "boolean" },
    "sweep-every": { type: "string" },
    "restart-every": { type: "string" },
    heavy: { type: "string" },
    "socket-store": { type: "string" },
    help: { type: "boolean", short: "h" },
  },
});
if (values.help) {
  console.log(
    "node scripts/fuzz.mjs [--runs N] [--seed S] [--only jsonrpc,rest,grpc,sse] [--socket-share X] [--max-minutes M] [--save DIR] [--strict] [--sweep-every N] [--restart-every N] [--heavy N] [--socket-store sqlite|memory]",
  );
  process.exit(0);
}

const ALL = ["jsonrpc", "rest", "grpc", "sse"];
const only =
  values.only === undefined
    ? ALL
    : values.only
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
for (const b of only)
  if (!ALL.includes(b)) throw new Error(`--only: unknown binding ${b} (known: ${ALL.join(", ")})`);
const number = (name, raw) => {
  const n = Number(String(raw).replace(/_/g, ""));
  if (!Number.isFinite(n) || n < 0)
    throw new Error(`--${name} must be a non-negative number, got ${raw}`);
  return n;
};
const seed =
  values.seed === undefined ? (Date.now() ^ (process.pid << 8)) >>> 0 : number("seed", values.seed);
const runsFor = (binding) =>
  values.runs !== undefined ? number("runs", values.runs) : binding === "sse" ? 2_000 : 1_000_000;
const save = resolve(root, values.save ?? "bench/output/fuzz-failures");
const stats = join(mkdtempSync(join(tmpdir(), "a2a-fuzz-")), "stats.jsonl");

console.log(
  `fuzz: seed ${seed} (replay with --seed ${seed}); bindings ${only.join(", ")}; failing inputs saved to ${save}`,
);
let failed = false;
for (const binding of only) {
  const env = {
    ...process.env,
    A2A_FUZZ_RUNS: String(runsFor(binding)),
    A2A_FUZZ_SEED: String(seed),
    A2A_FUZZ_SAVE_DIR: save,
    A2A_FUZZ_STATS: stats,
    A2A_FUZZ_SWEEP_EVERY: String(number("sweep-every", values["sweep-every"] ?? 250)),
    A2A_FUZZ_RESTART_EVERY: String(number("restart-every", values["restart-every"] ?? 2_000)),
    A2A_FUZZ_HEAVY: String(number("heavy", values.heavy ?? 2)),
    A2A_FUZZ_SOCKET_STORE: values["socket-store"] ?? "sqlite",
  };
  if (binding === "jsonrpc" || binding === "rest")
    env.A2A_FUZZ_SOCKET_SHARE = values["socket-share"] ?? "0.05";
  if (values["max-minutes"] !== undefined)
    env.A2A_FUZZ_MAX_MS = String(number("max-minutes", values["max-minutes"]) * 60_000);
  console.log(`\nfuzz: ${binding}: ${env.A2A_FUZZ_RUNS} inputs`);
  const result = spawnSync(
    join(root, "node_modules", ".bin", "vitest"),
    ["run", `test/fuzz/${binding}.fuzz.test.ts`, "--project", "fuzz"],
    { cwd: root, env, stdio: "inherit" },
  );
  if (result.status !== 0) {
    failed = true;
    console.log(`fuzz: ${binding}: vitest exited ${result.status ?? result.signal}`);
  }
}

const lines = existsSync(stats)
  ? readFileSync(stats, "utf8")
      .trim()
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l))
  : [];
console.log("\nfuzz: totals (seed %d)", seed);
console.log("binding        transport     inputs      s   inputs/s  failing  known open");
const perBinding = new Map();
for (const s of lines) {
  const known =
    Object.entries(s.knownOpen ?? {})
      .map(([f, n]) => `${f}×${n}`)
      .join(" ") || "-";
  console.log(
    `${s.binding.padEnd(14)} ${s.transport.padEnd(12)} ${String(s.runs).padStart(8)} ${(s.ms / 1000).toFixed(0).padStart(6)} ${String(s.rate).padStart(10)} ${String(s.failures).padStart(8)}  ${known}`,
  );
  if (values.strict && known !== "-") failed = true;
  const key = s.binding.startsWith("grpc") ? "grpc" : s.binding;
  perBinding.set(key, (perBinding.get(key) ?? 0) + s.runs);
  if (s.failures > 0) failed = true;
}
for (const [binding, total] of perBinding) console.log(`fuzz: ${binding}: ${total} inputs in all`);
if (failed) console.log(`fuzz: FAILED — see the failures above; their inputs are in ${save}`);
process.exit(failed ? 1 : 0);
