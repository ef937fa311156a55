#!/usr/bin/env node
/**
 * Task runtime benchmark (generated binder generated-example/a2a_a2a_task_handler.ts), in one run:
 *
 *   node bench/task.mjs [--duration 5] [--connections 50] [--warmup 1] [--subscribers 1000] [--updates 1000]
 *
 * 1. SendMessage over JSON-RPC (generated server, node adapter), one server per child process
 *    (bench/task/server.ts, bundled with esbuild), load from here with autocannon:
 *    - stateless:   a plain handler answering a Message (no task runtime) — the baseline;
 *    - task-reply:  the task handler, executor answering with a stateless Message (runtime cost, no task);
 *    - task-memory: the task handler, in-memory store, executor working → artifact → complete;
 *    - task-sqlite: the same over the SQLite store (WAL) on a temp file, removed at the end.
 *    Servers are measured in a random order, each right after its own warm-up; every server is checked
 *    by hand first (a Message, or a COMPLETED task with its artifact).
 * 2. Fan-out, in-process (bench/task/fanout.ts in a child with --expose-gc): one WORKING task, --subscribers
 *    SubscribeToTask streams (handler called directly), --updates status/artifact updates then COMPLETED;
 *    delivered events/s over all subscribers, heap per subscriber, every event checked in order.
 *
 * Only 127.0.0.1; children exit with the parent (IPC disconnect) and are killed on exit, signals and errors;
 * a watchdog bounds the run.
 */
import { fork } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseBenchArgs } from "./lib/args.mjs";
import { bundle } from "./lib/build.mjs";
import {
  installExitHandlers,
  isShuttingDown,
  onShutdown,
  shutdown,
  startServer,
  startWatchdog,
  track,
} from "./lib/children.mjs";
import { measureAutocannon } from "./lib/load.mjs";
import { fmtInt, fmtMs, fmtPct, fmtRatio, shuffle, table } from "./lib/report.mjs";

const { intArg } = parseBenchArgs(
  "usage: node bench/task.mjs [--duration 5] [--connections 50] [--warmup 1] [--subscribers 1000] [--updates 1000]",
  {
    duration: { type: "string", default: "5" },
    connections: { type: "string", default: "50" },
    warmup: { type: "string", default: "1" },
    subscribers: { type: "string", default: "1000" },
    updates: { type: "string", default: "1000" },
  },
);
const DURATION = intArg("duration", 1, 600);
const CONNECTIONS = intArg("connections", 1, 1000);
const WARMUP = intArg("warmup", 0, 60);
const SUBSCRIBERS = intArg("subscribers", 1, 100_000);
const UPDATES = intArg("updates", 1, 1_000_000);
const FANOUT_TIMEOUT_S = 120;

installExitHandlers("children");

const KINDS = [
  { kind: "stateless", label: "stateless handler (Message)" },
  { kind: "task-reply", label: "task handler, reply (Message)" },
  { kind: "task-memory", label: "task, in-memory store" },
  { kind: "task-sqlite", label: "task, SQLite store (WAL)" },
];
startWatchdog(30 + KINDS.length * (WARMUP + DURATION + 3) + FANOUT_TIMEOUT_S);

// Temp SQLite file (and its -wal/-shm): a private directory, removed after the children are reaped.
const tempDir = mkdtempSync(join(tmpdir(), "a2a-bench-task-"));
onShutdown(() => rmSync(tempDir, { recursive: true, force: true }));
process.env.BENCH_TASK_DB = join(tempDir, "tasks.db"); // inherited by the forked servers

// ---------------------------------------------------------------------------------------
// requests
// ---------------------------------------------------------------------------------------

const TEXT = "hello, task benchmark";
const HEADERS = { "content-type": "application/json", "a2a-version": "1.0" };
const BODY = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "SendMessage",
  params: { message: { messageId: "bench-task-m-1", role: "ROLE_USER", parts: [{ text: TEXT }] } },
});

/** One request by hand: a Message echo (stateless kinds) or a COMPLETED task with the echo artifact. */
async function check(server) {
  const res = await fetch(server.url, {
    method: "POST",
    headers: HEADERS,
    body: BODY,
    signal: AbortSignal.timeout(10_000),
  });
  const json = await res.json().catch(() => null);
  const result = json?.result;
  const ok =
    res.status === 200 &&
    json?.id === 1 &&
    (server.kind.startsWith("task-") && server.kind !== "task-reply"
      ? result?.task?.status?.state === "TASK_STATE_COMPLETED" &&
        result.task.artifacts?.[0]?.parts?.[0]?.text === TEXT
      : result?.message?.role === "ROLE_AGENT" && result.message.parts?.[0]?.text === TEXT);
  if (!ok)
    throw new Error(`${server.kind}: unexpected answer ${res.status} ${JSON.stringify(json)}`);
}

// ---------------------------------------------------------------------------------------
// fan-out child
// ---------------------------------------------------------------------------------------

function runFanout(script) {
  return new Promise((resolve, reject) => {
    const child = track(
      fork(script, [String(SUBSCRIBERS), String(UPDATES)], {
        execArgv: ["--expose-gc"],
        stdio: ["ignore", "inherit", "inherit", "ipc"],
      }),
    );
    const timer = setTimeout(
      () => reject(new Error(`fan-out: not done within ${FANOUT_TIMEOUT_S} s`)),
      FANOUT_TIMEOUT_S * 1000,
    );
    timer.unref();
    child.on("message", (m) => {
      clearTimeout(timer);
      if (m?.result) resolve(m.result);
      else reject(new Error(`fan-out failed: ${m?.error ?? JSON.stringify(m)}`));
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      if (!isShuttingDown())
        reject(new Error(`fan-out: the child exited (${signal ?? code}) without a result`));
    });
  });
}

