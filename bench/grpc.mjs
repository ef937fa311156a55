#!/usr/bin/env node
/**
 * gRPC load benchmark (issue #16), all in one run:
 *
 *   node bench/grpc.mjs [--duration 5] [--warmup 2] [--connections 10] [--streams 5] [--tool auto|h2load|grpc-js]
 *                       [--only grpc-message,grpc-task,…] [--rounds 1] [--results <file.json>]
 *
 * The task path (servers: bench/grpc/server.ts):
 * - grpc-message: SendMessage "tck-message-response bench", answered with a Message (no task);
 * - grpc-task:    SendMessage "tck-complete-task bench": a task created, worked, completed (artifact "Completed: <text>");
 * - grpc-get:     GetTask of a task created that way beforehand;
 * on "example (grpc-js)", the example agent as shipped (`startExampleAgent`, its gRPC port: the default
 * grpc_server=grpc-js); "example (Connect stack)", the same task handler on `listenGrpc` (node:http2: plain gRPC
 * unary calls on its lean path, runtime/src/grpc/lean-unary.ts, the rest through Connect); "sdk", @a2a-js/sdk
 * 1.3.0's `grpcService` (grpc-js) with an equivalent executor; and a reference, the task handler behind a
 * minimal unary responder on bare node:http2 (no gRPC library, no deadlines: what a gRPC layer costs).
 * The stateless handler (a Map, no task runtime; the pipeline alone):
 * - grpc-stateless-message / grpc-stateless-get: our grpc-js and Connect stacks, the SDK, and bare Connect
 *   routes (`connectNodeAdapter` with the same handler, no A2A pipeline, no lean path: Connect's own cost).
 * Targets: the task path on grpc-js ≥ 1.3× the SDK; Connect ≥ 0.8× grpc-js (the same handler).
 *
 * The same request bytes to every server (protobuf-es `toBinary`, gRPC length prefix added here), metadata
 * `a2a-version: 1.0`, h2c, 127.0.0.1. Each server runs in its own child process, and so does the load generator:
 *   - h2load (nghttp2, a C client) when it is on PATH (or --tool h2load): `--connections` × `--streams` concurrent
 *     streams, the pre-framed body (-d). h2load counts HTTP 2xx, not grpc-status, so every run is checked on bytes:
 *     a gRPC error has no DATA, so the DATA bytes received bound the number of good answers (errors = answers
 *     the bytes cannot account for, at the smallest good answer measured beforehand, less the streams in flight
 *     when the run is cut: a server that fails is still seen, one error in 10,000 is not); p50/p99 from its
 *     per-request log. Its CPU is read from this process's reaped-children time (Linux /proc).
 *     To get it: `apt-get install nghttp2-client` (Debian/Ubuntu), `brew install nghttp2` (macOS).
 *   - otherwise a @grpc/grpc-js client loop (bench/grpc/load.ts), same concurrency, no response decoding:
 *     a JS client on the same machine, usually the bottleneck.
 * A run whose load generator used ≥ 90% of a core is marked "client-bound": the numbers say more about the
 * client than the server. Per scenario the servers are measured in a random order, each right after its own
 * warm-up; with --rounds N (for a shared, noisy machine) that is done N times and each server's median round is
 * kept. Every server is called by hand before and after the load and must answer correctly.
 *
 * Children exit with the parent (IPC disconnect) and are killed on exit, Ctrl-C, SIGTERM and errors; h2load
 * runs are bounded by -D; a watchdog ends the script if it runs far too long.
 * Profiles: bench/grpc/profile.mjs.
 */
import { fork, spawn, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parseBenchArgs } from "./lib/args.mjs";
import { bundle, cacheDir } from "./lib/build.mjs";
import {
  installExitHandlers,
  onShutdown,
  shutdown,
  startServer,
  startWatchdog,
  track,
} from "./lib/children.mjs";
import { percentile } from "./lib/load.mjs";
import { writeResults } from "./lib/results.mjs";
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

