#!/usr/bin/env node
/**
 * The agent path (issue #16): the example agent as `npm run example` ships it, side by side with bare
 * node:http doing the same JSON work and @a2a-js/sdk 1.3.0 with an equivalent executor, in one run:
 *
 *   node bench/agent.mjs [--duration 5] [--connections 50] [--warmup 1] [--only <scenario,…>]
 *
 * Scenarios (each server is checked by hand first: the right Message or a COMPLETED task with its artifact):
 * - jsonrpc-message / rest-message: SendMessage answered with a Message (no task);
 * - jsonrpc-task / rest-task:       SendMessage "tck-complete-task": a task created, worked, completed;
 * - jsonrpc-get / rest-get:         GetTask of a task created just before;
 * - jsonrpc-list / rest-list:       ListTasks of a context with three tasks (created just before; by then the
 *                                   store also holds what it kept of the tasks the task scenarios created).
 * Servers (bench/agent/server.ts, one child process each, load from this process with autocannon):
 * bare, example (in-memory store), example-sqlite (SQLite WAL on a temp file), sdk.
 * Every scenario runs its servers in a random order, each right after its own warm-up. A run where this
 * process used ≥ 90% of a core is marked "client-bound": the load generator, not the server, was the limit.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseBenchArgs } from "./lib/args.mjs";
import { bundle } from "./lib/build.mjs";
import {
  installExitHandlers,
  onShutdown,
  shutdown,
  startServer,
  startWatchdog,
} from "./lib/children.mjs";
import { measureAutocannon } from "./lib/load.mjs";
import { fmtInt, fmtMs, fmtPct, fmtRatio, printTargets, shuffle, table } from "./lib/report.mjs";
import { writeResults } from "./lib/results.mjs";

const { intArg, args } = parseBenchArgs(
  "usage: node bench/agent.mjs [--duration 5] [--connections 50] [--warmup 1] [--only jsonrpc-message,rest-task,…] [--servers example,example-sqlite] [--results file.json]",
  {
    duration: { type: "string", default: "5" },
    connections: { type: "string", default: "50" },
    warmup: { type: "string", default: "1" },
    only: { type: "string", default: "" },
    servers: { type: "string", default: "" },
    results: { type: "string", default: "" },
  },
);
const DURATION = intArg("duration", 1, 600);
const CONNECTIONS = intArg("connections", 1, 1000);
const WARMUP = intArg("warmup", 0, 60);

const ALL_SERVERS = ["bare", "example", "example-sqlite", "sdk"];
// bare and sdk are the baselines every ratio needs.
const SERVERS =
  args.servers === ""
    ? ALL_SERVERS
    : ALL_SERVERS.filter((s) => s === "bare" || s === "sdk" || args.servers.split(",").includes(s));
const HEADERS = { "content-type": "application/json", "a2a-version": "1.0" };
const message = (text) => ({ messageId: "bench-agent-m-1", role: "ROLE_USER", parts: [{ text }] });
const MESSAGE_TEXT = "tck-message-response bench";
const TASK_TEXT = "tck-complete-task bench";

/** Scenario → the autocannon request for a server (`base` = its origin, `taskId` = a task created on it). */
const SCENARIOS = {
  "jsonrpc-message": (s) => ({
    url: `${s.base}/a2a/jsonrpc`,
    method: "POST",
    headers: HEADERS,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "SendMessage",
      params: { message: message(MESSAGE_TEXT) },
    }),
  }),
  "rest-message": (s) => ({
    url: `${s.base}/a2a/rest/message:send`,
    method: "POST",
    headers: HEADERS,
    body: JSON.stringify({ message: message(MESSAGE_TEXT) }),
  }),
  "jsonrpc-task": (s) => ({
    url: `${s.base}/a2a/jsonrpc`,
    method: "POST",
    headers: HEADERS,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "SendMessage",
      params: { message: message(TASK_TEXT) },
    }),
  }),
  "rest-task": (s) => ({
    url: `${s.base}/a2a/rest/message:send`,
    method: "POST",
    headers: HEADERS,
    body: JSON.stringify({ message: message(TASK_TEXT) }),
  }),
  "jsonrpc-get": (s) => ({
    url: `${s.base}/a2a/jsonrpc`,
    method: "POST",
    headers: HEADERS,
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "GetTask", params: { id: s.taskId } }),
  }),
  "rest-get": (s) => ({
    url: `${s.base}/a2a/rest/tasks/${encodeURIComponent(s.taskId)}`,
    method: "GET",
    headers: { "a2a-version": "1.0" },
  }),
  "jsonrpc-list": (s) => ({
    url: `${s.base}/a2a/jsonrpc`,
    method: "POST",
    headers: HEADERS,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "ListTasks",
      params: { contextId: s.contextId },
    }),
  }),
  "rest-list": (s) => ({
    url: `${s.base}/a2a/rest/tasks?contextId=${encodeURIComponent(s.contextId)}`,
    method: "GET",
    headers: { "a2a-version": "1.0" },
  }),
};
const only = args.only === "" ? Object.keys(SCENARIOS) : args.only.split(",");
for (const name of only)
  if (!(name in SCENARIOS))
    throw new Error(`unknown scenario ${name}; known: ${Object.keys(SCENARIOS).join(", ")}`);

