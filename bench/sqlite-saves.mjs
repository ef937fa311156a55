#!/usr/bin/env node
/**
 * The SQLite task store's cost per save with many tasks of one owner (bench/sqlite/saves.ts, one
 * fresh process per run, median of `--runs`): µs per save, sequential (a commit each), in
 * task lifecycles (group commits) and as updates of stored tasks.
 *
 *   node bench/sqlite-saves.mjs [--tasks 10000] [--saves 4000] [--runs 5]
 */
import { execFileSync } from "node:child_process";
import { parseBenchArgs } from "./lib/args.mjs";
import { bundle } from "./lib/build.mjs";
import { median, table } from "./lib/report.mjs";

const { intArg } = parseBenchArgs(
  "usage: node bench/sqlite-saves.mjs [--tasks 10000] [--saves 4000] [--runs 5]",
  {
    tasks: { type: "string", default: "10000" },
    saves: { type: "string", default: "4000" },
    runs: { type: "string", default: "5" },
  },
);
const tasks = intArg("tasks", 1, 1_000_000);
const saves = intArg("saves", 100, 1_000_000);
const runs = intArg("runs", 1, 20);

const { "sqlite-saves": script } = await bundle({ "sqlite-saves": "bench/sqlite/saves.ts" });
const results = [];
for (let i = 0; i < runs; i++)
  results.push(
    JSON.parse(
      execFileSync(process.execPath, [script, String(tasks), String(saves)], { encoding: "utf8" })
        .trim()
        .split("\n")
        .at(-1),
    ),
  );
const row = (name) => [
  name,
  median(results, (r) => r[name].wall)[name].wall.toFixed(1),
  Math.min(...results.map((r) => r[name].wall)).toFixed(1),
  median(results, (r) => r[name].cpu)[name].cpu.toFixed(1),
  Math.min(...results.map((r) => r[name].cpu)).toFixed(1),
];
console.log(
  `SQLite task store, ${tasks} stored tasks of one owner, ${saves} saves per mode, ${runs} runs\n`,
);
console.log(
  table(
    ["mode", "wall µs/save (median)", "(best)", "CPU µs/save (median)", "(best)"],
    [row("sequential"), row("lifecycle"), row("update")],
  ),
);
