/**
 * Sample messages for the proto corpus test (test/e2e/codegen/proto-corpus.test.ts): every field of a message
 * set to a value that is not its default (scalars, enums, lists of two, maps of one, the first member
 * of each oneof, well-known types with values that survive ProtoJSON, an Any packing a Timestamp),
 * to a bounded depth; and, for an HTTP+JSON route, the request that fits it (path variables filled
 * to match the route's template, the fields outside the body only as deep as a query can carry).
 */
import { create, type DescField, type DescMessage, type Message } from "@bufbuild/protobuf";
import { anyPack, isWrapperDesc, TimestampSchema } from "@bufbuild/protobuf/wkt";
import { ScalarType } from "@bufbuild/protobuf";

/** How much of a message to fill: everything, or what a query string can carry (no maps, no repeated messages, no Struct/Any). */
export type FillMode = "full" | "query";

const MAX_DEPTH = 6;

const timestamp = () => create(TimestampSchema, { seconds: 1_700_000_000n, nanos: 123_000_000 });

/** Well-known types with a JSON form of their own: a value that survives ProtoJSON (undefined: not carried in a query). */
function wellKnown(typeName: string, mode: FillMode): unknown {
  switch (typeName) {
    case "google.protobuf.Timestamp":
      return timestamp();
    case "google.protobuf.Duration":
      return { seconds: 90n, nanos: 500_000_000 };
    case "google.protobuf.FieldMask":
      return { paths: ["display_name", "labels"] };
    case "google.protobuf.DoubleValue":
      return { value: 2.5 };
    case "google.protobuf.FloatValue":
      return { value: 1.5 };
    case "google.protobuf.Int64Value":
      return { value: -7n };
    case "google.protobuf.UInt64Value":
      return { value: 8n };
    case "google.protobuf.Int32Value":
      return { value: -3 };
    case "google.protobuf.UInt32Value":
      return { value: 4 };
    case "google.protobuf.BoolValue":
      return { value: true };
    case "google.protobuf.StringValue":
      return { value: "wrapped" };
    case "google.protobuf.BytesValue":
      return { value: new Uint8Array([9, 8]) };
  }
  const full = mode === "full";
  switch (typeName) {
    case "google.protobuf.Struct":
      return full
        ? {
            fields: {
              k: { kind: { case: "stringValue", value: "v" } },
              n: { kind: { case: "numberValue", value: 1.5 } },
            },
          }
        : undefined;
    case "google.protobuf.Value":
      return full
        ? {
            kind: {
              case: "listValue",
              value: { values: [{ kind: { case: "boolValue", value: true } }] },
            },
          }
        : undefined;
    case "google.protobuf.ListValue":
      return full
        ? {
            values: [
              { kind: { case: "stringValue", value: "x" } },
              { kind: { case: "nullValue", value: 0 } },
            ],
          }
        : undefined;
    case "google.protobuf.Any":
      return full ? anyPack(TimestampSchema, timestamp()) : undefined;
    case "google.protobuf.Empty":
      return full ? {} : undefined;
  }
  return null;
}

function scalarValue(
  field: DescField & { readonly scalar: ScalarType },
  type: ScalarType,
  salt: number,
): unknown {
  const asString = "longAsString" in field && field.longAsString === true;
  switch (type) {
    case ScalarType.STRING:
      return `${field.name}-${salt}`;
    case ScalarType.BYTES:
      return new Uint8Array([salt, 2, 3]);
    case ScalarType.BOOL:
      return true;
    case ScalarType.DOUBLE:
      return 2.25 + salt;
    case ScalarType.FLOAT:
      return 1.5 + salt;
    case ScalarType.INT32:
    case ScalarType.SINT32:
    case ScalarType.SFIXED32:
      return -7 - salt;
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
      return 7 + salt;
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64:
      return asString ? String(-(2n ** 53n) - BigInt(salt)) : -(2n ** 53n) - BigInt(salt);
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      return asString ? String(2n ** 63n + BigInt(salt)) : 2n ** 63n + BigInt(salt);
  }
  return undefined;
}

function mapKey(type: ScalarType): string | number | bigint | boolean {
  switch (type) {
    case ScalarType.STRING:
      return "key";
    case ScalarType.BOOL:
      return true;
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64:
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      return "5";
    default:
      return 5;
  }
}

function enumValue(field: {
  readonly enum: { readonly values: readonly { readonly number: number }[] };
}): number {
  return (field.enum.values.find((v) => v.number !== 0) ?? field.enum.values[0])?.number ?? 0;
}

