#!/usr/bin/env node
/**
 * JSON-RPC load benchmark: our generated server vs bare node:http vs @a2a-js/sdk 1.3.0.
 *
 *   node bench/jsonrpc.mjs [--duration 10] [--connections 50] [--warmup 2] [--rounds 1]
 *                          [--stream-events 10000] [--stream-runs 3]
 *
 * Every server runs in its own child process (bench/jsonrpc/server.ts, bundled with esbuild
 * into node_modules/.cache/bench/); the load generator (autocannon's programmatic API) runs
 * here, in the parent, so it never shares a JS thread with a server. Only 127.0.0.1.
 *
 * Unary: the same SendMessage request (A2A-Version: 1.0, Content-Type: application/json) to
 * each server; per round the servers are measured in a random order, each right after its
 * own warm-up. Latency percentiles are computed here from every 2xx response time
 * (sub-millisecond, unlike autocannon's whole-ms histogram). With --rounds > 1 the table
 * shows the median round of each server, and ratios are taken within each round (same
 * machine conditions) and then their median. Server CPU (from the child) and load-generator
 * CPU are printed too, to tell a CPU-bound server from a contended machine.
 *
 * Also measured: "bare-fetch", the bare handler as a fetch handler behind the same
 * node:http → fetch bridge as ours(fetch), which separates the bridge's cost from ours.
 *
 * Stream: one SendStreamingMessage producing --stream-events events, read by a plain fetch
 * client; events/s over the whole call (request to last byte), median of --stream-runs runs
 * after one warm-up run.
 *
 * Children exit with the parent (IPC disconnect), and are killed on exit, Ctrl-C, SIGTERM
 * and errors. A watchdog ends the script if it ever runs far past its expected duration.
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
    "stream-events": { type: "string", default: "10000" },
    "stream-runs": { type: "string", default: "3" },
    help: { type: "boolean", short: "h", default: false },
  },
});
if (args.help) {
  console.log("usage: node bench/jsonrpc.mjs [--duration 10] [--connections 50] [--warmup 2] [--rounds 1] [--stream-events 10000] [--stream-runs 3]");
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
const STREAM_EVENTS = intArg("stream-events", 2, 1_000_000);
const STREAM_RUNS = intArg("stream-runs", 1, 20);
const STREAM_TIMEOUT_MS = 60_000;

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
  { kind: "ours-fetch", label: "ours (fetch + bridge)" },
  { kind: "bare-fetch", label: "bare fetch + bridge", unaryOnly: true },
  { kind: "sdk", label: "@a2a-js/sdk express" },
];

// Watchdog: expected time plus a generous margin; unref'd so it never keeps us alive.
const expectedSeconds = 30 + ROUNDS * KINDS.length * (WARMUP + DURATION + 2) + KINDS.length * (STREAM_RUNS + 1) * (STREAM_TIMEOUT_MS / 1000);
setTimeout(() => {
  console.error(`watchdog: still running after ${expectedSeconds} s, giving up`);
  void shutdown(1);
}, expectedSeconds * 1000).unref();

async function buildServer() {
  const outdir = join(root, "node_modules", ".cache", "bench");
  mkdirSync(outdir, { recursive: true });
  const outfile = join(outdir, "jsonrpc-server.mjs");
  await build({
    entryPoints: [join(root, "bench", "jsonrpc", "server.ts")],
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
      if (m && m.ready === true && typeof m.port === "number") resolve({ kind, child, cpu, url: `http://127.0.0.1:${m.port}/` });
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
const HEADERS = { "content-type": "application/json", "a2a-version": "1.0" };
const UNARY_BODY = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "SendMessage",
  params: { message: { messageId: "bench-m-1", role: "ROLE_USER", parts: [{ text: ECHO_TEXT }] } },
});
const streamBody = (n) =>
  JSON.stringify({ jsonrpc: "2.0", id: 2, method: "SendStreamingMessage", params: { message: { messageId: "bench-s-1", role: "ROLE_USER", parts: [{ text: `count ${n}` }] } } });

/** One request by hand: the server must answer 200 with the echoed Message. */
async function checkEcho(server) {
  const res = await fetch(server.url, { method: "POST", headers: HEADERS, body: UNARY_BODY, signal: AbortSignal.timeout(10_000) });
  const json = await res.json().catch(() => null);
  const message = json?.result?.message;
  if (res.status !== 200 || json?.id !== 1 || message?.role !== "ROLE_AGENT" || message?.parts?.[0]?.text !== ECHO_TEXT) {
    throw new Error(`${server.kind}: unexpected answer ${res.status} ${JSON.stringify(json)}`);
  }
}

