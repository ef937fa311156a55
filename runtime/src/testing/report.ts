// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The report of an equivalence run: a binding × scenario table (pass / FAIL / n/a), the outcome
 * each binding had, and one line per failure saying scenario, binding, expected and got. Printed
 * as Markdown by {@link formatEquivalenceReport}; {@link assertBindingEquivalence} throws with it.
 */
import type { Outcome } from "./outcome.js";
import type { ScenarioGroup } from "./scenarios.js";

/** A cell of the table. */
export type EquivalenceStatus = "pass" | "FAIL" | "n/a";

/** A binding of the run. */
export interface EquivalenceBinding {
  /** As given in `references` / `candidates` ("JSONRPC", "my-websocket"). */
  readonly name: string;
  /** References define the expected outcomes (the first one) and must agree among themselves; candidates must agree with them. */
  readonly role: "reference" | "candidate";
}

/** One scenario × binding. */
export interface EquivalenceCell {
  readonly scenario: string;
  readonly binding: string;
  readonly status: EquivalenceStatus;
  /** The normalized outcome (absent when n/a, or when the binding could not run the scenario). */
  readonly outcome?: Outcome | undefined;
  /** Why it failed, or why it is n/a. */
  readonly message?: string | undefined;
}

/** One failure, for the list under the table. */
export interface EquivalenceFailure {
  readonly scenario: string;
  readonly binding: string;
  /** The binding whose outcome this one was compared with, when the failure is a difference from it. */
  readonly comparedWith?: string | undefined;
  /** `<scenario>: expected …, got …`. */
  readonly message: string;
}

/** What `runBindingEquivalence` returns. */
export interface EquivalenceReport {
  /** The service the kit ran against. */
  readonly service: string;
  /** References first, then candidates, in the order given. */
  readonly bindings: readonly EquivalenceBinding[];
  /** The scenarios, in report order. */
  readonly scenarios: readonly { readonly name: string; readonly group: ScenarioGroup }[];
  /** Every scenario × binding, scenario-major, bindings in `bindings` order. */
  readonly cells: readonly EquivalenceCell[];
  readonly failures: readonly EquivalenceFailure[];
  /** True when no cell failed. */
  readonly ok: boolean;
}

/** The cell of a scenario and binding. */
export function equivalenceCell(
  report: EquivalenceReport,
  scenario: string,
  binding: string,
): EquivalenceCell | undefined {
  return report.cells.find((c) => c.scenario === scenario && c.binding === binding);
}

/**
 * The report as Markdown: a table with a row per scenario and a column per binding (the first
 * reference marked), a totals line, and the failures, one per line with the binding in bold.
 */
export function formatEquivalenceReport(report: EquivalenceReport): string {
  const head = report.bindings.map((b, i) =>
    b.role === "reference" ? `${b.name} (reference${i === 0 ? "" : ", must agree"})` : b.name,
  );
  const lines = [
    `| scenario | ${head.map(cellText).join(" | ")} |`,
    `| --- | ${head.map(() => "---").join(" | ")} |`,
  ];
  for (const s of report.scenarios) {
    const row = report.bindings.map(
      (b) => equivalenceCell(report, s.name, b.name)?.status ?? "n/a",
    );
    lines.push(`| ${cellText(s.name)} | ${row.join(" | ")} |`);
  }
  const count = (status: EquivalenceStatus) =>
    report.cells.filter((c) => c.status === status).length;
  lines.push("");
  lines.push(
    `${report.service}: ${report.scenarios.length} scenarios × ${report.bindings.length} bindings: ${count("pass")} pass, ${count("FAIL")} FAIL, ${count("n/a")} n/a.`,
  );
  if (report.failures.length > 0) {
    lines.push("", "Failures:", "");
    for (const f of report.failures)
      lines.push(
        `- **${f.binding}**${f.comparedWith !== undefined ? ` (vs ${f.comparedWith})` : ""}: ${f.message}`,
      );
  }
  return lines.join("\n");
}

function cellText(text: string): string {
  return text.replace(/\|/g, "\\|");
}

/** Thrown by {@link assertBindingEquivalence}: the message is the formatted report. */
export class BindingEquivalenceError extends Error {
  /** The report that failed. */
  readonly report: EquivalenceReport;

  constructor(report: EquivalenceReport) {
    super(
      `${report.failures.length} binding-equivalence failure${report.failures.length === 1 ? "" : "s"}:\n\n${formatEquivalenceReport(report)}`,
    );
    this.name = "BindingEquivalenceError";
    this.report = report;
  }
}

/** Throws a {@link BindingEquivalenceError} (its message: the formatted report) when any cell failed; returns the report otherwise. */
export function assertBindingEquivalence(report: EquivalenceReport): EquivalenceReport {
  if (!report.ok) throw new BindingEquivalenceError(report);
  return report;
}
