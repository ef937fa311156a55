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
import { parseBenchArgs } from "./lib/args.mjs";
import { bundle } from "./lib/build.mjs";
import { installExitHandlers, shutdown, startServer, startWatchdog } from "./lib/children.mjs";
import { measureAutocannon } from "./lib/load.mjs";
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

// ---------------------------------------------------------------------------------------
// options
// ---------------------------------------------------------------------------------------

const { intArg } = parseBenchArgs(
  "usage: node bench/jsonrpc.mjs [--duration 10] [--connections 50] [--warmup 2] [--rounds 1] [--stream-events 10000] [--stream-runs 3]",
  {
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "50" },
    warmup: { type: "string", default: "2" },
    rounds: { type: "string", default: "1" },
    "stream-events": { type: "string", default: "10000" },
    "stream-runs": { type: "string", default: "3" },
  },
);
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

installExitHandlers("servers");

const KINDS = [
  { kind: "bare", label: "bare node:http" },
  { kind: "ours-node", label: "ours (node adapter)" },
  { kind: "ours-fetch", label: "ours (fetch + bridge)" },
  { kind: "bare-fetch", label: "bare fetch + bridge", unaryOnly: true },
  { kind: "sdk", label: "@a2a-js/sdk express" },
];

// Watchdog: expected time plus a generous margin.
startWatchdog(
  30 +
    ROUNDS * KINDS.length * (WARMUP + DURATION + 2) +
    KINDS.length * (STREAM_RUNS + 1) * (STREAM_TIMEOUT_MS / 1000),
);

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
  JSON.stringify({
    jsonrpc: "2.0",
    id: 2,
    method: "SendStreamingMessage",
    params: {
      message: { messageId: "bench-s-1", role: "ROLE_USER", parts: [{ text: `count ${n}` }] },
    },
  });

/** One request by hand: the server must answer 200 with the echoed Message. */
async function checkEcho(server) {
  const res = await fetch(server.url, {
    method: "POST",
    headers: HEADERS,
    body: UNARY_BODY,
    signal: AbortSignal.timeout(10_000),
  });
  const json = await res.json().catch(() => null);
  const message = json?.result?.message;
  if (
    res.status !== 200 ||
    json?.id !== 1 ||
    message?.role !== "ROLE_AGENT" ||
    message?.parts?.[0]?.text !== ECHO_TEXT
  ) {
    throw new Error(`${server.kind}: unexpected answer ${res.status} ${JSON.stringify(json)}`);
  }
}

const UNARY_REQUEST = (server) => ({
  url: server.url,
  method: "POST",
  headers: HEADERS,
  body: UNARY_BODY,
});

async function measureUnary(server) {
  return measureAutocannon(server, UNARY_REQUEST(server), {
    connections: CONNECTIONS,
    warmup: WARMUP,
    duration: DURATION,
  });
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
  if (
    res.status !== 200 ||
    !(res.headers.get("content-type") ?? "").startsWith("text/event-stream")
  ) {
    throw new Error(
      `${server.kind}: stream answered ${res.status} ${res.headers.get("content-type")}: ${(await res.text()).slice(0, 300)}`,
    );
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
  if (last.includes('"error"'))
    throw new Error(`${server.kind}: the stream ended with an error: ${last.slice(0, 300)}`);
  return { events, seconds, eventsPerSec: events / seconds };
}

async function measureStream(server) {
  await streamOnce(server, STREAM_EVENTS); // warm-up
  const runs = [];
  for (let i = 0; i < STREAM_RUNS; i++) runs.push(await streamOnce(server, STREAM_EVENTS));
  return median(runs, (r) => r.eventsPerSec);
}

// ---------------------------------------------------------------------------------------
// main
// ---------------------------------------------------------------------------------------

const { "jsonrpc-server": script } = await bundle({ "jsonrpc-server": "bench/jsonrpc/server.ts" });
const servers = (await Promise.all(KINDS.map(({ kind }) => startServer(script, kind)))).map(
  (s) => ({ ...s, url: `http://127.0.0.1:${s.port}/` }),
);
const byKind = Object.fromEntries(servers.map((s) => [s.kind, s]));
for (const s of servers) await checkEcho(s);

console.log(
  `JSON-RPC SendMessage, autocannon ${CONNECTIONS} connections, warm-up ${WARMUP} s + ${DURATION} s per server, ${ROUNDS} round(s), node ${process.version}`,
);
const rounds = Object.fromEntries(KINDS.map(({ kind }) => [kind, []]));
for (let round = 1; round <= ROUNDS; round++) {
  const order = shuffle(KINDS.map((k) => k.kind));
  console.log(`round ${round}: ${order.join(" → ")}`);
  for (const kind of order) {
    const r = await measureUnary(byKind[kind]);
    rounds[kind].push(r);
    console.log(
      `  ${kind.padEnd(10)} ${fmtInt(r.reqPerSec).padStart(7)} req/s  p50 ${fmtMs(r.p50)} ms  p99 ${fmtMs(r.p99)} ms  CPU server ${fmtPct(r.serverCpu)} client ${fmtPct(r.clientCpu)}`,
    );
  }
}
const unary = Object.fromEntries(
  KINDS.map(({ kind }) => [kind, median(rounds[kind], (r) => r.reqPerSec)]),
);
/** A ratio between servers computed within each round (same machine conditions), then the median over rounds. */
function paired(f) {
  const values = [];
  for (let i = 0; i < ROUNDS; i++)
    values.push(f(Object.fromEntries(KINDS.map(({ kind }) => [kind, rounds[kind][i]]))));
  return median(values, (v) => v);
}

console.log(
  `\nStream: one SendStreamingMessage of ${STREAM_EVENTS.toLocaleString("en-US")} events read with fetch (median of ${STREAM_RUNS} after 1 warm-up)`,
);
const stream = {};
const streamNotes = {};
for (const { kind, unaryOnly } of KINDS) {
  if (unaryOnly) continue;
  try {
    stream[kind] = await measureStream(byKind[kind]);
    console.log(
      `  ${kind.padEnd(10)} ${fmtInt(stream[kind].eventsPerSec).padStart(9)} events/s  (${stream[kind].seconds.toFixed(3)} s)`,
    );
  } catch (e) {
    streamNotes[kind] = e instanceof Error ? e.message : String(e);
  }
}

// -- unary table
console.log(
  "\n" +
    table(
      [
        "server",
        "req/s",
        "p50 ms",
        "p99 ms",
        "errors",
        "non-2xx",
        "vs bare",
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
          fmtRatio(paired((u) => u[kind].reqPerSec / u.bare.reqPerSec)),
          fmtPct(r.serverCpu),
          fmtPct(r.clientCpu),
        ];
      }),
    ),
);