function runAutocannon(url, seconds, latencies) {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      { url, method: "POST", headers: HEADERS, body: UNARY_BODY, connections: CONNECTIONS, duration: seconds, pipelining: 1, timeout: 10 },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
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

async function measureUnary(server) {
  if (WARMUP > 0) await runAutocannon(server.url, WARMUP);
  const samples = new Samples();
  const serverCpu0 = await server.cpu();
  const clientCpu0 = process.cpuUsage();
  const r = await runAutocannon(server.url, DURATION, samples);
  const clientCpu = process.cpuUsage(clientCpu0);
  const serverCpu = (await server.cpu()) - serverCpu0;
  const ok = r["2xx"];
  const seconds = r.duration || DURATION;
  return {
    serverCpu: serverCpu / 1e6 / seconds,
    clientCpu: (clientCpu.user + clientCpu.system) / 1e6 / seconds,
    reqPerSec: ok / seconds,
    p50: samples.percentile(50),
    p99: samples.percentile(99),
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
    total: r.requests.total,
  };
}

/** One SendStreamingMessage of n events read with plain fetch; counts SSE events. */
async function streamOnce(server, n) {
  const started = performance.now();
  const res = await fetch(server.url, {
    method: "POST",
    headers: { ...HEADERS, accept: "text/event-stream" },
    body: streamBody(n),
    signal: AbortSignal.timeout(STREAM_TIMEOUT_MS),
  });
  if (res.status !== 200 || !(res.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
    throw new Error(`${server.kind}: stream answered ${res.status} ${res.headers.get("content-type")}: ${(await res.text()).slice(0, 300)}`);
  }
  const decoder = new TextDecoder();
  let buffer = "";
  let events = 0;
  let last = "";
  for await (const chunk of res.body) {
    buffer += decoder.decode(chunk, { stream: true });
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      if (block.startsWith("data:")) {
        events++;
        last = block;
      }
    }
  }
  const seconds = (performance.now() - started) / 1000;
  if (events !== n) throw new Error(`${server.kind}: expected ${n} events, got ${events}`);
  if (last.includes('"error"')) throw new Error(`${server.kind}: the stream ended with an error: ${last.slice(0, 300)}`);
  return { events, seconds, eventsPerSec: events / seconds };
}

async function measureStream(server) {
  await streamOnce(server, STREAM_EVENTS); // warm-up
  const runs = [];
  for (let i = 0; i < STREAM_RUNS; i++) runs.push(await streamOnce(server, STREAM_EVENTS));
  return median(runs, (r) => r.eventsPerSec);
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
  const line = (cells) => "| " + cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join(" | ") + " |";
  return [line(header), "|" + widths.map((w, i) => (i === 0 ? "-".repeat(w + 2) : "-".repeat(w + 1) + ":")).join("|") + "|", ...rows.map(line)].join("\n");
}

// ---------------------------------------------------------------------------------------
// main
// ---------------------------------------------------------------------------------------

const script = await buildServer();
const servers = await Promise.all(KINDS.map(({ kind }) => startServer(script, kind)));
const byKind = Object.fromEntries(servers.map((s) => [s.kind, s]));
for (const s of servers) await checkEcho(s);

console.log(`JSON-RPC SendMessage, autocannon ${CONNECTIONS} connections, warm-up ${WARMUP} s + ${DURATION} s per server, ${ROUNDS} round(s), node ${process.version}`);
const rounds = Object.fromEntries(KINDS.map(({ kind }) => [kind, []]));
for (let round = 1; round <= ROUNDS; round++) {
  const order = shuffle(KINDS.map((k) => k.kind));
  console.log(`round ${round}: ${order.join(" → ")}`);
  for (const kind of order) {
    const r = await measureUnary(byKind[kind]);
    rounds[kind].push(r);
    console.log(`  ${kind.padEnd(10)} ${fmtInt(r.reqPerSec).padStart(7)} req/s  p50 ${fmtMs(r.p50)} ms  p99 ${fmtMs(r.p99)} ms  CPU server ${fmtPct(r.serverCpu)} client ${fmtPct(r.clientCpu)}`);
  }
}
const unary = Object.fromEntries(KINDS.map(({ kind }) => [kind, median(rounds[kind], (r) => r.reqPerSec)]));
/** A ratio between servers computed within each round (same machine conditions), then the median over rounds. */
function paired(f) {
  const values = [];
  for (let i = 0; i < ROUNDS; i++) values.push(f(Object.fromEntries(KINDS.map(({ kind }) => [kind, rounds[kind][i]]))));
  return median(values, (v) => v);
}

console.log(`\nStream: one SendStreamingMessage of ${STREAM_EVENTS.toLocaleString("en-US")} events read with fetch (median of ${STREAM_RUNS} after 1 warm-up)`);
const stream = {};
const streamNotes = {};
for (const { kind, unaryOnly } of KINDS) {
  if (unaryOnly) continue;
  try {
    stream[kind] = await measureStream(byKind[kind]);
    console.log(`  ${kind.padEnd(10)} ${fmtInt(stream[kind].eventsPerSec).padStart(9)} events/s  (${stream[kind].seconds.toFixed(3)} s)`);
  } catch (e) {
    streamNotes[kind] = e instanceof Error ? e.message : String(e);
  }
}

// -- unary table
console.log("\n" + table(
  ["server", "req/s", "p50 ms", "p99 ms", "errors", "non-2xx", "vs bare", "server CPU", "client CPU"],
  KINDS.map(({ kind, label }) => {
    const r = unary[kind];
    return [label, fmtInt(r.reqPerSec), fmtMs(r.p50), fmtMs(r.p99), r.errors, r.non2xx, fmtRatio(paired((u) => u[kind].reqPerSec / u.bare.reqPerSec)), fmtPct(r.serverCpu), fmtPct(r.clientCpu)];
  }),
));

// -- stream table
console.log("\n" + table(
  ["server (stream)", "events/s", "seconds", "vs bare"],
  KINDS.filter((k) => !k.unaryOnly).map(({ kind, label }) => {
    const r = stream[kind];
    if (r === undefined) return [label, "skipped", "-", "-"];
    return [label, fmtInt(r.eventsPerSec), r.seconds.toFixed(3), stream.bare ? fmtRatio(r.eventsPerSec / stream.bare.eventsPerSec) : "n/a"];
  }),
));
for (const [kind, note] of Object.entries(streamNotes)) console.log(`note: ${kind} stream skipped: ${note}`);

// -- ratios and targets
const ratio = {
  nodeVsBare: paired((u) => u["ours-node"].reqPerSec / u.bare.reqPerSec),
  fetchVsBare: paired((u) => u["ours-fetch"].reqPerSec / u.bare.reqPerSec),
  nodeVsSdk: paired((u) => u["ours-node"].reqPerSec / u.sdk.reqPerSec),
  fetchVsSdk: paired((u) => u["ours-fetch"].reqPerSec / u.sdk.reqPerSec),
  fetchVsBareFetch: paired((u) => u["ours-fetch"].reqPerSec / u["bare-fetch"].reqPerSec),
  p99NodeVsBare: paired((u) => u["ours-node"].p99 / u.bare.p99),
  p99FetchVsBare: paired((u) => u["ours-fetch"].p99 / u.bare.p99),
};
console.log(`\nRatios${ROUNDS > 1 ? " (computed within each round, median over rounds)" : ""}`);
console.log(`  ours(node)/bare   req/s  ${fmtRatio(ratio.nodeVsBare)}`);
console.log(`  ours(fetch)/bare  req/s  ${fmtRatio(ratio.fetchVsBare)}`);
console.log(`  ours(node)/sdk    req/s  ${fmtRatio(ratio.nodeVsSdk)}`);
console.log(`  ours(fetch)/sdk   req/s  ${fmtRatio(ratio.fetchVsSdk)}`);
console.log(`  ours(fetch)/bare-fetch req/s  ${fmtRatio(ratio.fetchVsBareFetch)}  (same bridge: our cost on a fetch runtime)`);
console.log(`  ours(node)/bare   p99    ${fmtRatio(ratio.p99NodeVsBare)}`);
console.log(`  ours(fetch)/bare  p99    ${fmtRatio(ratio.p99FetchVsBare)}`);
if (stream["ours-node"] && stream.sdk) console.log(`  ours(node)/sdk    stream events/s  ${fmtRatio(stream["ours-node"].eventsPerSec / stream.sdk.eventsPerSec)}`);

const verdict = (ok) => (ok ? "PASS" : "FAIL");
const targets = [
  [`ours(node) req/s ≥ 50% of bare`, ratio.nodeVsBare >= 0.5, fmtRatio(ratio.nodeVsBare)],
  [`ours(node) req/s ≥ 5× sdk`, ratio.nodeVsSdk >= 5, fmtRatio(ratio.nodeVsSdk)],
  [`ours(node) p99 ≤ 2× bare p99`, ratio.p99NodeVsBare <= 2, fmtRatio(ratio.p99NodeVsBare)],
  [`ours(fetch) req/s ≥ 50% of bare`, ratio.fetchVsBare >= 0.5, fmtRatio(ratio.fetchVsBare)],
  [`ours(fetch) req/s ≥ 5× sdk`, ratio.fetchVsSdk >= 5, fmtRatio(ratio.fetchVsSdk)],
  [`ours(fetch) p99 ≤ 2× bare p99`, ratio.p99FetchVsBare <= 2, fmtRatio(ratio.p99FetchVsBare)],
  [`no errors / non-2xx (ours)`, ["ours-node", "ours-fetch"].every((k) => unary[k].errors === 0 && unary[k].non2xx === 0), ""],
];
console.log("\nTargets");
for (const [name, ok, value] of targets) console.log(`  ${verdict(ok)}  ${name}${value ? `  (${value})` : ""}`);

console.log(
  "\nServer CPU = the server process's CPU time / wall time (1.00 = one core busy); client CPU = the same for this\n" +
    "process (autocannon). On 2 cores, a server well below 100% while the client is near 100% is load-generator-bound.",
);
await shutdown(0);
