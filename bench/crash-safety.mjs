#!/usr/bin/env node
// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Crash safety (issue #17): kill -9 the example agent on SQLite under load, many rounds.
 *
 *   node bench/crash-safety.mjs [--rounds 20] [--workers 4] [--min-ms 300] [--max-ms 2500] [--seed N] [--db file]
 *
 * The example agent (generated-example/agent/main.ts with A2A_TASK_DB, as `npm run example` runs it) is a
 * child process; `--workers` concurrent clients per binding (JSON-RPC, HTTP+JSON, gRPC) send SendMessage
 * (tck-complete-task → COMPLETED, tck-input-required → INPUT_REQUIRED, tck-long-running with
 * returnImmediately → SUBMITTED/WORKING) and CreateTaskPushNotificationConfig, recording every acknowledged
 * response. After a random time in [min-ms, max-ms) the agent gets SIGKILL, is restarted on the same file, and
 * every acknowledged task and config so far is read back (GetTask on every binding, GetTaskPushNotificationConfig,
 * ListTasks): found in its acknowledged state or a later one, or counted lost. Prints per-round and total
 * figures and the restart time; exits 1 when anything acknowledged was lost (test/support/crash-harness.ts).
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseBenchArgs } from "./lib/args.mjs";
import { bundle } from "./lib/build.mjs";
import { fmtInt, fmtMs, table } from "./lib/report.mjs";

const { intArg, args } = parseBenchArgs(
  "usage: node bench/crash-safety.mjs [--rounds 20] [--workers 4] [--min-ms 300] [--max-ms 2500] [--seed N] [--db file]",
  {
    rounds: { type: "string", default: "20" },
    workers: { type: "string", default: "4" },
    "min-ms": { type: "string", default: "300" },
    "max-ms": { type: "string", default: "2500" },
    seed: { type: "string", default: "" },
    db: { type: "string", default: "" },
  },
);
const ROUNDS = intArg("rounds", 1, 10_000);
const WORKERS = intArg("workers", 1, 100);
const MIN_MS = intArg("min-ms", 10, 600_000);
const MAX_MS = intArg("max-ms", MIN_MS + 1, 600_000);

const files = await bundle({
  "crash-safety-harness": "test/support/crash-harness.ts",
  "crash-safety-random": "test/support/crash-random.ts",
  "crash-safety-agent": "generated-example/agent/main.ts",
});
const { Ledger, crashRound, startAgentProcess, stateName } = await import(
  files["crash-safety-harness"]
);
const { randomSource } = await import(files["crash-safety-random"]);
const { random, seed } = randomSource(args.seed === "" ? undefined : Number(args.seed));

const dir = args.db === "" ? mkdtempSync(join(tmpdir(), "a2a-crash-bench-")) : undefined;
const db = args.db === "" ? join(dir, "tasks.db") : args.db;
let agent;
const cleanup = () => {
  if (agent !== undefined && agent.child.exitCode === null) agent.child.kill("SIGKILL");
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
};
process.on("exit", cleanup);
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => process.exit(130));

console.log(
  `crash-safety: ${ROUNDS} rounds, ${WORKERS} clients per binding × JSON-RPC, HTTP+JSON, gRPC, kill -9 after ${MIN_MS}–${MAX_MS} ms, seed ${seed}, db ${db}`,
);
const ledger = new Ledger();
agent = await startAgentProcess(files["crash-safety-agent"], db);
const rows = [];
const restarts = [];
let lostTotal = 0;
let lastFound = {};
for (let round = 1; round <= ROUNDS; round++) {
  const before = ledger.tasks.size + ledger.configs.size;
  const { result, agent: restarted } = await crashRound(
    agent,
    files["crash-safety-agent"],
    db,
    ledger,
    { workersPerBinding: WORKERS, minMs: MIN_MS, maxMs: MAX_MS, random },
  );
  agent = restarted;
  const v = result.verification;
  restarts.push(result.restartMs);
  lostTotal += v.lost.length;
  lastFound = v.foundStates;
  console.log(
    `round ${round}: killed after ${fmtMs(result.killedAfterMs)} ms, ${fmtInt(result.load.acknowledged)} calls acknowledged, ${fmtInt(ledger.tasks.size)} tasks / ${fmtInt(ledger.configs.size)} configs acknowledged so far, lost ${v.lost.length}, restart ${fmtMs(result.restartMs)} ms`,
  );
  for (const l of v.lost.slice(0, 10)) console.error(`  round ${round} LOST: ${l}`);
  for (const e of result.load.errors)
    console.error(`  round ${round} call failed while the agent ran: ${e}`);
  rows.push([
    String(round),
    fmtMs(result.killedAfterMs),
    fmtInt(result.load.acknowledged),
    fmtInt(result.load.failed),
    fmtInt(ledger.tasks.size + ledger.configs.size - before),
    `${fmtInt(v.tasksFound)}/${fmtInt(ledger.tasks.size)}`,
    fmtInt(v.tasksLater),
    `${fmtInt(v.configsFound)}/${fmtInt(ledger.configs.size)}`,
    `${fmtInt(v.listed)}/${fmtInt(ledger.tasks.size)}`,
    fmtInt(v.lost.length),
    fmtMs(result.restartMs),
  ]);
}
await agent.kill();
console.log(
  table(
    [
      "round",
      "killed after",
      "acked calls",
      "failed calls",
      "new items",
      "tasks found",
      "of them later",
      "configs found",
      "listed",
      "lost",
      "restart",
    ],
    rows,
  ),
);
const sorted = [...restarts].sort((a, b) => a - b);
const states = {};
for (const s of ledger.tasks.values()) states[stateName(s)] = (states[stateName(s)] ?? 0) + 1;
console.log(
  `acknowledged: ${fmtInt(ledger.tasks.size)} tasks (acknowledged as ${JSON.stringify(states)}; found after the last restart as ${JSON.stringify(lastFound)}), ${fmtInt(ledger.configs.size)} push configs; ` +
    `lost: ${lostTotal}; restart (spawn → serving): median ${fmtMs(sorted[Math.floor(sorted.length / 2)])}, max ${fmtMs(sorted.at(-1))}; ` +
    `database ${fmtInt(statSync(db).size)} bytes`,
);
process.exit(lostTotal === 0 ? 0 : 1);
