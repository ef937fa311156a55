// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Internal helpers of the 0.3 ⇄ 1.0 translators: typed reads of untrusted JSON that throw
 * {@link V03TranslationError} (never a raw TypeError), deep copies, and the canonical forms of timestamps and bytes.
 * Not part of the public entry point.
 */
import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import { V03TranslationError } from "./translation-error.js";

/** A mutable JSON object under construction. */
export type Out = { [key: string]: JsonValue };

/** True for a plain JSON object (not null, not an array). */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `path.key`, or `key` at the root. */
export function join(path: string, key: string): string {
  return path === "" ? key : `${path}.${key}`;
}

/** Names a value's JSON type for error messages. */
function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}

/** The value as a JSON object; throws when it is anything else. */
export function asObject(value: unknown, path: string): JsonObject {
  if (!isObject(value))
    throw new V03TranslationError(path, `must be an object, got ${typeName(value)}`);
  return value;
}

/** Reads `key`; `null` and `undefined` both read as absent. */
function get(obj: JsonObject, key: string): JsonValue | undefined {
  const v = Object.hasOwn(obj, key) ? obj[key] : undefined;
  return v === null ? undefined : v;
}

/** An optional string field; "" reads as "" (callers decide whether "" means absent). */
export function optString(obj: JsonObject, key: string, path: string): string | undefined {
  const v = get(obj, key);
  if (v === undefined) return undefined;
  if (typeof v !== "string")
    throw new V03TranslationError(join(path, key), `must be a string, got ${typeName(v)}`);
  return v;
}

/** An optional string field, with "" read as absent (ProtoJSON writes no empty strings). */
export function optNonEmptyString(obj: JsonObject, key: string, path: string): string | undefined {
  const v = optString(obj, key, path);
  return v === "" ? undefined : v;
}

/** A required string field; `allowEmpty` false rejects "". */
export function reqString(obj: JsonObject, key: string, path: string, allowEmpty = false): string {
  const v = optString(obj, key, path);
  if (v === undefined) throw new V03TranslationError(join(path, key), "is required");
  if (v === "" && !allowEmpty) throw new V03TranslationError(join(path, key), "must not be empty");
  return v;
}

/** An optional boolean field. */
export function optBool(obj: JsonObject, key: string, path: string): boolean | undefined {
  const v = get(obj, key);
  if (v === undefined) return undefined;
  if (typeof v !== "boolean")
    throw new V03TranslationError(join(path, key), `must be a boolean, got ${typeName(v)}`);
  return v;
}

/**
 * An optional int32 field. ProtoJSON may write integers as strings (`"10"`), so decimal strings are accepted too.
 */
export function optInt(obj: JsonObject, key: string, path: string): number | undefined {
  const v = get(obj, key);
  if (v === undefined) return undefined;
  const n = typeof v === "string" && /^-?\d+$/.test(v) ? Number(v) : v;
  if (typeof n !== "number" || !Number.isInteger(n) || n < -2147483648 || n > 2147483647) {
    throw new V03TranslationError(join(path, key), "must be a 32-bit integer");
  }
  return n;
}

/** An optional array field. */
export function optArray(obj: JsonObject, key: string, path: string): JsonValue[] | undefined {
  const v = get(obj, key);
  if (v === undefined) return undefined;
  if (!Array.isArray(v))
    throw new V03TranslationError(join(path, key), `must be an array, got ${typeName(v)}`);
  return v;
}

/** A required array field. */
export function reqArray(obj: JsonObject, key: string, path: string): JsonValue[] {
  const v = optArray(obj, key, path);
  if (v === undefined) throw new V03TranslationError(join(path, key), "is required");
  return v;
}

/** An optional array of strings, copied; `undefined` when absent. */
export function optStringArray(obj: JsonObject, key: string, path: string): string[] | undefined {
  const arr = optArray(obj, key, path);
  if (arr === undefined) return undefined;
  return arr.map((item, i) => {
    if (typeof item !== "string")
      throw new V03TranslationError(`${join(path, key)}[${i}]`, "must be a string");
    return item;
  });
}

/** An optional object field (not copied). */
export function optObject(obj: JsonObject, key: string, path: string): JsonObject | undefined {
  const v = get(obj, key);
  if (v === undefined) return undefined;
  return asObject(v, join(path, key));
}

/** A required object field (not copied). */
export function reqObject(obj: JsonObject, key: string, path: string): JsonObject {
  const v = get(obj, key);
  if (v === undefined) throw new V03TranslationError(join(path, key), "is required");
  return asObject(v, join(path, key));
}

