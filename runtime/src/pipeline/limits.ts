// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Request limits every binding applies (issue #17; spec §13: "Agents SHOULD implement appropriate
 * limits on message sizes, file sizes, and request complexity"): the nesting depth of a JSON body,
 * the parts of a message and the size of metadata (`google.protobuf.Struct` fields). The body size
 * is the HTTP servers' `maxBodyBytes`, gRPC's `readMaxBytes`.
 *
 * Checked on the decoded protobuf-es message (whatever wire format it came in), so that JSON-RPC,
 * HTTP+JSON and gRPC refuse the same requests with InvalidParams naming the field. The walk is
 * planned once per request type: only the fields that can lead to a `parts` list or a Struct are
 * visited (for a GetTaskRequest: none).
 */
import type { DescField, DescMessage, JsonValue } from "@bufbuild/protobuf";
import type { FieldViolation } from "../errors/a2a-error.js";

/**
 * Default of `maxJsonDepth`: 64 levels. A2A's own request structure takes at most 7 (JSON-RPC
 * envelope → params → message → parts[] → part → metadata → value), which leaves more than 50 levels for
 * metadata and data values. The bound is a little above what gRPC lets through: protobuf's
 * customary recursion limit is 100 message levels, and a Struct spends two (Struct → Value) per JSON
 * level, about 50 JSON levels. Deeper JSON is refused before it is parsed (a byte scan), so that
 * no decoder recurses through it.
 */
export const DEFAULT_MAX_JSON_DEPTH = 64;

/** Default of `maxPartsPerMessage`: 1,000 parts. */
export const DEFAULT_MAX_PARTS_PER_MESSAGE = 1000;

/** Default of `maxMetadataBytes`: 64 KiB of JSON text per `metadata` (Struct) field. */
export const DEFAULT_MAX_METADATA_BYTES = 64 * 1024;

/** The request limits of a server (see ServerOptions). */
export interface RequestLimitOptions {
  /**
   * Deepest nesting of `{`/`[` a JSON request body may have (the whole body, envelope included), and
   * of a Struct value on gRPC. A deeper body is refused before it is parsed: JSON-RPC -32600, HTTP+JSON
   * 400 INVALID_REQUEST, gRPC INVALID_ARGUMENT (INVALID_PARAMS). Default {@link DEFAULT_MAX_JSON_DEPTH} (64).
   */
  readonly maxJsonDepth?: number | undefined;
  /** Most parts one message (`message.parts`) may have: more is InvalidParams naming the field. Default {@link DEFAULT_MAX_PARTS_PER_MESSAGE} (1,000). */
  readonly maxPartsPerMessage?: number | undefined;
  /**
   * Largest `metadata` (any `google.protobuf.Struct` field of a request: the request's, the message's,
   * a part's) in bytes of its JSON text (strings counted in UTF-16 units): more is InvalidParams naming
   * the field. Default {@link DEFAULT_MAX_METADATA_BYTES} (64 KiB).
   */
  readonly maxMetadataBytes?: number | undefined;
}

/** Resolved request limits. */
export interface RequestLimits {
  readonly maxJsonDepth: number;
  readonly maxPartsPerMessage: number;
  readonly maxMetadataBytes: number;
}

/** The defaults. */
export const DEFAULT_REQUEST_LIMITS: RequestLimits = {
  maxJsonDepth: DEFAULT_MAX_JSON_DEPTH,
  maxPartsPerMessage: DEFAULT_MAX_PARTS_PER_MESSAGE,
  maxMetadataBytes: DEFAULT_MAX_METADATA_BYTES,
};

/** Applies the defaults; throws RangeError for a limit that is not a positive integer (or Infinity). */
export function resolveRequestLimits(options: RequestLimitOptions | undefined): RequestLimits {
  if (
    options?.maxJsonDepth === undefined &&
    options?.maxPartsPerMessage === undefined &&
    options?.maxMetadataBytes === undefined
  )
    return DEFAULT_REQUEST_LIMITS;
  return {
    maxJsonDepth: checked("maxJsonDepth", options.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH),
    maxPartsPerMessage: checked(
      "maxPartsPerMessage",
      options.maxPartsPerMessage ?? DEFAULT_MAX_PARTS_PER_MESSAGE,
    ),
    maxMetadataBytes: checked(
      "maxMetadataBytes",
      options.maxMetadataBytes ?? DEFAULT_MAX_METADATA_BYTES,
    ),
  };
}