/** Scenario → the method, the group of servers it runs on, and the SendMessage text. */
const SCENARIOS = {
  "grpc-message": { method: "SendMessage", group: "task", label: "Message reply" },
  "grpc-task": { method: "SendMessage", group: "task", label: "task created + completed" },
  "grpc-get": { method: "GetTask", group: "task", label: "GetTask" },
  "grpc-stateless-message": {
    method: "SendMessage",
    group: "stateless",
    label: "stateless SendMessage",
  },
  "grpc-stateless-get": { method: "GetTask", group: "stateless", label: "stateless GetTask" },
};

/** Servers (bench/grpc/server.ts kinds) per group; `role` names the contender and the baselines. */
const GROUPS = {
  task: [
    { kind: "example", name: "example (grpc-js)", role: "grpcjs" },
    { kind: "example-connect", name: "example (Connect stack)", role: "connect" },
    { kind: "sdk-agent", name: "sdk", role: "sdk" },
    { kind: "example-h2", name: "ref: task handler on bare node:http2", role: "h2" },
  ],
  stateless: [
    { kind: "grpcjs", name: "stateless (grpc-js)", role: "grpcjs" },
    { kind: "ours", name: "stateless (Connect stack)", role: "connect" },
    { kind: "sdk", name: "sdk (stateless executor)", role: "sdk" },
    { kind: "connect", name: "bare Connect", role: "bare" },
  ],
};

const { args, intArg } = parseBenchArgs(
  `usage: node bench/grpc.mjs [--duration 5] [--warmup 2] [--connections 10] [--streams 5] [--tool auto|h2load|grpc-js] [--only ${Object.keys(SCENARIOS).join(",")}] [--rounds 1] [--results <file>]`,
  {
    duration: { type: "string", default: "5" },
    warmup: { type: "string", default: "2" },
    connections: { type: "string", default: "10" },
    streams: { type: "string", default: "5" },
    tool: { type: "string", default: "auto" },
    only: { type: "string", default: "" },
    rounds: { type: "string", default: "1" },
    results: { type: "string", default: "" },
  },
);
const DURATION = intArg("duration", 1, 600);
const WARMUP = intArg("warmup", 0, 60);
const CONNECTIONS = intArg("connections", 1, 200);
const STREAMS = intArg("streams", 1, 100);
const ROUNDS = intArg("rounds", 1, 20);
if (!["auto", "h2load", "grpc-js"].includes(args.tool)) {
  console.error(`--tool must be auto, h2load or grpc-js, got ${JSON.stringify(args.tool)}`);
  process.exit(2);
}
const ONLY = args.only === "" ? Object.keys(SCENARIOS) : args.only.split(",");
for (const name of ONLY) {
  if (!(name in SCENARIOS)) {
    console.error(`unknown scenario ${name}; known: ${Object.keys(SCENARIOS).join(", ")}`);
    process.exit(2);
  }
}
const h2loadVersion = (() => {
  const r = spawnSync("h2load", ["--version"], { encoding: "utf8", timeout: 5000 });
  return r.status === 0 ? (/h2load nghttp2\/(\S+)/.exec(r.stdout)?.[1] ?? "?") : undefined;
})();
const H2LOAD_HINT =
  "apt-get install nghttp2-client (Debian/Ubuntu) or brew install nghttp2 (macOS)";
if (args.tool === "h2load" && h2loadVersion === undefined) {
  console.error(`--tool h2load: h2load is not on PATH (${H2LOAD_HINT})`);
  process.exit(2);
}
const TOOL =
  args.tool === "grpc-js" || (args.tool === "auto" && h2loadVersion === undefined)
    ? "grpc-js"
    : "h2load";
/** A load generator above this share of a core was the bottleneck. */
const CLIENT_BOUND = 0.9;
const TASK_TARGET = 1.3;
const CONNECT_TARGET = 0.8;

// ---------------------------------------------------------------------------------------
// child processes: started, tracked, always ended
// ---------------------------------------------------------------------------------------

