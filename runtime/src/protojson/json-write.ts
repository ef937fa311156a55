// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The small pieces the plugin's per-message ProtoJSON writers (`<file>_a2a_json.ts`) call: one
 * scalar, enum or well-known type as JSON text, exactly as protobuf-es's `toJson` followed by
 * `JSON.stringify` writes it. The generated code decides field order, names, presence and the
 * REQUIRED zero values; these only write.
 *
 * A writer handles well-formed messages. Whatever it is not sure to write exactly as the
 * reflective path (a value of the wrong type, a non-finite Value number, a timestamp out of
 * range, unknown fields that may be extensions) makes it throw `JSON_WRITE_BAIL`, and the
 * caller (response-text.ts) encodes the message by reflection instead: the reference
 * output, or the reference error.
 */
import { toJson, type JsonObject, type Registry } from "@bufbuild/protobuf";
import { base64Encode } from "@bufbuild/protobuf/wire";
import { AnySchema, FieldMaskSchema, type Any, type FieldMask } from "@bufbuild/protobuf/wkt";

/**
 * A message as the generated writers read it: its properties by local name.
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export type JsonWriteSource = Readonly<Record<string, unknown>>;

/**
 * A oneof property of a message: the member's local name and its value.
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export interface JsonWriteOneof {
  readonly case?: string | undefined;
  readonly value?: unknown;
}

/**
 * A generated writer: the ProtoJSON text of a response message (REQUIRED zero values filled); `registry` resolves `Any`.
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export type JsonTextWriter = (message: object, registry?: Registry) => string;

/**
 * typeName → the generated writer of that response type, for the servers (`responseWriters`).
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export type JsonTextWriterTable = Readonly<Record<string, JsonTextWriter>>;

/**
 * What a writer throws when the reflective path must decide: not an Error, no stack to capture.
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export const JSON_WRITE_BAIL: unique symbol = Symbol("json-write-bail");

/**
 * Leaves the message to the reflective path (throws `JSON_WRITE_BAIL`).
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export function bailJsonWrite(): never {
  throw JSON_WRITE_BAIL;
}

/**
 * A `string` field.
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export function writeJsonString(value: unknown): string {
  return typeof value === "string" ? jsonStringText(value) : bailJsonWrite();
}

/** Longest string {@link jsonStringText} scans itself; past it JSON.stringify's native scan is the faster one. */
const PLAIN_SCAN_MAX = 128;

/**
 * A string as JSON text, as JSON.stringify writes it. Ids, enum names and short texts are printable
 * ASCII with no `"` or `\`: those are only quoted (about half the time of a JSON.stringify call per string).
 */
function jsonStringText(value: string): string {
  if (value.length > PLAIN_SCAN_MAX) return JSON.stringify(value);
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return JSON.stringify(value);
  }
  return `"${value}"`;
}

