// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Non-finite numbers in `google.protobuf.Value` positions (issue #25): JSON has no NaN or Infinity,
 * but a JSON number too large for a double (`1e400`) parses as Infinity, and protobuf's binary
 * double carries NaN and ±Infinity as they are. A request holding one in any Struct or Value field
 * (the request's, the message's or a part's metadata, a part's data, CancelTask's metadata), at any
 * depth of nested objects and lists, must be refused; once stored, no JSON binding could write
 * the task again.
 *
 * A plan picks the position and the nesting; {@link plantMark} puts {@link NONFINITE_MARK} there in
 * a ProtoJSON payload. The JSON inputs replace the quoted mark in the body text by a number text
 * ({@link NONFINITE_JSON_TEXTS}); the gRPC inputs decode the payload and replace the mark's string
 * Value by a binary NaN or ±Infinity ({@link replaceMarks}).
 */
import type { DescField, DescMessage, JsonObject, JsonValue } from "@bufbuild/protobuf";
import fc from "fast-check";

/** The string that stands for the number until the body is built. */
export const NONFINITE_MARK = "@nonfinite@";

/** JSON number texts that parse to ±Infinity. */
export const NONFINITE_JSON_TEXTS = [
  "1e400",
  "-1e400",
  "1e309",
  "-1e309",
  "1E999",
  "2e308",
  "-1.8e308",
  "1e+400",
  "123456789012345678901234567890e300",
] as const;

/** The binary doubles a gRPC Value may carry that JSON cannot. */
export const NONFINITE_DOUBLES = ["NaN", "Infinity", "-Infinity"] as const;
export type NonFiniteDouble = (typeof NONFINITE_DOUBLES)[number];

/** Where a non-finite number goes: the `at`-th Struct/Value position of the payload (modulo their count), nested `depth` levels (objects or lists by `shape`'s bits). */
export interface NonFinitePlan {
  readonly at: number;
  readonly depth: number;
  readonly shape: number;
}

/** Plans. */
export const nonFinitePlan: fc.Arbitrary<NonFinitePlan> = fc.record({
  at: fc.nat(99),
  depth: fc.nat(4),
  shape: fc.nat(15),
});

const STRUCTURED = new Set([
  "google.protobuf.Struct",
  "google.protobuf.Value",
  "google.protobuf.ListValue",
]);

const isObject = (v: unknown): v is JsonObject =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** One position: a field of type Struct, Value or ListValue of a message object in the payload. */
interface Position {
  readonly json: JsonObject;
  readonly desc: DescMessage;
  readonly field: DescField;
}

/** The message objects of a payload with the Struct/Value/ListValue fields they may hold. */
function positions(desc: DescMessage, json: JsonValue, out: Position[] = []): Position[] {
  if (!isObject(json) || STRUCTURED.has(desc.typeName)) return out;
  for (const field of desc.fields) {
    const v = json[field.jsonName];
    const message =
      field.fieldKind === "message"
        ? field.message
        : field.fieldKind === "list" && field.listKind === "message"
          ? field.message
          : undefined;
    if (message === undefined) continue;
    if (STRUCTURED.has(message.typeName)) out.push({ json, desc, field });
    else if (field.fieldKind === "message" && v !== undefined) positions(message, v, out);
    else if (field.fieldKind === "list" && Array.isArray(v))
      for (const item of v) positions(message, item, out);
  }
  return out;
}

/** The mark nested `depth` levels deep: in objects (bit 1) or lists (bit 0), with a finite sibling now and then. */
function nested(depth: number, shape: number): JsonValue {
  let v: JsonValue = NONFINITE_MARK;
  for (let i = 0; i < depth; i++) {
    const inList = ((shape >> i) & 1) === 1;
    v = inList ? (i % 2 === 0 ? [v] : [1, v, "x"]) : i % 2 === 0 ? { n: v } : { a: true, n: v };
  }
  return v;
}

/**
 * Puts {@link NONFINITE_MARK} at the planned Struct/Value/ListValue position of `json` (a ProtoJSON payload of
 * `desc`, changed in place); a part's `data` replaces the other members of its oneof. Returns whether
 * the payload had such a position.
 */
export function plantMark(desc: DescMessage, json: JsonObject, plan: NonFinitePlan): boolean {
  const all = positions(desc, json);
  if (all.length === 0) return false;
  const { json: site, desc: siteDesc, field } = all[plan.at % all.length]!;
  const value = nested(plan.depth, plan.shape);
  const typeName = (
    field.fieldKind === "message" || field.fieldKind === "list" ? field.message : undefined
  )?.typeName;
  const item: JsonValue =
    typeName === "google.protobuf.Struct"
      ? isObject(value)
        ? value
        : { nf: value }
      : typeName === "google.protobuf.ListValue"
        ? Array.isArray(value)
          ? value
          : [value]
        : value;
  if (field.oneof !== undefined)
    for (const other of siteDesc.fields)
      if (other.oneof === field.oneof && other !== field) delete site[other.jsonName];
  const existing = site[field.jsonName];
  if (field.fieldKind === "list")
    site[field.jsonName] = [...(Array.isArray(existing) ? existing : []), item];
  else if (typeName === "google.protobuf.Struct" && isObject(existing) && isObject(item))
    site[field.jsonName] = { ...existing, ...item };
  else site[field.jsonName] = item;
  return true;
}

/** `text` (JSON) with the quoted mark replaced by the number text `number`. */
export const withNonFiniteText = (text: string, number: string): string =>
  text.replaceAll(JSON.stringify(NONFINITE_MARK), number);

/**
 * Replaces, in a decoded protobuf-es message (in place), the mark by the double `value`: a Value message
 * whose string is the mark (a part's data), and the mark as a plain value in a Struct field (protobuf-es
 * holds those as JSON objects). Returns how many.
 */
export function replaceMarks(message: unknown, value: NonFiniteDouble): number {
  const n =
    value === "NaN"
      ? Number.NaN
      : value === "Infinity"
        ? Number.POSITIVE_INFINITY
        : Number.NEGATIVE_INFINITY;
  let count = 0;
  const walk = (v: unknown): void => {
    if (typeof v !== "object" || v === null || v instanceof Uint8Array) return;
    const o = v as Record<string, unknown> & {
      $typeName?: string;
      kind?: { case?: string; value?: unknown };
    };
    if (
      o.$typeName === "google.protobuf.Value" &&
      o.kind?.case === "stringValue" &&
      o.kind.value === NONFINITE_MARK
    ) {
      o.kind = { case: "numberValue", value: n };
      count++;
      return;
    }
    for (const [k, x] of Object.entries(o)) {
      if (x === NONFINITE_MARK && o.$typeName === undefined) {
        o[k] = n;
        count++;
      } else walk(x);
    }
  };
  walk(message);
  return count;
}