function checked(name: string, value: number): number {
  if (value === Number.POSITIVE_INFINITY || (Number.isInteger(value) && value > 0)) return value;
  throw new RangeError(`${name} must be a positive integer or Infinity, got ${value}`);
}

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * True when the JSON text nests `{`/`[` deeper than `max`, outside strings. One scan of the text the
 * parser is about to read, no parse, no allocation; strings are skipped with the native `indexOf` of
 * their closing quote (measured: a fifth to a quarter of JSON.parse's time on the same text, see
 * the limits report). Malformed JSON is not judged (the parser does that); a text no longer than
 * `max` cannot be too deep and is not scanned.
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export function jsonDepthExceeds(text: string, max: number): boolean {
  const n = text.length;
  if (n <= max) return false;
  let depth = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = stringEnd(text, i);
      if (i < 0) return false;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > max) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}

/** The index of the quote that closes the string opened at `open` (the first one after an even run of backslashes), or -1. */
function stringEnd(text: string, open: number): number {
  let from = open + 1;
  for (;;) {
    const q = text.indexOf('"', from);
    if (q < 0) return -1;
    let slashes = 0;
    for (let j = q - 1; j > open && text.charCodeAt(j) === BACKSLASH; j--) slashes++;
    if ((slashes & 1) === 0) return q;
    from = q + 1;
  }
}

/**
 * A request the agent refuses: the field, what is wrong, and which limit (`limit` undefined: not a
 * limit but a value with no JSON form, a non-finite number in a `google.protobuf.Value`).
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export interface LimitViolation extends FieldViolation {
  /** The option name of the limit ("maxPartsPerMessage"); undefined for a value that cannot be stored (NaN, ±Infinity). */
  readonly limit: keyof RequestLimits | undefined;
  /** The limit's value (0 when `limit` is undefined). */
  readonly maximum: number;
}

/** How one field of a request type is checked. */
interface PlannedField {
  readonly field: DescField;
  /** "struct": a singular Struct field (a JsonObject); "value": a Value, ListValue or repeated/map Struct (messages). */
  readonly check: "parts" | "struct" | "value" | "message" | "list" | "map";
  /** The message type to walk into (message, list and map checks). */
  readonly nested: DescMessage | undefined;
}

const STRUCT = "google.protobuf.Struct";
/** The JSON types of google/protobuf/struct.proto: every number in them must be finite (JSON has no NaN or Infinity). */
const JSON_TYPES: ReadonlySet<string> = new Set([
  STRUCT,
  "google.protobuf.Value",
  "google.protobuf.ListValue",
]);
const plans = new WeakMap<DescMessage, readonly PlannedField[]>();

/** The fields of `desc` that lead to a `parts` list or a Struct (computed once per type). */
function planOf(desc: DescMessage, visiting?: Set<DescMessage>): readonly PlannedField[] {
  const known = plans.get(desc);
  if (known !== undefined) return known;
  // Made only when a plan is built (once per type), not on every lookup (a Set per message checked).
  visiting ??= new Set();
  visiting.add(desc);
  const out: PlannedField[] = [];
  for (const field of desc.fields) {
    if (field.fieldKind === "list" && field.listKind === "message" && field.name === "parts") {
      out.push({ field, check: "parts", nested: field.message });
      continue;
    }
    const nested =
      field.fieldKind === "message"
        ? field.message
        : field.fieldKind === "list" && field.listKind === "message"
          ? field.message
          : field.fieldKind === "map" && field.mapKind === "message"
            ? field.message
            : undefined;
    if (nested === undefined) continue;
    if (field.fieldKind === "message" && nested.typeName === STRUCT) {
      out.push({ field, check: "struct", nested: undefined });
      continue;
    }
    if (JSON_TYPES.has(nested.typeName)) {
      out.push({ field, check: "value", nested: undefined });
      continue;
    }
    if (nested.typeName.startsWith("google.protobuf.")) continue;
    // A recursive type being planned: walk into it (its plan is known by the time a message is checked).
    const relevant = visiting.has(nested) || planOf(nested, visiting).length > 0;
    if (relevant)
      out.push({
        field,
        check:
          field.fieldKind === "message" ? "message" : field.fieldKind === "list" ? "list" : "map",
        nested,
      });
  }
  visiting.delete(desc);
  plans.set(desc, out);
  return out;
}

const MAX_WALK_DEPTH = 32;

