// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
// The results of a run of the TCK's 0.3 line: each `run_tck.py --category C --transports T` run's
// JUnit XML read into rows (../results.mjs's readRun), keyed by test, with the run's transport and
// category as the row's transport and level, and the totals table (transport × category). The
// verdict against test/tck/v03-expected-outcomes.ts is ../results.mjs's. Pure functions, no I/O
// (test/tck/v03-results.test.ts feeds them synthetic runs).
import { readRun, totals } from "../results.mjs";

/** The categories run_tck.py runs once per transport (its `--category all` with several transports), in its order. */
export const PER_TRANSPORT_CATEGORIES = ["mandatory", "capabilities", "quality", "features"];
/** The category run_tck.py runs once across all the transports. */
export const EQUIVALENCE = "transport-equivalence";
/** The TCK's transport names (its --transports values) → the names the 1.0 line uses. */
export const TRANSPORTS = { jsonrpc: "jsonrpc", rest: "http_json", grpc: "grpc" };
/** The transport of the rows of the equivalence run (all three transports at once; "any" as in the 1.0 line's TckTransport). */
export const ALL = "any";

/**
 * A test's key in the expected outcomes: its file's module name and the test function
 * (`test_tasks_cancel_method::test_tasks_cancel_valid`); the 0.3 TCK has no requirement ids, and
 * function names repeat across files.
 * @param {string} nodeid the dotted node id (`tests.mandatory.protocol.test_x.TestClass.test_y[param]`)
 * @param {string} test the function name without parameters
 */
export function keyOfTest(nodeid, test) {
  const bracket = nodeid.indexOf("[");
  const segments = (bracket < 0 ? nodeid : nodeid.slice(0, bracket)).split(".");
  segments.pop();
  const module =
    [...segments].reverse().find((s) => s.startsWith("test_")) ?? segments.at(-1) ?? "";
  return `${module}::${test}`;
}

/**
 * The rows of one run_tck.py run.
 * @param {string} xml its JUnit XML
 * @param {{ category: string, transport: string }} run the category and the row transport (jsonrpc, http_json, grpc, or "any": the transport-equivalence run)
 * @returns {import("../results.mjs").TckRow[]}
 */
export function rowsOfRun(xml, { category, transport }) {
  return readRun(xml).map((row) => ({
    ...row,
    requirement: keyOfTest(row.nodeid, row.test),
    transport,
    level: category,
  }));
}

const ROWS = [...Object.values(TRANSPORTS), ALL];
const LEVELS = ["mandatory", "capabilities", EQUIVALENCE, "quality", "features"];

/**
 * The totals as a Markdown table: one line per transport and category that has tests, then the sum.
 * @param {readonly import("../results.mjs").TckRow[]} rows
 */
export function totalsTableV03(rows) {
  const t = totals(rows);
  const lines = [
    "| transport | category | passed | failed | skipped | xfailed |",
    "| --- | --- | ---: | ---: | ---: | ---: |",
  ];
  const sum = { passed: 0, failed: 0, skipped: 0, xfailed: 0 };
  const transports = [...ROWS, ...Object.keys(t).filter((k) => !ROWS.includes(k))];
  for (const transport of transports) {
    const levels = [
      ...LEVELS,
      ...Object.keys(t[transport] ?? {}).filter((k) => !LEVELS.includes(k)),
    ];
    for (const level of levels) {
      const cell = t[transport]?.[level];
      if (cell === undefined) continue;
      lines.push(
        `| ${transport === ALL ? "any (jsonrpc+http_json+grpc)" : transport} | ${level} | ${cell.passed} | ${cell.failed} | ${cell.skipped} | ${cell.xfailed} |`,
      );
      for (const k of Object.keys(sum)) sum[k] += cell[k];
    }
  }
  lines.push(
    `| **all** | | **${sum.passed}** | **${sum.failed}** | **${sum.skipped}** | **${sum.xfailed}** |`,
  );
  return lines.join("\n");
}
