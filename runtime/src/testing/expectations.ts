// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * What a scenario's outcome must be whatever the binding, checked on the references too (so that
 * bindings that are all wrong alike still fail): the error class an error maps to, the order of a
 * stream's events, what the agent echoed of the call context. Each check returns the problem in
 * one line, or undefined.
 */
import type { JsonValue } from "@bufbuild/protobuf";
import type { A2AErrorSpec } from "../errors/a2a-error.js";
import { describeJson, renderError, renderObserved } from "./compare.js";
import type { Observed, Outcome, OutcomeStep } from "./outcome.js";

/** A check of an outcome: the problem, or undefined. */
export type Expectation = (outcome: Outcome) => string | undefined;

/** All checks, the first problem wins. */
export function all(...checks: readonly Expectation[]): Expectation {
  return (outcome) => {
    for (const check of checks) {
      const problem = check(outcome);
      if (problem !== undefined) return problem;
    }
    return undefined;
  };
}

function step(outcome: Outcome, label: string): OutcomeStep | undefined {
  return outcome.find((s) => s.label === label);
}

function prefixed(outcome: Outcome, label: string, text: string): string {
  return outcome.length > 1 ? `${label}: ${text}` : text;
}

/**
 * The step failed with the error of `spec` (for a stream: ended with it), and, when given, with a
 * field violation on `field`.
 */
export function expectError(label: string, spec: A2AErrorSpec, field?: string): Expectation {
  return (outcome) => {
    const s = step(outcome, label);
    const expected = `${spec.name} (reason ${spec.reason})`;
    if (s === undefined) return `${label}: expected ${expected}, got nothing`;
    const error =
      s.observed.kind === "error"
        ? s.observed.error
        : s.observed.kind === "stream" && typeof s.observed.end === "object"
          ? s.observed.end
          : undefined;
    if (error === undefined || error.class !== spec.name || error.reason !== spec.reason) {
      const got = error !== undefined ? renderError(error) : renderObserved(s.observed);
      return prefixed(outcome, label, `expected ${expected}, got ${got}`);
    }
    if (error.code !== spec.jsonRpcCode)
      return prefixed(
        outcome,
        label,
        `${expected}: expected JSON-RPC code ${spec.jsonRpcCode}, got ${error.code}`,
      );
    if (field !== undefined && !(error.fieldViolations ?? []).includes(field)) {
      return prefixed(
        outcome,
        label,
        `${expected}: expected a field violation on ${field}, got ${JSON.stringify(error.fieldViolations ?? [])}`,
      );
    }
    return undefined;
  };
}

/** The step is a stream with these event kinds, ended as given ("end", "abort", "closed", or an error's class name). */
export function expectStream(label: string, kinds: readonly string[], end: string): Expectation {
  return (outcome) => {
    const s = step(outcome, label);
    const wanted = `${kinds.length} event${kinds.length === 1 ? "" : "s"} (${kinds.join(", ")}) then ${endText(end)}`;
    if (s === undefined || s.observed.kind !== "stream")
      return prefixed(
        outcome,
        label,
        `expected ${wanted}, got ${s === undefined ? "nothing" : renderObserved(s.observed)}`,
      );
    const gotEnd = typeof s.observed.end === "string" ? s.observed.end : s.observed.end.class;
    if (s.observed.events.map((e) => e.kind).join(",") !== kinds.join(",") || gotEnd !== end)
      return prefixed(outcome, label, `expected ${wanted}, got ${renderObserved(s.observed)}`);
    return undefined;
  };
}

function endText(end: string): string {
  return end === "end"
    ? "end"
    : end === "abort"
      ? "the caller's abort"
      : end === "closed"
        ? "closed by the caller"
        : end;
}

/** The step succeeded (a result, or a stream that ended). */
export function expectSuccess(label: string): Expectation {
  return (outcome) => {
    const s = step(outcome, label);
    if (s === undefined) return `${label}: expected a result, got nothing`;
    if (s.observed.kind === "error")
      return prefixed(outcome, label, `expected a result, got ${renderError(s.observed.error)}`);
    if (s.observed.kind === "stream" && typeof s.observed.end === "object")
      return prefixed(
        outcome,
        label,
        `expected the stream to end, got ${renderObserved(s.observed)}`,
      );
    return undefined;
  };
}

/** A fact step has this value. */
export function expectFact(label: string, value: JsonValue): Expectation {
  return (outcome) => {
    const s = step(outcome, label);
    if (s === undefined || s.observed.kind !== "fact")
      return `${label}: expected ${JSON.stringify(value)}, got nothing`;
    const difference = describeJson(value, s.observed.value);
    return difference === undefined ? undefined : prefixed(outcome, label, difference);
  };
}

/** The reference agent's echo of the call context (metadata `callContext` of a Message or Task result) has these values. */
export function expectEcho(
  label: string,
  expected: Readonly<Record<string, JsonValue>>,
): Expectation {
  return (outcome) => {
    const s = step(outcome, label);
    const echo = s === undefined ? undefined : echoOf(s.observed);
    if (echo === undefined)
      return prefixed(
        outcome,
        label,
        `expected the agent's echo of the call context, got ${s === undefined ? "nothing" : renderObserved(s.observed)}`,
      );
    for (const [key, value] of Object.entries(expected)) {
      const difference = describeJson(value, echo[key], `callContext.${key}`);
      if (difference !== undefined) return prefixed(outcome, label, difference);
    }
    return undefined;
  };
}

/** The `callContext` the reference agent put in a result's metadata (a Message, a Task, or a SendMessageResponse holding either). */
function echoOf(observed: Observed): Record<string, JsonValue> | undefined {
  if (observed.kind !== "result") return undefined;
  let value = observed.value as Record<string, JsonValue> | null;
  for (const key of ["message", "task"]) {
    const inner = value?.[key];
    if (typeof inner === "object" && inner !== null && !Array.isArray(inner)) value = inner;
  }
  const metadata = value?.["metadata"];
  const echo =
    typeof metadata === "object" && metadata !== null && !Array.isArray(metadata)
      ? metadata["callContext"]
      : undefined;
  return typeof echo === "object" && echo !== null && !Array.isArray(echo) ? echo : undefined;
}
