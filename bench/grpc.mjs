#!/usr/bin/env node
/**
 * gRPC unary load benchmark: our gRPC server on both of its stacks (the generated Connect for
 * Node server on node:http2, and `listenGrpcJs` on @grpc/grpc-js, same definition and pipeline)
 * vs @a2a-js/sdk 1.3.0's `grpcService` on @grpc/grpc-js, in the same run. Each of our stacks gets
 * its own PASS/FAIL against the SDK.
 *
 *   node bench/grpc.mjs [--duration 10] [--warmup 2] [--connections 10] [--streams 5]
 *                       [--tool auto|h2load|grpc-js]
 *
 * Methods: SendMessage (echo → Message) and GetTask (of a Task the benchmark creates first
 * through SendMessage "task"); the same request bytes to both servers (protobuf-es `toBinary`
 * of the request, gRPC length prefix added here), metadata `a2a-version: 1.0`, h2c, 127.0.0.1.
 *
 * Each server runs in its own child process (bench/grpc/server.ts, bundled with esbuild into
 * node_modules/.cache/bench/), and so does the load generator, the same for both servers:
 *   - h2load (nghttp2) when it is on PATH (or --tool h2load): `--connections` connections ×
 *     `--streams` concurrent streams, the pre-framed body (-d). h2load counts HTTP 2xx, not
 *     grpc-status, so every run is checked on bytes: the DATA bytes per answer must equal the
 *     framed size of the good answer measured before (an error answer has no DATA); p50/p99
 *     come from h2load's per-request log (--log-file).
 *   - otherwise a @grpc/grpc-js client loop (bench/grpc/load.ts) with the same connections ×
 *     streams, pre-serialized request, no response decoding. It is a JS client on the same
 *     machine: usually client-bound (see the client CPU column).
 * A third server, "bare Connect routes" (the same handler without the A2A pipeline), is a
 * reference only: it tells Connect's own cost from ours, and takes no part in PASS/FAIL.
 * Per method the servers are measured in a random order, each right after its own warm-up.
 * Before and after the load each server is called once by hand and must answer correctly.
 *
 * Children exit with the parent (IPC disconnect) and are killed on exit, Ctrl-C, SIGTERM and
 * errors; h2load runs are bounded by -D; a watchdog ends the script if it runs far too long.
 */
import { fork, spawn, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parseBenchArgs } from "./lib/args.mjs";
import { bundle, cacheDir } from "./lib/build.mjs";
import { installExitHandlers, onShutdown, shutdown, startServer, startWatchdog, track } from "./lib/children.mjs";
import { percentile } from "./lib/load.mjs";
import { fmtInt, fmtMs, fmtPct, fmtRatio, shuffle, table, verdict } from "./lib/report.mjs";

// ---------------------------------------------------------------------------------------
// options
// ---------------------------------------------------------------------------------------

const { args, intArg } = parseBenchArgs("usage: node bench/grpc.mjs [--duration 10] [--warmup 2] [--connections 10] [--streams 5] [--tool auto|h2load|grpc-js]", {
  duration: { type: "string", default: "10" },
  warmup: { type: "string", default: "2" },
  connections: { type: "string", default: "10" },
  streams: { type: "string", default: "5" },
  tool: { type: "string", default: "auto" },
});
const DURATION = intArg("duration", 1, 600);
const WARMUP = intArg("warmup", 0, 60);
const CONNECTIONS = intArg("connections", 1, 200);
const STREAMS = intArg("streams", 1, 100);
if (!["auto", "h2load", "grpc-js"].includes(args.tool)) {
  console.error(`--tool must be auto, h2load or grpc-js, got ${JSON.stringify(args.tool)}`);
  process.exit(2);
}
const h2loadVersion = (() => {
  const r = spawnSync("h2load", ["--version"], { encoding: "utf8", timeout: 5000 });
  return r.status === 0 ? (/h2load nghttp2\/(\S+)/.exec(r.stdout)?.[1] ?? "?") : undefined;
})();
if (args.tool === "h2load" && h2loadVersion === undefined) {
  console.error("--tool h2load: h2load is not on PATH (Debian: apt-get install nghttp2-client)");
  process.exit(2);
}
const TOOL = args.tool === "grpc-js" || (args.tool === "auto" && h2loadVersion === undefined) ? "grpc-js" : "h2load";

/** Our two stacks, each judged against the SDK. */
const CONTENDERS = [
  { kind: "ours", name: "ours (Connect)" },
  { kind: "grpcjs", name: "ours (grpc-js)" },
];

