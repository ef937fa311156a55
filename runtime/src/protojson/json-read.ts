// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The small pieces the plugin's per-message ProtoJSON readers (`<file>_a2a_json.ts`) call: one
 * scalar, enum or well-known type read from its JSON value exactly as protobuf-es's `fromJson`
 * reads it, or `undefined` when `fromJson` would refuse it or the reader is not sure to read it the
 * same way. The generated code decides names, presence, oneofs and the REQUIRED checks; these only read.
 *
 * A reader is a fast path that only accepts what it fully understands: whatever it does not (an
 * unknown key, a value of the wrong type, `Any`, a REQUIRED field missing, …) makes it return
 * `undefined`, and `decodeRequest` (pipeline/server-pipeline.ts) decodes the request by reflection instead:
 * the reference message, or the reference error.
 */
import { fromJson, protoInt64, type JsonValue } from "@bufbuild/protobuf";
import { base64Decode, getTextEncoding } from "@bufbuild/protobuf/wire";
import { DurationSchema, FieldMaskSchema, TimestampSchema } from "@bufbuild/protobuf/wkt";
import { isMissing, type RequiredCheck } from "../pipeline/required-fields.js";

/**
 * A generated reader: the message of a request type read from its ProtoJSON value, or undefined (reflection decides).
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export type JsonReader = (json: JsonValue) => object | undefined;

/**
 * typeName → the generated reader of that request type, for the servers (`requestReaders`).
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export type JsonReaderTable = Readonly<Record<string, JsonReader>>;

/**
 * How deep a Struct or Value the helpers copy (JSON levels). protobuf-es counts every message and
 * every Value against a recursion limit of 100; the generated readers stop at 32 message levels, the
 * helpers at 32 JSON levels, so that nothing they accept is past that limit.
 */
const MAX_JSON_LEVELS = 32;

const INT64_ZERO = protoInt64.zero;
const checkUtf8 = getTextEncoding().checkUtf8;

/** A string as `fromJson` takes it: well-formed UTF-16 (no lone surrogate). */
function isString(v: unknown): v is string {
  return typeof v === "string" && checkUtf8(v);
}

/**
 * A 32-bit integer field (`int32`, `sint32`, `sfixed32` within ±2^31; `uint32`, `fixed32` within
 * 0..2^32-1): a JSON number, or a string holding one, as protobuf-es reads it (`"1e2"` is 100, `" 1"` is refused).
 */
function int32(v: unknown, min: number, max: number): number | undefined {
  let n = v;
  if (typeof v === "string") {
    if (v === "" || v.trim().length !== v.length) return undefined;
    n = Number(v);
  }
  if (typeof n !== "number" || !Number.isInteger(n) || n > max || n < min) return undefined;
  return n;
}

/** A 64-bit integer field: a bigint (a decimal string with `asString`, jstype = JS_STRING), from a JSON string or number. */
function int64(v: unknown, unsigned: boolean, asString: boolean): bigint | string | undefined {
  if (typeof v !== "number" && (typeof v !== "string" || v.length === 0)) return undefined;
  try {
    const parsed = unsigned ? protoInt64.uParse(v) : protoInt64.parse(v);
    return asString ? String(v) : parsed;
  } catch {
    return undefined;
  }
}

/** A `double` or `float` field: a finite number, a string holding one, or "NaN", "Infinity", "-Infinity". */
function double(v: unknown, float: boolean): number | undefined {
  let n: number;
  if (v === "NaN") n = Number.NaN;
  else if (v === "Infinity") n = Number.POSITIVE_INFINITY;
  else if (v === "-Infinity") n = Number.NEGATIVE_INFINITY;
  else if (typeof v === "number") {
    if (!Number.isFinite(v)) return undefined;
    n = v;
  } else if (typeof v === "string") {
    if (v === "" || v.trim().length !== v.length) return undefined;
    n = Number(v);
    if (!Number.isFinite(n)) return undefined;
  } else return undefined;
  if (float && !Number.isFinite(Math.fround(n)) && Number.isFinite(n)) return undefined;
  return n;
}

/** A `bytes` field: standard or URL-safe base64, padded or not (protobuf-es's own decoder). */
function bytes(v: unknown): Uint8Array | undefined {
  if (typeof v !== "string") return undefined;
  if (v === "") return new Uint8Array(0);
  try {
    return base64Decode(v);
  } catch {
    return undefined;
  }
}

/**
 * An enum value (not null: the reader resets the field itself): a name (JSON or proto name, `names`
 * holds both) or an integer; `declared` lists the numbers of a closed enum (an open one takes any int32).
 */