/**
 * A `bool` field.
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export function writeJsonBool(value: unknown): string {
  return value === true ? "true" : value === false ? "false" : bailJsonWrite();
}

/**
 * An `int32`, `uint32`, `sint32`, `fixed32` or `sfixed32` field (a non-finite number is `null`, as JSON.stringify writes it).
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export function writeJsonInt32(value: unknown): string {
  if (typeof value !== "number") return bailJsonWrite();
  return Number.isFinite(value) ? `${value}` : "null";
}

/**
 * A `double` or `float` field: NaN and the infinities as their ProtoJSON strings.
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export function writeJsonDouble(value: unknown): string {
  if (typeof value !== "number") return bailJsonWrite();
  if (Number.isFinite(value)) return `${value}`;
  return Number.isNaN(value) ? '"NaN"' : value > 0 ? '"Infinity"' : '"-Infinity"';
}

/**
 * A 64-bit integer field, as a decimal string.
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export function writeJsonInt64(value: unknown): string {
  if (typeof value === "bigint" || (typeof value === "number" && Number.isInteger(value)))
    return `"${value}"`;
  return typeof value === "string" ? JSON.stringify(value) : bailJsonWrite();
}

/**
 * A `bytes` field: standard base64 with padding.
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export function writeJsonBytes(value: unknown): string {
  return value instanceof Uint8Array ? `"${base64Encode(value)}"` : bailJsonWrite();
}

/**
 * An enum field: `names` maps the known numbers to their JSON text (`'"ROLE_USER"'`); an unknown number is written as a number.
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export function writeJsonEnum(names: Readonly<Record<number, string>>, value: unknown): string {
  if (typeof value !== "number") return bailJsonWrite();
  return names[value] ?? (Number.isFinite(value) ? `${value}` : "null");
}

/**
 * A `google.protobuf.NullValue` field: always `null`.
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export function writeJsonNullValue(value: unknown): string {
  return typeof value === "number" ? "null" : bailJsonWrite();
}

const TIMESTAMP_MS_MIN = Date.parse("0001-01-01T00:00:00Z");
const TIMESTAMP_MS_MAX = Date.parse("9999-12-31T23:59:59Z");
const DURATION_SECONDS_MAX = 315576000000;

function messageOf(value: unknown, typeName: string): JsonWriteSource {
  if (
    typeof value !== "object" ||
    value === null ||
    (value as JsonWriteSource)["$typeName"] !== typeName ||
    (value as JsonWriteSource)["$unknown"] !== undefined
  )
    return bailJsonWrite();
  return value as JsonWriteSource;
}

/**
 * A `google.protobuf.Timestamp` message: RFC 3339 in UTC with 0, 3, 6 or 9 fractional digits.
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export function writeJsonTimestamp(value: unknown): string {
  const m = messageOf(value, "google.protobuf.Timestamp");
  const seconds = m["seconds"];
  const nanos = m["nanos"];
  if (
    (typeof seconds !== "bigint" && typeof seconds !== "string" && typeof seconds !== "number") ||
    typeof nanos !== "number"
  )
    return bailJsonWrite();
  const ms = Number(seconds) * 1000;
  if (!(ms >= TIMESTAMP_MS_MIN && ms <= TIMESTAMP_MS_MAX) || !(nanos >= 0 && nanos <= 999999999))
    return bailJsonWrite();
  let z = "Z";
  if (nanos > 0) {
    const digits = (nanos + 1000000000).toString().substring(1);
    if (digits.substring(3) === "000000") z = `.${digits.substring(0, 3)}Z`;
    else if (digits.substring(6) === "000") z = `.${digits.substring(0, 6)}Z`;
    else z = `.${digits}Z`;
  }
  // `.000Z` ends the ISO text of a whole second; a fractional `seconds` keeps its own milliseconds (and no z).
  const iso = isoTextOf(ms);
  return iso.endsWith(".000Z") ? `"${iso.substring(0, iso.length - 5)}${z}"` : `"${iso}"`;
}

/** The last instant {@link isoTextOf} formatted: the timestamps of one response, and of a burst of tasks, share it. */
let lastIsoMs = Number.NaN;
let lastIsoText = "";

/** `new Date(ms).toISOString()`, one Date and one toISOString per distinct instant rather than per timestamp. */
function isoTextOf(ms: number): string {
  if (ms !== lastIsoMs) {
    lastIsoText = new Date(ms).toISOString();
    lastIsoMs = ms;
  }
  return lastIsoText;
}

