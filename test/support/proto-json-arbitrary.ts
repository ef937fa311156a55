/**
 * fast-check arbitraries of ProtoJSON payloads, driven by protobuf-es descriptors (not by the
 * JSON Schemas under test): `validJson(desc)` builds payloads meant to be valid (REQUIRED fields
 * set, spec ranges kept, one arm of each exactly-one oneof), and `mutation(...)` breaks or bends
 * one place of a payload in one of the ways clients get ProtoJSON wrong, or in a way ProtoJSON
 * allows. The agreement test compares the schema's verdict with the server's on both.
 */
import {
  ScalarType,
  type DescField,
  type DescMessage,
  type JsonObject,
  type JsonValue,
} from "@bufbuild/protobuf";
import fc from "fast-check";
import { fieldConstraint } from "../../plugin/src/model/field-constraints.js";
import { exactlyOneRule } from "../../plugin/src/model/oneof-rules.js";
import { requiredRule } from "../../plugin/src/model/required-fields.js";

const MAX_DEPTH = 4;

const text = (min: number) => fc.string({ minLength: min, maxLength: 6 });
const base64 = fc.uint8Array({ maxLength: 9 }).map((b) => Buffer.from(b).toString("base64"));
const timestamp = fc
  .date({
    min: new Date("1970-01-01T00:00:00Z"),
    max: new Date("2100-01-01T00:00:00Z"),
    noInvalidDate: true,
  })
  .map((d) => d.toISOString());
const anyJson: fc.Arbitrary<JsonValue> = fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<JsonValue>;
const struct = fc.dictionary(fc.string({ maxLength: 4 }), anyJson, {
  maxKeys: 3,
}) as fc.Arbitrary<JsonObject>;

function scalar(field: DescField, type: ScalarType, required: boolean): fc.Arbitrary<JsonValue> {
  switch (type) {
    case ScalarType.STRING:
      return text(required ? 1 : 0);
    case ScalarType.BYTES:
      return required
        ? fc
            .uint8Array({ minLength: 1, maxLength: 9 })
            .map((b) => Buffer.from(b).toString("base64"))
        : base64;
    case ScalarType.BOOL:
      return required ? fc.constant(true) : fc.boolean();
    case ScalarType.DOUBLE:
    case ScalarType.FLOAT:
      return fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 });
    default: {
      const range = fieldConstraint(field);
      const min = range?.min ?? -1000;
      const max = range?.max ?? 1000;
      const n = fc.integer({ min: required && min <= 0 ? 1 : min, max });
      const unsigned =
        type === ScalarType.UINT32 ||
        type === ScalarType.FIXED32 ||
        type === ScalarType.UINT64 ||
        type === ScalarType.FIXED64;
      const value = unsigned ? n.map(Math.abs) : n;
      const is64 =
        type === ScalarType.INT64 ||
        type === ScalarType.UINT64 ||
        type === ScalarType.SINT64 ||
        type === ScalarType.FIXED64 ||
        type === ScalarType.SFIXED64;
      return is64 ? value.map(String) : value;
    }
  }
}

function wellKnown(typeName: string): fc.Arbitrary<JsonValue> | undefined {
  switch (typeName) {
    case "google.protobuf.Timestamp":
      return timestamp;
    case "google.protobuf.Struct":
      return struct;
    case "google.protobuf.Value":
      return anyJson;
    case "google.protobuf.ListValue":
      return fc.array(anyJson, { maxLength: 3 });
    case "google.protobuf.Empty":
      return fc.constant({});
    default:
      return undefined;
  }
}

function enumValue(
  field: DescField & { fieldKind: "enum" | "list" | "map" },
  required: boolean,
): fc.Arbitrary<JsonValue> {
  const e = field.enum!;
  const names = e.values.filter((v) => !required || v.number !== 0).map((v) => v.name);
  return fc.constantFrom(...names);
}

/** A list element or map value of `field`. */
function element(
  field: DescField & { fieldKind: "list" | "map" },
  kind: "scalar" | "enum" | "message",
  depth: number,
): fc.Arbitrary<JsonValue> {
  if (kind === "scalar") return scalar(field, field.scalar!, false);
  if (kind === "enum") return enumValue(field, false);
  return wellKnown(field.message!.typeName) ?? validJson(field.message!, depth + 1);
}

function value(field: DescField, depth: number, required: boolean): fc.Arbitrary<JsonValue> {
  switch (field.fieldKind) {
    case "scalar":
      return scalar(field, field.scalar, required);
    case "enum":
      return enumValue(field, required);
    case "message":
      return wellKnown(field.message.typeName) ?? validJson(field.message, depth + 1);
    case "list":
      return fc.array(element(field, field.listKind, depth), {
        minLength: required ? 1 : 0,
        maxLength: depth >= MAX_DEPTH ? 1 : 2,
      });
    case "map":
      return fc.dictionary(
        fc.string({ minLength: 1, maxLength: 4 }),
        element(field, field.mapKind, depth),
        { minKeys: required ? 1 : 0, maxKeys: 2 },
      ) as fc.Arbitrary<JsonValue>;
  }
}

