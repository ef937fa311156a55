// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * JSON Schema (2020-12) of the ProtoJSON form of messages and enums, as our servers read it.
 *
 * - Keys are the fields' JSON (camelCase) names (spec §5.5). A field's proto name
 *   (`context_id`) is refused through `propertyNames`: A2A JSON MUST use camelCase, while
 *   a ProtoJSON parser (ours included) also reads proto names — the schema is the stricter
 *   of the two there. Other unknown keys are allowed (§5.7: receivers ignore them).
 * - Enums: the value names, or an integer (every ProtoJSON parser, ours included, accepts
 *   numbers; senders MUST write names, §5.5). Lowercase or 0.3 names fail.
 * - 32-bit integers: a JSON integer in range, or a decimal string (ProtoJSON); 64-bit: a
 *   decimal string or an integer. Floats: a number or "NaN"/"Infinity"/"-Infinity".
 * - bytes: base64 (standard or URL-safe, padding optional); Timestamp: RFC 3339 as the
 *   server parses it (senders SHOULD use UTC `Z`, §5.6.1); Duration: "1.5s"; Struct any
 *   object, ListValue any array, Value any JSON (including null).
 * - `null` is refused everywhere but in a Value: ProtoJSON readers treat it as "not set",
 *   A2A senders omit the field instead.
 * - REQUIRED fields (`google.api.field_behavior`) are `required`, and set: a non-empty
 *   string, list or map, an enum other than its zero (§5.7), except where the spec allows
 *   the zero value (CHECKLIST K11). Spec ranges (pageSize 1–100, historyLength ≥ 0) are
 *   `minimum`/`maximum`. A oneof takes at most one member, exactly one where the spec says
 *   so (oneof-rules.ts).
 */
import {
  ScalarType,
  type DescEnum,
  type DescField,
  type DescMessage,
  type DescMethod,
  type DescService,
} from "@bufbuild/protobuf";
import { getComments } from "@bufbuild/protoplugin";
import toRegexRange from "to-regex-range";
import { fieldConstraint } from "../../model/field-constraints.js";
import { exactlyOneRule } from "../../model/oneof-rules.js";
import { requiredRule } from "../../model/required-fields.js";

/** A JSON Schema, as plain JSON data. */
export type JsonSchema = { readonly [keyword: string]: unknown };

/** How schemas refer to named definitions: `#/$defs/`, `#/components/schemas/` or a sibling file. */
export type RefStyle = (typeName: string) => string;

export const bundleRef: RefStyle = (typeName) => `#/$defs/${typeName}`;
export const componentRef: RefStyle = (typeName) => `#/components/schemas/${typeName}`;
export const fileRef: RefStyle = (typeName) => `${typeName}.schema.json`;

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
const UINT32_MAX = 2 ** 32 - 1;

/** protobuf-es's RFC 3339 grammar (what `fromJson` accepts for a Timestamp). */
const RFC3339 =
  "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,9})?(Z|[+-][0-9]{2}:[0-9]{2})$";
/** Standard or URL-safe base64, padded or not. */
const BASE64 =
  "^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}(?:==)?|[A-Za-z0-9+/]{3}=?)?$|^(?:[A-Za-z0-9_-]{4})*(?:[A-Za-z0-9_-]{2}(?:==)?|[A-Za-z0-9_-]{3}=?)?$";

const commentTexts = new WeakMap<object, string | undefined>();

/** The text of a descriptor's proto comments, for `description` (AIP-192 internal comments dropped). */
export function commentText(
  desc: DescMessage | DescEnum | DescField | DescMethod | DescService,
): string | undefined {
  // Each JSON document asks again for the same descriptors: read each one's comments once.
  if (commentTexts.has(desc)) return commentTexts.get(desc);
  const text = readCommentText(desc);
  commentTexts.set(desc, text);
  return text;
}

function readCommentText(
  desc: DescMessage | DescEnum | DescField | DescMethod | DescService,
): string | undefined {
  const c = getComments(desc).leading;
  if (c === undefined) return undefined;
  const text = c
    .replace(/\(--[\s\S]*?--\)\s*/g, "")
    .split("\n")
    .map((line) => (line.startsWith(" ") ? line.substring(1) : line))
    .join("\n")
    .trim();
  return text === "" ? undefined : text;
}

