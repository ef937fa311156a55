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
  "usage: node bench/rest.mjs [--duration 10] [--connections 50] [--warmup 2] [--rounds 1]",
  {
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "50" },
    warmup: { type: "string", default: "2" },
    rounds: { type: "string", default: "1" },
  },
);
const DURATION = intArg("duration", 1, 600);
const CONNECTIONS = intArg("connections", 1, 1000);
const WARMUP = intArg("warmup", 0, 60);
const ROUNDS = intArg("rounds", 1, 20);

// ---------------------------------------------------------------------------------------
// child processes: started, tracked, always ended
// ---------------------------------------------------------------------------------------

installExitHandlers("servers");

const KINDS = [
  { kind: "bare", label: "bare node:http" },
  { kind: "ours-node", label: "ours (node adapter)" },
  { kind: "sdk", label: "@a2a-js/sdk express restHandler" },
];
const ROUTES = ["POST /message:send", "GET /tasks/{id}"];

// Watchdog: expected time plus a generous margin.
startWatchdog(60 + ROUNDS * KINDS.length * ROUTES.length * (WARMUP + DURATION + 2) * 2);

// ---------------------------------------------------------------------------------------
// requests
// ---------------------------------------------------------------------------------------

const ECHO_TEXT = "hello, benchmark";
const VERSION = { "a2a-version": "1.0" };
const POST_HEADERS = { ...VERSION, "content-type": "application/json" };
const sendBody = (text, id = "bench-m-1") =>
  JSON.stringify({ message: { messageId: id, role: "ROLE_USER", parts: [{ text }] } });
const ECHO_BODY = sendBody(ECHO_TEXT);

/** Checks the echo by hand, then creates the task the GetTask load reads; returns its path. */
async function prepare(server) {
  const echo = await fetch(`${server.base}/message:send`, {
    method: "POST",
    headers: POST_HEADERS,
    body: ECHO_BODY,
    signal: AbortSignal.timeout(10_000),
  });
  const echoed = await echo.json().catch(() => null);
  if (
    echo.status !== 200 ||
    echoed?.message?.role !== "ROLE_AGENT" ||
    echoed?.message?.parts?.[0]?.text !== ECHO_TEXT
  ) {
    throw new Error(`${server.kind}: unexpected echo ${echo.status} ${JSON.stringify(echoed)}`);
  }
  const created = await fetch(`${server.base}/message:send`, {
    method: "POST",
    headers: POST_HEADERS,
    body: sendBody("task", "bench-task-m"),
    signal: AbortSignal.timeout(10_000),
  });
  const task = (await created.json().catch(() => null))?.task;
  if (
    created.status !== 200 ||
    typeof task?.id !== "string" ||
    task.status?.state !== "TASK_STATE_COMPLETED"
  ) {
    throw new Error(
      `${server.kind}: could not create a task: ${created.status} ${JSON.stringify(task)}`,
    );
  }
  const path = `/tasks/${encodeURIComponent(task.id)}`;
  const got = await fetch(`${server.base}${path}`, {
    headers: VERSION,
    signal: AbortSignal.timeout(10_000),
  });
  const fetched = await got.json().catch(() => null);
  if (
    got.status !== 200 ||
    fetched?.id !== task.id ||
    fetched?.history?.[0]?.parts?.[0]?.text !== "task"
  ) {
    throw new Error(
      `${server.kind}: GET ${path} answered ${got.status} ${JSON.stringify(fetched)}`,
    );
  }
  return path;
}

function requestOptions(server, route) {
  return route === "POST /message:send"
    ? { url: `${server.base}/message:send`, method: "POST", headers: POST_HEADERS, body: ECHO_BODY }
    : { url: `${server.base}${server.taskPath}`, method: "GET", headers: VERSION };
}

async function measure(server, route) {
  return measureAutocannon(server, requestOptions(server, route), {
    connections: CONNECTIONS,
    warmup: WARMUP,
    duration: DURATION,
  });
}

// ---------------------------------------------------------------------------------------
// main
// ---------------------------------------------------------------------------------------

const { "rest-server": script } = await bundle({ "rest-server": "bench/rest/server.ts" });
const servers = (await Promise.all(KINDS.map(({ kind }) => startServer(script, kind)))).map(
  (s) => ({ ...s, base: `http://127.0.0.1:${s.port}` }),
);
const byKind = Object.fromEntries(servers.map((s) => [s.kind, s]));
for (const s of servers) s.taskPath = await prepare(s);

