#!/usr/bin/env node
/**
 * HTTP+JSON (REST) load benchmark: our generated REST server vs bare node:http vs @a2a-js/sdk 1.3.0 `restHandler`.
 *
 *   node bench/rest.mjs [--duration 10] [--connections 50] [--warmup 2] [--rounds 1]
 *
 * Two requests, each measured on every server:
 *   - POST /message:send  (A2A-Version: 1.0, Content-Type: application/json), the text echoed in a Message;
 *   - GET  /tasks/{id}    of a task created beforehand on that server with one POST /message:send "task"
 *                         (the SDK only answers GetTask for tasks in its store, so every server does the same).
 *
 * Every server runs in its own child process (bench/rest/server.ts, bundled with esbuild's JS API into
 * node_modules/.cache/bench/); autocannon runs here, in the parent, so it never shares a JS thread with a server.
 * Only 127.0.0.1. Per round and request the servers are measured in a random order, each right after its own
 * warm-up. With --rounds > 1 the table shows each server's median round, and ratios are taken within each round (same
 * machine conditions) and then their median.
 * Latency percentiles come from every 2xx response time (sub-millisecond), not autocannon's whole-ms histogram.
 *
 * Children exit with the parent (IPC disconnect), and are killed on exit, Ctrl-C, SIGTERM and errors. A watchdog
 * ends the script if it runs far past its expected duration.
 */
import { fork } from "node:child_process";
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { build, stop as stopEsbuild } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

// ---------------------------------------------------------------------------------------
// options
// ---------------------------------------------------------------------------------------

const { values: args } = parseArgs({
  options: {
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "50" },
    warmup: { type: "string", default: "2" },
    rounds: { type: "string", default: "1" },
    help: { type: "boolean", short: "h", default: false },
  },
});
if (args.help) {
  console.log("usage: node bench/rest.mjs [--duration 10] [--connections 50] [--warmup 2] [--rounds 1]");
  process.exit(0);
}
function intArg(name, min, max) {
  const n = Number(args[name]);
  if (!Number.isInteger(n) || n < min || n > max) {
    console.error(`--${name} must be an integer in [${min}, ${max}], got ${JSON.stringify(args[name])}`);
    process.exit(2);
  }
  return n;
}
const DURATION = intArg("duration", 1, 600);
const CONNECTIONS = intArg("connections", 1, 1000);
const WARMUP = intArg("warmup", 0, 60);
const ROUNDS = intArg("rounds", 1, 20);

// ---------------------------------------------------------------------------------------
// child processes: started, tracked, always ended
// ---------------------------------------------------------------------------------------

const children = new Set();
let shuttingDown = false;
function killChildren() {
  shuttingDown = true;
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  }
}
/** Kills the servers, waits (at most 2 s) until they are reaped, then exits. */
async function shutdown(code) {
  const exits = [...children].filter((c) => c.exitCode === null && c.signalCode === null).map((c) => new Promise((r) => c.once("exit", r)));
  killChildren();
  await Promise.race([Promise.all(exits), new Promise((r) => setTimeout(r, 2000).unref())]);
  process.exit(code);
}
process.on("exit", killChildren); // last resort, synchronous
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => {
    console.error(`\n${signal}: stopping the servers`);
    void shutdown(130);
  });
}
process.on("uncaughtException", (e) => {
  console.error("benchmark failed:", e);
  void shutdown(1);
});
process.on("unhandledRejection", (e) => {
  console.error("benchmark failed:", e);
  void shutdown(1);
});

const KINDS = [
  { kind: "bare", label: "bare node:http" },
  { kind: "ours-node", label: "ours (node adapter)" },
  { kind: "sdk", label: "@a2a-js/sdk express restHandler" },
];
const ROUTES = ["POST /message:send", "GET /tasks/{id}"];

