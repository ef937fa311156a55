/**
 * fast-check arbitraries of protobuf-es messages (not of their JSON), driven by the descriptors:
 * every field kind with its zero value often, the values ProtoJSON writes specially (NaN, the
 * infinities, -0, 64-bit extremes, unknown enum numbers, lone surrogates, empty bytes) and
 * well-known types in and out of their JSON range (timestamps past year 9999, Value numbers
 * that are not finite, unset Values, Any of unknown types). For the writer property test:
 * both the accepted and the refused messages are what it compares.
 */
import {
  create,
  fromJson,
  ScalarType,
  type DescField,
  type DescMessage,
  type JsonValue,
  type Message,
} from "@bufbuild/protobuf";
import {
  AnySchema,
  anyPack,
  DurationSchema,
  FieldMaskSchema,
  ListValueSchema,
  TimestampSchema,
  ValueSchema,
} from "@bufbuild/protobuf/wkt";
import fc from "fast-check";

const MAX_DEPTH = 3;

const text = fc.oneof(
  fc.constant(""),
  fc.string({ maxLength: 5 }),
  fc.string({ unit: "binary", maxLength: 3 }),
);
const jsonValue = fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<JsonValue>;
/** A JSON value, now and then with a number JSON cannot hold (toJson refuses it in a Struct). */
const looseJsonValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 9, arbitrary: jsonValue },
  {
    weight: 1,
    arbitrary: fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, [1, Number.NaN], {
      a: Number.NEGATIVE_INFINITY,
    }),
  },
);
const jsonObject = fc.dictionary(fc.string({ maxLength: 4 }), looseJsonValue, { maxKeys: 3 });
const int64 = fc.oneof(
  fc.constant(0n),
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
  fc.bigInt({ min: -1000n, max: 1000n }),
);
const uint64 = fc.oneof(fc.constant(0n), fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }));
const double = fc.oneof(
  fc.constantFrom(
    0,
    -0,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    1e21,
    5e-324,
  ),
  fc.double(),
);
const nanos = fc.oneof(
  fc.constant(0),
  fc.integer({ min: 0, max: 999_999_999 }),
  fc.constantFrom(1_000_000, 1_000, -1, 1_000_000_000),
);

function scalar(type: ScalarType): fc.Arbitrary<unknown> {
  switch (type) {
    case ScalarType.STRING:
      return text;
    case ScalarType.BYTES:
      return fc.uint8Array({ maxLength: 7 });
    case ScalarType.BOOL:
      return fc.boolean();
    case ScalarType.DOUBLE:
      return double;
    case ScalarType.FLOAT:
      return double.map(Math.fround);
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64:
      return int64;
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      return uint64;
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
      return fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 2 ** 32 - 1 }));
    default:
      return fc.oneof(fc.constant(0), fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }));
  }
}

function valueMessage(): fc.Arbitrary<Message> {
  return fc.oneof(
    { weight: 8, arbitrary: jsonValue.map((j) => fromJson(ValueSchema, j)) },
    { weight: 1, arbitrary: fc.constant(create(ValueSchema)) },
    {
      weight: 1,
      arbitrary: fc.constant(
        create(ValueSchema, { kind: { case: "numberValue", value: Number.NaN } }),
      ),
    },
  );
}

/** A message of a well-known type with a JSON form of its own, or undefined for other types. */
function wellKnown(desc: DescMessage, inValue: boolean): fc.Arbitrary<unknown> | undefined {
  switch (desc.typeName) {
    case "google.protobuf.Timestamp":
      return fc
        .record({
          seconds: fc.oneof(
            fc.bigInt({ min: -62135596800n, max: 253402300799n }),
            fc.constantFrom(0n, -62135596801n, 253402300800n),
          ),
          nanos,
        })
        .map((init) => create(TimestampSchema, init));
    case "google.protobuf.Duration":
      return fc
        .record({
          seconds: fc.oneof(
            fc.bigInt({ min: -315576000000n, max: 315576000000n }),
            fc.constantFrom(0n, 315576000001n),
          ),
          nanos: fc.oneof(nanos, fc.constant(-5)),
        })
        .map((init) => create(DurationSchema, init));
    case "google.protobuf.FieldMask":
      return fc
        .array(fc.constantFrom("a_b", "foo", "fooBar", "x.y_z"), { maxLength: 3 })
        .map((paths) => create(FieldMaskSchema, { paths }));
    case "google.protobuf.Struct":
      // protobuf-es holds a Struct as a plain JSON object, except inside google.protobuf.Value.
      return inValue
        ? jsonValue
            .filter((j) => typeof j === "object" && j !== null && !Array.isArray(j))
            .map((j) => fromJson(desc, j))
        : jsonObject;
    case "google.protobuf.Value":
      return valueMessage();
    case "google.protobuf.ListValue":
      return fc.array(jsonValue, { maxLength: 3 }).map((j) => fromJson(ListValueSchema, j));
    case "google.protobuf.Any":
      return fc.oneof(
        fc.constant(create(AnySchema)),
        fc.constant(create(AnySchema, { typeUrl: "type.googleapis.com/unknown.Type" })),
        wellKnown(TimestampSchema, false)!.map((t) => anyPack(TimestampSchema, t as never)),
      );
    default:
      return undefined;
  }
}