/**
 * The first limit `message` (of type `desc`) breaks, or undefined: a `parts` list longer than
 * `maxPartsPerMessage`, a Struct larger than `maxMetadataBytes` or deeper than `maxJsonDepth`, a
 * Value (`Part.data`) deeper than `maxJsonDepth`; and, whatever the limits, a NaN or ±Infinity in
 * a Struct, Value or ListValue (`limit` undefined): JSON cannot express it, so a task holding one
 * could never be answered on the JSON bindings. JSON text cannot carry one either, but `1e400`
 * parses as Infinity, and protobuf binary carries any double.
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export function findLimitViolation(
  limits: RequestLimits,
  desc: DescMessage,
  message: object,
): LimitViolation | undefined {
  return walk(limits, desc, message, "", 0);
}

function walk(
  limits: RequestLimits,
  desc: DescMessage,
  message: object,
  prefix: string,
  depth: number,
): LimitViolation | undefined {
  const plan = planOf(desc);
  if (plan.length === 0 || depth > MAX_WALK_DEPTH) return undefined;
  const record = message as Record<string, unknown>;
  for (const { field, check, nested } of plan) {
    let value: unknown;
    if (field.oneof === undefined) value = record[field.localName];
    else {
      const o = record[field.oneof.localName] as { case?: string; value?: unknown } | undefined;
      value = o?.case === field.localName ? o.value : undefined;
    }
    if (value === undefined || value === null) continue;
    const path = prefix === "" ? field.jsonName : `${prefix}.${field.jsonName}`;
    switch (check) {
      case "parts": {
        const list = value as readonly object[];
        if (list.length > limits.maxPartsPerMessage) {
          return {
            field: path,
            description: `${path} has ${list.length} parts; at most ${limits.maxPartsPerMessage} are accepted`,
            limit: "maxPartsPerMessage",
            maximum: limits.maxPartsPerMessage,
          };
        }
        for (let i = 0; i < list.length; i++) {
          const found = walk(limits, nested!, list[i]!, `${path}[${i}]`, depth + 1);
          if (found !== undefined) return found;
        }
        break;
      }
      case "struct": {
        const found = structViolation(limits, value as JsonValue, path);
        if (found !== undefined) return found;
        break;
      }
      case "value": {
        const entries: [string, unknown][] =
          field.fieldKind === "list"
            ? (value as unknown[]).map((v, i) => [`${path}[${i}]`, v])
            : field.fieldKind === "map"
              ? Object.entries(value as object).map(([k, v]) => [
                  `${path}[${JSON.stringify(k)}]`,
                  v,
                ])
              : [[path, value]];
        for (const [at, item] of entries) {
          const found = valueMessageViolation(limits, item, at, 1);
          if (found !== undefined) return found;
        }
        break;
      }
      case "message": {
        const found = walk(limits, nested!, value as object, path, depth + 1);
        if (found !== undefined) return found;
        break;
      }
      case "list": {
        const list = value as readonly object[];
        for (let i = 0; i < list.length; i++) {
          const found = walk(limits, nested!, list[i]!, `${path}[${i}]`, depth + 1);
          if (found !== undefined) return found;
        }
        break;
      }
      case "map": {
        for (const [k, v] of Object.entries(value as Record<string, object>)) {
          const found = walk(limits, nested!, v, `${path}[${JSON.stringify(k)}]`, depth + 1);
          if (found !== undefined) return found;
        }
        break;
      }
    }
  }
  return undefined;
}

const TOO_DEEP = -1;
const NOT_FINITE = -2;

function tooDeep(limits: RequestLimits, path: string): LimitViolation {
  return {
    field: path,
    description: `${path} nests deeper than ${limits.maxJsonDepth} levels`,
    limit: "maxJsonDepth",
    maximum: limits.maxJsonDepth,
  };
}

function notFinite(path: string): LimitViolation {
  return {
    field: path,
    description: `${path} holds a number that is not finite (NaN or ±Infinity has no JSON form)`,
    limit: undefined,
    maximum: 0,
  };
}

function structViolation(
  limits: RequestLimits,
  value: JsonValue,
  path: string,
): LimitViolation | undefined {
  const size = jsonSize(value, limits.maxMetadataBytes, 1, limits.maxJsonDepth);
  if (size === TOO_DEEP) return tooDeep(limits, path);
  if (size === NOT_FINITE) return notFinite(nonFinitePath(value, path));
  if (size > limits.maxMetadataBytes) {
    return {
      field: path,
      description: `${path} is larger than ${limits.maxMetadataBytes} bytes of JSON`,
      limit: "maxMetadataBytes",
      maximum: limits.maxMetadataBytes,
    };
  }
  return undefined;
}

/** `path` extended by a JSON key: `.key` for an identifier, `["key"]` otherwise. */
function keyPath(path: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

/** The path of the first non-finite number in a JSON value known to hold one. */
function nonFinitePath(value: JsonValue, path: string): string {
  if (typeof value === "number") return path;
  if (typeof value !== "object" || value === null) return path;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++)
      if (holdsNonFinite(value[i]!)) return nonFinitePath(value[i]!, `${path}[${i}]`);
    return path;
  }
  for (const key in value) {
    const item = (value as Record<string, JsonValue>)[key]!;
    if (holdsNonFinite(item)) return nonFinitePath(item, keyPath(path, key));
  }
  return path;
}

