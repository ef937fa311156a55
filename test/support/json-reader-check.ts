/**
 * The checks of the generated ProtoJSON readers (`<Service>RequestJsonReaders`) against the
 * reference, protobuf-es's `fromJson` with the REQUIRED table (`decodeMessage` + `findMissingFields`,
 * what `decodeRequest` does without readers): a reader returns undefined, or a message the reference
 * accepts and builds identically (protobuf-es `equals` and a structural compare: same properties in
 * the same order, same prototypes, same values); and `decodeRequest` with readers answers exactly as
 * without them (the same message, or the same A2AError: code, message, metadata, field violations).
 */
import {
  equals,
  fromJson,
  toJson,
  type DescMessage,
  type JsonObject,
  type JsonValue,
  type Message,
  type Registry,
} from "@bufbuild/protobuf";
import fc from "fast-check";
import { expect } from "vitest";
import {
  A2AError,
  decodeMessage,
  decodeRequest,
  findMissingFields,
  type JsonReaderTable,
  type PipelineErrorSpecs,
  type RequestLimits,
  type RequirementTable,
} from "@protoc-gen-a2a/runtime";
import { randomMessage } from "./proto-message-arbitrary.js";
import { MUTATION_KINDS, mutate, validJson } from "./proto-json-arbitrary.js";