function isWrapper(desc: DescMessage): boolean {
  return (
    desc.typeName.startsWith("google.protobuf.") &&
    desc.typeName.endsWith("Value") &&
    desc.fields.length === 1 &&
    desc.fields[0]!.name === "value"
  );
}

/** One value of a message-typed field (its element or map value for lists and maps). */
function messageValue(
  field: DescField,
  desc: DescMessage,
  depth: number,
  unwrapped: boolean,
): fc.Arbitrary<unknown> {
  const wkt = wellKnown(desc, field.parent.typeName === "google.protobuf.Value");
  if (wkt !== undefined) return wkt;
  if (isWrapper(desc)) {
    const v = scalar((desc.fields[0] as DescField & { scalar: ScalarType }).scalar);
    return unwrapped ? v : v.map((value) => create(desc, { value } as never));
  }
  return randomMessage(desc, depth + 1);
}

function fieldValue(field: DescField, depth: number): fc.Arbitrary<unknown> {
  switch (field.fieldKind) {
    case "scalar":
      return scalar(field.scalar);
    case "enum":
      return fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...field.enum.values.map((v) => v.number)) },
        { weight: 1, arbitrary: fc.integer({ min: -3, max: 40 }) },
      );
    case "message":
      return messageValue(field, field.message, depth, field.oneof === undefined);
    case "list": {
      const item =
        field.listKind === "scalar"
          ? scalar(field.scalar)
          : field.listKind === "enum"
            ? fc.constantFrom(...field.enum.values.map((v) => v.number), 99)
            : messageValue(field, field.message, depth, false);
      return fc.array(item, { maxLength: depth >= MAX_DEPTH ? 0 : 2 });
    }
    case "map": {
      const key =
        field.mapKey === ScalarType.STRING
          ? fc.string({ maxLength: 3 })
          : field.mapKey === ScalarType.BOOL
            ? fc.constantFrom("true", "false")
            : fc.integer({ min: -5, max: 300 }).map(String);
      const item =
        field.mapKind === "scalar"
          ? scalar(field.scalar)
          : field.mapKind === "enum"
            ? fc.constantFrom(...field.enum.values.map((v) => v.number))
            : messageValue(field, field.message, depth, false);
      return fc.dictionary(key, item, { maxKeys: depth >= MAX_DEPTH ? 0 : 2 });
    }
  }
}

/** Random messages of `desc`: each field set or not (zero values often), one member of each oneof or none. */
export function randomMessage(desc: DescMessage, depth = 0): fc.Arbitrary<Message> {
  const parts: fc.Arbitrary<[string, unknown] | undefined>[] = [];
  for (const field of desc.fields) {
    if (field.oneof !== undefined) continue;
    if (
      depth >= MAX_DEPTH &&
      (field.fieldKind === "message" || field.fieldKind === "list" || field.fieldKind === "map")
    )
      continue;
    parts.push(
      fc.option(
        fieldValue(field, depth).map((v): [string, unknown] => [field.localName, v]),
        { nil: undefined, freq: 2 },
      ),
    );
  }
  for (const oneof of desc.oneofs) {
    if (depth >= MAX_DEPTH) continue;
    const arms = oneof.fields.map((f) =>
      fieldValue(f, depth).map((value): [string, unknown] => [
        oneof.localName,
        { case: f.localName, value },
      ]),
    );
    parts.push(fc.option(fc.oneof(...arms), { nil: undefined, freq: 4 }));
  }
  return fc.tuple(...parts).map((entries) => {
    const init: Record<string, unknown> = {};
    for (const e of entries) if (e !== undefined) init[e[0]] = e[1];
    return create(desc, init as never);
  });
}
