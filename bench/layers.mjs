#!/usr/bin/env node
/**
 * Where the time of a JSON-RPC SendMessage goes between bare node:http and the example agent: the same
 * request against one server per layer (bench/layers/server.ts: bare, adapter, pipeline, limits, composed,
 * example), each adding one thing to the one before, in one run (same-run ratios; this machine is noisy):
 *
 *   node bench/layers.mjs [--duration 5] [--connections 50] [--warmup 1] [--only message,task] [--rounds 1]
 *
 * Prints req/s, the server's CPU per request (µs: server CPU time / answers, the figure that adds up layer
 * by layer), and each layer's cost over the one before. Read with bench/inprocess.mjs (the pipeline's own
 * work without sockets) and bench/profile.mjs (a CPU profile of one server).
 */
import { parseBenchArgs } from "./lib/args.mjs";
import { bundle } from "./lib/build.mjs";
import { installExitHandlers, shutdown, startServer, startWatchdog } from "./lib/children.mjs";
import { measureAutocannon } from "./lib/load.mjs";
import { fmtInt, fmtMs, fmtPct, fmtRatio, table } from "./lib/report.mjs";
import { writeResults } from "./lib/results.mjs";

const { intArg, args } = parseBenchArgs(
  "usage: node bench/layers.mjs [--duration 5] [--connections 50] [--warmup 1] [--only message,task] [--rounds 1] [--results file.json]",
  {
    duration: { type: "string", default: "5" },
    connections: { type: "string", default: "50" },
    warmup: { type: "string", default: "1" },
    only: { type: "string", default: "message,task" },
    rounds: { type: "string", default: "1" },
    results: { type: "string", default: "" },
  },
);
const DURATION = intArg("duration", 1, 600);
const CONNECTIONS = intArg("connections", 1, 1000);
const WARMUP = intArg("warmup", 0, 60);
const ROUNDS = intArg("rounds", 1, 20);
const LAYERS = ["bare", "adapter", "pipeline", "limits", "composed", "example"];
const TEXT = { message: "tck-message-response bench", task: "tck-complete-task bench" };
const only = args.only.split(",");
for (const s of only)
  if (!(s in TEXT))
    throw new Error(`unknown scenario ${s}; known: ${Object.keys(TEXT).join(", ")}`);

installExitHandlers("children");
startWatchdog(60 + only.length * ROUNDS * LAYERS.length * (WARMUP + DURATION + 3));
const request = (base, scenario) => ({
  url: `${base}/a2a/jsonrpc`,
  method: "POST",
  headers: { "content-type": "application/json", "a2a-version": "1.0" },
  body: JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "SendMessage",
    params: {
      message: {
        messageId: "bench-layers-m-1",
        role: "ROLE_USER",
        parts: [{ text: TEXT[scenario] }],
      },
    },
  }),
});

const { "layers-server": script } = await bundle({ "layers-server": "bench/layers/server.ts" });
const servers = {};
for (const kind of LAYERS) {
  const s = await startServer(script, kind);
  servers[kind] = { ...s, base: `http://127.0.0.1:${s.port}` };
  for (const scenario of only) {
    const r = request(servers[kind].base, scenario);
    const res = await fetch(r.url, {
      method: "POST",
      headers: r.headers,
      body: r.body,
      signal: AbortSignal.timeout(10_000),
    }).catch((e) => {
      throw new Error(`${kind} ${scenario}: ${e}`);
    });
    const json = await res.json();
    const ok =
      scenario === "message"
        ? json?.result?.message?.parts?.[0]?.text === TEXT.message
        : json?.result?.task?.status?.state === "TASK_STATE_COMPLETED";
    if (!ok) throw new Error(`${kind} ${scenario}: unexpected answer ${JSON.stringify(json)}`);
  }
}

console.log(
  `JSON-RPC SendMessage by layer, node ${process.version}, autocannon ${CONNECTIONS} connections, warm-up ${WARMUP} s + ${DURATION} s, ${ROUNDS} round(s)`,
);
const results = {};
for (const scenario of only) {
  results[scenario] = {};
  for (let round = 0; round < ROUNDS; round++) {
    for (const kind of LAYERS) {
      const r = await measureAutocannon(servers[kind], request(servers[kind].base, scenario), {
        connections: CONNECTIONS,
        warmup: WARMUP,
        duration: DURATION,
      });
      const usPerAnswer = (r.serverCpu * 1e6) / r.reqPerSec;
      console.log(
        `  ${scenario.padEnd(8)} ${kind.padEnd(9)} ${fmtInt(r.reqPerSec).padStart(7)} req/s  server ${usPerAnswer.toFixed(1).padStart(6)} µs CPU/answer  p99 ${fmtMs(r.p99)} ms  CPU server ${fmtPct(r.serverCpu)} client ${fmtPct(r.clientCpu)}`,
      );
      const best = results[scenario][kind];
      if (best === undefined || r.reqPerSec > best.reqPerSec)
        results[scenario][kind] = { ...r, usPerAnswer };
    }
  }
}

const rows = [];
for (const scenario of only) {
  const r = results[scenario];
  LAYERS.forEach((kind, i) => {
    const x = r[kind];
    const prev = i === 0 ? undefined : r[LAYERS[i - 1]];
    rows.push([
      `${scenario} · ${kind}`,
      fmtInt(x.reqPerSec),
      fmtRatio(x.reqPerSec / r.bare.reqPerSec),
      x.usPerAnswer.toFixed(1),
      prev === undefined
        ? ""
        : `${x.usPerAnswer - prev.usPerAnswer >= 0 ? "+" : ""}${(x.usPerAnswer - prev.usPerAnswer).toFixed(1)}`,
      fmtMs(x.p99),
      fmtPct(x.serverCpu),
      fmtPct(x.clientCpu),
    ]);
  });
}
console.log(
  `\n${table(["scenario · layer", "req/s", "vs bare", "server µs CPU/answer", "this layer (µs)", "p99 ms", "server CPU", "client CPU"], rows)}`,
);
console.log(
  "\nserver µs CPU/answer = the server process's CPU time / answers: what a layer costs, whatever the load generator got.",
);
writeResults(args.results, {
  bench: "layers",
  rows: only.flatMap((scenario) =>
    LAYERS.map((kind) => {
      const x = results[scenario][kind];
      return {
        scenario: `layers: ${scenario}`,
        server: kind,
        unit: "req/s",
        value: x.reqPerSec,
        usPerAnswer: x.usPerAnswer,
        p99: x.p99,
        vsBare: fmtRatio(x.reqPerSec / results[scenario].bare.reqPerSec),
        note: `${x.usPerAnswer.toFixed(1)} µs server CPU per answer`,
      };
    }),
  ),
  notes: [
    `${CONNECTIONS} connections, warm-up ${WARMUP} s + ${DURATION} s per layer, best of ${ROUNDS} round(s)`,
  ],
});
await shutdown(0);