installExitHandlers("children");
onShutdown(() => rmSync(workDir, { recursive: true, force: true }));
const groupsUsed = [...new Set(ONLY.map((s) => SCENARIOS[s].group))];
const runs = ONLY.reduce((n, s) => n + GROUPS[SCENARIOS[s].group].length, 0);
startWatchdog(60 + ROUNDS * runs * (WARMUP + DURATION + 15));
const workDir = join(cacheDir, `grpc-run-${process.pid}`);

/** Removes the work folders of earlier runs that were killed (SIGKILL leaves them behind). */
function removeStaleWorkDirs() {
  let names = [];
  try {
    names = readdirSync(cacheDir);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(/^grpc-run-(\d+)$/.exec(name)?.[1]);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      process.kill(pid, 0); // still running: leave it alone
    } catch {
      rmSync(join(cacheDir, name), { recursive: true, force: true });
    }
  }
}

removeStaleWorkDirs();
mkdirSync(workDir, { recursive: true });
const files = await bundle({
  "grpc-server": "bench/grpc/server.ts",
  "grpc-load": "bench/grpc/load.ts",
  "grpc-requests": "bench/grpc/requests.ts",
});
const rq = await import(pathToFileURL(files["grpc-requests"]).href);

/** The server's RSS and heap in MiB. */
function memory(server) {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ rssMiB: NaN, heapMiB: NaN }), 5000);
    const onMessage = (m) => {
      if (!m?.mem) return;
      clearTimeout(timer);
      server.child.off("message", onMessage);
      resolve({ rssMiB: m.mem.rss / 2 ** 20, heapMiB: m.mem.heapUsed / 2 ** 20 });
    };
    server.child.on("message", onMessage);
    server.child.send({ cmd: "mem" });
  });
}

// ---------------------------------------------------------------------------------------
// load generators
// ---------------------------------------------------------------------------------------

const CLK_TCK =
  Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout?.trim()) || 100;

/** CPU seconds of this process's reaped children (Linux: /proc/self/stat cutime + cstime), NaN elsewhere. */
function childrenCpuSeconds() {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" "); // fields[0] is field 3 (state)
    return (Number(fields[13]) + Number(fields[14])) / CLK_TCK; // fields 16 and 17: cutime, cstime
  } catch {
    return NaN;
  }
}

/** One h2load run; returns req/s, latency percentiles (ms), errors (see the header) and h2load's CPU share. */
function runH2load(port, method, bodyFile, seconds, minAnswerBytes) {
  const logFile = join(workDir, `h2load-${method}-${port}.log`);
  const argv = [
    "-c",
    String(CONNECTIONS),
    "-m",
    String(STREAMS),
    "-D",
    String(seconds),
    "-d",
    bodyFile,
  ];
  for (const h of ["content-type: application/grpc", "te: trailers", "a2a-version: 1.0"])
    argv.push("-H", h);
  argv.push("--log-file", logFile, `http://127.0.0.1:${port}/lf.a2a.v1.A2AService/${method}`);
  return new Promise((resolve, reject) => {
    const cpu0 = childrenCpuSeconds();
    const child = track(spawn("h2load", argv, { stdio: ["ignore", "pipe", "pipe"] }));
    const kill = setTimeout(() => child.kill("SIGKILL"), (seconds + 30) * 1000);
    let out = "";
    child.stdout.on("data", (c) => (out += c));
    child.stderr.on("data", (c) => (out += c));
    child.once("exit", (code, signal) => {
      clearTimeout(kill);
      if (code !== 0) return reject(new Error(`h2load exited with ${signal ?? code}:\n${out}`));
      const num = (re) => Number((re.exec(out)?.[1] ?? "NaN").replace(/,/g, ""));
      const succeeded = num(/(\d+) succeeded/);
      const failed = num(/(\d+) failed/);
      const errored = num(/(\d+) errored/);
      const timeout = num(/(\d+) timeout/);
      // "traffic: 1.23MB (1289748) total, … headers (…), 456.78KB (467743) data": the exact byte count
      const dataBytes = num(/\(\d+\) headers[^,]*,\s*\S+ \((\d+)\) data/);
      let latencies = [];
      try {
        latencies = readFileSync(logFile, "utf8")
          .split("\n")
          .map((line) => line.split("\t"))
          .filter((cols) => cols.length >= 3 && cols[1] === "200")
          .map((cols) => Number(cols[2]) / 1000)
          .sort((a, b) => a - b);
      } catch {
        latencies = [];
      }
      const wall = num(/finished in ([\d.]+)s/);
      // a gRPC error answer (grpc-status ≠ 0, trailers only) is HTTP 200 without DATA: count what the bytes cannot account for
      // (less the streams in flight when -D cut the run: h2load may count one whose HEADERS had arrived, not its DATA)
      const inFlight = CONNECTIONS * STREAMS;
      const grpcErrors = Number.isFinite(dataBytes)
        ? Math.max(0, Math.ceil(succeeded - dataBytes / minAnswerBytes - 1e-9) - inFlight)
        : NaN;
      const cpu = childrenCpuSeconds() - cpu0;
      resolve({
        reqPerSec: (succeeded - (Number.isFinite(grpcErrors) ? grpcErrors : 0)) / wall,
        errors: failed + errored + timeout + (Number.isFinite(grpcErrors) ? grpcErrors : 0),
        seconds: wall,
        p50: percentile(latencies, 50),
        p99: percentile(latencies, 99),
        bytesPerAnswer: succeeded > 0 ? dataBytes / succeeded : NaN,
        clientCpu: cpu / wall,
      });
    });
  });
}