installExitHandlers("children");
startWatchdog(60 + only.length * SERVERS.length * (WARMUP + DURATION + 3));
const tempDir = mkdtempSync(join(tmpdir(), "a2a-bench-agent-"));
onShutdown(() => rmSync(tempDir, { recursive: true, force: true }));
process.env.BENCH_AGENT_DB = join(tempDir, "tasks.db"); // inherited by the forked servers

/**
 * One request by hand: what every scenario expects. Creates three COMPLETED tasks in one context
 * and returns the first one's id and the context id.
 */
async function check(server) {
  const post = async (path, body) => {
    const res = await fetch(`${server.base}${path}`, {
      method: "POST",
      headers: HEADERS,
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    return { status: res.status, json: await res.json().catch(() => null) };
  };
  const get = async (path) => {
    const res = await fetch(`${server.base}${path}`, {
      headers: { "a2a-version": "1.0" },
      signal: AbortSignal.timeout(10_000),
    });
    return { status: res.status, json: await res.json().catch(() => null) };
  };
  const rpc = await post("/a2a/jsonrpc", {
    jsonrpc: "2.0",
    id: 1,
    method: "SendMessage",
    params: { message: message(MESSAGE_TEXT) },
  });
  if (rpc.json?.result?.message?.parts?.[0]?.text !== MESSAGE_TEXT)
    throw new Error(`${server.kind}: JSON-RPC Message reply: ${JSON.stringify(rpc.json)}`);
  let first;
  for (let i = 0; i < 3; i++) {
    const rest = await post("/a2a/rest/message:send", {
      message: {
        ...message(TASK_TEXT),
        messageId: `bench-agent-m-${i + 2}`,
        ...(first ? { contextId: first.contextId } : {}),
      },
    });
    const task = rest.json?.task;
    if (
      rest.status !== 200 ||
      task?.status?.state !== "TASK_STATE_COMPLETED" ||
      task.artifacts?.[0]?.parts?.[0]?.text !== `Completed: ${TASK_TEXT}` ||
      (first && task.contextId !== first.contextId)
    ) {
      throw new Error(
        `${server.kind}: HTTP+JSON task: ${rest.status} ${JSON.stringify(rest.json)}`,
      );
    }
    first ??= task;
  }
  const got = await get(`/a2a/rest/tasks/${encodeURIComponent(first.id)}`);
  if (got.status !== 200 || got.json?.id !== first.id)
    throw new Error(`${server.kind}: GetTask: ${got.status} ${JSON.stringify(got.json)}`);
  const listed = await get(`/a2a/rest/tasks?contextId=${encodeURIComponent(first.contextId)}`);
  const tasks = listed.json?.tasks;
  if (
    listed.status !== 200 ||
    tasks?.length !== 3 ||
    !tasks.every((t) => t.contextId === first.contextId && t.artifacts === undefined)
  ) {
    throw new Error(`${server.kind}: ListTasks: ${listed.status} ${JSON.stringify(listed.json)}`);
  }
  const rpcList = await post("/a2a/jsonrpc", {
    jsonrpc: "2.0",
    id: 1,
    method: "ListTasks",
    params: { contextId: first.contextId },
  });
  if (rpcList.json?.result?.tasks?.length !== 3)
    throw new Error(`${server.kind}: JSON-RPC ListTasks: ${JSON.stringify(rpcList.json)}`);
  return { taskId: first.id, contextId: first.contextId };
}

const { "agent-server": script } = await bundle({ "agent-server": "bench/agent/server.ts" });
const servers = {};
for (const kind of SERVERS) {
  const s = await startServer(script, kind);
  const base = `http://127.0.0.1:${s.port}`;
  servers[kind] = { ...s, base };
  Object.assign(servers[kind], await check(servers[kind]));
}

console.log(
  `Agent path, node ${process.version}, autocannon ${CONNECTIONS} connections, warm-up ${WARMUP} s + ${DURATION} s per server`,
);
const results = {};
for (const scenario of only) {
  results[scenario] = {};
  // GetTask and ListTasks read tasks made just before: a bounded store (the memory store keeps 10,000
  // tasks) has dropped the first ones after the task scenarios.
  if (scenario.endsWith("-get") || scenario.endsWith("-list"))
    for (const kind of SERVERS) Object.assign(servers[kind], await check(servers[kind]));
  for (const kind of shuffle(SERVERS)) {
    const server = servers[kind];
    const r = await measureAutocannon(server, SCENARIOS[scenario](server), {
      connections: CONNECTIONS,
      warmup: WARMUP,
      duration: DURATION,
    });
    results[scenario][kind] = r;
    console.log(
      `  ${scenario.padEnd(16)} ${kind.padEnd(15)} ${fmtInt(r.reqPerSec).padStart(7)} req/s  p50 ${fmtMs(r.p50)}  p99 ${fmtMs(r.p99)} ms  CPU server ${fmtPct(r.serverCpu)} client ${fmtPct(r.clientCpu)}`,
    );
  }
}

const rows = [];
for (const scenario of only) {
  const r = results[scenario];
  for (const kind of SERVERS) {
    const x = r[kind];
    const clientBound = x.clientCpu >= 0.9 ? " (client-bound)" : "";
    rows.push([
      `${scenario} · ${kind}`,
      fmtInt(x.reqPerSec),
      fmtMs(x.p50),
      fmtMs(x.p99),
      kind === "bare" ? "1.00×" : fmtRatio(x.reqPerSec / r.bare.reqPerSec),
      kind === "sdk" ? "1.00×" : fmtRatio(x.reqPerSec / r.sdk.reqPerSec),
      kind === "bare" ? "1.00×" : fmtRatio(x.p99 / r.bare.p99),
      `${x.errors}/${x.non2xx}`,
      fmtPct(x.serverCpu),
      fmtPct(x.clientCpu) + clientBound,
    ]);
  }
}
console.log(
  `\n${table(["scenario · server", "req/s", "p50 ms", "p99 ms", "vs bare", "vs sdk", "p99 vs bare", "err/non-2xx", "server CPU", "client CPU"], rows)}`,
);
const memory = (scenario) =>
  results[scenario]?.["example-sqlite"] &&
  fmtRatio(results[scenario]["example-sqlite"].reqPerSec / results[scenario].example.reqPerSec);
for (const scenario of ["jsonrpc-task", "rest-task"])
  if (results[scenario]) console.log(`${scenario}: SQLite / memory ${memory(scenario)}`);

// The targets of issue #16, on the example agent (in memory unless said).
const targets = [];
/** `name`: results[scenario][a] / results[scenario][b] (of `key`, default req/s) must be ≥ `bar` (or ≤ with `atMost`). */
function target(name, scenario, a, b, bar, { key = "reqPerSec", atMost = false } = {}) {
  const x = results[scenario]?.[a]?.[key];
  const y = results[scenario]?.[b]?.[key];
  if (x === undefined || y === undefined) return;
  const ratio = x / y;
  targets.push({ name, measured: fmtRatio(ratio), pass: atMost ? ratio <= bar : ratio >= bar });
}
for (const [prefix, label] of [
  ["jsonrpc", "JSON-RPC"],
  ["rest", "HTTP+JSON"],
]) {
  target(`${label} Message reply ≥ 0.5× bare`, `${prefix}-message`, "example", "bare", 0.5);
  target(`${label} Message reply ≥ 4× SDK`, `${prefix}-message`, "example", "sdk", 4);
  target(`${label} Message reply p99 ≤ 2× bare`, `${prefix}-message`, "example", "bare", 2, {
    key: "p99",
    atMost: true,
  });
  target(`${label} task in memory ≥ 0.35× bare`, `${prefix}-task`, "example", "bare", 0.35);
  target(`${label} task in memory ≥ 4× SDK`, `${prefix}-task`, "example", "sdk", 4);
  target(
    `${label} task on SQLite ≥ 0.6× memory`,
    `${prefix}-task`,
    "example-sqlite",
    "example",
    0.6,
  );
  target(`${label} GetTask ≥ 0.6× bare`, `${prefix}-get`, "example", "bare", 0.6);
  target(`${label} ListTasks ≥ 0.6× bare`, `${prefix}-list`, "example", "bare", 0.6);
}
printTargets(targets.map((t) => [t.name, t.pass, t.measured]));
writeResults(args.results, {
  bench: "agent",
  rows: only.flatMap((scenario) =>
    SERVERS.map((kind) => {
      const x = results[scenario][kind];
      const bare = results[scenario].bare;
      const sdk = results[scenario].sdk;
      return {
        scenario,
        server: kind,
        unit: "req/s",
        value: x.reqPerSec,
        p50: x.p50,
        p99: x.p99,
        serverCpu: x.serverCpu,
        clientCpu: x.clientCpu,
        vsBare: fmtRatio(x.reqPerSec / bare.reqPerSec),
        vsSdk: fmtRatio(x.reqPerSec / sdk.reqPerSec),
        note: [
          x.clientCpu >= 0.9 ? "client-bound" : "",
          x.errors + x.non2xx > 0 ? `${x.errors} errors, ${x.non2xx} non-2xx` : "",
        ]
          .filter(Boolean)
          .join("; "),
      };
    }),
  ),
  targets,
  notes: [
    `${CONNECTIONS} connections, warm-up ${WARMUP} s + ${DURATION} s per server; bare = node:http doing the same JSON work, sdk = @a2a-js/sdk 1.3.0 (express) with an equivalent executor`,
  ],
});
const clean = only.every((s) =>
  SERVERS.every((k) => results[s][k].errors === 0 && results[s][k].non2xx === 0),
);
if (!clean) console.log("\nwarning: some runs had errors or non-2xx answers (see the table)");
console.log(
  "\nServer CPU = server process CPU time / wall time (1.00 = one core); client CPU = the same for autocannon (this process).",
);
await shutdown(clean ? 0 : 1);