/** The init of one field's value, or undefined to leave it unset. */
function fieldValue(
  field: DescField,
  mode: FillMode,
  depth: number,
  seen: readonly string[],
): unknown {
  switch (field.fieldKind) {
    case "scalar":
      return scalarValue(field, field.scalar, depth + 1);
    case "enum":
      return enumValue(field);
    case "message": {
      const init = messageInit(field.message, mode, depth + 1, seen);
      // protobuf-es unboxes a singular wrapper field (`google.protobuf.Int32Value x` is `number | undefined`).
      return isWrapperDesc(field.message) && init !== undefined
        ? (init as { value: unknown }).value
        : init;
    }
    case "list": {
      if (field.listKind === "scalar")
        return [
          scalarValue(field as never, field.scalar, 1),
          scalarValue(field as never, field.scalar, 2),
        ];
      if (field.listKind === "enum") return [enumValue(field), 0];
      if (mode === "query") return undefined;
      const item = messageInit(field.message, mode, depth + 1, seen);
      return item === undefined ? undefined : [item, item];
    }
    case "map": {
      if (mode === "query") return undefined;
      const key = String(mapKey(field.mapKey));
      const value =
        field.mapKind === "scalar"
          ? scalarValue(field as never, field.scalar, 3)
          : field.mapKind === "enum"
            ? enumValue(field)
            : messageInit(field.message, mode, depth + 1, seen);
      return value === undefined ? undefined : { [key]: value };
    }
  }
}

/** The init of a message with every field set (first oneof members), or undefined past the depth limit or a cycle. */
export function messageInit(
  desc: DescMessage,
  mode: FillMode,
  depth = 0,
  seen: readonly string[] = [],
): unknown {
  const known = wellKnown(desc.typeName, mode);
  if (known !== null) return known;
  if (depth > MAX_DEPTH || seen.includes(desc.typeName)) return undefined;
  const path = [...seen, desc.typeName];
  const init: Record<string, unknown> = {};
  for (const member of desc.members) {
    if (member.kind === "oneof") {
      for (const field of member.fields) {
        const value = fieldValue(field, mode, depth, path);
        if (value === undefined) continue;
        init[member.localName] = { case: field.localName, value };
        break;
      }
      continue;
    }
    const value = fieldValue(member, mode, depth, path);
    if (value !== undefined) init[member.localName] = value;
  }
  return init;
}

/** A message of `desc` with every field set (see {@link messageInit}). */
export function filledMessage(desc: DescMessage, mode: FillMode = "full"): Message {
  return create(desc, (messageInit(desc, mode) ?? {}) as never) as Message;
}

/** A compiled route pattern, as the generated route tables hold it. */
export interface CorpusRoutePattern {
  readonly segments: readonly string[];
  readonly verb?: string | undefined;
  readonly variables: readonly {
    readonly field: string;
    readonly start: number;
    readonly end: number;
  }[];
}

/**
 * The value a path variable takes to match its segments (end -1: to the end): `*` → a word, `**` →
 * two segments (or none, with `shallow`), literals as they are.
 */
export function pathValue(
  pattern: CorpusRoutePattern,
  variable: CorpusRoutePattern["variables"][number],
  salt: string,
  shallow = false,
): string {
  return pattern.segments
    .slice(variable.start, variable.end < 0 ? pattern.segments.length : variable.end)
    .flatMap((segment, i) =>
      segment === "*"
        ? [`${salt}${i}`]
        : segment === "**"
          ? shallow
            ? []
            : [`${salt}${i}/deep`]
          : [segment],
    )
    .join("/");
}

/** Sets the field at `path` ("book.name", by proto field names) of `message`, creating the messages on the way. */
export function setFieldPath(
  desc: DescMessage,
  message: Message,
  path: string,
  value: string,
): void {
  const names = path.split(".");
  let d = desc;
  let m = message as unknown as Record<string, unknown>;
  names.forEach((name, i) => {
    const field = d.fields.find((f) => f.name === name);
    if (field === undefined) throw new Error(`no field ${name} in ${d.typeName}`);
    const last = i === names.length - 1;
    if (last) {
      // A variable bound to another scalar keeps the sample value (its text is one segment).
      if (field.fieldKind !== "scalar" || field.scalar !== ScalarType.STRING) return;
      if (field.oneof !== undefined) m[field.oneof.localName] = { case: field.localName, value };
      else m[field.localName] = value;
      return;
    }
    if (field.fieldKind !== "message") throw new Error(`${path}: ${name} is not a message`);
    const holder = field.oneof === undefined ? m : undefined;
    let next = holder?.[field.localName] as Record<string, unknown> | undefined;
    if (next === undefined) {
      next = create(field.message) as unknown as Record<string, unknown>;
      if (field.oneof !== undefined)
        m[field.oneof.localName] = { case: field.localName, value: next };
      else m[field.localName] = next;
    }
    d = field.message;
    m = next;
  });
}
