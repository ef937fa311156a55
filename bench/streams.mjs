#!/usr/bin/env node
/**
 * Streaming over real sockets (issue #16), on JSON-RPC and HTTP+JSON SSE:
 *
 *   node bench/streams.mjs [--subscribers 10000] [--streams 10000] [--paced 10] [--interval 500] [--burst 20]
 *                          [--stream-events 10000] [--stream-runs 7] [--stream-warmup 3] [--clients 2] [--bindings jsonrpc,rest]
 *                          [--only sse-stream-events,sse-fanout-10k,sse-streams-10k] [--results <file>]
 *                          [--cpu-prof]  (server CPU profiles of the paced and burst phases into bench/output/)
 *
 * Servers (bench/streams/server.ts, one child process per scenario and binding, bundled with esbuild): "ours",
 * the generated JSON-RPC and HTTP+JSON servers over createA2AServiceTaskHandler (in-memory store) with a bench
 * executor that keeps a task WORKING and emits numbered, timestamped updates when this script tells it to (IPC);
 * "sdk", @a2a-js/sdk 1.3.0 with the equivalent executor. Load: --clients processes (bench/streams/client.ts),
 * node:http, one socket per stream, every event of every stream checked in order.
 *
 * Scenarios:
 * - sse-stream-events: one SendStreamingMessage of --stream-events events (Task, updates, COMPLETED) back to back,
 *   request to last byte, ours vs the SDK: --stream-warmup runs each, then --stream-runs rounds of one run per server
 *   (random order); the ratio is the median of the rounds' ratios (each round: same machine conditions);
 * - sse-fanout-10k: one task, --subscribers SubscribeToTask streams;
 * - sse-streams-10k: --streams SendStreamingMessage streams, one task each.
 * The last two: a warm-up (200 streams, 50 updates, completed, closed), then the streams are opened (the server's
 * memory measured after GC: per-stream cost), then "paced": --paced updates on every task, one per --interval ms
 * (an update's delivery delay without queueing behind earlier ones; on one task it is the time the server takes to
 * fan one event out to every stream, the p99 ≈ all of it), then "burst": --burst updates on every task back to
 * back (delivered events/s; the delay then includes the queue), then COMPLETED on every task, every stream must
 * end, no live task slot may be left, and the server's heap/RSS after GC is compared with before the streams
 * were opened (leaks; for sse-streams-10k the in-memory store keeps the 10,000 completed tasks). RSS/heap peaks
 * are sampled every 50 ms in the server; the burst peak grows with --burst × tasks (the queued events: the
 * executor is never paced by its readers, by design of the task runtime).
 * Delivery delay = arrival at the client − the `ts` the executor stamped into the event (both
 * performance.timeOrigin + performance.now(), same machine). A load process that used ≥ 90% of a core in a
 * measured phase marks the row "client-bound".
 */
import { fork, execFileSync } from "node:child_process";
import { parseBenchArgs } from "./lib/args.mjs";
import { join } from "node:path";
import { bundle, root } from "./lib/build.mjs";
import {
  installExitHandlers,
  isShuttingDown,
  shutdown,
  startServer,
  startWatchdog,
  track,
} from "./lib/children.mjs";
import {
  fmtInt,
  fmtMs,
  fmtPct,
  fmtRatio,
  median,
  printTargets,
  shuffle,
  table,
} from "./lib/report.mjs";
import { writeResults } from "./lib/results.mjs";

const USAGE =
  "usage: node bench/streams.mjs [--subscribers 10000] [--streams 10000] [--paced 10] [--interval 500] [--burst 20] [--stream-events 10000] [--stream-runs 7] [--stream-warmup 3] [--clients 2] [--bindings jsonrpc,rest] [--only sse-stream-events,sse-fanout-10k,sse-streams-10k] [--results <file>] [--cpu-prof]";