function enumValue(
  names: Readonly<Record<string, number>>,
  declared: readonly number[] | undefined,
  v: unknown,
): number | undefined {
  let n: number;
  if (typeof v === "string") {
    if (!Object.hasOwn(names, v)) return undefined;
    n = names[v]!;
  } else if (typeof v === "number" && Number.isInteger(v)) n = v;
  else return undefined;
  if (declared === undefined) return n > 0x7fffffff || n < -0x80000000 ? undefined : n;
  return declared.includes(n) ? n : undefined;
}

/** A copy of a JSON value (Struct values), or undefined for what is not JSON or nests deeper than `level` allows. */
function copyJson(v: unknown, level: number): unknown {
  switch (typeof v) {
    case "string":
    case "number":
    case "boolean":
      return v;
    case "object":
      break;
    default:
      return undefined;
  }
  if (v === null) return null;
  if (level > MAX_JSON_LEVELS) return undefined;
  if (Array.isArray(v)) {
    const out: unknown[] = [];
    for (const item of v as unknown[]) {
      const c = copyJson(item, level + 1);
      if (c === undefined) return undefined;
      out.push(c);
    }
    return out;
  }
  return copyObject(v, level);
}

function copyObject(v: object, level: number): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(v)) {
    // protobuf-es sets it as an own property; an assignment would set the prototype.
    if (key === "__proto__") return undefined;
    const c = copyJson((v as Record<string, unknown>)[key], level + 1);
    if (c === undefined) return undefined;
    out[key] = c;
  }
  return out;
}

/** A `google.protobuf.Struct` field, which protobuf-es holds as a plain JSON object (outside google.protobuf.Value). */
function struct(v: unknown): Record<string, unknown> | undefined {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return undefined;
  return copyObject(v, 1);
}

/** A `google.protobuf.Value` message (null is the null value), as `create` and `fromJson` build it. */
function value(v: unknown, level = 1): object | undefined {
  let kind: { case: string; value: unknown };
  switch (typeof v) {
    case "number":
      kind = { case: "numberValue", value: v };
      break;
    case "string":
      kind = { case: "stringValue", value: v };
      break;
    case "boolean":
      kind = { case: "boolValue", value: v };
      break;
    case "object": {
      if (v === null) {
        kind = { case: "nullValue", value: 0 };
        break;
      }
      if (level > MAX_JSON_LEVELS) return undefined;
      if (Array.isArray(v)) {
        const values: object[] = [];
        for (const item of v as unknown[]) {
          const c = value(item, level + 1);
          if (c === undefined) return undefined;
          values.push(c);
        }
        kind = { case: "listValue", value: { $typeName: "google.protobuf.ListValue", values } };
        break;
      }
      const fields: Record<string, object> = {};
      for (const key of Object.keys(v)) {
        if (key === "__proto__") return undefined;
        const c = value((v as Record<string, unknown>)[key], level + 1);
        if (c === undefined) return undefined;
        fields[key] = c;
      }
      kind = { case: "structValue", value: { $typeName: "google.protobuf.Struct", fields } };
      break;
    }
    default:
      return undefined;
  }
  return { $typeName: "google.protobuf.Value", kind };
}

/** A Timestamp, Duration or FieldMask: a JSON string, read by protobuf-es itself. */
function wellKnownString(
  schema: typeof TimestampSchema | typeof DurationSchema | typeof FieldMaskSchema,
  v: unknown,
): object | undefined {
  if (typeof v !== "string") return undefined;
  try {
    return fromJson(schema, v);
  } catch {
    return undefined;
  }
}

/**
 * The helpers of the generated readers (one import for all of them). Each returns the value to store,
 * or undefined where `fromJson` refuses the JSON or the reader leaves the request to reflection.
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export const jsonRead = {
  /** Whether `v` is a string `fromJson` takes for a `string` field. */
  string: isString,
  int32,
  int64,
  double,
  bytes,
  enum: enumValue,
  struct,
  value: (v: unknown): object | undefined => value(v),
  timestamp: (v: unknown): object | undefined => wellKnownString(TimestampSchema, v),
  duration: (v: unknown): object | undefined => wellKnownString(DurationSchema, v),
  fieldMask: (v: unknown): object | undefined => wellKnownString(FieldMaskSchema, v),
  /** The zero value of a 64-bit integer field, as `create` sets it. */
  int64Zero: INT64_ZERO,
  /** A fresh zero value of a `bytes` field, as `create` sets it. */
  emptyBytes: (): Uint8Array => new Uint8Array(0),
  /** Whether a REQUIRED field's value is missing, as `findMissingFields` judges it. */
  missing: (check: RequiredCheck, v: unknown): boolean => isMissing(check, v),
} as const;