/** One grpc-js client loop run in its own process. */
function runGrpcJs(port, method, message, seconds) {
  return new Promise((resolve, reject) => {
    const child = track(
      fork(files["grpc-load"], [], { stdio: ["ignore", "inherit", "inherit", "ipc"] }),
    );
    let done = false;
    child.on("message", (m) => {
      if (m?.ready === true) {
        child.send({
          port,
          path: `/lf.a2a.v1.A2AService/${method}`,
          message: Buffer.from(message).toString("base64"),
          connections: CONNECTIONS,
          streams: STREAMS,
          seconds,
        });
      } else if (m?.result) {
        done = true;
        const r = m.result;
        resolve({
          reqPerSec: r.ok / r.seconds,
          errors: r.errors,
          codes: r.codes,
          seconds: r.seconds,
          p50: r.p50,
          p99: r.p99,
          bytesPerAnswer: NaN,
          clientCpu: r.cpu,
        });
      } else if (m?.error) {
        done = true;
        reject(new Error(`grpc-js load: ${m.error}`));
      }
    });
    child.once("exit", (code, signal) => {
      if (!done) reject(new Error(`grpc-js load exited early (${signal ?? code})`));
    });
  });
}

// ---------------------------------------------------------------------------------------
// checks by hand
// ---------------------------------------------------------------------------------------

/** How many hand calls measure the answer sizes of a scenario (task answers vary by a few bytes: timestamps). */
const SIZE_SAMPLES = 8;

/**
 * Checks a server by hand: the Message reply, a COMPLETED task with its artifact, GetTask of it. Returns the
 * GetTask id and, per scenario, the request and the smallest good answer (framed bytes, less a margin for
 * varint-sized timestamps when the answers vary).
 */
