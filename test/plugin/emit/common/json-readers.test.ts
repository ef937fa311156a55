/**
 * The plugin's per-message ProtoJSON readers (`<Service>RequestJsonReaders` in `<file>_a2a_json.ts`)
 * against the reference, protobuf-es's `fromJson` plus the REQUIRED table: a reader returns undefined
 * (reflection decides) or exactly the message the reference builds (protobuf-es `equals` and the same
 * properties in the same order), and `decodeRequest` with the readers answers as without them (the
 * same message, or the same A2AError: code, message, metadata, field violations), with the default
 * request limits and with tight ones. fast-check over random messages written by toJson (JSON and
 * proto field names), over payloads built from the descriptors as valid requests and their
 * mutations (test/support/proto-json-arbitrary.ts), and over harsher ones (odd values, both
 * spellings of a key, deep nesting). The A2A 1.0 and 0.3 services.
 */
import type { DescMessage, JsonValue } from "@bufbuild/protobuf";
import fc from "fast-check";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import {
  DEFAULT_REQUEST_LIMITS,
  type JsonReaderTable,
  type PipelineErrorSpecs,
  type RequestLimits,
} from "@protoc-gen-a2a/runtime";
import {
  A2AServiceRequiredFields,
  typeRegistry,
} from "../../../../generated-example/gen/a2a_a2a_handler.js";
import { errorSpecs } from "../../../../generated-example/gen/a2a_a2a_errors.js";
import { A2AServiceRequestJsonReaders } from "../../../../generated-example/gen/a2a_a2a_json.js";
import {
  A2AServiceRequiredFields as V03RequiredFields,
  typeRegistry as v03Registry,
} from "../../../../generated-example/gen/v0_3/a2a_a2a_handler.js";
import { errorSpecs as v03ErrorSpecs } from "../../../../generated-example/gen/v0_3/a2a_a2a_errors.js";
import { A2AServiceRequestJsonReaders as V03Readers } from "../../../../generated-example/gen/v0_3/a2a_a2a_json.js";
import {
  checkReader,
  mutatedJson,
  newTally,
  oddJson,
  randomMessageJson,
  structuralDifference,
  type ReaderSuite,
  type ReaderTally,
} from "../../../support/json-reader-check.js";
import { repoRoot } from "../../../support/repo-root.js";

const suites: ReaderSuite[] = [
  {
    label: "A2A 1.0",
    readers: A2AServiceRequestJsonReaders,
    requestFields: A2AServiceRequiredFields,
    registry: typeRegistry,
    errors: errorSpecs as unknown as PipelineErrorSpecs,
  },
  {
    label: "A2A 0.3",
    readers: V03Readers,
    requestFields: V03RequiredFields,
    registry: v03Registry,
    errors: v03ErrorSpecs as unknown as PipelineErrorSpecs,
  },
];

/** Tight limits, so that the limit errors are among the answers compared. */
const TIGHT: RequestLimits = { maxJsonDepth: 4, maxPartsPerMessage: 1, maxMetadataBytes: 12 };

const tallies = new Map<string, ReaderTally>();
afterAll(() => {
  const lines = [...tallies].map(
    ([k, t]) =>
      `${k}: ${t.inputs} inputs, ${t.referenceAccepted} accepted by fromJson, ${t.readerAccepted} read by the reader`,
  );
  console.log(`json-readers:\n${lines.join("\n")}`);
});

function tallyOf(key: string): ReaderTally {
  let t = tallies.get(key);
  if (t === undefined) tallies.set(key, (t = newTally()));
  return t;
}

describe.each(suites)("generated ProtoJSON readers: $label", (suite) => {
  const typeNames = Object.keys(suite.readers);
  const schemaOf = (typeName: string): DescMessage => suite.registry.getMessage(typeName)!;

  it("cover every request type of the service", () => {
    expect(typeNames.length).toBeGreaterThan(5);
    for (const typeName of typeNames)
      expect(suite.registry.getMessage(typeName), typeName).toBeDefined();
  });

  it.each(typeNames)(
    "%s: random messages through toJson (JSON and proto names) read as fromJson reads them",
    (typeName) => {
      const schema = schemaOf(typeName);
      const tally = tallyOf(`${suite.label} ${typeName} toJson`);
      fc.assert(
        fc.property(randomMessageJson(schema, suite.registry), fc.boolean(), (json, tight) => {
          if (json !== undefined)
            checkReader(suite, schema, json, tally, tight ? TIGHT : DEFAULT_REQUEST_LIMITS);
        }),
        { numRuns: 300 },
      );
      // A fast path: the readers read (nearly) all that toJson writes and fromJson accepts.
      expect(tally.referenceAccepted).toBeGreaterThan(50);
      expect(tally.readerAccepted).toBeGreaterThanOrEqual(0.9 * tally.referenceAccepted);
    },
  );

  it.each(typeNames)(
    "%s: valid payloads and their mutations: undefined, or the reference's message; decodeRequest answers alike",
    (typeName) => {
      const schema = schemaOf(typeName);
      const tally = tallyOf(`${suite.label} ${typeName} mutations`);
      fc.assert(
        fc.property(mutatedJson(schema), fc.boolean(), (json, tight) =>
          checkReader(suite, schema, json, tally, tight ? TIGHT : DEFAULT_REQUEST_LIMITS),
        ),
        { numRuns: 300 },
      );
      expect(tally.referenceAccepted).toBeGreaterThan(0);
      expect(tally.readerAccepted).toBeGreaterThan(0);
    },
  );

  it.each(typeNames)(
    "%s: odd values, both spellings of a key, extra oneof members, deep nesting",
    (typeName) => {
      const schema = schemaOf(typeName);
      const tally = tallyOf(`${suite.label} ${typeName} odd`);
      fc.assert(
        fc.property(oddJson(schema, suite.registry), fc.boolean(), (json, tight) =>
          checkReader(suite, schema, json, tally, tight ? TIGHT : DEFAULT_REQUEST_LIMITS),
        ),
        { numRuns: 300 },
      );
    },
  );
});

