// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * REQUIRED-field validation (spec §5.7) from a table the plugin precompiles from
 * `google.api.field_behavior`. Works on protobuf-es messages, whatever wire format
 * they were decoded from (ProtoJSON or binary), so every binding shares it.
 */
import type { FieldViolation } from "../errors/a2a-error.js";

export type { FieldViolation };

/**
 * How a REQUIRED field is checked: present, set to a non-zero value, a non-empty list or
 * map; `"oneof"`: a oneof the spec requires exactly one member of (the rule's `name` is
 * the oneof's property, `members` its fields' JSON names).
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export type RequiredCheck = "present" | "nonzero" | "nonempty" | "nonempty-map" | "oneof";

/**
 * One field the validator looks at.
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export interface FieldRule {
  /** Property name on the protobuf-es message ("messageId"). */
  readonly name: string;
  /** ProtoJSON name, used in violation paths ("messageId"). */
  readonly json: string;
  /** The presence check, when the field is REQUIRED. */
  readonly check?: RequiredCheck;
  /** Type name of a nested message to validate (the value, each list element or each map value). */
  readonly nested?: string;
  /** The oneof property holding the field, when it is a oneof member. */
  readonly oneof?: string;
  /** Smallest allowed value of a numeric field, when set (spec text, e.g. pageSize ≥ 1). */
  readonly min?: number;
  /** Largest allowed value of a numeric field, when set. */
  readonly max?: number;
  /** True for a map field: `nested` applies to each value. */
  readonly map?: true;
  /** For a `"oneof"` rule: the JSON names of the oneof's members, for the violation's description. */
  readonly members?: readonly string[];
  /** In response tables: the ProtoJSON zero value to emit when the field is absent. */
  readonly zero?: unknown;
}

/**
 * typeName → the fields of that message to check.
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export type RequirementTable = Readonly<Record<string, readonly FieldRule[]>>;

/**
 * Returns the REQUIRED fields missing in `message` (of type `typeName`) and, recursively,
 * in the messages it holds; at most `limit` violations (default 16). An empty array means valid.
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export function findMissingFields(
  table: RequirementTable,
  typeName: string,
  message: object,
  limit = 16,
): FieldViolation[] {
  const out: FieldViolation[] = [];
  walk(table, typeName, message, "", out, limit, 0);
  return out;
}

const MAX_DEPTH = 64;

function walk(
  table: RequirementTable,
  typeName: string,
  message: object,
  prefix: string,
  out: FieldViolation[],
  limit: number,
  depth: number,
): void {
  const rules = table[typeName];
  if (rules === undefined || depth > MAX_DEPTH) return;
  const record = message as Record<string, unknown>;
  for (const rule of rules) {
    if (out.length >= limit) return;
    if (rule.check === "oneof") {
      const o = record[rule.name] as { case?: string } | undefined;
      if (o?.case === undefined)
        out.push({
          field: pathOf(prefix, rule),
          description: `${prefix === "" ? "the request" : prefix} needs one of ${(rule.members ?? []).join(", ")}`,
        });
      continue;
    }
    let value: unknown;
    if (rule.oneof === undefined) {
      // proto2 messages keep unset scalars' defaults on the prototype: only an own property is set.
      value =
        rule.check === "present" && !Object.hasOwn(record, rule.name)
          ? undefined
          : record[rule.name];
    } else {
      const o = record[rule.oneof] as { case?: string; value?: unknown } | undefined;
      value = o?.case === rule.name ? o.value : undefined;
    }
    if (rule.check !== undefined && isMissing(rule.check, value)) {
      const path = pathOf(prefix, rule);
      out.push({ field: path, description: `${path} is required` });
      continue;
    }
    if ((rule.min !== undefined || rule.max !== undefined) && typeof value === "number") {
      if (
        (rule.min !== undefined && value < rule.min) ||
        (rule.max !== undefined && value > rule.max)
      ) {
        const path = pathOf(prefix, rule);
        out.push({
          field: path,
          description: `${path} must be ${rangeText(rule.min, rule.max)}, got ${value}`,
        });
        continue;
      }
    }
    if (rule.nested === undefined || value === undefined || value === null) continue;
    const path = pathOf(prefix, rule);
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length && out.length < limit; i++) {
        const v: unknown = value[i];
        if (typeof v === "object" && v !== null)
          walk(table, rule.nested, v, `${path}[${i}]`, out, limit, depth + 1);
      }
    } else if (typeof value === "object") {
      if (rule.map === true) {
        for (const [k, v] of Object.entries(value)) {
          if (out.length >= limit) return;
          if (typeof v === "object" && v !== null)
            walk(table, rule.nested, v, `${path}[${JSON.stringify(k)}]`, out, limit, depth + 1);
        }
      } else {
        walk(table, rule.nested, value, path, out, limit, depth + 1);
      }
    }
  }
}

/** The violation path of a rule's field under `prefix`: built only for a violation or a nested walk (not per field checked). */
function pathOf(prefix: string, rule: FieldRule): string {
  return prefix === "" ? rule.json : `${prefix}.${rule.json}`;
}

function rangeText(min: number | undefined, max: number | undefined): string {
  if (min !== undefined && max !== undefined) return `between ${min} and ${max}`;
  return min !== undefined ? `at least ${min}` : `at most ${max}`;
}

/** Whether a REQUIRED field's value (undefined when unset) is missing under `check`. */
export function isMissing(check: RequiredCheck, value: unknown): boolean {
  switch (check) {
    case "present":
      return value === undefined || value === null;
    case "nonzero":
      return (
        value === undefined ||
        value === null ||
        value === "" ||
        value === 0 ||
        value === false ||
        (typeof value === "bigint" && value === BigInt(0)) ||
        (value instanceof Uint8Array && value.length === 0)
      );
    case "nonempty":
      return !Array.isArray(value) || value.length === 0;
    case "nonempty-map":
      return typeof value !== "object" || value === null || Object.keys(value).length === 0;
    case "oneof":
      return false;
  }
}

/**
 * Adds the REQUIRED fields that ProtoJSON left out because they hold their zero value
 * (`"nextPageToken": ""`, `"tasks": []`), in place, recursively, to the JSON form of a
 * message of type `typeName`. Returns the same object.
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export function fillRequiredDefaults<T>(table: RequirementTable, typeName: string, json: T): T {
  fill(table, typeName, json, 0);
  return json;
}

function fill(table: RequirementTable, typeName: string, json: unknown, depth: number): void {
  const rules = table[typeName];
  if (
    rules === undefined ||
    depth > MAX_DEPTH ||
    typeof json !== "object" ||
    json === null ||
    Array.isArray(json)
  )
    return;
  const record = json as Record<string, unknown>;
  for (const rule of rules) {
    const value = record[rule.json];
    if (value === undefined) {
      if (rule.zero !== undefined && rule.oneof === undefined)
        record[rule.json] = cloneZero(rule.zero);
      continue;
    }
    if (rule.nested === undefined) continue;
    if (Array.isArray(value)) {
      for (const v of value) fill(table, rule.nested, v, depth + 1);
    } else if (rule.map === true) {
      for (const v of Object.values(value as object)) fill(table, rule.nested, v, depth + 1);
    } else {
      fill(table, rule.nested, value, depth + 1);
    }
  }
}

function cloneZero(zero: unknown): unknown {
  if (Array.isArray(zero)) return [];
  if (typeof zero === "object" && zero !== null) return {};
  return zero;
}