async function check(server, group, taskId) {
  const fail = (what, got) => {
    throw new Error(`${server.name}: ${what}: ${JSON.stringify(got)}`);
  };
  const text =
    group === "task"
      ? { message: rq.MESSAGE_TEXT, task: rq.TASK_TEXT }
      : { message: rq.ECHO_TEXT, task: "task" };
  const expectArtifact = group === "task" ? `Completed: ${rq.TASK_TEXT}` : "artifact text";
  const call = async (what, method, message) => {
    const answer = await rq.rawCall(server.port, method, message);
    if (answer.grpcStatus !== "0" || answer.messages.length !== 1)
      fail(what, { ...answer, messages: answer.messages.length });
    return answer.messages[0];
  };
  const sizes = { message: [], task: [], get: [] };
  const messageRequest = rq.sendMessageRequest(text.message);
  const taskRequest = rq.sendMessageRequest(text.task);
  for (let i = 0; i < SIZE_SAMPLES; i++) {
    const reply = await call("SendMessage (Message)", "SendMessage", messageRequest);
    const m = rq.describeSendMessageResponse(reply);
    if (m.kind !== "message" || m.text !== text.message)
      fail("SendMessage: expected the Message echo", m);
    sizes.message.push(5 + reply.length);
    const created = await call("SendMessage (task)", "SendMessage", taskRequest);
    const t = rq.describeSendMessageResponse(created);
    if (
      t.kind !== "task" ||
      t.state !== "COMPLETED" ||
      t.taskId === "" ||
      t.artifactText !== expectArtifact
    )
      fail(`SendMessage: expected a COMPLETED task with artifact "${expectArtifact}"`, t);
    sizes.task.push(5 + created.length);
    taskId ??= t.taskId;
  }
  const getRequest = rq.getTaskRequest(taskId);
  for (let i = 0; i < SIZE_SAMPLES; i++) {
    const got = await call("GetTask", "GetTask", getRequest);
    const task = rq.describeTask(got);
    if (
      task.id !== taskId ||
      task.state !== "COMPLETED" ||
      task.artifacts !== 1 ||
      task.artifactText !== expectArtifact ||
      task.history < 1
    )
      fail("GetTask", task);
    sizes.get.push(5 + got.length);
  }
  const smallest = (list) => Math.min(...list) - (Math.min(...list) === Math.max(...list) ? 0 : 8);
  const prefix = group === "task" ? "grpc" : "grpc-stateless";
  return {
    taskId,
    requests: {
      [`${prefix}-message`]: {
        method: "SendMessage",
        message: messageRequest,
        minAnswer: smallest(sizes.message),
        answer: sizes.message[0],
      },
      ...(group === "task"
        ? {
            "grpc-task": {
              method: "SendMessage",
              message: taskRequest,
              minAnswer: smallest(sizes.task),
              answer: sizes.task[0],
            },
          }
        : {}),
      [`${prefix}-get`]: {
        method: "GetTask",
        message: getRequest,
        minAnswer: smallest(sizes.get),
        answer: sizes.get[0],
      },
    },
  };
}

// ---------------------------------------------------------------------------------------
// main
// ---------------------------------------------------------------------------------------

const servers = {};
for (const group of groupsUsed) {
  for (const spec of GROUPS[group]) {
    const s = await startServer(files["grpc-server"], spec.kind);
    servers[spec.kind] = { ...s, ...spec, group };
    servers[spec.kind].state = await check(servers[spec.kind], group);
  }
}

const toolLine =
  TOOL === "h2load"
    ? `h2load ${h2loadVersion} (${CONNECTIONS} connections × ${STREAMS} streams, pre-framed body)`
    : `@grpc/grpc-js client loop in a child process (${CONNECTIONS} channels × ${STREAMS} calls in flight; h2load is not on PATH: ${H2LOAD_HINT})`;
console.log(
  `gRPC unary, h2c on 127.0.0.1, load: ${toolLine}, warm-up ${WARMUP} s + ${DURATION} s per server and scenario, node ${process.version}`,
);

async function measure(server, scenario) {
  const { method, message, minAnswer, answer } = server.state.requests[scenario];
  const file = join(workDir, `${scenario}-${server.kind}.bin`);
  writeFileSync(file, rq.frame(message));
  const once = (seconds) =>
    TOOL === "h2load"
      ? runH2load(server.port, method, file, seconds, minAnswer)
      : runGrpcJs(server.port, method, message, seconds);
  if (WARMUP > 0) await once(WARMUP);
  const cpu0 = await server.cpu();
  const r = await once(DURATION);
  const serverCpu = ((await server.cpu()) - cpu0) / 1e6 / (r.seconds || DURATION);
  return { ...r, serverCpu, answerBytes: answer, ...(await memory(server)) };
}