/** Payloads meant to be valid ProtoJSON of `desc`, without the fields in `skip` (proto names). */
export function validJson(
  desc: DescMessage,
  depth = 0,
  skip: ReadonlySet<string> = new Set(),
): fc.Arbitrary<JsonObject> {
  const parts: fc.Arbitrary<[string, JsonValue] | undefined>[] = [];
  for (const field of desc.fields) {
    if (field.oneof !== undefined || skip.has(field.name)) continue;
    const required = requiredRule(field) !== undefined;
    const v = value(field, depth, required && requiredRule(field) !== "present").map(
      (x): [string, JsonValue] => [field.jsonName, x],
    );
    // Deep down only what must be there, so recursive messages stay small.
    parts.push(
      required
        ? v
        : depth >= MAX_DEPTH
          ? fc.constant(undefined)
          : fc.option(v, { nil: undefined, freq: 2 }),
    );
  }
  for (const oneof of desc.oneofs) {
    const arms = oneof.fields.map((f) =>
      value(f, depth, false).map((x): [string, JsonValue] => [f.jsonName, x]),
    );
    const one = fc.oneof(...arms);
    parts.push(exactlyOneRule(oneof) !== undefined ? one : fc.option(one, { nil: undefined }));
  }
  return fc.tuple(...parts).map((entries) => {
    const out: JsonObject = {};
    for (const e of entries) if (e !== undefined) out[e[0]] = e[1];
    return out;
  });
}

/** One place in a payload: a message object and its descriptor. */
interface Site {
  readonly desc: DescMessage;
  readonly json: JsonObject;
}

function sites(desc: DescMessage, json: JsonValue, out: Site[] = []): Site[] {
  if (
    typeof json !== "object" ||
    json === null ||
    Array.isArray(json) ||
    desc.typeName.startsWith("google.protobuf.")
  )
    return out;
  out.push({ desc, json });
  for (const field of desc.fields) {
    const v = json[field.jsonName];
    if (v === undefined) continue;
    if (field.fieldKind === "message") sites(field.message, v, out);
    else if (field.fieldKind === "list" && field.listKind === "message" && Array.isArray(v))
      for (const item of v) sites(field.message, item, out);
    else if (
      field.fieldKind === "map" &&
      field.mapKind === "message" &&
      typeof v === "object" &&
      v !== null
    )
      for (const item of Object.values(v)) sites(field.message, item, out);
  }
  return out;
}

/** The kinds of change; `lenient:` ones are forms ProtoJSON readers accept and the schema, stricter, refuses. */
export type MutationKind =
  | "none"
  | "drop-required"
  | "zero-required"
  | "bad-enum-name"
  | "lowercase-enum"
  | "enum-number"
  | "second-oneof-arm"
  | "no-oneof-arm"
  | "wrong-type"
  | "out-of-range"
  | "int-as-string"
  | "int32-overflow"
  | "fraction-for-int"
  | "bad-timestamp"
  | "bad-base64"
  | "unknown-field"
  | "null-list-item"
  | "lenient:proto-name"
  | "lenient:null";

export const MUTATION_KINDS: readonly MutationKind[] = [
  "none",
  "drop-required",
  "zero-required",
  "bad-enum-name",
  "lowercase-enum",
  "enum-number",
  "second-oneof-arm",
  "no-oneof-arm",
  "wrong-type",
  "out-of-range",
  "int-as-string",
  "int32-overflow",
  "fraction-for-int",
  "bad-timestamp",
  "bad-base64",
  "unknown-field",
  "null-list-item",
  "lenient:proto-name",
  "lenient:null",
];

const isInt = (f: DescField) =>
  f.fieldKind === "scalar" &&
  f.scalar !== ScalarType.STRING &&
  f.scalar !== ScalarType.BYTES &&
  f.scalar !== ScalarType.BOOL &&
  f.scalar !== ScalarType.DOUBLE &&
  f.scalar !== ScalarType.FLOAT;
const WRONG_TYPES: readonly JsonValue[] = [42, "abc", true, [], { a: 1 }];

/**
 * Applies `kind` at the `pick`-th applicable place of `json` (a deep copy), with `salt`
 * choosing among values. Returns undefined when the payload has no place for that kind.
 */
