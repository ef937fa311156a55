#!/usr/bin/env node
// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * WebSocket slow readers (issue #25): what the example agent holds for clients that never read.
 * Starts the example agent of --repo (default: this checkout; give another checkout, e.g. the main
 * branch, for a before/after) in a child process, stores one task whose history holds a --task-mib
 * MiB message, then:
 *
 *   1. --clients never-reading clients (their sockets paused), each sending --frames GetTask frames
 *      of that task; the agent's RSS (/proc/PID/status VmRSS) is sampled every 50 ms for --hold-s
 *      seconds (before / peak), then the clients go and it is read again after --settle-s (after);
 *   2. a normal client: --frames GetTask frames of that task on one socket, read as they come
 *      (the time until the last answer: a fast client must not be slowed down, nor cut off).
 *
 *   node bench/slow-readers-ws.mjs [--repo DIR] [--task-mib 8] [--frames 100] [--clients 1] [--hold-s 10] [--settle-s 3]
 *
 * Plain Node ESM, not run in CI. The agent is bundled with esbuild into node_modules/.cache of this
 * checkout (nothing is written to --repo); its runtime comes from --repo's runtime/src.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { WebSocket } from "ws";
import { parseBenchArgs } from "./lib/args.mjs";
import {
  installExitHandlers,
  isShuttingDown,
  shutdown,
  startWatchdog,
  track,
} from "./lib/children.mjs";
import { table } from "./lib/report.mjs";

const here = join(dirname(fileURLToPath(import.meta.url)), "..");
const usage =
  "node bench/slow-readers-ws.mjs [--repo DIR] [--task-mib 8] [--frames 100] [--clients 1] [--hold-s 10] [--settle-s 3]";
const { args, intArg } = parseBenchArgs(usage, {
  repo: { type: "string", default: here },
  "task-mib": { type: "string", default: "8" },
  frames: { type: "string", default: "100" },
  clients: { type: "string", default: "1" },
  "hold-s": { type: "string", default: "10" },
  "settle-s": { type: "string", default: "3" },
});
const repo = resolve(args.repo);
const taskBytes = intArg("task-mib", 1, 9) * 1024 * 1024;
const frames = intArg("frames", 1, 1000);
const clients = intArg("clients", 1, 1000);
const holdMs = intArg("hold-s", 1, 600) * 1000;
const settleMs = intArg("settle-s", 0, 600) * 1000;
const MiB = 1024 * 1024;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

installExitHandlers("agent");
startWatchdog(60 + (holdMs + settleMs) / 1000 + 120);

/** esbuild: @protoc-gen-a2a/runtime from `repo`'s runtime sources (its package.json's source condition). */
function runtimeOf(root) {
  const runtimeDir = join(root, "runtime");
  const { name, exports } = JSON.parse(readFileSync(join(runtimeDir, "package.json"), "utf8"));
  return {
    name: "runtime-of-repo",
    setup(b) {
      b.onResolve({ filter: new RegExp(`^${name.replace("/", "\\/")}(/|$)`) }, (a) => {
        const target = exports[`.${a.path.slice(name.length)}`]?.["@protoc-gen-a2a/source"];
        return target === undefined
          ? { errors: [{ text: `${a.path}: no such entry point` }] }
          : { path: join(runtimeDir, target) };
      });
    },
  };
}

/** Bundles and starts `repo`'s example agent; resolves its pid and HTTP base URL. */
async function startAgent() {
  const outfile = join(
    here,
    "node_modules",
    ".cache",
    "bench-slow-readers",
    `${Buffer.from(repo).toString("base64url")}.mjs`,
  );
  await build({
    entryPoints: [join(repo, "generated-example", "agent", "main.ts")],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    plugins: [runtimeOf(repo)],
    logLevel: "warning",
  });
  const child = track(
    spawn(process.execPath, [outfile], {
      env: { ...process.env, A2A_HTTP_PORT: "0", A2A_GRPC_PORT: "0" },
      stdio: ["ignore", "pipe", "inherit"],
    }),
  );
  child.once("exit", (code, signal) => {
    if (isShuttingDown()) return;
    console.error(`agent exited (${code ?? signal})`);
    void shutdown(1);
  });
  const base = await new Promise((resolveBase, reject) => {
    let out = "";
    const timer = setTimeout(
      () => reject(new Error("the agent did not start within 30 s")),
      30_000,
    );
    child.stdout.on("data", (d) => {
      out += d;
      const m = /card (http:\/\/[^/\s]+)\//.exec(out);
      if (m) {
        clearTimeout(timer);
        resolveBase(m[1]);
      }
    });
  });
  return { pid: child.pid, base };
}