const results = {};
for (const scenario of ONLY) {
  const rounds = {};
  for (let round = 1; round <= ROUNDS; round++) {
    for (const s of shuffle(GROUPS[SCENARIOS[scenario].group]).map((spec) => servers[spec.kind])) {
      // GetTask of a task created just now: "grpc-task" before it creates more tasks than a store keeps (maxTasks,
      // 10,000 by default), and the first one is gone.
      if (SCENARIOS[scenario].method === "GetTask") s.state = await check(s, s.group);
      const r = await measure(s, scenario);
      (rounds[s.kind] ??= []).push(r);
      const extra =
        r.codes && Object.keys(r.codes).length > 0 ? `  codes ${JSON.stringify(r.codes)}` : "";
      console.log(
        `  ${scenario.padEnd(22)}${ROUNDS > 1 ? ` #${round}` : ""} ${s.name.padEnd(24)} ${fmtInt(r.reqPerSec).padStart(7)} req/s  p50 ${fmtMs(r.p50)}  p99 ${fmtMs(r.p99)} ms  errors ${r.errors}  CPU server ${fmtPct(r.serverCpu)} client ${fmtPct(r.clientCpu)}${extra}`,
      );
    }
  }
  // the median round of each server (by req/s); errors of every round count
  results[scenario] = {};
  for (const [kind, list] of Object.entries(rounds))
    results[scenario][kind] = {
      ...median(list, (r) => r.reqPerSec),
      errors: list.reduce((n, r) => n + r.errors, 0),
    };
}

// still healthy, still answering correctly (the task group on a task created now: after "grpc-task" the first one
// may be gone, dropped by the store's maxTasks)
for (const s of Object.values(servers))
  await check(s, s.group, s.group === "task" ? undefined : s.state.taskId);

const byRole = (scenario, role) => {
  const spec = GROUPS[SCENARIOS[scenario].group].find((x) => x.role === role);
  return spec === undefined ? undefined : results[scenario][spec.kind];
};
const rows = [];
const printed = [];
for (const scenario of ONLY) {
  const sdk = byRole(scenario, "sdk");
  const grpcjs = byRole(scenario, "grpcjs");
  for (const spec of GROUPS[SCENARIOS[scenario].group]) {
    const r = results[scenario][spec.kind];
    const notes = [];
    if (r.clientCpu >= CLIENT_BOUND) notes.push("client-bound");
    if (r.errors > 0) notes.push(`${r.errors} errors`);
    const vsSdk = spec.role === "sdk" ? "1.00×" : fmtRatio(r.reqPerSec / sdk.reqPerSec);
    const vsGrpcJs = spec.role === "grpcjs" ? "1.00×" : fmtRatio(r.reqPerSec / grpcjs.reqPerSec);
    rows.push({
      scenario,
      server: spec.name,
      unit: "req/s",
      value: Math.round(r.reqPerSec),
      p50: r.p50,
      p99: r.p99,
      rssMiB: Math.round(r.rssMiB),
      heapMiB: Math.round(r.heapMiB),
      serverCpu: r.serverCpu,
      clientCpu: r.clientCpu,
      vsSdk,
      ...(notes.length > 0 ? { note: notes.join(", ") } : {}),
    });
    printed.push([
      scenario,
      spec.name,
      fmtInt(r.reqPerSec),
      fmtMs(r.p50),
      fmtMs(r.p99),
      vsSdk,
      vsGrpcJs,
      r.errors,
      r.answerBytes,
      ...(TOOL === "h2load"
        ? [Number.isFinite(r.bytesPerAnswer) ? r.bytesPerAnswer.toFixed(1) : "n/a"]
        : []),
      `${Math.round(r.rssMiB)}/${Math.round(r.heapMiB)}`,
      fmtPct(r.serverCpu),
      fmtInt((r.serverCpu * 1e6) / r.reqPerSec),
      fmtPct(r.clientCpu) + (r.clientCpu >= CLIENT_BOUND ? " (client-bound)" : ""),
    ]);
  }
}
console.log(
  `\n${table(
    [
      "scenario",
      "server",
      "req/s",
      "p50 ms",
      "p99 ms",
      "vs sdk",
      "vs grpc-js",
      "errors",
      "answer B",
      ...(TOOL === "h2load" ? ["DATA B/answer"] : []),
      "RSS/heap MiB",
      "server CPU",
      "CPU µs/req",
      "client CPU",
    ],
    printed,
    2,
  )}`,
);