/** The first place where `a` and `b` differ (type, prototype, own keys and their order, values), or undefined. */
export function structuralDifference(a: unknown, b: unknown, path = "$"): string | undefined {
  if (typeof a !== typeof b) return `${path}: ${typeof a} vs ${typeof b}`;
  if (typeof a !== "object" || a === null || b === null) {
    return Object.is(a, b) ? undefined : `${path}: ${String(a)} vs ${String(b)}`;
  }
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return `${path}: different prototypes`;
  if (a instanceof Uint8Array) {
    const c = b as Uint8Array;
    return a.length === c.length && a.every((x, i) => x === c[i])
      ? undefined
      : `${path}: different bytes`;
  }
  const ka = Reflect.ownKeys(a);
  const kb = Reflect.ownKeys(b as object);
  if (ka.length !== kb.length || ka.some((k, i) => k !== kb[i]))
    return `${path}: keys [${ka.map(String).join(",")}] vs [${kb.map(String).join(",")}]`;
  for (const k of ka) {
    const da = Object.getOwnPropertyDescriptor(a, k)!;
    const db = Object.getOwnPropertyDescriptor(b, k)!;
    if (
      da.enumerable !== db.enumerable ||
      da.writable !== db.writable ||
      "get" in da !== "get" in db
    )
      return `${path}.${String(k)}: different property descriptors`;
    const found = structuralDifference(da.value, db.value, `${path}.${String(k)}`);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The service tables a reader suite needs. */
export interface ReaderSuite {
  readonly label: string;
  readonly readers: JsonReaderTable;
  readonly requestFields: RequirementTable;
  readonly registry: Registry;
  readonly errors?: PipelineErrorSpecs | undefined;
}

/** What the checks saw: how many inputs the reference accepted, how many of those the reader read itself. */
export interface ReaderTally {
  inputs: number;
  referenceAccepted: number;
  readerAccepted: number;
}

export const newTally = (): ReaderTally => ({ inputs: 0, referenceAccepted: 0, readerAccepted: 0 });

/** The reference verdict: the message decodeRequest (without readers, limits aside) would hand the handler, or undefined. */
function reference(suite: ReaderSuite, schema: DescMessage, json: JsonValue): Message | undefined {
  let message: Message;
  try {
    message = decodeMessage(schema, json, suite.registry);
  } catch {
    return undefined;
  }
  return findMissingFields(suite.requestFields, schema.typeName, message).length === 0
    ? message
    : undefined;
}

/** Asserts the reader's verdict on `json` against the reference (and, with `errors`, decodeRequest's answers). */
export function checkReader(
  suite: ReaderSuite,
  schema: DescMessage,
  json: JsonValue,
  tally: ReaderTally,
  limits?: RequestLimits,
): void {
  tally.inputs++;
  const expected = reference(suite, schema, json);
  let read: object | undefined;
  try {
    read = suite.readers[schema.typeName]!(json);
  } catch (e) {
    throw new Error(`the reader threw ${String(e)} for ${JSON.stringify(json)}`);
  }
  if (expected !== undefined) tally.referenceAccepted++;
  if (read !== undefined) {
    tally.readerAccepted++;
    expect(
      expected,
      `the reader accepted what the reference refuses: ${JSON.stringify(json)}`,
    ).toBeDefined();
    expect(
      equals(schema, read as Message, expected!),
      `not equal for ${JSON.stringify(json)}`,
    ).toBe(true);
    expect(structuralDifference(read, expected), `for ${JSON.stringify(json)}`).toBeUndefined();
  }
  if (suite.errors !== undefined) checkDecodeRequest(suite, schema, json, limits);
}

type Outcome =
  | { readonly message: Message }
  | {
      readonly error: {
        code: number;
        name: string;
        message: string;
        metadata: unknown;
        fieldViolations: unknown;
        details: unknown;
      };
    };

function outcome(run: () => Message): Outcome {
  try {
    return { message: run() };
  } catch (e) {
    if (!(e instanceof A2AError)) throw e;
    return {
      error: {
        code: e.code,
        name: e.name,
        message: e.message,
        metadata: e.metadata,
        fieldViolations: e.fieldViolations,
        details: e.details,
      },
    };
  }
}

/** decodeRequest with the readers answers as without them: the same message (equals and structure) or the same A2AError. */
function checkDecodeRequest(
  suite: ReaderSuite,
  schema: DescMessage,
  json: JsonValue,
  limits?: RequestLimits,
): void {
  const errors = suite.errors!;
  const without = outcome(() =>
    decodeRequest(errors, schema, json, suite.requestFields, limits, suite.registry),
  );
  const withReaders = outcome(() =>
    decodeRequest(errors, schema, json, suite.requestFields, limits, suite.registry, suite.readers),
  );
  if ("error" in without) {
    expect(withReaders, `for ${JSON.stringify(json)}`).toEqual(without);
    return;
  }
  expect(
    "message" in withReaders,
    `decodeRequest with readers refused ${JSON.stringify(json)}`,
  ).toBe(true);
  const got = (withReaders as { message: Message }).message;
  expect(equals(schema, got, without.message)).toBe(true);
  expect(structuralDifference(got, without.message), `for ${JSON.stringify(json)}`).toBeUndefined();
}

/**
 * Random messages of `schema` as toJson writes them (JSON names or proto names), undefined where toJson
 * refuses the message: messages of any content (randomMessage, which seldom has every REQUIRED field),
 * and valid requests (validJson, decoded by fromJson) written again by toJson.
 */
export function randomMessageJson(
  schema: DescMessage,
  registry: Registry,
): fc.Arbitrary<JsonValue | undefined> {
  const valid = validJsonOf(schema).map((json): Message | undefined => {
    try {
      return fromJson(schema, json, { registry });
    } catch {
      return undefined;
    }
  });
  const messages = fc.oneof(randomMessage(schema), valid);
  return fc.tuple(messages, fc.boolean()).map(([message, useProtoFieldName]) => {
    if (message === undefined) return undefined;
    try {
      // A JSON text round trip, as a request arrives (toJson keeps -0, JSON.parse gives it back as 0 only where JSON does).
      return JSON.parse(
        JSON.stringify(toJson(schema, message, { registry, useProtoFieldName })),
      ) as JsonValue;
    } catch {
      return undefined;
    }
  });
}

/** Payloads built from the descriptors as valid requests (REQUIRED set, ranges kept), and each of the mutations of proto-json-arbitrary.ts. */
export function mutatedJson(schema: DescMessage): fc.Arbitrary<JsonValue> {
  return fc
    .record({
      json: validJsonOf(schema),
      first: fc.nat(MUTATION_KINDS.length - 1),
      pick: fc.nat(),
      salt: fc.nat(),
    })
    .map(({ json, first, pick, salt }) => {
      for (let i = 0; i < MUTATION_KINDS.length; i++) {
        let changed: JsonValue | undefined;
        try {
          // mutate() reads fields by JSON name off plain objects: a field named like an Object.prototype member finds the member.
          changed = mutate(
            schema,
            json,
            MUTATION_KINDS[(first + i) % MUTATION_KINDS.length]!,
            pick,
            salt,
          );
        } catch {
          changed = undefined;
        }
        if (changed !== undefined) return jsonCopy(changed);
      }
      return json;
    });
}

/** A JSON value copied through its text (what a request is: functions and undefined dropped, own `__proto__` keys kept). */
function jsonCopy(json: JsonValue): JsonValue {
  return JSON.parse(JSON.stringify(json)) as JsonValue;
}

/**
 * validJson(schema), or for a type it cannot build (a REQUIRED field that recurses: validJson builds
 * the arbitraries of REQUIRED fields at any depth) the empty object, which the mutations then change.
 */
function validJsonOf(schema: DescMessage): fc.Arbitrary<JsonObject> {
  try {
    return validJson(schema);
  } catch (e) {
    if (e instanceof RangeError) return fc.constant({});
    throw e;
  }
}

/** Odd values a client may put anywhere: what the readers must leave to reflection or read exactly. */
const ODD_VALUES: readonly JsonValue[] = [
  null,
  "",
  "\ud800",
  " 1",
  "1e2",
  "0x10",
  "-0",
  "NaN",
  "Infinity",
  "9223372036854775808",
  "18446744073709551616",
  2 ** 53,
  2 ** 31,
  -(2 ** 31) - 1,
  1.5,
  -0,
  1e308,
  true,
  [],
  [null],
  {},
  JSON.parse('{"__proto__": {"a": 1}}') as JsonValue,
  "AAEC",
  "ROLE_USER",
  "role_user",
  "TASK_STATE_WORKING",
  "1970-01-01T00:00:00Z",
  "10000-01-01T00:00:00Z",
  "1.5s",
  "aB,c",
];

/** Every message object of a payload (the payload itself and, recursively, every object or array element it holds). */
function objectsOf(json: JsonValue, out: JsonObject[] = []): JsonObject[] {
  if (typeof json !== "object" || json === null) return out;
  if (Array.isArray(json)) {
    for (const item of json) objectsOf(item, out);
    return out;
  }
  out.push(json);
  for (const key of Object.keys(json)) objectsOf(json[key]!, out);
  return out;
}

/** A key's other ProtoJSON spelling: the proto name of a JSON name, the JSON name of a proto name. */
function otherSpelling(key: string): string {
  return key.includes("_")
    ? key.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase())
    : key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/**
 * Harsher mutations than proto-json-arbitrary.ts's: an odd value at some key, a key repeated under its
 * proto name (or JSON name), a second oneof member, a key dropped, a deep nesting.
 */
export function oddJson(schema: DescMessage, registry: Registry): fc.Arbitrary<JsonValue> {
  const base = fc.oneof(
    mutatedJson(schema),
    randomMessageJson(schema, registry).filter((j): j is JsonValue => j !== undefined),
  );
  return fc
    .record({
      json: base,
      kind: fc.nat(5),
      pick: fc.nat(),
      value: fc.constantFrom(...ODD_VALUES),
      depth: fc.integer({ min: 20, max: 70 }),
    })
    .map(({ json, kind, pick, value, depth }) => {
      const copy = jsonCopy(json);
      const objects = objectsOf(copy);
      const target = objects[pick % Math.max(1, objects.length)];
      if (target === undefined) return copy;
      const keys = Object.keys(target);
      const key = keys[pick % Math.max(1, keys.length)];
      switch (kind) {
        case 0:
          if (key !== undefined) target[key] = value;
          break;
        case 1: {
          // The same value again under the other spelling of a key that has one (snake_case ⇄ lowerCamelCase).
          const pairs = objects.flatMap((o) =>
            Object.keys(o).flatMap((k): [JsonObject, string, string][] =>
              otherSpelling(k) === k ? [] : [[o, k, otherSpelling(k)]],
            ),
          );
          const pair = pairs[pick % Math.max(1, pairs.length)];
          if (pair !== undefined) pair[0][pair[2]] = value === null ? null : pair[0][pair[1]]!;
          break;
        }
        case 2:
          if (key !== undefined) delete target[key];
          break;
        case 3: {
          let deep: JsonValue = 1;
          for (let i = 0; i < depth; i++) deep = pick % 2 === 0 ? { a: deep } : [deep];
          if (key !== undefined) target[key] = deep;
          break;
        }
        case 4:
          // Oneof members the schema knows, next to whatever is set.
          target["text"] = "x";
          target["data"] = value;
          break;
        default:
          if (key !== undefined) target[key] = [value, value];
      }
      return copy;
    });
}