/**
 * A `google.protobuf.Duration` message: seconds with 0, 3, 6 or 9 fractional digits and an `s`.
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export function writeJsonDuration(value: unknown): string {
  const m = messageOf(value, "google.protobuf.Duration");
  const secondsValue = m["seconds"];
  const nanos = m["nanos"];
  if (
    (typeof secondsValue !== "bigint" &&
      typeof secondsValue !== "string" &&
      typeof secondsValue !== "number") ||
    typeof nanos !== "number"
  )
    return bailJsonWrite();
  const seconds = Number(secondsValue);
  if (
    !(seconds <= DURATION_SECONDS_MAX && seconds >= -DURATION_SECONDS_MAX) ||
    (seconds > 0 && nanos < 0) ||
    (seconds < 0 && nanos > 0)
  )
    return bailJsonWrite();
  let text = secondsValue.toString();
  if (nanos !== 0) {
    let digits = Math.abs(nanos).toString();
    digits = "0".repeat(9 - digits.length) + digits;
    if (digits.substring(3) === "000000") digits = digits.substring(0, 3);
    else if (digits.substring(6) === "000") digits = digits.substring(0, 6);
    text += `.${digits}`;
    if (nanos < 0 && seconds === 0) text = `-${text}`;
  }
  return JSON.stringify(`${text}s`);
}

/**
 * A `google.protobuf.FieldMask` message (rare in responses: by reflection).
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export function writeJsonFieldMask(value: unknown): string {
  return JSON.stringify(
    toJson(FieldMaskSchema, messageOf(value, "google.protobuf.FieldMask") as unknown as FieldMask),
  );
}

/**
 * A `google.protobuf.Any` message, by reflection with the registry (the packed type is known only at run time).
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export function writeJsonAny(value: unknown, registry: Registry | undefined): string {
  const m = messageOf(value, "google.protobuf.Any") as unknown as Any;
  return JSON.stringify(toJson(AnySchema, m, registry === undefined ? undefined : { registry }));
}

/**
 * A `google.protobuf.Struct` field outside `Value`, which protobuf-es holds as a plain JSON
 * object: every value a finite number, a string, a boolean, null, an array or an object of them.
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export function writeJsonObject(value: unknown): string {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return bailJsonWrite();
  return jsonObjectText(value as JsonObject);
}

function jsonObjectText(object: JsonObject): string {
  let s = "";
  for (const key of Object.keys(object))
    s += `,${jsonStringText(key)}:${jsonValueText(object[key])}`;
  return s === "" ? "{}" : `{${s.substring(1)}}`;
}

function jsonValueText(value: unknown): string {
  switch (typeof value) {
    case "number":
      return Number.isFinite(value) ? `${value}` : bailJsonWrite();
    case "string":
      return jsonStringText(value);
    case "boolean":
      return value ? "true" : "false";
    case "object": {
      if (value === null) return "null";
      if (!Array.isArray(value)) return jsonObjectText(value as JsonObject);
      let s = "";
      for (const item of value) s += `,${jsonValueText(item)}`;
      return s === "" ? "[]" : `[${s.substring(1)}]`;
    }
    default:
      return bailJsonWrite();
  }
}

/**
 * A `google.protobuf.Struct` message (in a `Value`, or a list or map of them read as messages).
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export function writeJsonStructMessage(value: unknown): string {
  const fields = messageOf(value, "google.protobuf.Struct")["fields"];
  if (typeof fields !== "object" || fields === null) return bailJsonWrite();
  let s = "";
  const record = fields as Readonly<Record<string, unknown>>;
  for (const key of Object.keys(record))
    s += `,${jsonStringText(key)}:${writeJsonValueMessage(record[key])}`;
  return s === "" ? "{}" : `{${s.substring(1)}}`;
}

/**
 * A `google.protobuf.Value` message: the JSON value it holds.
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export function writeJsonValueMessage(value: unknown): string {
  const kind = messageOf(value, "google.protobuf.Value")["kind"] as JsonWriteOneof | undefined;
  const v = kind?.value;
  switch (kind?.case) {
    case "nullValue":
      return "null";
    case "numberValue":
      return typeof v === "number" && Number.isFinite(v) ? `${v}` : bailJsonWrite();
    case "boolValue":
      return writeJsonBool(v);
    case "stringValue":
      return writeJsonString(v);
    case "structValue":
      return writeJsonStructMessage(v);
    case "listValue":
      return writeJsonListValueMessage(v);
    default:
      return bailJsonWrite();
  }
}

/**
 * A `google.protobuf.ListValue` message: a JSON array.
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export function writeJsonListValueMessage(value: unknown): string {
  const values = messageOf(value, "google.protobuf.ListValue")["values"];
  if (!Array.isArray(values)) return bailJsonWrite();
  let s = "";
  for (const item of values) s += `,${writeJsonValueMessage(item)}`;
  return s === "" ? "[]" : `[${s.substring(1)}]`;
}

/**
 * A wrapper message (`google.protobuf.StringValue`, …) read as a message (in a list, a map or
 * a oneof): its `value`, or the zero value when unset, written by `write`.
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export function writeJsonWrapper(
  value: unknown,
  typeName: string,
  write: (v: unknown) => string,
  zero: unknown,
): string {
  const v = messageOf(value, typeName)["value"];
  return write(v === undefined ? zero : v);
}
