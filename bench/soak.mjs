#!/usr/bin/env node
// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Soak (issue #17): the example agent (generated-example/agent/echo-agent.ts startExampleAgent, in a child
 * process run with --expose-gc; in-memory store, or SQLite with --sqlite) under moderate mixed traffic on
 * all three bindings for a bounded time, its memory and fds watched:
 *
 *   node bench/soak.mjs [--minutes 10] [--interval 30] [--concurrency 50] [--rate 200] [--sqlite]
 *                       [--warmup 120] [--heap-slack-mib 16] [--rss-slack-mib 48] [--fd-slack 16]
 *
 * Traffic (bench/lib/soak-load.mjs): --concurrency workers, each doing one operation at a time, at most
 * --rate operations/s in all (a soak, not a throughput bench); operations drawn from a fixed mix (Message
 * replies, task creation, GetTask, ListTasks, streams read to their end, SubscribeToTask + CancelTask, streams
 * abandoned mid-way, push config Create/Get/List/Delete with webhooks delivered to a local receiver, 10% of
 * which answer 500), each on JSON-RPC, HTTP+JSON and gRPC in turn, through the generated clients.
 *
 * Every --interval seconds one line: operations/s, p50 and p99 latency (ms, whole operation), errors, the
 * agent's heap after a forced GC, RSS, open fds (/proc/<pid>/fd, read in the agent), tasks held (ListTasks
 * totalSize; the in-memory store keeps at most 10,000, oldest terminal first), webhook deliveries received.
 * At the end: the table, errors by operation, the agent's log lines (counted, not printed: failed webhook
 * deliveries are logged), and a verdict over the samples after --warmup seconds (the store filling up to
 * its retention bound): "flat" when the mean of the last third of those samples exceeds the mean of the
 * first third by at most the slack (heap, RSS, fds) and no sample of the last third is above the first
 * third's maximum by more than the slack; else "not flat". Exits 1 when not flat or when more than 1% of
 * the operations failed.
 */
import { createServer } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseBenchArgs } from "./lib/args.mjs";
import { bundle } from "./lib/build.mjs";
import { installExitHandlers, onShutdown, shutdown, startWatchdog } from "./lib/children.mjs";
import { table } from "./lib/report.mjs";
import { mib, startSoakServer } from "./lib/soak-child.mjs";

const usage =
  "node bench/soak.mjs [--minutes 10] [--interval 30] [--concurrency 50] [--rate 200] [--sqlite] [--warmup 120] [--heap-slack-mib 16] [--rss-slack-mib 48] [--fd-slack 16]";
const { args, intArg } = parseBenchArgs(usage, {
  minutes: { type: "string", default: "10" },
  interval: { type: "string", default: "30" },
  concurrency: { type: "string", default: "50" },
  rate: { type: "string", default: "200" },
  sqlite: { type: "boolean", default: false },
  "heap-slack-mib": { type: "string", default: "16" },
  "rss-slack-mib": { type: "string", default: "48" },
  "fd-slack": { type: "string", default: "16" },
  warmup: { type: "string", default: "120" },
});
const minutes = Number(args.minutes);
if (!(minutes > 0 && minutes <= 24 * 60)) {
  console.error("--minutes must be a number in (0, 1440]");
  process.exit(2);
}
const intervalS = intArg("interval", 1, 3600);
const concurrency = intArg("concurrency", 1, 1000);
const rate = intArg("rate", 1, 100_000);
const warmupS = intArg("warmup", 0, 24 * 3600);
const slack = {
  heap: intArg("heap-slack-mib", 0, 4096) * 1024 * 1024,
  rss: intArg("rss-slack-mib", 0, 4096) * 1024 * 1024,
  fds: intArg("fd-slack", 0, 10_000),
};

installExitHandlers("agent");
startWatchdog(Math.ceil(minutes * 60 + 300));