describe("generated ProtoJSON readers: SendMessage cases", () => {
  const suite = suites[0]!;
  const schema = suite.registry.getMessage("lf.a2a.v1.SendMessageRequest")!;
  const read = (json: JsonValue) =>
    (suite.readers as JsonReaderTable)["lf.a2a.v1.SendMessageRequest"]!(json);
  const message = { messageId: "m-1", role: "ROLE_USER", parts: [{ text: "hi" }] };

  it("reads the common request itself, message order and all", () => {
    const json = {
      message: { ...message, metadata: { a: [1, { b: null }], "1": true } },
      configuration: { historyLength: 3, acceptedOutputModes: ["text/plain"] },
      metadata: {},
    };
    const tally = newTally();
    checkReader(suite, schema, json, tally);
    expect(tally.readerAccepted).toBe(1);
    // Proto names, keys in another order: the same message, properties in the order fromJson sets them.
    checkReader(
      suite,
      schema,
      {
        configuration: { history_length: 3 },
        message: {
          parts: [{ media_type: "a/b", data: { x: 1 } }],
          message_id: "m",
          context_id: "c",
          role: 2,
        },
      },
      tally,
    );
    expect(tally.readerAccepted).toBe(2);
  });

  it.each<[string, JsonValue]>([
    ["an unknown key (reflection drops it)", { message, extra: 1 }],
    ["both spellings of a field", { message: { ...message, message_id: "m-2" } }],
    ["both spellings, one null", { message: { ...message, message_id: null } }],
    ["two oneof members", { message: { ...message, parts: [{ text: "a", url: "b" }] } }],
    ["no oneof member", { message: { ...message, parts: [{ filename: "f" }] } }],
    ["a REQUIRED field missing", { message: { role: "ROLE_USER", parts: [{ text: "a" }] } }],
    ["a REQUIRED list empty", { message: { ...message, parts: [] } }],
    ["a lone surrogate", { message: { ...message, messageId: "\ud800" } }],
    ["an unknown enum name", { message: { ...message, role: "user" } }],
    ["an enum number out of int32", { message: { ...message, role: 2 ** 31 } }],
    ["an int32 as a fraction", { configuration: { historyLength: 1.5 }, message }],
    ["a negative historyLength", { configuration: { historyLength: -1 }, message }],
    ["a metadata array", { message, metadata: [] }],
    [
      "a metadata __proto__ key",
      { message, metadata: JSON.parse('{"__proto__": 1}') as JsonValue },
    ],
    ["bad base64", { message: { ...message, parts: [{ raw: "@@" }] } }],
    ["a null list item", { message: { ...message, parts: [null] } }],
    ["the message null", { message: null }],
  ])("leaves %s to reflection, which answers", (_label, json) => {
    expect(read(json)).toBeUndefined();
    checkReader(suite, schema, json, newTally());
  });

  it.each<[string, JsonValue]>([
    [
      "null for optional fields",
      {
        message: { ...message, contextId: null, extensions: null, metadata: null },
        configuration: null,
        tenant: null,
      },
    ],
    [
      "numbers as strings",
      { message, configuration: { historyLength: "2", returnImmediately: true } },
    ],
    ["an enum by number", { message: { ...message, role: 1 } }],
    ["an open enum's unknown number", { message: { ...message, role: 7 } }],
    [
      "base64 bytes",
      { message: { ...message, parts: [{ raw: "AAEC" }, { raw: "" }, { url: "u" }] } },
    ],
    ["a Value null", { message: { ...message, parts: [{ data: null }] } }],
  ])("reads %s as fromJson does", (_label, json) => {
    const tally = newTally();
    checkReader(suite, schema, json, tally);
    expect(tally.readerAccepted).toBe(1);
  });

  it("the structural compare tells property order apart", () => {
    expect(structuralDifference({ a: 1, b: 2 }, { b: 2, a: 1 })).toBeDefined();
    expect(
      structuralDifference({ a: new Uint8Array([1]) }, { a: new Uint8Array([2]) }),
    ).toBeDefined();
    expect(structuralDifference({ a: 0 }, { a: -0 })).toBeDefined();
    expect(structuralDifference({ a: [1, { b: 2n }] }, { a: [1, { b: 2n }] })).toBeUndefined();
  });
});