// Watchdog: expected time plus a generous margin; unref'd so it never keeps us alive.
const expectedSeconds = 60 + ROUNDS * KINDS.length * ROUTES.length * (WARMUP + DURATION + 2) * 2;
setTimeout(() => {
  console.error(`watchdog: still running after ${expectedSeconds} s, giving up`);
  void shutdown(1);
}, expectedSeconds * 1000).unref();

async function buildServer() {
  const outdir = join(root, "node_modules", ".cache", "bench");
  mkdirSync(outdir, { recursive: true });
  const outfile = join(outdir, "rest-server.mjs");
  await build({
    entryPoints: [join(root, "bench", "rest", "server.ts")],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external", // resolved from the project's node_modules at run time
    logLevel: "warning",
  });
  await stopEsbuild(); // ends esbuild's service process
  return outfile;
}

function startServer(script, kind) {
  return new Promise((resolve, reject) => {
    const child = fork(script, [kind], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
    children.add(child);
    const timer = setTimeout(() => reject(new Error(`${kind}: not ready within 15 s`)), 15_000);
    const cpuWaiters = [];
    /** The server process's CPU time so far (user + system), in µs. */
    const cpu = () =>
      new Promise((resolveCpu) => {
        cpuWaiters.push(resolveCpu);
        child.send({ cmd: "cpu" });
      });
    child.on("message", (m) => {
      if (m && typeof m.cpu === "number") {
        cpuWaiters.shift()?.(m.cpu);
        return;
      }
      clearTimeout(timer);
      if (m && m.ready === true && typeof m.port === "number") resolve({ kind, child, cpu, base: `http://127.0.0.1:${m.port}` });
      else reject(new Error(`${kind}: unexpected message ${JSON.stringify(m)}`));
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      children.delete(child);
      reject(new Error(`${kind}: exited early (${signal ?? code})`));
      if (!shuttingDown) {
        console.error(`${kind}: the server process exited unexpectedly (${signal ?? code})`);
        void shutdown(1);
      }
    });
  });
}

// ---------------------------------------------------------------------------------------
// requests
// ---------------------------------------------------------------------------------------

const ECHO_TEXT = "hello, benchmark";
const VERSION = { "a2a-version": "1.0" };
const POST_HEADERS = { ...VERSION, "content-type": "application/json" };
const sendBody = (text, id = "bench-m-1") => JSON.stringify({ message: { messageId: id, role: "ROLE_USER", parts: [{ text }] } });
const ECHO_BODY = sendBody(ECHO_TEXT);

/** Checks the echo by hand, then creates the task the GetTask load reads; returns its path. */
async function prepare(server) {
  const echo = await fetch(`${server.base}/message:send`, { method: "POST", headers: POST_HEADERS, body: ECHO_BODY, signal: AbortSignal.timeout(10_000) });
  const echoed = await echo.json().catch(() => null);
  if (echo.status !== 200 || echoed?.message?.role !== "ROLE_AGENT" || echoed?.message?.parts?.[0]?.text !== ECHO_TEXT) {
    throw new Error(`${server.kind}: unexpected echo ${echo.status} ${JSON.stringify(echoed)}`);
  }
  const created = await fetch(`${server.base}/message:send`, { method: "POST", headers: POST_HEADERS, body: sendBody("task", "bench-task-m"), signal: AbortSignal.timeout(10_000) });
  const task = (await created.json().catch(() => null))?.task;
  if (created.status !== 200 || typeof task?.id !== "string" || task.status?.state !== "TASK_STATE_COMPLETED") {
    throw new Error(`${server.kind}: could not create a task: ${created.status} ${JSON.stringify(task)}`);
  }
  const path = `/tasks/${encodeURIComponent(task.id)}`;
  const got = await fetch(`${server.base}${path}`, { headers: VERSION, signal: AbortSignal.timeout(10_000) });
  const fetched = await got.json().catch(() => null);
  if (got.status !== 200 || fetched?.id !== task.id || fetched?.history?.[0]?.parts?.[0]?.text !== "task") {
    throw new Error(`${server.kind}: GET ${path} answered ${got.status} ${JSON.stringify(fetched)}`);
  }
  return path;
}

function requestOptions(server, route) {
  return route === "POST /message:send"
    ? { url: `${server.base}/message:send`, method: "POST", headers: POST_HEADERS, body: ECHO_BODY }
    : { url: `${server.base}${server.taskPath}`, method: "GET", headers: VERSION };
}

function runAutocannon(options, seconds, latencies) {
  return new Promise((resolve, reject) => {
    const instance = autocannon({ ...options, connections: CONNECTIONS, duration: seconds, pipelining: 1, timeout: 10 }, (err, result) => (err ? reject(err) : resolve(result)));
    if (latencies !== undefined) {
      instance.on("response", (_client, statusCode, _bytes, responseTime) => {
        if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
      });
    }
  });
}

/** A growable Float64Array of response times in ms. */
class Samples {
  constructor() {
    this.data = new Float64Array(1 << 16);
    this.length = 0;
  }
  push(v) {
    if (this.length === this.data.length) {
      const next = new Float64Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }
  percentile(p) {
    if (this.length === 0) return NaN;
    const sorted = this.data.subarray(0, this.length).sort();
    return sorted[Math.min(this.length - 1, Math.ceil((p / 100) * this.length) - 1)];
  }
}

async function measure(server, route) {
  const options = requestOptions(server, route);
  if (WARMUP > 0) await runAutocannon(options, WARMUP);
  const samples = new Samples();
  const serverCpu0 = await server.cpu();
  const r = await runAutocannon(options, DURATION, samples);
  const serverCpu = (await server.cpu()) - serverCpu0;
  const seconds = r.duration || DURATION;
  return {
    reqPerSec: r["2xx"] / seconds,
    p50: samples.percentile(50),
    p99: samples.percentile(99),
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
    serverCpu: serverCpu / 1e6 / seconds,
  };
}

// ---------------------------------------------------------------------------------------
// reporting helpers
// ---------------------------------------------------------------------------------------

function median(items, key) {
  const sorted = [...items].sort((a, b) => key(a) - key(b));
  return sorted[Math.floor((sorted.length - 1) / 2)];
}
function shuffle(items) {
  const a = [...items];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}
const fmtInt = (n) => (Number.isFinite(n) ? Math.round(n).toLocaleString("en-US") : "n/a");
const fmtMs = (n) => (Number.isFinite(n) ? n.toFixed(2) : "n/a");
const fmtPct = (n) => (Number.isFinite(n) ? `${Math.round(n * 100)}%` : "n/a");
const fmtRatio = (n) => (Number.isFinite(n) ? `${n.toFixed(2)}×` : "n/a");
function table(header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => "| " + cells.map((c, i) => (i <= 1 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join(" | ") + " |";
  return [line(header), "|" + widths.map((w, i) => (i <= 1 ? "-".repeat(w + 2) : "-".repeat(w + 1) + ":")).join("|") + "|", ...rows.map(line)].join("\n");
}

// ---------------------------------------------------------------------------------------
// main
// ---------------------------------------------------------------------------------------

const script = await buildServer();
const servers = await Promise.all(KINDS.map(({ kind }) => startServer(script, kind)));
const byKind = Object.fromEntries(servers.map((s) => [s.kind, s]));
for (const s of servers) s.taskPath = await prepare(s);

console.log(`HTTP+JSON, autocannon ${CONNECTIONS} connections, warm-up ${WARMUP} s + ${DURATION} s per server and request, ${ROUNDS} round(s), node ${process.version}`);
/** rounds[route][kind] = one result per round. */
const rounds = Object.fromEntries(ROUTES.map((route) => [route, Object.fromEntries(KINDS.map(({ kind }) => [kind, []]))]));
for (let round = 1; round <= ROUNDS; round++) {
  for (const route of ROUTES) {
    const order = shuffle(KINDS.map((k) => k.kind));
    console.log(`${ROUNDS > 1 ? `round ${round} ` : ""}${route}: ${order.join(" → ")}`);
    for (const kind of order) {
      const r = await measure(byKind[kind], route);
      rounds[route][kind].push(r);
      console.log(`  ${kind.padEnd(10)} ${fmtInt(r.reqPerSec).padStart(7)} req/s  p50 ${fmtMs(r.p50)} ms  p99 ${fmtMs(r.p99)} ms  errors ${r.errors}  non-2xx ${r.non2xx}  server CPU ${fmtPct(r.serverCpu)}`);
    }
  }
}
/** Each server's median round (by req/s), per request. */
const results = Object.fromEntries(ROUTES.map((route) => [route, Object.fromEntries(KINDS.map(({ kind }) => [kind, median(rounds[route][kind], (r) => r.reqPerSec)]))]));
/** A ratio computed within each round, then the median over rounds. */
const paired = (route, f) => median(rounds[route].bare.map((_, i) => f(Object.fromEntries(KINDS.map(({ kind }) => [kind, rounds[route][kind][i]])))), (v) => v);

console.log(
  "\n" +
    table(
      ["request", "server", "req/s", "p50 ms", "p99 ms", "errors", "non-2xx", "vs bare", "server CPU"],
      ROUTES.flatMap((route) =>
        KINDS.map(({ kind, label }) => {
          const r = results[route][kind];
          return [route, label, fmtInt(r.reqPerSec), fmtMs(r.p50), fmtMs(r.p99), r.errors, r.non2xx, fmtRatio(paired(route, (u) => u[kind].reqPerSec / u.bare.reqPerSec)), fmtPct(r.serverCpu)];
        }),
      ),
    ),
);

const verdict = (ok) => (ok ? "PASS" : "FAIL");
const targets = [];
console.log(`\nRatios${ROUNDS > 1 ? " (computed within each round, median over rounds)" : ""}`);
for (const route of ROUTES) {
  const vsBare = paired(route, (u) => u["ours-node"].reqPerSec / u.bare.reqPerSec);
  const vsSdk = paired(route, (u) => u["ours-node"].reqPerSec / u.sdk.reqPerSec);
  const p99 = paired(route, (u) => u["ours-node"].p99 / u.bare.p99);
  const errors = rounds[route]["ours-node"].reduce((n, r) => n + r.errors, 0);
  const non2xx = rounds[route]["ours-node"].reduce((n, r) => n + r.non2xx, 0);
  console.log(`  ${route.padEnd(20)} ours/bare req/s ${fmtRatio(vsBare)}   ours/sdk req/s ${fmtRatio(vsSdk)}   ours/bare p99 ${fmtRatio(p99)}`);
  targets.push(
    [`${route}: ours req/s ≥ 50% of bare`, vsBare >= 0.5, fmtRatio(vsBare)],
    [`${route}: ours req/s ≥ 5× sdk`, vsSdk >= 5, fmtRatio(vsSdk)],
    [`${route}: ours p99 ≤ 2× bare p99`, p99 <= 2, fmtRatio(p99)],
    [`${route}: no errors / non-2xx (ours)`, errors === 0 && non2xx === 0, `${errors} / ${non2xx}`],
  );
}
console.log("\nTargets");
for (const [name, ok, value] of targets) console.log(`  ${verdict(ok)}  ${name}  (${value})`);
const failed = targets.filter(([, ok]) => !ok).length;
console.log(failed === 0 ? "\nall targets met" : `\n${failed} target(s) missed`);
console.log(
  "Server CPU = the server process's CPU time / wall time (1.00 = one core busy). A server well below 100% while\n" +
    "the others are near it is bounded by the load generator, not by itself.",
);
await shutdown(0);