// The webhook receiver: /ok answers 204, /fail 500 (the agent retries once, then logs the failure once per task).
const delivered = { ok: 0, fail: 0 };
const receiver = createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    if (req.url === "/fail") {
      delivered.fail++;
      res.writeHead(500).end();
    } else {
      delivered.ok++;
      res.writeHead(204).end();
    }
  });
});
await new Promise((r) => receiver.listen(0, "127.0.0.1", r));
const webhook = `http://127.0.0.1:${receiver.address().port}`;

let dbDir;
if (args.sqlite) {
  dbDir = mkdtempSync(join(tmpdir(), "a2a-soak-"));
  onShutdown(() => rmSync(dbDir, { recursive: true, force: true }));
}
const server = await startSoakServer(
  "agent",
  dbDir === undefined ? [] : ["--sqlite", join(dbDir, "tasks.db")],
  { quiet: true },
);
const { "soak-load": loadModule } = await bundle({ "soak-load": "bench/lib/soak-load.mjs" });
const { createLoad, BINDINGS } = await import(loadModule);
const load = createLoad({ endpoints: server.info, webhook });

const machineLoad = loadavg()
  .map((n) => n.toFixed(2))
  .join(" ");
console.log(
  `soak: ${minutes} min, ${concurrency} workers, at most ${rate} ops/s, store ${args.sqlite ? "SQLite (temp file)" : "in memory"}; agent pid ${server.child.pid}; load average ${machineLoad}`,
);

// Pacing: a token every 1/rate s, shared by the workers.
let tokens = 0;
const tokenWaiters = [];
const ticker = setInterval(() => {
  tokens += rate / 100;
  while (tokens >= 1 && tokenWaiters.length > 0) {
    tokens--;
    tokenWaiters.shift()();
  }
  if (tokenWaiters.length === 0) tokens = Math.min(tokens, rate / 10);
}, 10);
function token() {
  if (tokens < 1) return new Promise((r) => tokenWaiters.push(r));
  tokens--;
  return Promise.resolve();
}

let window = [];
let windowErrors = 0;
const errorsByOp = new Map();
const firstErrors = new Map();
let totalOps = 0;
let totalErrors = 0;
const endAt = Date.now() + minutes * 60_000;
let binding = 0;

async function worker() {
  while (Date.now() < endAt) {
    await token();
    if (Date.now() >= endAt) break;
    const r = await load.runOne(BINDINGS[binding++ % BINDINGS.length]);
    totalOps++;
    window.push(r.ms);
    if (r.error !== undefined) {
      totalErrors++;
      windowErrors++;
      const key = `${r.op}/${r.binding}`;
      errorsByOp.set(key, (errorsByOp.get(key) ?? 0) + 1);
      if (!firstErrors.has(key))
        firstErrors.set(key, String(r.error?.message ?? r.error).slice(0, 200));
    }
  }
}

const pct = (sorted, p) =>
  sorted.length === 0
    ? NaN
    : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const samples = [];
const header = [
  "t (s)",
  "ops/s",
  "p50 ms",
  "p99 ms",
  "errors",
  "heap MiB",
  "RSS MiB",
  "fds",
  "tasks",
  "webhooks ok/500",
];
let lastAt = performance.now();
const t0 = Date.now();

async function sample() {
  const now = performance.now();
  const ms = window.sort((a, b) => a - b);
  const ops = ms.length / ((now - lastAt) / 1000);
  lastAt = now;
  window = [];
  const errors = windowErrors;
  windowErrors = 0;
  const stats = await server.stats({ gc: true });
  let tasks = NaN;
  try {
    tasks = await load.taskCount();
  } catch {}
  const row = {
    t: Math.round((Date.now() - t0) / 1000),
    ops,
    p50: pct(ms, 50),
    p99: pct(ms, 99),
    errors,
    heap: stats.heapUsed,
    rss: stats.rss,
    fds: stats.fds,
    tasks,
    webhooks: `${delivered.ok}/${delivered.fail}`,
  };
  samples.push(row);
  console.log(
    `  t=${String(row.t).padStart(5)} s  ${ops.toFixed(0).padStart(5)} ops/s  p50 ${row.p50.toFixed(1)} ms  p99 ${row.p99.toFixed(1)} ms  errors ${errors}  heap ${mib(row.heap)} MiB  RSS ${mib(row.rss)} MiB  fds ${row.fds}  tasks ${tasks}  webhooks ${row.webhooks}`,
  );
}