const { intArg, args } = parseBenchArgs(USAGE, {
  subscribers: { type: "string", default: "10000" },
  streams: { type: "string", default: "10000" },
  paced: { type: "string", default: "10" },
  interval: { type: "string", default: "500" },
  burst: { type: "string", default: "20" },
  "stream-events": { type: "string", default: "10000" },
  "stream-runs": { type: "string", default: "7" },
  "stream-warmup": { type: "string", default: "3" },
  clients: { type: "string", default: "2" },
  bindings: { type: "string", default: "jsonrpc,rest" },
  only: { type: "string", default: "" },
  results: { type: "string", default: "" },
  "cpu-prof": { type: "boolean", default: false },
});
const SUBSCRIBERS = intArg("subscribers", 1, 100_000);
const STREAMS = intArg("streams", 1, 100_000);
const PACED = intArg("paced", 1, 10_000);
const INTERVAL = intArg("interval", 1, 10_000);
const BURST = intArg("burst", 1, 100_000);
const STREAM_EVENTS = intArg("stream-events", 3, 1_000_000);
const STREAM_RUNS = intArg("stream-runs", 1, 20);
const STREAM_WARMUP = intArg("stream-warmup", 0, 20);
const CLIENTS = intArg("clients", 1, 8);
const BINDINGS = args.bindings.split(",").filter((b) => b !== "");
for (const b of BINDINGS)
  if (b !== "jsonrpc" && b !== "rest")
    throw new Error(`unknown binding ${b}; known: jsonrpc, rest`);
const ALL = ["sse-stream-events", "sse-fanout-10k", "sse-streams-10k"];
const ONLY = args.only === "" ? ALL : args.only.split(",");
for (const s of ONLY)
  if (!ALL.includes(s)) throw new Error(`unknown scenario ${s}; known: ${ALL.join(", ")}`);

const PROFILE_DIR = join(root, "bench", "output");
const WARM_STREAMS = 200;
const WARM_UPDATES = 50;
const OPEN_CONCURRENCY = 200;
const DELIVERY_TIMEOUT_MS = 120_000;
const MiB = 1024 * 1024;
const LABEL = { jsonrpc: "JSON-RPC", rest: "HTTP+JSON" };
const now = () => performance.timeOrigin + performance.now();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

installExitHandlers("children");
startWatchdog(60 + BINDINGS.length * (ONLY.length * 150));

// File descriptors: a server holds every stream's socket, a load process its share.
const fdLimit = Number(execFileSync("sh", ["-c", "ulimit -n"]).toString().trim());
const needed =
  Math.max(
    ONLY.includes("sse-fanout-10k") ? SUBSCRIBERS : 0,
    ONLY.includes("sse-streams-10k") ? STREAMS : 0,
  ) + 1000;
if (Number.isFinite(fdLimit) && fdLimit < needed) {
  console.error(
    `ulimit -n is ${fdLimit}; the server needs about ${needed} descriptors. Raise it (ulimit -n ${needed}) and run again.`,
  );
  process.exit(2);
}

// ---------------------------------------------------------------------------------------
// IPC: request/answer over a child's channel (answers carry `re: <cmd>`)
// ---------------------------------------------------------------------------------------

function asker(child, who) {
  const waiting = new Map();
  child.on("message", (m) => {
    if (m === null || typeof m !== "object" || typeof m.re !== "string") return;
    const w = waiting.get(m.re)?.shift();
    if (w === undefined) return;
    clearTimeout(w.timer);
    if (typeof m.error === "string") w.reject(new Error(`${who}: ${m.re} failed: ${m.error}`));
    else w.resolve(m);
  });
  return (message, timeoutMs = DELIVERY_TIMEOUT_MS) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${who}: no answer to ${message.cmd} within ${timeoutMs} ms`)),
        timeoutMs,
      );
      timer.unref();
      if (!waiting.has(message.cmd)) waiting.set(message.cmd, []);
      waiting.get(message.cmd).push({ resolve, reject, timer });
      child.send(message);
    });
}

function startClient(script, i) {
  return new Promise((resolve, reject) => {
    const child = track(fork(script, [], { stdio: ["ignore", "inherit", "inherit", "ipc"] }));
    const ask = asker(child, `client ${i}`);
    child.once("message", (m) =>
      m?.ready ? resolve({ child, ask }) : reject(new Error(`client ${i}: ${JSON.stringify(m)}`)),
    );
    child.once("exit", (code, signal) => {
      reject(new Error(`client ${i}: exited (${signal ?? code})`));
      if (!isShuttingDown()) {
        console.error(`client ${i}: the load process exited unexpectedly (${signal ?? code})`);
        void shutdown(1);
      }
    });
  });
}

async function startOurs(script, kind) {
  const s = await startServer(script, kind);
  return { ...s, ask: asker(s.child, kind), base: `http://127.0.0.1:${s.port}` };
}