// -- stream table
console.log(
  "\n" +
    table(
      ["server (stream)", "events/s", "seconds", "vs bare"],
      KINDS.filter((k) => !k.unaryOnly).map(({ kind, label }) => {
        const r = stream[kind];
        if (r === undefined) return [label, "skipped", "-", "-"];
        return [
          label,
          fmtInt(r.eventsPerSec),
          r.seconds.toFixed(3),
          stream.bare ? fmtRatio(r.eventsPerSec / stream.bare.eventsPerSec) : "n/a",
        ];
      }),
    ),
);
for (const [kind, note] of Object.entries(streamNotes))
  console.log(`note: ${kind} stream skipped: ${note}`);

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
console.log(
  `  ours(fetch)/bare-fetch req/s  ${fmtRatio(ratio.fetchVsBareFetch)}  (same bridge: our cost on a fetch runtime)`,
);
console.log(`  ours(node)/bare   p99    ${fmtRatio(ratio.p99NodeVsBare)}`);
console.log(`  ours(fetch)/bare  p99    ${fmtRatio(ratio.p99FetchVsBare)}`);
if (stream["ours-node"] && stream.sdk)
  console.log(
    `  ours(node)/sdk    stream events/s  ${fmtRatio(stream["ours-node"].eventsPerSec / stream.sdk.eventsPerSec)}`,
  );

const targets = [
  [`ours(node) req/s ≥ 50% of bare`, ratio.nodeVsBare >= 0.5, fmtRatio(ratio.nodeVsBare)],
  [`ours(node) req/s ≥ 5× sdk`, ratio.nodeVsSdk >= 5, fmtRatio(ratio.nodeVsSdk)],
  [`ours(node) p99 ≤ 2× bare p99`, ratio.p99NodeVsBare <= 2, fmtRatio(ratio.p99NodeVsBare)],
  [`ours(fetch) req/s ≥ 50% of bare`, ratio.fetchVsBare >= 0.5, fmtRatio(ratio.fetchVsBare)],
  [`ours(fetch) req/s ≥ 5× sdk`, ratio.fetchVsSdk >= 5, fmtRatio(ratio.fetchVsSdk)],
  [`ours(fetch) p99 ≤ 2× bare p99`, ratio.p99FetchVsBare <= 2, fmtRatio(ratio.p99FetchVsBare)],
  [
    `no errors / non-2xx (ours)`,
    ["ours-node", "ours-fetch"].every((k) => unary[k].errors === 0 && unary[k].non2xx === 0),
    "",
  ],
];
printTargets(targets);

console.log(
  "\nServer CPU = the server process's CPU time / wall time (1.00 = one core busy); client CPU = the same for this\n" +
    "process (autocannon). On 2 cores, a server well below 100% while the client is near 100% is load-generator-bound.",
);
await shutdown(0);