const baseline = await server.stats({ gc: true });
console.log(
  `  t=    0 s  baseline: heap ${mib(baseline.heapUsed)} MiB  RSS ${mib(baseline.rss)} MiB  fds ${baseline.fds}`,
);
/** The sample being taken (awaited before the last one). */
let sampling = Promise.resolve();
const sampler = setInterval(() => {
  sampling = sampling.then(sample);
}, intervalS * 1000);
await Promise.all(Array.from({ length: concurrency }, worker));
clearInterval(sampler);
clearInterval(ticker);
await sampling;
// A last sample for the operations since the last one (none when the run ended right after a sample).
if (samples.length === 0 || window.length > 0) await sample();

// Verdict: the last third against the first third.
// The warm-up (the store filling up to its retention bound, caches, JIT) is left out when enough is left.
const measured =
  samples.filter((r) => r.t > warmupS).length >= 3 ? samples.filter((r) => r.t > warmupS) : samples;
const third = Math.max(1, Math.floor(measured.length / 3));
const firstThird = measured.slice(0, third);
const lastThird = measured.slice(-third);
const mean = (rows, k) => rows.reduce((n, r) => n + r[k], 0) / rows.length;
const max = (rows, k) => Math.max(...rows.map((r) => r[k]));
const checks = [
  ["heap", "heap", slack.heap, mib],
  ["RSS", "rss", slack.rss, mib],
  ["fds", "fds", slack.fds, (n) => n.toFixed(1)],
].map(([name, k, s, fmt]) => {
  const growth = mean(lastThird, k) - mean(firstThird, k);
  const overMax = max(lastThird, k) - max(firstThird, k);
  return {
    name,
    ok: growth <= s && overMax <= s,
    text: `${name}: mean ${fmt(mean(firstThird, k))} → ${fmt(mean(lastThird, k))} (growth ${fmt(growth)}, bound ${fmt(s)}); max ${fmt(max(firstThird, k))} → ${fmt(max(lastThird, k))}`,
  };
});
const errorRate = totalOps === 0 ? 1 : totalErrors / totalOps;
const flat = checks.every((c) => c.ok);

console.log();
console.log(
  table(
    header,
    samples.map((r) => [
      String(r.t),
      r.ops.toFixed(0),
      r.p50.toFixed(1),
      r.p99.toFixed(1),
      String(r.errors),
      mib(r.heap),
      mib(r.rss),
      String(r.fds),
      String(r.tasks),
      r.webhooks,
    ]),
    0,
  ),
);
console.log(
  `\n${totalOps} operations, ${totalErrors} errors (${(errorRate * 100).toFixed(2)}%); machine load average now ${loadavg()
    .map((n) => n.toFixed(2))
    .join(" ")}`,
);
for (const [key, n] of errorsByOp) console.log(`  ${key}: ${n} (first: ${firstErrors.get(key)})`);
console.log(
  `agent log lines: ${server.log.lines}${server.log.first.length > 0 ? `, first: ${server.log.first[0]}` : ""}`,
);
console.log(
  `verdict over the samples after t = ${measured === samples ? 0 : warmupS} s (the warm-up; the in-memory store fills to its retention bound in it): first third (${firstThird.length} samples, t ≤ ${firstThird.at(-1).t} s) vs last third (${lastThird.length} samples, t ≥ ${lastThird[0].t} s):`,
);
for (const c of checks) console.log(`  ${c.ok ? "ok  " : "FAIL"} ${c.text}`);
console.log(
  `verdict: ${flat ? "flat" : "not flat"}${errorRate > 0.01 ? " (and more than 1% of the operations failed)" : ""}`,
);
receiver.closeAllConnections();
receiver.close();
await shutdown(flat && errorRate <= 0.01 ? 0 : 1);
