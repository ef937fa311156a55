#!/usr/bin/env node
/**
 * The example agent's own work per request, without sockets (bench/inprocess/calls.ts, one fresh
 * process per run, best of `--runs`): µs per call and the share of it spent in GC pauses.
 *
 *   node bench/inprocess.mjs [--calls 100000] [--runs 3] [--only jsonrpc-message,…] [--results file.json]
 *
 * Read it with bench/bare-plus-work.mjs: an agent whose work per request is N µs cannot beat
 * "bare + N µs" over HTTP. It is also the quick loop for optimizing the runtime: no load generator,
 * so far less noise than the HTTP benchmarks.
 */
import { execFileSync } from "node:child_process";
import { parseBenchArgs } from "./lib/args.mjs";
import { bundle } from "./lib/build.mjs";
import { fmtPct, table } from "./lib/report.mjs";
import { writeResults } from "./lib/results.mjs";

const SCENARIOS = [
  "jsonrpc-message",
  "jsonrpc-task",
  "jsonrpc-get",
  "handler-message",
  "handler-task",
];
const { args, intArg } = parseBenchArgs(
  "usage: node bench/inprocess.mjs [--calls 100000] [--runs 3] [--only jsonrpc-message,…] [--results file.json]",
  {
    calls: { type: "string", default: "100000" },
    runs: { type: "string", default: "3" },
    only: { type: "string", default: "" },
    results: { type: "string", default: "" },
  },
);
const calls = intArg("calls", 1000, 10_000_000);
const runs = intArg("runs", 1, 20);
const only = args.only === "" ? SCENARIOS : args.only.split(",");
for (const s of only)
  if (!SCENARIOS.includes(s))
    throw new Error(`unknown scenario ${s}; known: ${SCENARIOS.join(", ")}`);

const { "inprocess-calls": script } = await bundle({
  "inprocess-calls": "bench/inprocess/calls.ts",
});
const best = {};
for (let run = 0; run < runs; run++) {
  for (const scenario of only) {
    const out = execFileSync(process.execPath, [script, scenario, String(calls)], {
      encoding: "utf8",
      timeout: 300_000,
    });
    const r = JSON.parse(out.trim().split("\n").pop());
    if (best[scenario] === undefined || r.usPerCall < best[scenario].usPerCall) best[scenario] = r;
  }
}
const rows = only.map((s) => [
  s,
  best[s].usPerCall.toFixed(2),
  fmtPct(best[s].gcShare),
  best[s].gcPer1000.toFixed(1),
]);
console.log(
  `In-process work per request (node ${process.version}, ${calls} calls, best of ${runs} runs)\n`,
);
console.log(table(["scenario", "µs per call", "GC pauses", "GCs per 1,000 calls"], rows));
writeResults(args.results, {
  bench: "inprocess",
  rows: only.map((s) => ({
    scenario: `in-process: ${s}`,
    server: "example",
    unit: "µs",
    value: best[s].usPerCall,
    note: `GC ${fmtPct(best[s].gcShare)}`,
  })),
  notes: [
    "in-process: the example agent's work per request without sockets (best of the runs); compare with the yardstick rows",
  ],
});
