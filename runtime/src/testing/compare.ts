// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Comparing two normalized outcomes, and saying how they differ in one line a reader can act on:
 * `expected TaskNotFoundError (reason TASK_NOT_FOUND), got InternalError (reason INTERNAL)`,
 * `expected 5 events (task, …) then end, got 4 events (…) then end`, `at task.status.state: …`.
 */
import type { JsonValue } from "@bufbuild/protobuf";
import type { ErrorOutcome, EventOutcome, Observed, Outcome } from "./outcome.js";

/**
 * How `got` differs from `expected`, or undefined when they are equivalent (error messages are
 * never compared). Steps are compared in order; a step's label prefixes the text when the outcome
 * has more than one step.
 */
export function describeDifference(expected: Outcome, got: Outcome): string | undefined {
  const labelled = expected.length > 1 || got.length > 1;
  for (let i = 0; i < Math.max(expected.length, got.length); i++) {
    const e = expected[i];
    const g = got[i];
    if (e === undefined)
      return `unexpected extra step ${g?.label}: ${g === undefined ? "" : renderObserved(g.observed)}`;
    if (g === undefined)
      return `${e.label}: expected ${renderObserved(e.observed)}, got nothing (the scenario stopped before this step)`;
    if (e.label !== g.label)
      return `expected step ${e.label} (${renderObserved(e.observed)}), got step ${g.label} (${renderObserved(g.observed)})`;
    const difference = describeObserved(e.observed, g.observed);
    if (difference !== undefined) return labelled ? `${e.label}: ${difference}` : difference;
  }
  return undefined;
}

/** How one observation differs from another, or undefined. */
export function describeObserved(expected: Observed, got: Observed): string | undefined {
  if (expected.kind !== got.kind)
    return `expected ${renderObserved(expected)}, got ${renderObserved(got)}`;
  switch (expected.kind) {
    case "error":
      return describeError(expected.error, (got as typeof expected).error);
    case "result": {
      const g = got as typeof expected;
      if (expected.type !== g.type)
        return `expected ${renderObserved(expected)}, got ${renderObserved(g)}`;
      return describeJson(expected.value, g.value);
    }
    case "stream":
      return describeStream(expected, got as typeof expected);
    case "fact":
      return describeJson(expected.value, (got as typeof expected).value);
  }
}

function describeError(e: ErrorOutcome, g: ErrorOutcome): string | undefined {
  if (e.class !== g.class || e.a2a !== g.a2a || e.reason !== g.reason)
    return `expected ${renderError(e)}, got ${renderError(g)}`;
  if (e.code !== g.code)
    return `${renderError(e)}: expected JSON-RPC code ${e.code}, got ${g.code}`;
  if (json(e.metadata) !== json(g.metadata))
    return `${renderError(e)}: expected ErrorInfo metadata ${json(e.metadata)}, got ${json(g.metadata)}`;
  if (json(e.fieldViolations) !== json(g.fieldViolations))
    return `${renderError(e)}: expected field violations ${json(e.fieldViolations)}, got ${json(g.fieldViolations)}`;
  return undefined;
}

function describeStream(
  e: Extract<Observed, { kind: "stream" }>,
  g: Extract<Observed, { kind: "stream" }>,
): string | undefined {
  const kinds = (events: readonly EventOutcome[]) => events.map((x) => x.kind).join(",");
  if (kinds(e.events) !== kinds(g.events))
    return `expected ${renderStream(e)}, got ${renderStream(g)}`;
  const endDiff =
    e.end === g.end
      ? undefined
      : typeof e.end === "string" || typeof g.end === "string"
        ? "differs"
        : describeError(e.end, g.end);
  if (endDiff !== undefined) return `expected ${renderStream(e)}, got ${renderStream(g)}`;
  for (let i = 0; i < e.events.length; i++) {
    const ev = e.events[i] as EventOutcome;
    const difference = describeJson(ev.value, (g.events[i] as EventOutcome).value);
    if (difference !== undefined) return `event ${i + 1} (${ev.kind}) ${difference}`;
  }
  return undefined;
}

/** The first path at which two JSON values differ: `at task.status.state: expected "…", got "…"`. */
export function describeJson(
  expected: JsonValue | undefined,
  got: JsonValue | undefined,
  path = "",
): string | undefined {
  if (json(expected) === json(got)) return undefined;
  const at = path === "" ? "" : `at ${path}: `;
  if (Array.isArray(expected) && Array.isArray(got)) {
    if (expected.length !== got.length)
      return `${at}expected ${expected.length} item(s) ${compact(expected)}, got ${got.length} ${compact(got)}`;
    for (let i = 0; i < expected.length; i++) {
      const d = describeJson(expected[i], got[i], `${path}[${i}]`);
      if (d !== undefined) return d;
    }
  } else if (isObject(expected) && isObject(got)) {
    const keys = [...new Set([...Object.keys(expected), ...Object.keys(got)])];
    for (const key of keys) {
      const d = describeJson(expected[key], got[key], path === "" ? key : `${path}.${key}`);
      if (d !== undefined) return d;
    }
  }
  return `${at}expected ${compact(expected)}, got ${compact(got)}`;
}

/** One observation in a few words. */
export function renderObserved(o: Observed): string {
  switch (o.kind) {
    case "error":
      return renderError(o.error);
    case "result":
      return `${o.type.slice(o.type.lastIndexOf(".") + 1)} ${compact(o.value)}`;
    case "stream":
      return renderStream(o);
    case "fact":
      return compact(o.value);
  }
}

/** An error in a few words: `TaskNotFoundError (reason TASK_NOT_FOUND)`, or `TypeError: fetch failed` for a non-A2A error. */
export function renderError(e: ErrorOutcome): string {
  if (!e.a2a) return `${e.class}: ${e.message}`;
  const reason = `${e.class} (reason ${e.reason})`;
  return e.class === "A2AError" ? `${reason}: ${e.message}` : reason;
}

function renderStream(o: Extract<Observed, { kind: "stream" }>): string {
  const end =
    o.end === "end"
      ? "end"
      : o.end === "abort"
        ? "the caller's abort"
        : o.end === "closed"
          ? "closed by the caller"
          : renderError(o.end);
  const events = o.events.map((x) => x.kind).join(", ");
  return `${o.events.length} event${o.events.length === 1 ? "" : "s"}${events === "" ? "" : ` (${events})`} then ${end}`;
}

/** Compact JSON, cut at 160 characters; `nothing` for undefined. */
function compact(value: JsonValue | undefined): string {
  if (value === undefined) return "nothing";
  const text = JSON.stringify(value);
  return text.length > 160 ? `${text.slice(0, 157)}…` : text;
}

/** JSON with object keys sorted: equal for equal values whatever the key order (maps, Structs). */
function json(value: unknown): string {
  return value === undefined
    ? "undefined"
    : JSON.stringify(value, (_key, v: unknown) =>
        isObject(v as JsonValue)
          ? Object.fromEntries(
              Object.entries(v as object).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
            )
          : v,
      );
}

function isObject(value: JsonValue | undefined): value is { [key: string]: JsonValue } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