function holdsNonFinite(value: JsonValue): boolean {
  if (typeof value === "number") return !Number.isFinite(value);
  if (typeof value !== "object" || value === null) return false;
  if (Array.isArray(value)) return value.some(holdsNonFinite);
  for (const key in value)
    if (holdsNonFinite((value as Record<string, JsonValue>)[key]!)) return true;
  return false;
}

/** A protobuf-es Value, ListValue or Struct message (Part.data, repeated Structs). */
interface JsonTypeMessage {
  readonly $typeName?: string;
  readonly kind?: { readonly case?: string; readonly value?: unknown };
  readonly fields?: Readonly<Record<string, unknown>>;
  readonly values?: readonly unknown[];
}

/** A non-finite number or a nesting deeper than `maxJsonDepth` in a Value/ListValue/Struct message. */
function valueMessageViolation(
  limits: RequestLimits,
  value: unknown,
  path: string,
  depth: number,
): LimitViolation | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const m = value as JsonTypeMessage;
  switch (m.$typeName) {
    case "google.protobuf.Value": {
      const kind = m.kind;
      if (kind?.case === "numberValue")
        return Number.isFinite(kind.value) ? undefined : notFinite(path);
      if (kind?.case === "structValue" || kind?.case === "listValue")
        return valueMessageViolation(limits, kind.value, path, depth);
      return undefined;
    }
    case STRUCT: {
      if (depth > limits.maxJsonDepth) return tooDeep(limits, path);
      for (const key in m.fields) {
        const found = valueMessageViolation(limits, m.fields[key], keyPath(path, key), depth + 1);
        if (found !== undefined) return found;
      }
      return undefined;
    }
    case "google.protobuf.ListValue": {
      if (depth > limits.maxJsonDepth) return tooDeep(limits, path);
      const values = m.values ?? [];
      for (let i = 0; i < values.length; i++) {
        const found = valueMessageViolation(limits, values[i], `${path}[${i}]`, depth + 1);
        if (found !== undefined) return found;
      }
      return undefined;
    }
  }
  // A JsonObject (a Struct unboxed by protobuf-es): the JSON walk.
  const size = jsonSize(value as JsonValue, Number.POSITIVE_INFINITY, depth, limits.maxJsonDepth);
  if (size === TOO_DEEP) return tooDeep(limits, path);
  if (size === NOT_FINITE) return notFinite(nonFinitePath(value as JsonValue, path));
  return undefined;
}

/**
 * The length of `value`'s JSON text (strings in UTF-16 units, without escapes), stopping as soon as it
 * passes `budget` (returns a number > budget), TOO_DEEP when it nests deeper than `maxDepth`, or
 * NOT_FINITE at a NaN or ±Infinity.
 */
function jsonSize(value: JsonValue, budget: number, depth: number, maxDepth: number): number {
  if (value === null) return 4;
  switch (typeof value) {
    case "string":
      return value.length + 2;
    case "number":
      return Number.isFinite(value) ? String(value).length : NOT_FINITE;
    case "boolean":
      return value ? 4 : 5;
  }
  if (depth > maxDepth) return TOO_DEEP;
  let size = 2;
  if (Array.isArray(value)) {
    for (const item of value) {
      const s = jsonSize(item, budget - size, depth + 1, maxDepth);
      if (s < 0) return s;
      size += s + 1;
      if (size > budget) return size;
    }
    return size;
  }
  for (const key in value) {
    const s = jsonSize(
      (value as Record<string, JsonValue>)[key]!,
      budget - size,
      depth + 1,
      maxDepth,
    );
    if (s < 0) return s;
    size += key.length + 4 + s;
    if (size > budget) return size;
  }
  return size;
}