// ---------------------------------------------------------------------------------------
// main
// ---------------------------------------------------------------------------------------

const scripts = await bundle({
  "task-server": "bench/task/server.ts",
  "task-fanout": "bench/task/fanout.ts",
});
const servers = (
  await Promise.all(KINDS.map(({ kind }) => startServer(scripts["task-server"], kind)))
).map((s) => ({ ...s, url: `http://127.0.0.1:${s.port}/` }));
const byKind = Object.fromEntries(servers.map((s) => [s.kind, s]));
for (const s of servers) await check(s);

console.log(`Task runtime, node ${process.version}`);
console.log(
  `\n1. JSON-RPC SendMessage, autocannon ${CONNECTIONS} connections, warm-up ${WARMUP} s + ${DURATION} s per server`,
);
const order = shuffle(KINDS.map((k) => k.kind));
console.log(`order: ${order.join(" → ")}`);
const unary = {};
for (const kind of order) {
  const server = byKind[kind];
  const r = await measureAutocannon(
    server,
    { url: server.url, method: "POST", headers: HEADERS, body: BODY },
    { connections: CONNECTIONS, warmup: WARMUP, duration: DURATION },
  );
  unary[kind] = r;
  console.log(
    `  ${kind.padEnd(11)} ${fmtInt(r.reqPerSec).padStart(7)} req/s  p50 ${fmtMs(r.p50)} ms  p99 ${fmtMs(r.p99)} ms  CPU server ${fmtPct(r.serverCpu)} client ${fmtPct(r.clientCpu)}`,
  );
}
// The servers stay up (idle) until shutdown(): children.mjs treats any earlier exit as a failure.

console.log(
  `\n2. Fan-out in-process: 1 task, ${fmtInt(SUBSCRIBERS)} SubscribeToTask subscribers, ${fmtInt(UPDATES)} updates + COMPLETED (after a 100 × 100 warm-up)`,
);
const fan = await runFanout(scripts["task-fanout"]);

console.log(
  "\n" +
    table(
      [
        "SendMessage (JSON-RPC)",
        "req/s",
        "p50 ms",
        "p99 ms",
        "errors",
        "non-2xx",
        "vs stateless",
        "server CPU",
        "client CPU",
      ],
      KINDS.map(({ kind, label }) => {
        const r = unary[kind];
        return [
          label,
          fmtInt(r.reqPerSec),
          fmtMs(r.p50),
          fmtMs(r.p99),
          r.errors,
          r.non2xx,
          fmtRatio(r.reqPerSec / unary.stateless.reqPerSec),
          fmtPct(r.serverCpu),
          fmtPct(r.clientCpu),
        ];
      }),
    ),
);

const ratio = (a, b, key) => fmtRatio(unary[a][key] / unary[b][key]);
console.log("\nRatios");
console.log(
  table(
    ["ratio", "req/s", "p50", "p99"],
    [
      [
        "task-memory / stateless",
        ratio("task-memory", "stateless", "reqPerSec"),
        ratio("task-memory", "stateless", "p50"),
        ratio("task-memory", "stateless", "p99"),
      ],
      [
        "task-sqlite / task-memory",
        ratio("task-sqlite", "task-memory", "reqPerSec"),
        ratio("task-sqlite", "task-memory", "p50"),
        ratio("task-sqlite", "task-memory", "p99"),
      ],
      [
        "task-reply / stateless",
        ratio("task-reply", "stateless", "reqPerSec"),
        ratio("task-reply", "stateless", "p50"),
        ratio("task-reply", "stateless", "p99"),
      ],
      [
        "task-memory / task-reply",
        ratio("task-memory", "task-reply", "reqPerSec"),
        ratio("task-memory", "task-reply", "p50"),
        ratio("task-memory", "task-reply", "p99"),
      ],
    ],
  ),
);

console.log(
  "\n" +
    table(
      ["fan-out", "value"],
      [
        [
          "subscribers × (updates + COMPLETED)",
          `${fmtInt(fan.subscribers)} × ${fmtInt(fan.updates + 1)}`,
        ],
        ["events delivered", fmtInt(fan.delivered)],
        ["emit → last subscriber done (s)", fan.seconds.toFixed(3)],
        ["delivered events/s (all subscribers)", fmtInt(fan.eventsPerSec)],
        ["updates/s (per subscriber)", fmtInt((fan.updates + 1) / fan.seconds)],
        ["subscribe all (s)", fan.subscribeSeconds.toFixed(3)],
        [
          `heap per subscriber (bytes${fan.gc ? ", after gc" : ", NO gc"})`,
          fmtInt(fan.bytesPerSubscriber),
        ],
        ["every subscriber got every event in order, ended", fan.ok ? "yes" : "NO"],
      ],
    ),
);
for (const p of fan.problems) console.log(`  problem: ${p}`);

const unaryClean = KINDS.every(({ kind }) => unary[kind].errors === 0 && unary[kind].non2xx === 0);
if (!unaryClean)
  console.log("\nwarning: some SendMessage runs had errors or non-2xx answers (see the table)");
console.log(
  "\nServer CPU = server process CPU time / wall time (1.00 = one core); client CPU = the same for autocannon here.\n" +
    "Fan-out events/s counts each event once per subscriber; heap per subscriber = heapUsed delta (task + 1 stream) / subscribers.",
);
await shutdown(fan.ok && unaryClean ? 0 : 1);
