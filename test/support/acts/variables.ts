/**
 * ACTS variables (§8, §12.2): `{{stepId.name}}` (captured by an earlier step of the same
 * test; `{{stepId.response}}` is that step's whole assertion root), `{{name}}` (document
 * `variables`, then the runner's own), `{{env.NAME}}`, `{{$uuid}}`. A string that is
 * exactly one reference takes the referenced value as is (objects stay objects); inside
 * longer text the value is stringified. An unresolvable reference is an error naming it.
 */
import { randomUUID } from "node:crypto";
import type { JsonValue } from "./client.js";

export interface VariableScope {
  /** Captures of the steps run so far: step id → name → value. */
  readonly captures: ReadonlyMap<string, ReadonlyMap<string, JsonValue>>;
  /** Document variables (may themselves contain references). */
  readonly document: Readonly<Record<string, string>>;
  /** Variables the runner provides (webhook URL, tokens, base URL, …). */
  readonly runner: Readonly<Record<string, string>>;
  readonly env: Readonly<Record<string, string | undefined>>;
}

export class UnresolvedVariableError extends Error {}

const REFERENCE = /\{\{\s*([^{}]+?)\s*\}\}/g;

function lookup(expression: string, scope: VariableScope, depth: number): JsonValue {
  if (expression === "$uuid") return randomUUID();
  if (expression.startsWith("env.")) {
    const value = scope.env[expression.slice(4)];
    if (value !== undefined) return value;
    throw new UnresolvedVariableError(`environment variable ${expression.slice(4)} is not set`);
  }
  const dot = expression.indexOf(".");
  if (dot > 0) {
    const step = scope.captures.get(expression.slice(0, dot));
    const name = expression.slice(dot + 1);
    if (step?.has(name)) return step.get(name)!;
    if (step !== undefined)
      throw new UnresolvedVariableError(`step "${expression.slice(0, dot)}" captured no "${name}"`);
  }
  const text = Object.hasOwn(scope.document, expression)
    ? scope.document[expression]
    : Object.hasOwn(scope.runner, expression)
      ? scope.runner[expression]
      : undefined;
  if (text !== undefined) {
    if (depth > 8) throw new UnresolvedVariableError(`variable ${expression} refers to itself`);
    return interpolateText(text, scope, depth + 1);
  }
  const value = scope.env[expression];
  if (value !== undefined) return value;
  throw new UnresolvedVariableError(`unresolved variable {{${expression}}}`);
}

function interpolateText(text: string, scope: VariableScope, depth: number): JsonValue {
  const whole = /^\{\{\s*([^{}]+?)\s*\}\}$/.exec(text);
  if (whole !== null) return lookup(whole[1]!, scope, depth);
  return text.replace(REFERENCE, (_, expression: string) => {
    const value = lookup(expression, scope, depth);
    return typeof value === "string" ? value : JSON.stringify(value);
  });
}

/** Replaces every reference inside `value` (strings, and recursively arrays and maps; keys stay). */
export function interpolate(
  value: JsonValue | undefined,
  scope: VariableScope,
): JsonValue | undefined {
  if (typeof value === "string") return interpolateText(value, scope, 0);
  if (Array.isArray(value)) return value.map((v) => interpolate(v, scope) as JsonValue);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, interpolate(v, scope) as JsonValue]),
    );
  }
  return value;
}