/** "At least on par": ours/sdk req/s ≥ this, and ours p99 ≤ sdk p99 × (2 − this); 5 % for run-to-run noise. */
const PAR = 0.95;

// ---------------------------------------------------------------------------------------
// child processes: started, tracked, always ended
// ---------------------------------------------------------------------------------------

installExitHandlers("children");
onShutdown(() => rmSync(workDir, { recursive: true, force: true }));

const SERVERS = [
  { kind: "ours", label: "ours (Connect, node:http2)" },
  { kind: "grpcjs", label: "ours (grpc-js)" },
  { kind: "sdk", label: "@a2a-js/sdk grpcService (grpc-js)" },
  { kind: "connect", label: "reference: bare Connect routes" },
];
const METHODS = ["SendMessage", "GetTask"];

startWatchdog(40 + METHODS.length * SERVERS.length * (WARMUP + DURATION + 15));

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

async function buildAll() {
  removeStaleWorkDirs();
  mkdirSync(workDir, { recursive: true });
  const files = await bundle({ "grpc-server": "bench/grpc/server.ts", "grpc-load": "bench/grpc/load.ts", "grpc-requests": "bench/grpc/requests.ts" });
  return { server: files["grpc-server"], load: files["grpc-load"], requests: files["grpc-requests"] };
}

// ---------------------------------------------------------------------------------------
// load generators
// ---------------------------------------------------------------------------------------

/** One h2load run; returns req/s, latency percentiles (ms) and the DATA bytes per answer. */
function runH2load(port, method, bodyFile, seconds, expectedAnswerBytes) {
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
    "-H",
    "content-type: application/grpc",
    "-H",
    "te: trailers",
    "-H",
    "a2a-version: 1.0",
    "--log-file",
    logFile,
    `http://127.0.0.1:${port}/lf.a2a.v1.A2AService/${method}`,
  ];
  return new Promise((resolve, reject) => {
    const child = track(spawn("h2load", argv, { stdio: ["ignore", "pipe", "pipe"] }));
    const kill = setTimeout(() => child.kill("SIGKILL"), (seconds + 30) * 1000);
    let out = "";
    child.stdout.on("data", (c) => (out += c));
    child.stderr.on("data", (c) => (out += c));
    child.once("exit", (code, signal) => {
      clearTimeout(kill);
      if (code !== 0) return reject(new Error(`h2load exited with ${signal ?? code}:\n${out}`));
      const num = (re) => Number((re.exec(out)?.[1] ?? "NaN").replace(/,/g, ""));
      const bytes = (re) => {
        const m = re.exec(out);
        if (!m) return NaN;
        const unit = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 }[m[2]] ?? NaN;
        return Number(m[1]) * unit;
      };
      const succeeded = num(/(\d+) succeeded/);
      const failed = num(/(\d+) failed/);
      const errored = num(/(\d+) errored/);
      const timeout = num(/(\d+) timeout/);
      // "traffic: 1.23MB (1289748) total, ... headers (...), 456.78KB (467743) data": take the exact byte count
      const dataBytes = num(/\(\d+\) headers[^,]*,\s*\S+ \((\d+)\) data/) || bytes(/,\s*([\d.]+)(B|KB|MB|GB) \(\d+\) data/);
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
      const seconds_ = num(/finished in ([\d.]+)s/);
      const answered = succeeded;
      const perAnswer = answered > 0 ? dataBytes / answered : NaN;
      // an error answer (grpc-status ≠ 0) carries no DATA: count the missing bytes as errors
      const grpcErrors = Number.isFinite(perAnswer) ? Math.max(0, Math.round(answered - dataBytes / expectedAnswerBytes)) : NaN;
      resolve({
        reqPerSec: num(/finished in [\d.]+s, ([\d.]+) req\/s/),
        ok: answered - (Number.isFinite(grpcErrors) ? grpcErrors : 0),
        errors: failed + errored + timeout + (Number.isFinite(grpcErrors) ? grpcErrors : 0),
        seconds: seconds_,
        p50: percentile(latencies, 50),
        p99: percentile(latencies, 99),
        bytesPerAnswer: perAnswer,
        clientCpu: NaN,
      });
    });
  });
}

