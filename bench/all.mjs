#!/usr/bin/env node
/**
 * `npm run bench`: every benchmark of the agent path (issue #16) in one command, one after the
 * other (never two at once: they would share the two cores), then one table of every figure and
 * one list of every target:
 *
 *   node bench/all.mjs [--duration 5] [--only yardstick,inprocess,agent,layers,grpc,streams,generate,postgres] [--out bench/output/bench-results.json]
 *
 * - yardstick: bench/bare-plus-work.mjs: bare node:http plus N µs of work per request (what "× bare" means here);
 * - inprocess: bench/inprocess.mjs: the example agent's own work per request without sockets (µs, GC share);
 * - agent:    bench/agent.mjs: the example agent (memory, SQLite) vs bare node:http vs @a2a-js/sdk on
 *             JSON-RPC and HTTP+JSON: Message reply, task created and completed, GetTask, ListTasks;
 * - layers:   bench/layers.mjs: where a JSON-RPC SendMessage's time goes, from bare node:http to the example
 *             agent one layer at a time (server CPU µs per answer of each layer);
 * - grpc:     bench/grpc.mjs: the example agent's gRPC port (grpc-js; Connect) vs the SDK's grpc-js server;
 * - streams:  bench/streams.mjs: events/s of one stream vs the SDK, 10,000 SSE subscribers on one task,
 *             10,000 streams across 10,000 tasks (RSS, heap, p99 delivery delay);
 * - generate: bench/generate.mjs: `buf generate` with protoc-gen-a2a vs protoc-gen-es alone (after `npm run build`);
 * - postgres: bench/postgres.mjs: the task path on memory vs SQLite vs PostgreSQL, 1-3 instances on one PostgreSQL,
 *             the delivery delay of a stream across instances (an embedded PostgreSQL, started and stopped by it).
 * Each script prints its own detailed table as it runs and hands its figures over in a JSON file
 * (bench/lib/results.mjs); the merged figures are written to `--out` (bench/output/ is not committed).
 */
import { spawn } from "node:child_process";
import { cpus, totalmem } from "node:os";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseBenchArgs } from "./lib/args.mjs";
import { root } from "./lib/build.mjs";
import { fmtInt, fmtMs, fmtPct, table, verdict } from "./lib/report.mjs";

const BENCHES = {
  yardstick: () => ["bench/bare-plus-work.mjs"],
  inprocess: () => ["bench/inprocess.mjs"],
  agent: (d) => ["bench/agent.mjs", "--duration", String(d)],
  layers: (d) => ["bench/layers.mjs", "--duration", String(d)],
  grpc: (d) => ["bench/grpc.mjs", "--duration", String(d)],
  streams: () => ["bench/streams.mjs"],
  generate: () => ["bench/generate.mjs"],
  postgres: (d) => ["bench/postgres.mjs", "--duration", String(d)],
};

const { args, intArg } = parseBenchArgs(
  "usage: node bench/all.mjs [--duration 5] [--only yardstick,inprocess,agent,layers,grpc,streams,generate,postgres] [--out bench/output/bench-results.json]",
  {
    duration: { type: "string", default: "5" },
    only: { type: "string", default: "" },
    out: { type: "string", default: join("bench", "output", "bench-results.json") },
  },
);
const DURATION = intArg("duration", 1, 600);
const selected = args.only === "" ? Object.keys(BENCHES) : args.only.split(",");
for (const name of selected)
  if (!(name in BENCHES))
    throw new Error(`unknown benchmark ${name}; known: ${Object.keys(BENCHES).join(", ")}`);
const outDir = join(root, "bench", "output");
mkdirSync(outDir, { recursive: true });

/** Runs `command args` from the project root with inherited output; resolves its exit code. */
function run(command, argv) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { cwd: root, stdio: "inherit" });
    const forward = (signal) => child.kill(signal);
    process.on("SIGINT", forward);
    process.on("SIGTERM", forward);
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      process.off("SIGINT", forward);
      process.off("SIGTERM", forward);
      resolve(code ?? (signal ? 128 : 1));
    });
  });
}

const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? "CPU"}, ${Math.round(totalmem() / 2 ** 30)} GiB, node ${process.version}, ${process.platform}`;
const started = new Date();
const merged = [];
const failures = [];
for (const name of selected) {
  console.log(`\n=== ${name} ===`);
  if (name === "generate" && (await run("npm", ["run", "--silent", "build"])) !== 0) {
    failures.push(`${name}: npm run build failed`);
    continue;
  }
  const file = join(outDir, `bench-${name}.json`);
  writeFileSync(file, "");
  const code = await run(process.execPath, [...BENCHES[name](DURATION), "--results", file]);
  let result;
  try {
    result = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    failures.push(`${name}: exited ${code} without figures`);
    continue;
  }
  if (code !== 0)
    failures.push(`${name}: exited ${code} (errors or failed checks: see its output above)`);
  merged.push(result);
}

const rows = merged.flatMap(({ rows: list }) =>
  list.map((r) => [
    `${r.scenario} · ${r.server}`,
    `${r.unit === "ms" || r.unit === "µs" ? fmtMs(r.value) : fmtInt(r.value)} ${r.unit}`,
    r.p50 === undefined ? "" : fmtMs(r.p50),
    r.p99 === undefined ? "" : fmtMs(r.p99),
    r.vsBare ?? "",
    r.vsSdk ?? "",
    r.rssMiB === undefined ? "" : `${fmtInt(r.rssMiB)} / ${fmtInt(r.heapMiB)}`,
    r.serverCpu === undefined ? "" : fmtPct(r.serverCpu),
    r.clientCpu === undefined ? "" : fmtPct(r.clientCpu),
    r.note ?? "",
  ]),
);
console.log(
  `\n# npm run bench, ${started.toISOString().slice(0, 16).replace("T", " ")} UTC: ${machine}\n`,
);
console.log(
  table(
    [
      "scenario · server",
      "figure",
      "p50 ms",
      "p99 ms",
      "vs baseline",
      "vs sdk",
      "RSS / heap MiB",
      "server CPU",
      "client CPU",
      "note",
    ],
    rows,
  ),
);
for (const { notes } of merged) for (const note of notes ?? []) console.log(`- ${note}`);
const targets = merged.flatMap((r) => r.targets ?? []);
console.log("\nTargets (issue #16)");
for (const t of targets) console.log(`  ${verdict(t.pass)}  ${t.name}  (${t.measured})`);
console.log(`\n${targets.filter((t) => t.pass).length} of ${targets.length} targets met.`);
for (const f of failures) console.log(`warning: ${f}`);
writeFileSync(
  join(root, args.out),
  `${JSON.stringify({ started: started.toISOString(), machine, results: merged }, null, 2)}\n`,
);
console.log(`figures: ${args.out}`);
process.exitCode = failures.length > 0 ? 1 : 0;
