/**
 * ACTS reports: the §13 JSON report of one run (one client implementation on one binding)
 * and the totals table printed at the end of the test run (file × binding, per client).
 */
import type { Binding } from "./client.js";
import type { Level } from "./document.js";
import type { Outcome, TestResult } from "./runner.js";

export interface RunReport {
  readonly implementation: string;
  readonly binding: Binding;
  readonly results: readonly TestResult[];
}

type Counts = { total: number; passed: number; failed: number; skipped: number; errors: number };
const zero = (): Counts => ({ total: 0, passed: 0, failed: 0, skipped: 0, errors: 0 });
const key: Record<Outcome, keyof Counts> = {
  pass: "passed",
  fail: "failed",
  skip: "skipped",
  error: "errors",
};

function count(results: readonly TestResult[]): Counts {
  const c = zero();
  for (const r of results) {
    c.total++;
    c[key[r.result]]++;
  }
  return c;
}

/** The §13 report document. */
export function actsReport(
  run: RunReport,
  meta: { actsVersion: string; specVersion: string; sdkVersion: string },
): object {
  const byLevel = Object.fromEntries(
    (["must", "should", "may"] as Level[]).map((l) => [
      l,
      count(run.results.filter((r) => r.level === l)),
    ]),
  );
  const suites = new Map<string, { id: string; name: string; tests: object[] }>();
  for (const r of run.results) {
    const suite = suites.get(r.suite.id) ?? { ...r.suite, tests: [] };
    suites.set(r.suite.id, suite);
    suite.tests.push({
      id: r.id,
      name: r.name,
      level: r.level,
      result: r.result,
      duration_ms: r.duration_ms,
      ...(r.skip_reason !== undefined ? { skip_reason: r.skip_reason } : {}),
      ...(r.failure !== undefined ? { failure: r.failure } : {}),
      steps: r.steps,
      ...(r.notes.length > 0 ? { notes: r.notes } : {}),
    });
  }
  return {
    acts_version: meta.actsVersion,
    spec_version: meta.specVersion,
    generated_at: new Date().toISOString(),
    sdk: { name: run.implementation, version: meta.sdkVersion, language: "typescript" },
    transport: run.binding,
    environment: { runtime: `node ${process.version}`, os: process.platform },
    summary: {
      ...count(run.results),
      duration_ms: run.results.reduce((s, r) => s + r.duration_ms, 0),
      by_level: byLevel,
    },
    suites: [...suites.values()],
  };
}

/** "pass/fail/n-a/gap" cell: n/a = skipped because it does not apply (transport, capability), gap = skipped for a missing behaviour or runner feature. */
function cell(results: readonly TestResult[]): string {
  const c = count(results);
  const notApplicable = results.filter(
    (r) => r.result === "skip" && (r.skip_kind === "transport" || r.skip_kind === "capability"),
  ).length;
  const gap = c.skipped - notApplicable;
  return `${c.passed}/${c.failed + c.errors}/${notApplicable}/${gap}`;
}

/** The totals table of one client implementation over the bindings it ran on. */
export function totalsTable(runs: readonly RunReport[]): string {
  const files = [...new Set(runs.flatMap((r) => r.results.map((t) => t.file)))];
  const width = Math.max(...files.map((f) => f.length), 12);
  const pad = (s: string, n: number) => s + " ".repeat(Math.max(0, n - s.length));
  const lines = [`${pad("file", width)}  ${runs.map((r) => pad(r.binding, 14)).join("")}`];
  for (const file of files)
    lines.push(
      `${pad(file, width)}  ${runs.map((r) => pad(cell(r.results.filter((t) => t.file === file)), 14)).join("")}`,
    );
  lines.push(`${pad("all", width)}  ${runs.map((r) => pad(cell(r.results), 14)).join("")}`);
  for (const level of ["must", "should", "may"] as Level[]) {
    lines.push(
      `${pad(`  level ${level}`, width)}  ${runs.map((r) => pad(cell(r.results.filter((t) => t.level === level)), 14)).join("")}`,
    );
  }
  return lines.join("\n");
}

/** Every non-pass and every pass with a note, one line each. */
export function exceptionsList(runs: readonly RunReport[]): string {
  const lines: string[] = [];
  for (const run of runs) {
    for (const r of run.results) {
      if (r.result === "pass" && r.notes.length === 0) continue;
      if (r.result === "skip" && r.skip_kind === "transport") continue;
      const why =
        r.result === "skip"
          ? r.skip_reason
          : r.result === "pass"
            ? r.notes.join("; ")
            : `${r.failure?.step_id ? `[${r.failure.step_id}] ` : ""}${r.failure?.message}`;
      lines.push(
        `${run.binding.padEnd(7)} ${r.level.padEnd(6)} ${r.result.padEnd(4)} ${r.id}: ${why}`,
      );
    }
  }
  return lines.join("\n");
}
