#!/usr/bin/env node
// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Clients that never read (issue #25, point 3): a serveNode server (createA2AHttpServer, in a child process)
 * answers every GET with a buffered JSON body of --body-mib MiB (8: a large GetTask, encoded per request);
 * --clients sockets (100) ask for it and never read. The server's RSS and heap are sampled while they stall,
 * through the write timeout (--timeout-ms, passed as stalledWriteTimeoutMs) and --settle-ms beyond.
 *
 *   node bench/slow-readers-http.mjs [--clients 100] [--body-mib 8] [--timeout-ms 10000] [--settle-ms 20000] [--root DIR] [--reading]
 *
 * --root runs the runtime of another checkout (its runtime/src, bundled with esbuild), e.g. the code before
 * a change. Prints RSS before, at its peak and after the timeout, the listener's pending bytes
 * (pendingWriteStats, where the runtime has it), and checks the stated bound: while the clients stall, live
 * memory (heap + external after a full GC) stays within what it was before + maxPendingWriteBytes + 2
 * answers (the one written past the budget, one being encoded); the connections are closed after the
 * timeout; live memory is then back to before (+ 1 answer). Exits 1 when a check fails. --reading makes
 * the clients read (and keep their connections): the control for peak RSS, which is mostly V8's garbage
 * (every answer is a new text) and so about the same.
 * Not run in CI.
 */
import { fork } from "node:child_process";
import { readFileSync } from "node:fs";
import { connect } from "node:net";
import { join, resolve } from "node:path";
import { build, stop as stopEsbuild } from "esbuild";
import { parseBenchArgs } from "./lib/args.mjs";
import { cacheDir, root as thisRoot } from "./lib/build.mjs";
import { installExitHandlers, shutdown, startWatchdog, track } from "./lib/children.mjs";
import { printTargets, table } from "./lib/report.mjs";

const usage =
  "node bench/slow-readers-http.mjs [--clients 100] [--body-mib 8] [--timeout-ms 10000] [--settle-ms 20000] [--root DIR] [--reading]";
const { args, intArg } = parseBenchArgs(usage, {
  clients: { type: "string", default: "100" },
  "body-mib": { type: "string", default: "8" },
  "timeout-ms": { type: "string", default: "10000" },
  "settle-ms": { type: "string", default: "20000" },
  root: { type: "string", default: thisRoot },
  reading: { type: "boolean", default: false },
});
const clients = intArg("clients", 1, 10_000);
const bodyMib = intArg("body-mib", 1, 512);
const timeoutMs = intArg("timeout-ms", 100, 600_000);
const settleMs = intArg("settle-ms", 0, 600_000);
const root = resolve(args.root);
const MiB = 1024 * 1024;
const mib = (n) => (n / MiB).toFixed(0);

installExitHandlers("server");
startWatchdog(Math.ceil((timeoutMs + settleMs) / 1000) + 300);

/** Bundles the server with @protoc-gen-a2a/runtime/* from `root`'s sources. */
async function bundleServer() {
  const outfile = join(
    cacheDir,
    `slow-readers-server-${Buffer.from(root).toString("hex").slice(-16)}.mjs`,
  );
  await build({
    entryPoints: [join(thisRoot, "bench/lib/slow-readers-server.mjs")],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    logLevel: "error", // a runtime without pendingWriteStats (--root of older code) is expected
    plugins: [
      {
        name: "runtime-of-root",
        setup(b) {
          // As scripts/runtime-from-source.mjs, for `root`: the package's source export condition.
          const { name, exports } = JSON.parse(
            readFileSync(join(root, "runtime/package.json"), "utf8"),
          );
          b.onResolve({ filter: /^@protoc-gen-a2a\/runtime(\/|$)/ }, (a) => ({
            path: join(
              root,
              "runtime",
              exports[`.${a.path.slice(name.length)}`]["@protoc-gen-a2a/source"],
            ),
          }));
        },
      },
    ],
  });
  await stopEsbuild();
  return outfile;
}