export function mutate(
  desc: DescMessage,
  input: JsonObject,
  kind: MutationKind,
  pick: number,
  salt: number,
): JsonObject | undefined {
  const json = structuredClone(input);
  if (kind === "none") return json;
  const candidates: (() => void)[] = [];
  for (const { desc: d, json: obj } of sites(desc, json)) {
    const present = d.fields.filter((f) => obj[f.jsonName] !== undefined);
    switch (kind) {
      case "drop-required":
        for (const f of present)
          if (requiredRule(f) !== undefined) candidates.push(() => delete obj[f.jsonName]);
        break;
      case "zero-required":
        for (const f of present) {
          if (requiredRule(f) === undefined) continue;
          if (f.fieldKind === "list") candidates.push(() => (obj[f.jsonName] = []));
          else if (f.fieldKind === "scalar" && f.scalar === ScalarType.STRING)
            candidates.push(() => (obj[f.jsonName] = ""));
          else if (f.fieldKind === "enum")
            candidates.push(
              () => (obj[f.jsonName] = f.enum.values.find((v) => v.number === 0)?.name ?? 0),
            );
        }
        break;
      case "bad-enum-name":
      case "lowercase-enum":
      case "enum-number":
        for (const f of present) {
          if (f.fieldKind !== "enum") continue;
          const current = String(obj[f.jsonName]);
          if (kind === "bad-enum-name")
            candidates.push(
              () => (obj[f.jsonName] = ["completed", "user", "TASK_STATE_RUNNING", ""][salt % 4]!),
            );
          else if (kind === "lowercase-enum")
            candidates.push(() => (obj[f.jsonName] = current.toLowerCase()));
          else
            candidates.push(
              () =>
                (obj[f.jsonName] =
                  f.enum.values.find((v) => v.name === current)?.number ?? salt % 3),
            );
        }
        break;
      case "second-oneof-arm":
        for (const o of d.oneofs) {
          const set = o.fields.find((f) => obj[f.jsonName] !== undefined);
          const other = o.fields.find((f) => f !== set && f.fieldKind === "scalar");
          if (set !== undefined && other !== undefined)
            candidates.push(
              () => (obj[other.jsonName] = other.scalar === ScalarType.BYTES ? "AAEC" : "x"),
            );
        }
        break;
      case "no-oneof-arm":
        for (const o of d.oneofs) {
          const set = o.fields.find((f) => obj[f.jsonName] !== undefined);
          if (set !== undefined) candidates.push(() => delete obj[set.jsonName]);
        }
        break;
      case "wrong-type":
        for (const f of present) {
          if (f.fieldKind === "message" && f.message.typeName === "google.protobuf.Value") continue;
          const wrong = WRONG_TYPES.filter(
            (w) =>
              typeof w !== typeof obj[f.jsonName] ||
              Array.isArray(w) !== Array.isArray(obj[f.jsonName]),
          );
          // A string holding digits is a number for an int field, not a wrong type: pick something else.
          const choice = wrong[salt % wrong.length]!;
          if (isInt(f) && choice === "abc") candidates.push(() => (obj[f.jsonName] = "abc"));
          else candidates.push(() => (obj[f.jsonName] = choice));
        }
        break;
      case "out-of-range":
        for (const f of present) {
          const range = fieldConstraint(f);
          if (range === undefined) continue;
          if (range.min !== undefined)
            candidates.push(() => (obj[f.jsonName] = range.min! - 1 - (salt % 5)));
          if (range.max !== undefined)
            candidates.push(() => (obj[f.jsonName] = range.max! + 1 + (salt % 5)));
        }
        break;
      case "int-as-string":
      case "int32-overflow":
      case "fraction-for-int":
        for (const f of present) {
          if (!isInt(f)) continue;
          const v = obj[f.jsonName];
          if (kind === "int-as-string" && typeof v === "number")
            candidates.push(() => (obj[f.jsonName] = String(v)));
          if (kind === "int32-overflow")
            candidates.push(
              () => (obj[f.jsonName] = salt % 2 === 0 ? 2 ** 31 : String(2 ** 31 + salt)),
            );
          if (kind === "fraction-for-int")
            candidates.push(() => (obj[f.jsonName] = (typeof v === "number" ? v : 1) + 0.5));
        }
        break;
      case "bad-timestamp":
        for (const f of present) {
          if (f.fieldKind === "message" && f.message.typeName === "google.protobuf.Timestamp")
            candidates.push(
              () =>
                (obj[f.jsonName] = [
                  "yesterday",
                  "2024-13-01T00:00:00Z",
                  "2024-01-01 00:00:00Z",
                  "2024-01-01T00:00:00",
                ][salt % 4]!),
            );
        }
        break;
      case "bad-base64":
        for (const f of present)
          if (f.fieldKind === "scalar" && f.scalar === ScalarType.BYTES)
            candidates.push(() => (obj[f.jsonName] = ["@@@@", "A", "Zm9v!"][salt % 3]!));
        break;
      case "unknown-field":
        candidates.push(
          () => (obj[`zzUnknown${salt % 7}`] = WRONG_TYPES[salt % WRONG_TYPES.length]!),
        );
        break;
      case "null-list-item":
        for (const f of present)
          if (
            f.fieldKind === "list" &&
            Array.isArray(obj[f.jsonName]) &&
            (obj[f.jsonName] as JsonValue[]).length > 0
          )
            candidates.push(() => (obj[f.jsonName] as JsonValue[]).push(null));
        break;
      case "lenient:proto-name":
        for (const f of present) {
          if (f.name === f.jsonName) continue;
          candidates.push(() => {
            obj[f.name] = obj[f.jsonName]!;
            delete obj[f.jsonName];
          });
        }
        break;
      case "lenient:null":
        for (const f of present)
          if (
            requiredRule(f) === undefined &&
            !(f.fieldKind === "message" && f.message.typeName === "google.protobuf.Value")
          )
            candidates.push(() => (obj[f.jsonName] = null));
        break;
    }
  }
  if (candidates.length === 0) return undefined;
  candidates[pick % candidates.length]!();
  return json;
}