/** One grpc-js client loop run in its own process. */
function runGrpcJs(script, port, method, message, seconds) {
  return new Promise((resolve, reject) => {
    const child = track(fork(script, [], { stdio: ["ignore", "inherit", "inherit", "ipc"] }));
    let done = false;
    child.on("message", (m) => {
      if (m?.ready === true) {
        child.send({ port, path: `/lf.a2a.v1.A2AService/${method}`, message: Buffer.from(message).toString("base64"), connections: CONNECTIONS, streams: STREAMS, seconds });
      } else if (m?.result) {
        done = true;
        const r = m.result;
        resolve({ reqPerSec: r.ok / r.seconds, ok: r.ok, errors: r.errors, codes: r.codes, seconds: r.seconds, p50: r.p50, p99: r.p99, bytesPerAnswer: NaN, clientCpu: r.cpu });
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
// main
// ---------------------------------------------------------------------------------------

const scripts = await buildAll();
const rq = await import(pathToFileURL(scripts.requests).href);
const servers = await Promise.all(SERVERS.map(({ kind }) => startServer(scripts.server, kind)));

/** Checks a server by hand (echo, Task creation, GetTask); returns the GetTask id and answer sizes. */
async function check(server, taskId) {
  const fail = (what, got) => {
    throw new Error(`${server.kind}: ${what}: ${JSON.stringify(got)}`);
  };
  const echo = await rq.rawCall(server.port, "SendMessage", rq.sendMessageRequest());
  if (echo.grpcStatus !== "0" || echo.messages.length !== 1) fail("SendMessage", echo);
  const echoed = rq.describeSendMessageResponse(echo.messages[0]);
  if (echoed.kind !== "message" || echoed.text !== rq.ECHO_TEXT) fail("SendMessage answer", echoed);
  if (taskId === undefined) {
    const created = await rq.rawCall(server.port, "SendMessage", rq.sendMessageRequest("task"));
    if (created.grpcStatus !== "0" || created.messages.length !== 1) fail("SendMessage task", created);
    const t = rq.describeSendMessageResponse(created.messages[0]);
    if (t.kind !== "task" || t.state !== "COMPLETED" || t.taskId === "") fail("SendMessage task answer", t);
    taskId = t.taskId;
  }
  const got = await rq.rawCall(server.port, "GetTask", rq.getTaskRequest(taskId));
  if (got.grpcStatus !== "0" || got.messages.length !== 1) fail("GetTask", got);
  const task = rq.describeTask(got.messages[0]);
  if (task.id !== taskId || task.state !== "COMPLETED" || task.history !== 1 || task.artifacts !== 1) fail("GetTask answer", task);
  // framed answer sizes (5-byte prefix + message)
  return { taskId, answerBytes: { SendMessage: 5 + echo.messages[0].length, GetTask: 5 + got.messages[0].length } };
}

const state = {};
for (const s of servers) state[s.kind] = await check(s);

const toolLine =
  TOOL === "h2load"
    ? `h2load ${h2loadVersion} (${CONNECTIONS} connections × ${STREAMS} streams, pre-framed body)`
    : `@grpc/grpc-js client loop in a child process (${CONNECTIONS} channels × ${STREAMS} calls in flight; client-bound on small machines)`;
console.log(`gRPC unary, h2c on 127.0.0.1, load: ${toolLine}, warm-up ${WARMUP} s + ${DURATION} s per server and method, node ${process.version}`);

const requestBodies = {};
for (const method of METHODS) {
  for (const s of servers) {
    const message = method === "SendMessage" ? rq.sendMessageRequest() : rq.getTaskRequest(state[s.kind].taskId);
    const file = join(workDir, `${method}-${s.kind}.bin`);
    writeFileSync(file, rq.frame(message));
    requestBodies[`${method}/${s.kind}`] = { message, file };
  }
}

async function measure(server, method) {
  const { message, file } = requestBodies[`${method}/${server.kind}`];
  const expected = state[server.kind].answerBytes[method];
  const once = (seconds) => (TOOL === "h2load" ? runH2load(server.port, method, file, seconds, expected) : runGrpcJs(scripts.load, server.port, method, message, seconds));
  if (WARMUP > 0) await once(WARMUP);
  const cpu0 = await server.cpu();
  const r = await once(DURATION);
  const serverCpu = ((await server.cpu()) - cpu0) / 1e6 / (r.seconds || DURATION);
  return { ...r, serverCpu, answerBytes: expected };
}

const results = {};
for (const method of METHODS) {
  const order = shuffle(servers);
  console.log(`${method}: ${order.map((s) => s.kind).join(" → ")}`);
  for (const s of order) {
    const r = await measure(s, method);
    results[`${method}/${s.kind}`] = r;
    const extra = r.codes && Object.keys(r.codes).length > 0 ? `  codes ${JSON.stringify(r.codes)}` : "";
    console.log(
      `  ${s.kind.padEnd(7)} ${fmtInt(r.reqPerSec).padStart(7)} req/s  p50 ${fmtMs(r.p50)} ms  p99 ${fmtMs(r.p99)} ms  errors ${r.errors}  CPU server ${fmtPct(r.serverCpu)}${TOOL === "grpc-js" ? ` client ${fmtPct(r.clientCpu)}` : ""}${extra}`,
    );
  }
}

// still healthy, still answering correctly
for (const s of servers) await check(s, state[s.kind].taskId);

console.log(
  "\n" +
    table(
      ["method", "server", "req/s", "p50 ms", "p99 ms", "errors", "answer B", ...(TOOL === "h2load" ? ["DATA B/answer"] : []), "server CPU", ...(TOOL === "grpc-js" ? ["client CPU"] : [])],
      METHODS.flatMap((method) =>
        SERVERS.map(({ kind, label }) => {
          const r = results[`${method}/${kind}`];
          return [
            method,
            label,
            fmtInt(r.reqPerSec),
            fmtMs(r.p50),
            fmtMs(r.p99),
            r.errors,
            r.answerBytes,
            ...(TOOL === "h2load" ? [Number.isFinite(r.bytesPerAnswer) ? r.bytesPerAnswer.toFixed(1) : "n/a"] : []),
            fmtPct(r.serverCpu),
            ...(TOOL === "grpc-js" ? [fmtPct(r.clientCpu)] : []),
          ];
        }),
      ),
      2,
    ),
);

console.log(`\nours / sdk (same run; "on par" = req/s ratio ≥ ${PAR}, p99 ratio ≤ ${(2 - PAR).toFixed(2)})`);
const overall = {};
for (const { kind, name } of CONTENDERS) {
  let pass = true;
  for (const method of METHODS) {
    const ours = results[`${method}/${kind}`];
    const sdk = results[`${method}/sdk`];
    const rps = ours.reqPerSec / sdk.reqPerSec;
    const p99 = ours.p99 / sdk.p99;
    const rpsOk = rps >= PAR;
    const p99Ok = !Number.isFinite(p99) || p99 <= 2 - PAR;
    const clean = ours.errors === 0;
    pass &&= rpsOk && p99Ok && clean;
    const label = `${name.padEnd(14)} ${method.padEnd(11)}`;
    console.log(`  ${verdict(rpsOk)}  ${label} req/s  ${fmtRatio(rps)}`);
    console.log(`  ${verdict(p99Ok)}  ${label} p99    ${fmtRatio(p99)}${Number.isFinite(p99) ? "" : " (no percentiles)"}`);
    console.log(`  ${verdict(clean)}  ${label} no errors${sdk.errors > 0 ? `; sdk had ${sdk.errors}` : ""}`);
  }
  overall[kind] = pass;
}
console.log("");
for (const { kind, name } of CONTENDERS) console.log(`Overall ${name.padEnd(14)}: ${verdict(overall[kind])} (at least on par with the SDK on both methods)`);
console.log("\nReference (no verdict): ours (Connect) / bare Connect routes, i.e. what the A2A pipeline costs on top of Connect");
for (const method of METHODS) {
  const ours = results[`${method}/ours`];
  const bare = results[`${method}/connect`];
  console.log(
    `        ${method.padEnd(11)} req/s  ${fmtRatio(ours.reqPerSec / bare.reqPerSec)}   p99 ${fmtRatio(ours.p99 / bare.p99)}   (sdk / bare Connect req/s ${fmtRatio(results[`${method}/sdk`].reqPerSec / bare.reqPerSec)})`,
  );
}
console.log(
  TOOL === "grpc-js"
    ? "\nServer/client CPU = the process's CPU time / wall time (1.00 = one core busy). A server well below 100% while the\n" +
        "client is near 100% means the numbers are load-generator-bound: install h2load (nghttp2-client) for a C load generator."
    : "\nServer CPU = the server process's CPU time / wall time (1.00 = one core busy). h2load counts HTTP 2xx only; errors\n" +
        "above include answers whose DATA bytes fall short of the good answer (a gRPC error has no DATA).",
);
await shutdown(0);