/** The named definitions a set of root messages needs: every message and enum reachable from them, well-known types excluded. */
export function reachableTypes(roots: readonly DescMessage[]): (DescMessage | DescEnum)[] {
  const out = new Map<string, DescMessage | DescEnum>();
  const visit = (d: DescMessage | DescEnum) => {
    if (out.has(d.typeName) || isWellKnownType(d.typeName)) return;
    out.set(d.typeName, d);
    if (d.kind === "enum") return;
    for (const f of d.fields) {
      const t = fieldType(f);
      if (t !== undefined) visit(t);
    }
  };
  roots.forEach(visit);
  return [...out.values()].sort((a, b) =>
    a.typeName < b.typeName ? -1 : a.typeName > b.typeName ? 1 : 0,
  );
}

function fieldType(f: DescField): DescMessage | DescEnum | undefined {
  switch (f.fieldKind) {
    case "message":
      return f.message;
    case "enum":
      return f.enum;
    case "list":
      return f.listKind === "message" ? f.message : f.listKind === "enum" ? f.enum : undefined;
    case "map":
      return f.mapKind === "message" ? f.message : f.mapKind === "enum" ? f.enum : undefined;
    default:
      return undefined;
  }
}

const isWellKnownType = (typeName: string) => typeName.startsWith("google.protobuf.");

/** Options of {@link messageSchema}. */
export interface MessageSchemaOptions {
  /**
   * Fields (proto names) another part of the request carries (HTTP path variables): left out
   * of the object and refused in it (the path's value is the field's; a body naming it again
   * is at best redundant, at worst a disagreement the server answers with 400).
   */
  readonly omit?: ReadonlySet<string>;
}

/** The schema of a message's ProtoJSON object. */
export function messageSchema(
  message: DescMessage,
  ref: RefStyle,
  options: MessageSchemaOptions = {},
): JsonSchema {
  const wkt = wellKnownSchema(message.typeName);
  if (wkt !== undefined) return wkt;
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const refused: string[] = [];
  for (const field of message.fields) {
    if (options.omit?.has(field.name) === true) {
      refused.push(...new Set([field.jsonName, field.name]));
      continue;
    }
    const rule = requiredRule(field);
    properties[field.jsonName] = fieldSchema(field, ref, rule);
    if (rule !== undefined && field.oneof === undefined) required.push(field.jsonName);
    if (field.name !== field.jsonName) refused.push(field.name);
  }
  const schema: Record<string, unknown> = { type: "object" };
  const description = commentText(message);
  if (description !== undefined) schema["description"] = description;
  schema["properties"] = properties;
  if (required.length > 0) schema["required"] = required;
  if (refused.length > 0) schema["propertyNames"] = { not: { enum: refused } };
  const oneofs = message.oneofs
    .filter((oneof) => oneof.fields.every((f) => options.omit?.has(f.name) !== true))
    .map((oneof) =>
      oneofSchema(
        oneof.fields.map((f) => f.jsonName),
        exactlyOneRule(oneof) !== undefined,
      ),
    );
  if (oneofs.length === 1) Object.assign(schema, oneofs[0]);
  else if (oneofs.length > 1) schema["allOf"] = oneofs;
  if (message.deprecated) schema["deprecated"] = true;
  return schema;
}

/**
 * "Exactly one of these keys" (`oneOf` of `required`), or "at most one" (that, or none of
 * them). Each branch names its key under `properties` too, as Ajv's strict mode wants.
 */
function oneofSchema(keys: readonly string[], exactlyOne: boolean): JsonSchema {
  const each = keys.map((k) => requiredKey(k));
  return exactlyOne ? { oneOf: each } : { oneOf: [...each, { not: { anyOf: each } }] };
}

/** The schema of an enum: its value names, or an integer (ProtoJSON readers accept both). */
export function enumSchema(desc: DescEnum): JsonSchema {
  const names = desc.values.map((v) => v.name);
  const description = commentText(desc);
  return {
    ...(description === undefined ? {} : { description }),
    anyOf: [{ type: "string", enum: names }, enumNumberSchema(desc)],
  };
}

function enumNumberSchema(desc: DescEnum, nonZero = false): JsonSchema {
  if (!desc.open) {
    const numbers = [...new Set(desc.values.map((v) => v.number))]
      .filter((n) => !nonZero || n !== 0)
      .sort((a, b) => a - b);
    return { type: "integer", enum: numbers };
  }
  const schema = { type: "integer", minimum: INT32_MIN, maximum: INT32_MAX };
  return nonZero ? { ...schema, not: { const: 0 } } : schema;
}