const rssMiB = (pid) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? Number.NaN) /
  1024;

const agent = await startAgent();
const wsUrl = `${agent.base.replace("http:", "ws:")}/a2a/ws`;
const headers = { "content-type": "application/json", "a2a-version": "1.0" };
const sent = await fetch(`${agent.base}/a2a/jsonrpc`, {
  method: "POST",
  headers,
  body: JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "SendMessage",
    params: {
      message: {
        messageId: `tck-artifact-text-${crypto.randomUUID()}`,
        role: "ROLE_USER",
        parts: [{ text: "x".repeat(taskBytes - 64 * 1024) }],
      },
    },
  }),
}).then((r) => r.json());
const taskId = sent.result?.task?.id;
if (typeof taskId !== "string") throw new Error(`no task: ${JSON.stringify(sent).slice(0, 300)}`);
const getTask = (id) =>
  JSON.stringify({
    id,
    method: "GetTask",
    params: { id: taskId },
    serviceParameters: { "A2A-Version": "1.0" },
  });

function open() {
  return new Promise((resolveOpen, reject) => {
    const socket = new WebSocket(wsUrl, { perMessageDeflate: false, maxPayload: 64 * MiB });
    socket.once("open", () => resolveOpen(socket));
    socket.once("error", reject);
  });
}

// 1. Never-reading clients.
console.error(`agent ${agent.base} (pid ${agent.pid}); task ${taskId}: never-reading clients…`);
await sleep(1000);
const before = rssMiB(agent.pid);
let peak = before;
const sampler = setInterval(() => {
  peak = Math.max(peak, rssMiB(agent.pid));
}, 50);
const slow = [];
for (let c = 0; c < clients; c++) {
  const socket = await open();
  socket.pause();
  for (let i = 1; i <= frames; i++) socket.send(getTask(i));
  slow.push(socket);
}
await sleep(holdMs);
const held = rssMiB(agent.pid);
// Closed by the agent meanwhile? A client that reads again sees the close.
const closedByAgent = await Promise.all(
  slow.map(
    (socket) =>
      new Promise((resolveClosed) => {
        if (socket.readyState === WebSocket.CLOSED) return resolveClosed(true);
        const timer = setTimeout(() => resolveClosed(false), 2000);
        socket.once("close", () => {
          clearTimeout(timer);
          resolveClosed(true);
        });
        socket.on("message", () => undefined);
        socket.resume();
      }),
  ),
);
for (const socket of slow) socket.terminate();
await sleep(settleMs);
clearInterval(sampler);
const after = rssMiB(agent.pid);

// 2. A normal client (after the never-reading ones, so that their figures start from a clean agent).
console.error("… a normal client");
const fast = await open();
const fastStart = performance.now();
let answered = 0;
let answerBytes = 0;
/** Why the normal client's socket closed before its last answer, if it did. */
let fastDropped = "";
await new Promise((done) => {
  fast.on("message", (data) => {
    answerBytes = data.length;
    if (++answered === frames) done();
  });
  fast.on("close", (code) => {
    if (answered < frames) fastDropped = `socket closed (${code}) after ${answered} answers`;
    done();
  });
  for (let i = 1; i <= frames; i++) fast.send(getTask(i));
});
const fastMs = performance.now() - fastStart;
fast.close();
await sleep(1000);

const f = (n) => n.toFixed(0);
console.log(
  `\nrepo ${repo} · task ${(taskBytes / MiB).toFixed(0)} MiB (GetTask answer ${(answerBytes / MiB).toFixed(1)} MiB) · ${clients} never-reading client(s) × ${frames} GetTask frames, held ${holdMs / 1000} s\n`,
);
console.log(
  table(
    ["measure", "value"],
    [
      [`normal client: ${frames} answers read in`, fastDropped || `${f(fastMs)} ms`],
      ["agent RSS before (MiB)", f(before)],
      ["agent RSS peak (MiB)", f(peak)],
      ["agent RSS at the end of the hold (MiB)", f(held)],
      [`agent RSS ${settleMs / 1000} s after the clients left (MiB)`, f(after)],
      ["peak − before (MiB)", f(peak - before)],
      [
        "all answers asked for by the never-reading clients (MiB)",
        f((clients * frames * taskBytes) / MiB),
      ],
      [
        "sockets closed by the agent during the hold",
        `${closedByAgent.filter(Boolean).length} of ${clients}`,
      ],
    ],
  ),
);
await shutdown(0);