const script = await bundleServer();
const child = track(
  fork(script, [String(bodyMib), String(timeoutMs)], {
    execArgv: ["--expose-gc"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  }),
);
const waiters = [];
const ready = new Promise((resolveReady, reject) => {
  child.on("message", (m) => {
    if (m?.stats !== undefined) waiters.shift()?.(m.stats);
    else if (m?.ready) resolveReady(m);
  });
  child.once("exit", (code) => reject(new Error(`server exited (${code})`)));
});
/** The server's memory, connections and pending bytes; after a full GC with `gc`. */
const stats = (gc = false) =>
  new Promise((r) => {
    waiters.push(r);
    child.send({ cmd: "stats", gc });
  });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const { port, budget } = await ready;

/** One client that reads the whole answer (warms the server up); resolves with the bytes. */
function readOnce() {
  return new Promise((res, rej) => {
    const s = connect(port, "127.0.0.1");
    let n = 0;
    s.on("data", (c) => (n += c.length));
    s.on("error", rej);
    s.on("end", () => res(n));
    s.write("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  });
}
for (let i = 0; i < 3; i++) await readOnce();
await sleep(500);
/** A sample after a full GC (twice, a second apart: ArrayBuffers are freed by a sweeper after the GC). */
async function liveSample() {
  await stats(true);
  await sleep(1000);
  return stats(true);
}
const before = await liveSample();

const sockets = [];
for (let i = 0; i < clients; i++) {
  const s = connect(port, "127.0.0.1");
  s.on("error", () => {});
  // --reading: the control, the same requests from clients that read; else they never read.
  if (args.reading) s.resume();
  else s.pause();
  s.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
  sockets.push(s);
}
const started = Date.now();
let peak = before;
let peakPending = 0;
let last = before;
let stalled;
// Until the server has no connection left past the timeout, or --settle-ms beyond it (answers are encoded one at a time).
while (Date.now() - started < timeoutMs + settleMs) {
  await sleep(200);
  if (stalled === undefined && Date.now() - started > timeoutMs / 2) {
    stalled = await liveSample(); // what is live while the clients stall: the bound is about this
    continue;
  }
  last = await stats();
  if (last.rss > peak.rss) peak = last;
  peakPending = Math.max(peakPending, last.pending?.bytes ?? 0);
  if (Date.now() - started > timeoutMs && last.connections === 0) break;
}
const elapsed = Date.now() - started;
const after = last;
const afterGc = await liveSample();
for (const s of sockets) s.destroy();

const answer = bodyMib * MiB;
const live = (x) => x.heapUsed + x.external;
const limit = budget ?? 64 * MiB; // the new code's default, for a runtime without the option
const bound = live(before) + limit + 2 * answer;
console.log(
  `\n${clients} clients that ${args.reading ? "read (the control)" : "never read"} a ${bodyMib} MiB answer; write timeout ${timeoutMs} ms; runtime of ${root}\n`,
);
const row = (name, x) => [
  name,
  mib(x.rss),
  mib(x.heapUsed),
  mib(x.external),
  x.connections,
  x.pending === null ? "n/a" : mib(x.pending.bytes),
];
console.log(
  table(
    ["sample", "RSS MiB", "heap MiB", "external MiB", "server connections", "pending MiB"],
    [
      row("before (after a full GC)", before),
      row("peak RSS", peak),
      row(`stalled, ${(timeoutMs / 2000).toFixed(1)} s in (after a full GC)`, stalled),
      row(`after ${(elapsed / 1000).toFixed(1)} s`, after),
      row("then after a full GC", afterGc),
    ],
  ),
);
console.log(
  `\npeak pending bytes: ${peakPending === 0 && budget === null ? "n/a" : `${mib(peakPending)} MiB`}; maxPendingWriteBytes: ${budget === null ? "none (runtime without it)" : `${mib(budget)} MiB`}`,
);
console.log(
  `stated bound on live memory (heap + external after a full GC) while the clients stall: before + ${mib(limit)} MiB + 2 answers = ${mib(bound)} MiB`,
);
console.log(
  "(peak RSS adds what V8 has not collected yet: every answer is a new text, garbage once it is cut)",
);
const targets = [
  [
    "live memory while stalled within the stated bound",
    live(stalled) <= bound,
    `${mib(live(stalled))} <= ${mib(bound)} MiB`,
  ],
  [
    "never-reading connections closed after the write timeout",
    after.connections === 0,
    `${after.connections} open`,
  ],
  [
    "live memory back to before (+ 1 answer) after the timeout",
    live(afterGc) <= live(before) + answer,
    `${mib(live(afterGc))} MiB`,
  ],
];
printTargets(targets);
await shutdown(targets.every(([, ok]) => ok) ? 0 : 1);