const targets = [];
const notes = [];
for (const scenario of ONLY) {
  const { group, label } = SCENARIOS[scenario];
  const sdk = byRole(scenario, "sdk");
  const grpcjs = byRole(scenario, "grpcjs");
  const connect = byRole(scenario, "connect");
  const clientBound = (...xs) =>
    xs.some((x) => x.clientCpu >= CLIENT_BOUND) ? " (client-bound)" : "";
  if (group === "task") {
    const ratio = grpcjs.reqPerSec / sdk.reqPerSec;
    targets.push({
      name: `gRPC task path ≥ ${TASK_TARGET}× SDK: ${label}`,
      measured: `${fmtRatio(ratio)}${clientBound(grpcjs, sdk)}`,
      pass: ratio >= TASK_TARGET && grpcjs.errors === 0,
    });
    const c = connect.reqPerSec / grpcjs.reqPerSec;
    targets.push({
      name: `Connect ≥ ${CONNECT_TARGET}× grpc-js: ${label}`,
      measured: `${fmtRatio(c)}${clientBound(grpcjs, connect)}`,
      pass: c >= CONNECT_TARGET && connect.errors === 0,
    });
    const h2 = byRole(scenario, "h2");
    notes.push(
      `${label}: the task handler on bare node:http2 (no gRPC library) / example (grpc-js) ${fmtRatio(h2.reqPerSec / grpcjs.reqPerSec)}, / sdk ${fmtRatio(h2.reqPerSec / sdk.reqPerSec)}`,
    );
  } else {
    const bare = byRole(scenario, "bare");
    notes.push(
      `${label}: grpc-js/sdk ${fmtRatio(grpcjs.reqPerSec / sdk.reqPerSec)}, Connect/grpc-js ${fmtRatio(connect.reqPerSec / grpcjs.reqPerSec)}, ours (Connect)/bare Connect ${fmtRatio(connect.reqPerSec / bare.reqPerSec)}, bare Connect/sdk ${fmtRatio(bare.reqPerSec / sdk.reqPerSec)}`,
    );
  }
}
if (ROUNDS > 1) notes.push(`${ROUNDS} rounds per scenario, each server's median round`);
const clientBoundRuns = rows.filter((r) => r.note?.includes("client-bound")).length;
notes.push(
  TOOL === "h2load"
    ? `load: h2load ${h2loadVersion}, ${CONNECTIONS}×${STREAMS} streams; errors include answers without DATA (gRPC errors)`
    : `load: grpc-js client loop (h2load not on PATH: ${H2LOAD_HINT}); JS clients are usually the bottleneck`,
);
if (clientBoundRuns > 0)
  notes.push(
    `${clientBoundRuns} run(s) client-bound (load generator ≥ ${CLIENT_BOUND * 100}% of a core)`,
  );
printTargets(targets.map((t) => [t.name, t.pass, t.measured]));
console.log("");
for (const n of notes) console.log(n);
console.log(
  "Server/client CPU = the process's CPU time / wall time (1.00 = one core busy); CPU µs/req = server CPU time per answer.",
);
writeResults(args.results, { bench: "grpc", rows, targets, notes });
// Exit 1 when one of ours answered with errors; the SDK's errors are reported, not ours to fail on.
const ours = (kind) => !["sdk", "sdk-agent"].includes(kind);
const clean = Object.values(results).every((perServer) =>
  Object.entries(perServer).every(([kind, r]) => !ours(kind) || r.errors === 0),
);
const sdkErrors = Object.values(results).some((perServer) =>
  Object.entries(perServer).some(([kind, r]) => !ours(kind) && r.errors > 0),
);
if (!clean) console.log("\nwarning: some of our servers answered with errors (see the table)");
if (sdkErrors)
  console.log(
    "\nnote: the SDK answered with errors (or answers shorter than its good one) in some runs (see the table)",
  );
await shutdown(clean ? 0 : 1);