console.log(
  `HTTP+JSON, autocannon ${CONNECTIONS} connections, warm-up ${WARMUP} s + ${DURATION} s per server and request, ${ROUNDS} round(s), node ${process.version}`,
);
/** rounds[route][kind] = one result per round. */
const rounds = Object.fromEntries(
  ROUTES.map((route) => [route, Object.fromEntries(KINDS.map(({ kind }) => [kind, []]))]),
);
for (let round = 1; round <= ROUNDS; round++) {
  for (const route of ROUTES) {
    const order = shuffle(KINDS.map((k) => k.kind));
    console.log(`${ROUNDS > 1 ? `round ${round} ` : ""}${route}: ${order.join(" → ")}`);
    for (const kind of order) {
      const r = await measure(byKind[kind], route);
      rounds[route][kind].push(r);
      console.log(
        `  ${kind.padEnd(10)} ${fmtInt(r.reqPerSec).padStart(7)} req/s  p50 ${fmtMs(r.p50)} ms  p99 ${fmtMs(r.p99)} ms  errors ${r.errors}  non-2xx ${r.non2xx}  server CPU ${fmtPct(r.serverCpu)}`,
      );
    }
  }
}
/** Each server's median round (by req/s), per request. */
const results = Object.fromEntries(
  ROUTES.map((route) => [
    route,
    Object.fromEntries(
      KINDS.map(({ kind }) => [kind, median(rounds[route][kind], (r) => r.reqPerSec)]),
    ),
  ]),
);
/** A ratio computed within each round, then the median over rounds. */
const paired = (route, f) =>
  median(
    rounds[route].bare.map((_, i) =>
      f(Object.fromEntries(KINDS.map(({ kind }) => [kind, rounds[route][kind][i]]))),
    ),
    (v) => v,
  );

console.log(
  "\n" +
    table(
      [
        "request",
        "server",
        "req/s",
        "p50 ms",
        "p99 ms",
        "errors",
        "non-2xx",
        "vs bare",
        "server CPU",
      ],
      ROUTES.flatMap((route) =>
        KINDS.map(({ kind, label }) => {
          const r = results[route][kind];
          return [
            route,
            label,
            fmtInt(r.reqPerSec),
            fmtMs(r.p50),
            fmtMs(r.p99),
            r.errors,
            r.non2xx,
            fmtRatio(paired(route, (u) => u[kind].reqPerSec / u.bare.reqPerSec)),
            fmtPct(r.serverCpu),
          ];
        }),
      ),
      2,
    ),
);

const targets = [];
console.log(`\nRatios${ROUNDS > 1 ? " (computed within each round, median over rounds)" : ""}`);
for (const route of ROUTES) {
  const vsBare = paired(route, (u) => u["ours-node"].reqPerSec / u.bare.reqPerSec);
  const vsSdk = paired(route, (u) => u["ours-node"].reqPerSec / u.sdk.reqPerSec);
  const p99 = paired(route, (u) => u["ours-node"].p99 / u.bare.p99);
  const errors = rounds[route]["ours-node"].reduce((n, r) => n + r.errors, 0);
  const non2xx = rounds[route]["ours-node"].reduce((n, r) => n + r.non2xx, 0);
  console.log(
    `  ${route.padEnd(20)} ours/bare req/s ${fmtRatio(vsBare)}   ours/sdk req/s ${fmtRatio(vsSdk)}   ours/bare p99 ${fmtRatio(p99)}`,
  );
  targets.push(
    [`${route}: ours req/s ≥ 50% of bare`, vsBare >= 0.5, fmtRatio(vsBare)],
    [`${route}: ours req/s ≥ 5× sdk`, vsSdk >= 5, fmtRatio(vsSdk)],
    [`${route}: ours p99 ≤ 2× bare p99`, p99 <= 2, fmtRatio(p99)],
    [`${route}: no errors / non-2xx (ours)`, errors === 0 && non2xx === 0, `${errors} / ${non2xx}`],
  );
}
printTargets(targets);
const failed = targets.filter(([, ok]) => !ok).length;
console.log(failed === 0 ? "\nall targets met" : `\n${failed} target(s) missed`);
console.log(
  "Server CPU = the server process's CPU time / wall time (1.00 = one core busy). A server well below 100% while\n" +
    "the others are near it is bounded by the load generator, not by itself.",
);
await shutdown(0);