/** A field's value schema, with the REQUIRED rule's "set" part (non-empty, non-zero) where it has one. */
function fieldSchema(
  field: DescField,
  ref: RefStyle,
  rule: ReturnType<typeof requiredRule>,
): JsonSchema {
  const nonZero = rule === "nonzero";
  let schema: JsonSchema;
  switch (field.fieldKind) {
    case "scalar":
      schema = scalarSchema(field.scalar, { nonZero, range: fieldConstraint(field) });
      break;
    case "enum":
      schema = enumRef(field.enum, ref, nonZero);
      break;
    case "message":
      schema = messageRef(field.message, ref);
      break;
    case "list": {
      const items =
        field.listKind === "scalar"
          ? scalarSchema(field.scalar)
          : field.listKind === "enum"
            ? enumRef(field.enum, ref, false)
            : messageRef(field.message, ref);
      schema =
        rule === "nonempty" ? { type: "array", items, minItems: 1 } : { type: "array", items };
      break;
    }
    case "map": {
      const values =
        field.mapKind === "scalar"
          ? scalarSchema(field.scalar)
          : field.mapKind === "enum"
            ? enumRef(field.enum, ref, false)
            : messageRef(field.message, ref);
      schema = {
        type: "object",
        ...mapKeySchema(field.mapKey),
        additionalProperties: values,
        ...(rule === "nonempty-map" ? { minProperties: 1 } : {}),
      };
      break;
    }
  }
  return describeField(field, schema);
}

function describeField(field: DescField, schema: JsonSchema): JsonSchema {
  const description = commentText(field);
  const extra: Record<string, unknown> = {};
  if (description !== undefined) extra["description"] = description;
  if (field.deprecated) extra["deprecated"] = true;
  if (Object.keys(extra).length === 0) return schema;
  // A bare $ref gets its annotations beside it (2020-12 allows siblings of $ref).
  return { ...schema, ...extra };
}

function enumRef(desc: DescEnum, ref: RefStyle, nonZero: boolean): JsonSchema {
  if (desc.typeName === "google.protobuf.NullValue") return { type: "null" };
  if (!nonZero) return { $ref: ref(desc.typeName) };
  const zero = desc.values.find((v) => v.number === 0);
  const names = desc.values.filter((v) => v.number !== 0).map((v) => v.name);
  // A REQUIRED enum is set: not its zero value (spec §5.7), by name or number.
  return zero === undefined
    ? { $ref: ref(desc.typeName) }
    : { anyOf: [{ type: "string", enum: names }, enumNumberSchema(desc, true)] };
}

/** A reference to a message's definition, or the inline schema of a well-known type (which has no definition). */
export function messageRef(desc: DescMessage, ref: RefStyle): JsonSchema {
  return wellKnownSchema(desc.typeName) ?? { $ref: ref(desc.typeName) };
}

/** Schemas of the well-known types that have a JSON form of their own. */
function wellKnownSchema(typeName: string): JsonSchema | undefined {
  switch (typeName) {
    case "google.protobuf.Timestamp":
      return { type: "string", format: "date-time", pattern: RFC3339 };
    case "google.protobuf.Duration":
      return { type: "string", pattern: "^-?[0-9]+(\\.[0-9]{1,9})?s$" };
    case "google.protobuf.Struct":
      // additionalProperties spelled out: code generators (openapi-typescript) read a bare object as "no properties".
      return { type: "object", additionalProperties: true };
    case "google.protobuf.ListValue":
      return { type: "array" };
    case "google.protobuf.Value":
      return {};
    case "google.protobuf.Empty":
      return { type: "object" };
    case "google.protobuf.FieldMask":
      return { type: "string" };
    case "google.protobuf.Any":
      return { type: "object", properties: { "@type": { type: "string" } }, required: ["@type"] };
    case "google.protobuf.StringValue":
      return scalarSchema(ScalarType.STRING);
    case "google.protobuf.BytesValue":
      return scalarSchema(ScalarType.BYTES);
    case "google.protobuf.BoolValue":
      return scalarSchema(ScalarType.BOOL);
    case "google.protobuf.Int32Value":
      return scalarSchema(ScalarType.INT32);
    case "google.protobuf.UInt32Value":
      return scalarSchema(ScalarType.UINT32);
    case "google.protobuf.Int64Value":
      return scalarSchema(ScalarType.INT64);
    case "google.protobuf.UInt64Value":
      return scalarSchema(ScalarType.UINT64);
    case "google.protobuf.FloatValue":
      return scalarSchema(ScalarType.FLOAT);
    case "google.protobuf.DoubleValue":
      return scalarSchema(ScalarType.DOUBLE);
    default:
      return undefined;
  }
}