/**
 * The checks are not vacuous: copies of the generated readers broken in one place each (a rule
 * dropped, a property out of fromJson's order, a oneof or null case mishandled) fail them.
 */
describe("generated ProtoJSON readers: broken readers are caught", () => {
  const source = readFileSync(join(repoRoot, "generated-example/gen/a2a_a2a_json.ts"), "utf8");
  mkdirSync(join(repoRoot, "test/.tmp"), { recursive: true });
  const tmp = mkdtempSync(join(repoRoot, "test/.tmp/json-readers-"));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  const mutants: [string, string, (text: string) => string][] = [
    [
      "a REQUIRED message dropped",
      "lf.a2a.v1.SendMessageRequest",
      (t) => t.replace('if (jsonRead.missing("present", m["message"])) return undefined;', ""),
    ],
    [
      "a REQUIRED string dropped",
      "lf.a2a.v1.GetTaskRequest",
      (t) =>
        t.replace(
          /(function read\$GetTaskRequest[\s\S]*?)if \(jsonRead\.missing\("nonzero", m\["id"\]\)\) return undefined;/,
          "$1",
        ),
    ],
    [
      "an exactly-one oneof dropped",
      "lf.a2a.v1.SendMessageRequest",
      (t) =>
        t.replace('if ((m["content"] as JsonWriteOneof).case === undefined) return undefined;', ""),
    ],
    [
      "the at-most-one oneof check dropped",
      "lf.a2a.v1.SendMessageRequest",
      (t) =>
        t.replaceAll(
          'if ((m["content"] as JsonWriteOneof).case !== undefined) return undefined;',
          "",
        ),
    ],
    [
      "a range check loosened",
      "lf.a2a.v1.ListTasksRequest",
      (t) => t.replace("(x < 1 || x > 100)", "(x < 1 || x > 1000)"),
    ],
    [
      "fields out of create()'s order",
      "lf.a2a.v1.SendMessageRequest",
      (t) =>
        t.replace(
          '$typeName: "lf.a2a.v1.Message", "messageId": "", "contextId": ""',
          '$typeName: "lf.a2a.v1.Message", "contextId": "", "messageId": ""',
        ),
    ],
    [
      "a message field created up front",
      "lf.a2a.v1.SendMessageRequest",
      (t) =>
        t.replace(
          '{ $typeName: "lf.a2a.v1.SendMessageRequest", "tenant": "" }',
          '{ $typeName: "lf.a2a.v1.SendMessageRequest", "tenant": "", "configuration": undefined }',
        ),
    ],
    [
      "both spellings taken",
      "lf.a2a.v1.SendMessageRequest",
      (t) =>
        t.replaceAll(
          'if (k !== "messageId" && Object.hasOwn(t, "messageId")) return undefined;',
          "",
        ),
    ],
    [
      "an enum name table wrong",
      "lf.a2a.v1.SendMessageRequest",
      (t) => t.replace('"ROLE_USER": 1, "ROLE_AGENT": 2', '"ROLE_USER": 2, "ROLE_AGENT": 1'),
    ],
  ];

  it.each(mutants)("%s", async (label, typeName, mutate) => {
    const broken = mutate(source);
    expect(broken, "the mutation applies").not.toBe(source);
    const file = join(tmp, `${label.replace(/\W+/g, "-")}.ts`);
    writeFileSync(file, broken);
    const readers = (
      (await import(pathToFileURL(file).href)) as { A2AServiceRequestJsonReaders: JsonReaderTable }
    ).A2AServiceRequestJsonReaders;
    const suite: ReaderSuite = { ...suites[0]!, readers };
    const schema = suite.registry.getMessage(typeName)!;
    const inputs = fc.oneof(
      mutatedJson(schema),
      oddJson(schema, suite.registry),
      randomMessageJson(schema, suite.registry).filter((j): j is JsonValue => j !== undefined),
    );
    const result = fc.check(
      fc.property(inputs, (json) => checkReader(suite, schema, json, newTally())),
      { numRuns: 2000 },
    );
    expect(result.failed, `${label}: no input told the broken reader apart`).toBe(true);
  });
});
