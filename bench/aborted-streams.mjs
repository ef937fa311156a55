#!/usr/bin/env node
// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Aborted streams leak nothing (issue #17): opens and abandons --streams streams (default 10,000) of every
 * kind, on every binding, against the generated servers in a child process (bench/lib/soak-server.mjs
 * "streams": one task handler, in-memory store with retention --max-tasks so the finished tasks stay bounded):
 *
 *   node bench/aborted-streams.mjs [--streams 10000] [--concurrency 50] [--warmup 500] [--kinds jsonrpc-send,…]
 *                                  [--heap-slack-mib 4] [--fd-slack 5] [--max-tasks 200]
 *
 * Kinds: JSON-RPC SSE SendStreamingMessage and SubscribeToTask, HTTP+JSON SSE message:stream and
 * tasks/{id}:subscribe (socket destroyed after the first event), gRPC SendStreamingMessage and
 * SubscribeToTask on grpc-js and on Connect (RST_STREAM CANCEL after the first message). SendStreamingMessage
 * creates a task that stays WORKING until its caller leaves (then completes); SubscribeToTask streams all
 * subscribe to one task that stays WORKING.
 *
 * After a warm-up (--warmup streams of each kind: JIT, pools, the store filled to its bound), for each kind:
 * the server's heap (after a forced full GC, node --expose-gc), RSS, open fds (/proc/self/fd of the server)
 * and live tasks of the handler before, then the streams, then the same once the server settled (fds and
 * live tasks back, at most 15 s). Prints a table; exits 1 when a kind's heap grew by more than
 * --heap-slack-mib, its fds are not back within --fd-slack of the baseline, its live tasks not back, or a
 * stream gave no event.
 */
import { parseBenchArgs } from "./lib/args.mjs";
import { installExitHandlers, shutdown, startWatchdog } from "./lib/children.mjs";
import { table } from "./lib/report.mjs";
import { abortStreams, STREAM_KINDS } from "./lib/soak-aborts.mjs";
import { mib, startSoakServer } from "./lib/soak-child.mjs";

const usage =
  "node bench/aborted-streams.mjs [--streams 10000] [--concurrency 50] [--warmup 500] [--kinds k1,k2] [--heap-slack-mib 4] [--fd-slack 5] [--max-tasks 200]";
const { args, intArg } = parseBenchArgs(usage, {
  streams: { type: "string", default: "10000" },
  concurrency: { type: "string", default: "50" },
  warmup: { type: "string", default: "500" },
  kinds: { type: "string", default: Object.keys(STREAM_KINDS).join(",") },
  "heap-slack-mib": { type: "string", default: "4" },
  "fd-slack": { type: "string", default: "5" },
  "max-tasks": { type: "string", default: "200" },
});
const streams = intArg("streams", 1, 1_000_000);
const concurrency = intArg("concurrency", 1, 1000);
const warmup = intArg("warmup", 0, 100_000);
const heapSlack = intArg("heap-slack-mib", 0, 1024) * 1024 * 1024;
const fdSlack = intArg("fd-slack", 0, 1000);
const kinds = args.kinds.split(",").filter((k) => k !== "");
for (const k of kinds) {
  if (!(k in STREAM_KINDS)) {
    console.error(`unknown kind ${k}; kinds: ${Object.keys(STREAM_KINDS).join(", ")}`);
    process.exit(2);
  }
}

installExitHandlers("server");
startWatchdog(3600);

const server = await startSoakServer("streams", [
  "--max-tasks",
  String(intArg("max-tasks", 1, 1_000_000)),
]);
const target = server.info;

/** Polls the server (no GC) until its fds and live tasks are back to `base` (+ slack), at most `ms`. */
async function settle(base, ms = 15_000) {
  const end = Date.now() + ms;
  for (;;) {
    const s = await server.stats();
    if ((s.fds <= base.fds + fdSlack && (s.live ?? 0) <= (base.live ?? 0)) || Date.now() > end)
      return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

console.log(
  `aborted streams: ${streams} per kind, ${concurrency} at a time, after a warm-up of ${warmup} per kind; server pid ${server.child.pid}`,
);
if (warmup > 0) {
  for (const kind of kinds) {
    const { failures, firstError } = await abortStreams(kind, target, warmup, concurrency);
    if (failures > 0) console.error(`warm-up ${kind}: ${failures} failures, first: ${firstError}`);
  }
}
const first = await server.stats({ gc: true });
await settle(first);
const start = await server.stats({ gc: true });

const rows = [];
const problems = [];
for (const kind of kinds) {
  const before = await server.stats({ gc: true });
  const t0 = performance.now();
  const { failures, refused, firstError, goaways } = await abortStreams(
    kind,
    target,
    streams,
    concurrency,
  );
  if (Object.keys(goaways).length > 0)
    console.log(`  ${kind}: GOAWAY from the server (code: count) ${JSON.stringify(goaways)}`);
  const seconds = (performance.now() - t0) / 1000;
  await settle(before);
  const after = await server.stats({ gc: true });
  const heapDelta = after.heapUsed - before.heapUsed;
  const ok =
    heapDelta <= heapSlack &&
    after.fds <= before.fds + fdSlack &&
    (after.live ?? 0) <= (before.live ?? 0) &&
    failures === 0;
  if (!ok) problems.push(kind);
  if (failures > 0)
    console.error(`${kind}: ${failures} streams gave no event; first: ${firstError}`);
  rows.push([
    STREAM_KINDS[kind].label,
    String(streams),
    (streams / seconds).toFixed(0),
    mib(before.heapUsed),
    mib(after.heapUsed),
    `${heapDelta >= 0 ? "+" : ""}${mib(heapDelta)}`,
    mib(before.rss),
    mib(after.rss),
    String(before.fds),
    String(after.fds),
    `${before.live}→${after.live}`,
    String(refused),
    String(failures),
    ok ? "ok" : "FAIL",
  ]);
  console.log(`  ${kind}: done in ${seconds.toFixed(1)} s`);
}
const end = await server.stats({ gc: true });

console.log();
console.log(
  table(
    [
      "stream kind",
      "streams",
      "streams/s",
      "heap before MiB",
      "heap after MiB",
      "Δ heap MiB",
      "RSS before MiB",
      "RSS after MiB",
      "fds before",
      "fds after",
      "live tasks",
      "refused (retried)",
      "failures",
      "verdict",
    ],
    rows,
  ),
);
console.log(
  `\nwhole run (after warm-up): heap ${mib(start.heapUsed)} → ${mib(end.heapUsed)} MiB (${end.heapUsed >= start.heapUsed ? "+" : ""}${mib(end.heapUsed - start.heapUsed)}), RSS ${mib(start.rss)} → ${mib(end.rss)} MiB, fds ${start.fds} → ${end.fds}, live tasks ${start.live} → ${end.live}`,
);
console.log(
  `bounds: Δ heap ≤ ${mib(heapSlack)} MiB per kind, fds ≤ baseline + ${fdSlack}, live tasks back to the baseline (1: the task SubscribeToTask streams watch)`,
);
console.log(problems.length === 0 ? "verdict: no leak" : `verdict: FAIL (${problems.join(", ")})`);
await shutdown(problems.length === 0 ? 0 : 1);