/** A deep copy of a JSON value; throws on anything JSON cannot hold (undefined, functions, non-finite numbers). */
export function cloneJson(value: unknown, path: string): JsonValue {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new V03TranslationError(path, "must be a finite number");
    return value;
  }
  if (Array.isArray(value)) return value.map((item, i) => cloneJson(item, `${path}[${i}]`));
  if (isObject(value)) {
    const out: Out = {};
    for (const [k, v] of Object.entries(value)) {
      // defineProperty, not assignment: a "__proto__" key must stay a plain key, not replace the prototype.
      Object.defineProperty(out, k, {
        value: cloneJson(v, join(path, k)),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  throw new V03TranslationError(path, `must be JSON, got ${typeName(value)}`);
}

/** An optional `google.protobuf.Struct` / 0.3 `metadata` object, deep-copied. */
export function optStruct(obj: JsonObject, key: string, path: string): JsonObject | undefined {
  const v = optObject(obj, key, path);
  return v === undefined ? undefined : (cloneJson(v, join(path, key)) as JsonObject);
}

/** Sets `out[key]` unless `value` is undefined. */
export function put(out: Out, key: string, value: JsonValue | undefined): void {
  if (value !== undefined) out[key] = value;
}

/** Sets `out[key]` unless `value` is undefined or empty (string or array). */
export function putNonEmpty(
  out: Out,
  key: string,
  value: string | readonly JsonValue[] | undefined,
): void {
  if (value === undefined || value.length === 0) return;
  out[key] = typeof value === "string" ? value : [...value];
}

/** Maps an optional array of objects with `fn(item, itemPath)`. */
export function mapArray<T>(
  obj: JsonObject,
  key: string,
  path: string,
  fn: (item: JsonValue, itemPath: string) => T,
): T[] | undefined {
  return optArray(obj, key, path)?.map((item, i) => fn(item, `${join(path, key)}[${i}]`));
}

const TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):?(\d{2}))?$/;

/**
 * The canonical ProtoJSON form of an RFC 3339 / ISO 8601 timestamp: UTC, `Z`, and 0, 3, 6 or 9 fractional
 * digits (what protobuf-es `toJson` writes). A timestamp without an offset (Python's naive `isoformat()`) is read as
 * UTC. Throws on anything else or on a date outside 0001-01-01…9999-12-31.
 */
export function canonicalTimestamp(value: string, path: string): string {
  const m = TIMESTAMP.exec(value);
  if (m === null)
    throw new V03TranslationError(
      path,
      `must be an RFC 3339 timestamp, got ${JSON.stringify(value)}`,
    );
  const [y, mo, d, h, mi, s] = [m[1], m[2], m[3], m[4], m[5], m[6]].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  date.setUTCHours(h, mi, s, 0);
  if (
    date.getUTCFullYear() !== y ||
    date.getUTCMonth() !== mo - 1 ||
    date.getUTCDate() !== d ||
    h > 23 ||
    mi > 59 ||
    s > 59
  ) {
    throw new V03TranslationError(path, `is not a valid date and time: ${JSON.stringify(value)}`);
  }
  if (m[9] !== undefined) {
    const offset = (Number(m[10]) * 60 + Number(m[11])) * (m[9] === "-" ? -1 : 1);
    date.setTime(date.getTime() - offset * 60_000);
  }
  const year = date.getUTCFullYear();
  if (year < 1 || year > 9999)
    throw new V03TranslationError(path, "is outside 0001-01-01…9999-12-31");
  const nanos = Number((m[7] ?? "").padEnd(9, "0"));
  let frac = "";
  if (nanos !== 0) {
    const digits = String(nanos).padStart(9, "0");
    frac =
      nanos % 1_000_000 === 0
        ? digits.slice(0, 3)
        : nanos % 1000 === 0
          ? digits.slice(0, 6)
          : digits;
    frac = `.${frac}`;
  }
  const iso = date.toISOString(); // yyyy-mm-ddThh:mm:ss.sssZ for years 0001…9999
  return `${iso.slice(0, 19)}${frac}Z`;
}

/** An optional timestamp field in canonical form (see {@link canonicalTimestamp}). */
export function optTimestamp(obj: JsonObject, key: string, path: string): string | undefined {
  const v = optNonEmptyString(obj, key, path);
  return v === undefined ? undefined : canonicalTimestamp(v, join(path, key));
}

const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/** A base64 string (standard or URL-safe alphabet, padding optional), checked and passed through unchanged. */
export function checkBase64(value: string, path: string): string {
  if (!BASE64.test(value) || value.replace(/=+$/, "").length % 4 === 1) {
    throw new V03TranslationError(path, "must be base64");
  }
  return value;
}

/** Sets an arbitrary (user-chosen) key, even `"__proto__"`, as a plain own property. */
export function setKey(out: Out, key: string, value: JsonValue): void {
  Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
}