// ---------------------------------------------------------------------------------------
// helpers
// ---------------------------------------------------------------------------------------

/** Creates a task held WORKING by the bench executor (JSON-RPC SendMessage, returnImmediately); returns its id. */
async function holdTask(server) {
  const body = {
    jsonrpc: "2.0",
    id: 1,
    method: "SendMessage",
    params: {
      message: { messageId: `hold-${Math.random()}`, role: "ROLE_USER", parts: [{ text: "hold" }] },
      configuration: { returnImmediately: true },
    },
  };
  const res = await fetch(`${server.base}/a2a/jsonrpc`, {
    method: "POST",
    headers: { "content-type": "application/json", "a2a-version": "1.0" },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const json = await res.json();
  const id = json?.result?.task?.id;
  if (typeof id !== "string") throw new Error(`hold: unexpected answer ${JSON.stringify(json)}`);
  return id;
}

async function waitHeld(server, n) {
  const deadline = Date.now() + DELIVERY_TIMEOUT_MS;
  for (;;) {
    const m = await server.ask({ cmd: "mem" });
    if (m.held >= n) return;
    if (Date.now() > deadline) throw new Error(`only ${m.held} of ${n} tasks held`);
    await sleep(50);
  }
}

const all = (clients, message) => Promise.all(clients.map((c) => c.ask(message)));

/** Polls every client until `done(summed stats)`; returns the summed stats. */
async function waitClients(clients, done, what) {
  const deadline = Date.now() + DELIVERY_TIMEOUT_MS;
  for (;;) {
    const s = sum(await all(clients, { cmd: "stats" }));
    if (done(s)) return s;
    if (Date.now() > deadline)
      throw new Error(
        `${what}: timed out (${JSON.stringify({ ...s, hist: undefined, perClient: undefined })})`,
      );
    await sleep(50);
  }
}

function sum(list) {
  const out = {
    delivered: 0,
    hist: [],
    lastArrival: 0,
    streams: 0,
    ended: 0,
    completed: 0,
    minNext: Infinity,
    maxNext: -Infinity,
    problems: [],
    problemCount: 0,
    perClient: list,
  };
  for (const s of list) {
    out.delivered += s.delivered;
    out.hist.push(...s.hist);
    out.lastArrival = Math.max(out.lastArrival, s.lastArrival);
    out.streams += s.streams;
    out.ended += s.ended;
    out.completed += s.completed;
    out.minNext = Math.min(out.minNext, s.minNext);
    out.maxNext = Math.max(out.maxNext, s.maxNext);
    out.problems.push(...s.problems);
    out.problemCount += s.problemCount;
  }
  return out;
}

/** Splits `n` into `k` near-equal shares. */
const shares = (n, k) =>
  Array.from({ length: k }, (_, i) => Math.floor(n / k) + (i < n % k ? 1 : 0));

const mem = async (server) => server.ask({ cmd: "mem", gc: true });
const peakOf = (m) => ({ peakRss: m.peakRss, peakHeap: m.peakHeap });

// ---------------------------------------------------------------------------------------
// sse-fanout-10k / sse-streams-10k
// ---------------------------------------------------------------------------------------

/** Opens `count` streams over the clients: SubscribeToTask of `taskId`, or SendStreamingMessage "hold" when undefined. */
async function openStreams(server, clients, binding, count, taskId) {
  const op = taskId === undefined ? "stream" : "subscribe";
  const results = await Promise.all(
    shares(count, clients.length).map((n, i) =>
      n === 0
        ? { opened: 0, seconds: 0 }
        : clients[i].ask({
            cmd: "open",
            port: server.port,
            binding,
            op,
            taskId,
            count: n,
            concurrency: OPEN_CONCURRENCY,
          }),
    ),
  );
  return {
    opened: results.reduce((a, r) => a + r.opened, 0),
    seconds: Math.max(...results.map((r) => r.seconds)),
  };
}

/** One phase: `count` updates on every held task (interval 0 = back to back); every stream must get them all. */
async function phase(server, clients, streams, count, intervalMs) {
  await all(clients, { cmd: "phase", measure: true });
  const cpu0 = await server.cpu();
  const t0 = now();
  await server.ask({ cmd: "emit", count, intervalMs });
  const expected = streams * count;
  const s = await waitClients(
    clients,
    (x) => x.delivered >= expected || x.problemCount > 0,
    "delivery",
  );
  const cpu = (await server.cpu()) - cpu0;
  const wall = (s.lastArrival - t0) / 1000;
  const { histogramPercentile } = histogram;
  return {
    delivered: s.delivered,
    expected,
    seconds: wall,
    eventsPerSec: s.delivered / wall,
    p50: histogramPercentile(s.hist, 50),
    p99: histogramPercentile(s.hist, 99),
    max: histogramPercentile(s.hist, 100),
    serverCpu: cpu / 1e6 / wall,
    /** Server CPU per delivered event (µs): what the server spends per event and stream, whatever else runs on the machine. */
    cpuPerEvent: cpu / Math.max(1, s.delivered),
    clientCpu: Math.max(...s.perClient.map((c) => c.cpuUs / 1000 / c.wallMs)),
    problems: s.problems,
    problemCount: s.problemCount,
  };
}

async function manyStreams(scenario, binding, script, clients) {
  const fanout = scenario === "sse-fanout-10k";
  const n = fanout ? SUBSCRIBERS : STREAMS;
  const server = await startOurs(script, "ours");
  const problems = [];

  // Warm-up: the same path at a small scale, then everything closed.
  const warmTask = fanout ? await holdTask(server) : undefined;
  if (fanout) await waitHeld(server, 1);
  await openStreams(server, clients, binding, WARM_STREAMS, warmTask);
  await waitHeld(server, fanout ? 1 : WARM_STREAMS);
  await phase(server, clients, WARM_STREAMS, WARM_UPDATES, 0);
  await server.ask({ cmd: "complete" });
  await waitClients(clients, (x) => x.ended >= x.streams, "warm-up end");
  await all(clients, { cmd: "close" });
  await all(clients, { cmd: "reset-problems" });

  const before = await mem(server);
  const taskId = fanout ? await holdTask(server) : undefined;
  if (fanout) await waitHeld(server, 1);
  const open = await openStreams(server, clients, binding, n, taskId);
  if (open.opened !== n) problems.push(`opened ${open.opened} of ${n} streams`);
  await waitHeld(server, fanout ? 1 : n);
  const held = await mem(server);
  const openPeak = await server.ask({ cmd: "mem" }); // peaks since the warm-up: the opening of the streams
  await server.ask({ cmd: "peak-reset" });

  const profile = (name) => `${PROFILE_DIR}/streams-${scenario}-${binding}-${name}.cpuprofile`;
  if (args["cpu-prof"]) await server.ask({ cmd: "profile-start" });
  const paced = await phase(server, clients, n, PACED, INTERVAL);
  Object.assign(paced, peakOf(await server.ask({ cmd: "mem" })));
  await server.ask({ cmd: "peak-reset" });
  if (args["cpu-prof"]) {
    await server.ask({ cmd: "profile-stop", file: profile("paced") });
    await server.ask({ cmd: "profile-start" });
  }
  const burst = await phase(server, clients, n, BURST, 0);
  Object.assign(burst, peakOf(await server.ask({ cmd: "mem" })));
  if (args["cpu-prof"]) await server.ask({ cmd: "profile-stop", file: profile("burst") });
  const peak = {
    peakRss: Math.max(openPeak.peakRss, paced.peakRss, burst.peakRss),
    peakHeap: Math.max(openPeak.peakHeap, paced.peakHeap, burst.peakHeap),
  };

  await server.ask({ cmd: "complete" });
  const end = await waitClients(clients, (x) => x.ended >= x.streams || x.problemCount > 0, "end");
  if (end.completed !== n) problems.push(`${end.completed} of ${n} streams got COMPLETED`);
  if (end.ended !== n) problems.push(`${end.ended} of ${n} streams ended`);
  if (end.minNext !== PACED + BURST || end.maxNext !== PACED + BURST)
    problems.push(
      `numbered updates per stream ${end.minNext}…${end.maxNext}, expected ${PACED + BURST}`,
    );
  problems.push(...end.problems);
  if (end.problemCount > end.problems.length)
    problems.push(`… ${end.problemCount} problems in all`);
  await all(clients, { cmd: "close" });
  // The server closes 10,000 sockets: measure once they are all gone (and every task slot released), at most 20 s.
  for (let i = 0; i < 200; i++) {
    const m = await server.ask({ cmd: "mem" });
    if (m.sockets === 0 && m.live === 0) break;
    await sleep(100);
  }
  await sleep(200);
  const after = await mem(server);
  if (after.live !== 0)
    problems.push(`${after.live} live task slot(s) left after every stream ended (a leak)`);
  await all(clients, { cmd: "reset-problems" });
  return {
    scenario,
    binding,
    n,
    open,
    before,
    held,
    peak,
    after,
    paced,
    burst,
    problems,
    ok: problems.length === 0,
  };
}

// ---------------------------------------------------------------------------------------
// sse-stream-events
// ---------------------------------------------------------------------------------------

async function oneStream(server, client, binding) {
  await client.ask({ cmd: "phase", measure: false });
  const cpu0 = await server.cpu();
  const r = await client.ask({ cmd: "one", port: server.port, binding, count: STREAM_EVENTS });
  const cpu = (await server.cpu()) - cpu0;
  const stats = await client.ask({ cmd: "stats" });
  if (stats.problemCount > 0)
    throw new Error(`${server.kind} ${binding}: ${stats.problems.join("; ")}`);
  if (r.events !== STREAM_EVENTS)
    throw new Error(`${server.kind} ${binding}: ${r.events} events, expected ${STREAM_EVENTS}`);
  return {
    eventsPerSec: r.events / r.seconds,
    seconds: r.seconds,
    serverCpu: cpu / 1e6 / r.seconds,
    cpuPerEvent: cpu / r.events,
    clientCpu: stats.cpuUs / 1000 / stats.wallMs,
  };
}

async function streamEvents(script, client) {
  // The executor emits the whole stream back to back: let its queue hold all of it (the documented knob, see server.ts).
  process.env.BENCH_MAX_QUEUED_EVENTS = String(STREAM_EVENTS);
  const servers = { ours: await startOurs(script, "ours"), sdk: await startOurs(script, "sdk") };
  delete process.env.BENCH_MAX_QUEUED_EVENTS;
  const out = {};
  for (const binding of BINDINGS) {
    for (const kind of Object.keys(servers))
      for (let i = 0; i < STREAM_WARMUP; i++) await oneStream(servers[kind], client, binding); // JIT warm-up: the first runs are 3-5× slower
    // Rounds of one run per server (random order in each): the ratio is taken within each round, then its median.
    const runs = { ours: [], sdk: [] };
    const ratios = [];
    const cpuRatios = [];
    for (let i = 0; i < STREAM_RUNS; i++) {
      for (const kind of shuffle(Object.keys(servers)))
        runs[kind].push(await oneStream(servers[kind], client, binding));
      ratios.push(runs.ours[i].eventsPerSec / runs.sdk[i].eventsPerSec);
      cpuRatios.push(runs.sdk[i].cpuPerEvent / runs.ours[i].cpuPerEvent);
    }
    out[binding] = {
      ours: median(runs.ours, (r) => r.eventsPerSec),
      sdk: median(runs.sdk, (r) => r.eventsPerSec),
      ratio: median(ratios, (r) => r),
      /** Server CPU per event, SDK / ours: the same comparison, less sensitive to whatever else runs on the machine. */
      cpuRatio: median(cpuRatios, (r) => r),
    };
    for (const kind of ["ours", "sdk"]) {
      const r = out[binding][kind];
      console.log(
        `  ${LABEL[binding].padEnd(9)} ${kind.padEnd(4)} ${fmtInt(r.eventsPerSec).padStart(9)} events/s  (${r.seconds.toFixed(3)} s)  CPU server ${fmtPct(r.serverCpu)} (${r.cpuPerEvent.toFixed(1)} µs/event) client ${fmtPct(r.clientCpu)}`,
      );
    }
    console.log(
      `  ${LABEL[binding].padEnd(9)} ours/sdk ${fmtRatio(out[binding].ratio)} events/s (median of the rounds' ratios: ${ratios.map((r) => r.toFixed(2)).join(", ")})`,
    );
    console.log(
      `  ${LABEL[binding].padEnd(9)} sdk/ours ${fmtRatio(out[binding].cpuRatio)} server CPU per event (rounds: ${cpuRatios.map((r) => r.toFixed(2)).join(", ")})`,
    );
  }
  out.mem = {};
  for (const [kind, s] of Object.entries(servers)) out.mem[kind] = await mem(s);
  return out;
}

// ---------------------------------------------------------------------------------------
// main
// ---------------------------------------------------------------------------------------

const scripts = await bundle({
  "streams-server": "bench/streams/server.ts",
  "streams-client": "bench/streams/client.ts",
  "streams-histogram": "bench/streams/histogram.ts",
});
const histogram = await import(scripts["streams-histogram"]);
const clients = await Promise.all(
  Array.from({ length: CLIENTS }, (_, i) => startClient(scripts["streams-client"], i)),
);
console.log(
  `Streaming (SSE over 127.0.0.1), node ${process.version}, ${CLIENTS} load process(es), ulimit -n ${fdLimit}`,
);

const rows = [];
const targets = [];
const notes = [];
const mib = (b) => b / MiB;
const clientBound = (r) => (r.clientCpu >= 0.9 ? "client-bound" : "");

let streamResult;
if (ONLY.includes("sse-stream-events")) {
  console.log(
    `\nsse-stream-events: one SendStreamingMessage of ${fmtInt(STREAM_EVENTS)} events (${STREAM_WARMUP} warm-up runs, then ${STREAM_RUNS} rounds of one run per server)`,
  );
  streamResult = await streamEvents(scripts["streams-server"], clients[0]);
  for (const binding of BINDINGS) {
    const r = streamResult[binding];
    const scenario = binding === "jsonrpc" ? "sse-stream-events" : "sse-stream-events-rest";
    for (const kind of ["ours", "sdk"]) {
      const x = r[kind];
      rows.push({
        scenario,
        server: kind,
        unit: "events/s",
        value: Math.round(x.eventsPerSec),
        rssMiB: Math.round(mib(streamResult.mem[kind].rss)),
        heapMiB: Math.round(mib(streamResult.mem[kind].heapUsed)),
        serverCpu: Number(x.serverCpu.toFixed(2)),
        clientCpu: Number(x.clientCpu.toFixed(2)),
        ...(kind === "ours" ? { vsSdk: fmtRatio(r.ratio) } : { vsSdk: "1.00×" }),
        note: [
          `${LABEL[binding]}, ${fmtInt(STREAM_EVENTS)} events request to last byte, median of ${STREAM_RUNS} rounds; ${x.cpuPerEvent.toFixed(1)} µs server CPU/event${kind === "ours" ? ` (SDK/ours CPU per event ${fmtRatio(r.cpuRatio)})` : ""}`,
          clientBound(x),
        ]
          .filter(Boolean)
          .join("; "),
      });
    }
    const ratio = r.ratio;
    targets.push({
      name: `stream events/s ≥ 3× SDK (${LABEL[binding]})`,
      measured: `${fmtRatio(ratio)} (server CPU per event: SDK ${fmtRatio(r.cpuRatio)} ours)`,
      pass: ratio >= 3,
    });
  }
}

const many = [];
for (const scenario of ["sse-fanout-10k", "sse-streams-10k"]) {
  if (!ONLY.includes(scenario)) continue;
  for (const binding of BINDINGS) {
    const fanout = scenario === "sse-fanout-10k";
    const n = fanout ? SUBSCRIBERS : STREAMS;
    console.log(
      `\n${scenario} (${LABEL[binding]}): ${fmtInt(n)} ${fanout ? "SubscribeToTask streams on one task" : "SendStreamingMessage streams, one task each"}; paced ${PACED} × 1/${INTERVAL} ms, burst ${BURST}`,
    );
    const r = await manyStreams(scenario, binding, scripts["streams-server"], clients);
    many.push(r);
    const perStream = (r.held.heapUsed - r.before.heapUsed) / n;
    const perStreamRss = (r.held.rss - r.before.rss) / n;
    console.log(
      `  opened ${fmtInt(r.open.opened)} in ${r.open.seconds.toFixed(2)} s; held: RSS ${fmtInt(mib(r.held.rss))} MiB, heap ${fmtInt(mib(r.held.heapUsed))} MiB (${fmtInt(perStream)} B heap, ${fmtInt(perStreamRss)} B RSS per stream)`,
    );
    for (const [name, p] of [
      ["paced", r.paced],
      ["burst", r.burst],
    ]) {
      console.log(
        `  ${name}: ${fmtInt(p.eventsPerSec).padStart(9)} events/s delivered  delay p50 ${fmtMs(p.p50)} p99 ${fmtMs(p.p99)} max ${fmtMs(p.max)} ms  CPU server ${fmtPct(p.serverCpu)} (${p.cpuPerEvent.toFixed(1)} µs/event) client ${fmtPct(p.clientCpu)}${clientBound(p) ? " (client-bound)" : ""}; peak RSS ${fmtInt(mib(p.peakRss))} MiB, heap ${fmtInt(mib(p.peakHeap))} MiB`,
      );
    }
    console.log(
      `  peak RSS ${fmtInt(mib(r.peak.peakRss))} MiB, heap ${fmtInt(mib(r.peak.peakHeap))} MiB; after: RSS ${fmtInt(mib(r.after.rss))} MiB, heap ${fmtInt(mib(r.after.heapUsed))} MiB (before ${fmtInt(mib(r.before.rss))} / ${fmtInt(mib(r.before.heapUsed))})`,
    );
    for (const p of r.problems) console.log(`  problem: ${p}`);
    const suffix = binding === "jsonrpc" ? "" : "-rest";
    for (const [name, p] of [
      ["paced", r.paced],
      ["burst", r.burst],
    ]) {
      rows.push({
        scenario: `${scenario}${suffix}`,
        server: `ours (${name})`,
        unit: "events/s",
        value: Math.round(p.eventsPerSec),
        p50: Number(p.p50.toFixed(2)),
        p99: Number(p.p99.toFixed(2)),
        rssMiB: Math.round(mib(r.peak.peakRss)),
        heapMiB: Math.round(mib(r.peak.peakHeap)),
        serverCpu: Number(p.serverCpu.toFixed(2)),
        clientCpu: Number(p.clientCpu.toFixed(2)),
        note: [
          `${LABEL[binding]}, ${fmtInt(n)} streams, ${name === "paced" ? `${PACED} updates 1/${INTERVAL} ms` : `${BURST} updates back to back`}; RSS/heap = peak; after close ${fmtInt(mib(r.after.rss))}/${fmtInt(mib(r.after.heapUsed))} MiB (before ${fmtInt(mib(r.before.rss))}/${fmtInt(mib(r.before.heapUsed))})`,
          clientBound(p),
          r.ok ? "" : `${r.problems.length} problem(s)`,
        ]
          .filter(Boolean)
          .join("; "),
      });
    }
    const pass = r.ok && r.peak.peakRss < 1024 * MiB;
    const what = fanout
      ? `${fmtInt(n)} subscribers on one task`
      : `${fmtInt(n)} streams across ${fmtInt(n)} tasks`;
    targets.push({
      name: `${what} < 1 GiB RSS (${LABEL[binding]})`,
      measured: `peak ${fmtInt(mib(r.peak.peakRss))} MiB RSS; delay p99 ${fmtMs(r.paced.p99)} ms paced, ${fmtMs(r.burst.p99)} ms burst; ${fmtInt(r.burst.eventsPerSec)} events/s${r.ok ? "" : "; checks FAILED"}`,
      pass,
    });
  }
}

// -- tables
if (streamResult) {
  console.log(
    "\n" +
      table(
        ["stream (1 × SendStreamingMessage)", "events/s", "vs sdk", "server CPU", "client CPU"],
        BINDINGS.flatMap((b) =>
          ["ours", "sdk"].map((k) => {
            const x = streamResult[b][k];
            return [
              `${LABEL[b]} · ${k}`,
              fmtInt(x.eventsPerSec),
              k === "ours" ? fmtRatio(streamResult[b].ratio) : "1.00×",
              fmtPct(x.serverCpu),
              fmtPct(x.clientCpu) + (clientBound(x) ? " (client-bound)" : ""),
            ];
          }),
        ),
      ),
  );
}
if (many.length > 0) {
  console.log(
    "\n" +
      table(
        [
          "scenario · binding · phase",
          "events/s",
          "p50 ms",
          "p99 ms",
          "peak RSS MiB",
          "peak heap MiB",
          "held B/stream",
          "after−before heap MiB",
          "server CPU",
          "client CPU",
          "checks",
        ],
        many.flatMap((r) =>
          ["paced", "burst"].map((name) => {
            const p = r[name];
            return [
              `${r.scenario} · ${LABEL[r.binding]} · ${name}`,
              fmtInt(p.eventsPerSec),
              fmtMs(p.p50),
              fmtMs(p.p99),
              fmtInt(mib(r.peak.peakRss)),
              fmtInt(mib(r.peak.peakHeap)),
              fmtInt((r.held.heapUsed - r.before.heapUsed) / r.n),
              mib(r.after.heapUsed - r.before.heapUsed).toFixed(1),
              fmtPct(p.serverCpu),
              fmtPct(p.clientCpu) + (clientBound(p) ? " (client-bound)" : ""),
              r.ok ? "ok" : "FAILED",
            ];
          }),
        ),
      ),
  );
}
printTargets(targets.map((t) => [t.name, t.pass, t.measured]));
notes.push(
  "Streaming: bench agent from the generated code (task runtime, in-memory store); delivery delay = client arrival − executor timestamp (same machine); paced = updates spaced out, burst = back to back; RSS/heap = server peak during the run.",
);
if (many.some((r) => r.scenario === "sse-streams-10k"))
  notes.push(
    "sse-streams-10k: heap after close includes the 10,000 completed tasks kept by the in-memory store.",
  );
console.log(
  `\nServer CPU = server process CPU time / wall time (1.00 = one core); client CPU = the busiest load process's. ${notes.join(" ")}`,
);
writeResults(args.results, { bench: "streams", rows, targets, notes });
const clean = many.every((r) => r.ok);
await shutdown(clean ? 0 : 1);