interface ScalarRules {
  /** REQUIRED with implicit presence: not the zero value. */
  readonly nonZero?: boolean;
  readonly range?: { readonly min?: number; readonly max?: number } | undefined;
}

/** The ProtoJSON schema of a scalar. */
export function scalarSchema(type: ScalarType, rules: ScalarRules = {}): JsonSchema {
  switch (type) {
    case ScalarType.STRING:
      return rules.nonZero === true ? { type: "string", minLength: 1 } : { type: "string" };
    case ScalarType.BYTES:
      return rules.nonZero === true
        ? { type: "string", contentEncoding: "base64", pattern: BASE64, minLength: 1 }
        : { type: "string", contentEncoding: "base64", pattern: BASE64 };
    case ScalarType.BOOL:
      return rules.nonZero === true ? { type: "boolean", const: true } : { type: "boolean" };
    case ScalarType.DOUBLE:
    case ScalarType.FLOAT: {
      const number: Record<string, unknown> = { type: "number" };
      if (rules.nonZero === true) number["not"] = { const: 0 };
      return { anyOf: [number, { type: "string", enum: ["NaN", "Infinity", "-Infinity"] }] };
    }
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64:
      return integerSchema(undefined, undefined, rules);
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      return integerSchema(0, undefined, rules);
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
      return integerSchema(0, UINT32_MAX, rules);
    default:
      return integerSchema(INT32_MIN, INT32_MAX, rules);
  }
}

/**
 * An integer (JSON number) or its decimal string, within the type's range and the spec's
 * range for the field. The string form is canonical decimal ("42", "-7"): ProtoJSON readers
 * also take "042" or "4.2e1", which the schema, stricter, refuses.
 */
function integerSchema(
  typeMin: number | undefined,
  typeMax: number | undefined,
  rules: ScalarRules,
): JsonSchema {
  const min = Math.max(
    typeMin ?? Number.NEGATIVE_INFINITY,
    rules.range?.min ?? Number.NEGATIVE_INFINITY,
  );
  const max = Math.min(
    typeMax ?? Number.POSITIVE_INFINITY,
    rules.range?.max ?? Number.POSITIVE_INFINITY,
  );
  const number: Record<string, unknown> = { type: "integer" };
  if (Number.isFinite(min)) number["minimum"] = min;
  if (Number.isFinite(max)) number["maximum"] = max;
  if (rules.nonZero === true && min <= 0 && max >= 0) number["not"] = { const: 0 };
  return {
    anyOf: [number, { type: "string", pattern: decimalPattern(min, max, rules.nonZero === true) }],
  };
}

/**
 * A regular expression for canonical decimal strings of integers in [min, max], exact
 * (to-regex-range) for finite bounds. 64-bit types have no finite bounds here: their
 * strings are limited to 19 digits, not to the exact 64-bit range.
 */
function decimalPattern(min: number, max: number, nonZero: boolean): string {
  if (Number.isFinite(min) && Number.isFinite(max)) {
    const parts: string[] = [];
    if (min < 0)
      parts.push(
        `-(?:${toRegexRange(-Math.min(max, -1), -min, { capture: false, shorthand: false })})`,
      );
    const lo = Math.max(min, nonZero ? 1 : 0);
    if (max >= lo) parts.push(toRegexRange(lo, max, { capture: false, shorthand: false }));
    return `^(?:${parts.join("|")})$`;
  }
  const digits = nonZero ? "[1-9][0-9]{0,18}" : "0|[1-9][0-9]{0,18}";
  return min >= 0 ? `^(?:${digits})$` : `^(?:${digits}|-[1-9][0-9]{0,18})$`;
}

function mapKeySchema(key: ScalarType): JsonSchema {
  switch (key) {
    case ScalarType.STRING:
      return {};
    case ScalarType.BOOL:
      return { propertyNames: { enum: ["true", "false"] } };
    default:
      return { propertyNames: { pattern: "^-?[0-9]+$" } };
  }
}

/** `{ properties: { key: true }, required: [key] }`: "has this key", in a form strict validators accept. */
export function requiredKey(key: string): JsonSchema {
  return { properties: { [key]: true }, required: [key] };
}
