/**
 * The generated ProtoJSON readers on protos beyond A2A: the corpus fixtures (well-known types, Any,
 * proto2 and editions, REQUIRED fields, awkward names) and Google APIs (Pub/Sub, Firestore, Secret
 * Manager, long-running operations), generated into a temporary folder. Same property as
 * json-readers.test.ts: a reader returns undefined or exactly the message fromJson builds (REQUIRED
 * table passed), and decodeRequest with the readers answers as without them.
 */
import type { JsonValue, Registry } from "@bufbuild/protobuf";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import type {
  JsonReaderTable,
  PipelineErrorSpecs,
  RequirementTable,
} from "@protoc-gen-a2a/runtime";
import { generateJsonCorpus } from "../../../support/json-corpus.js";
import {
  checkReader,
  mutatedJson,
  newTally,
  oddJson,
  randomMessageJson,
  type ReaderSuite,
} from "../../../support/json-reader-check.js";

const corpus = await generateJsonCorpus("json-readers-corpus");
afterAll(corpus.remove);

interface ReaderCase {
  readonly label: string;
  readonly typeName: string;
  readonly suite: ReaderSuite;
}

const cases: ReaderCase[] = [];
for (const { base, json, handler, errors } of corpus.files) {
  for (const key of Object.keys(json).sort()) {
    if (!key.endsWith("RequestJsonReaders")) continue;
    const service = key.slice(0, -"RequestJsonReaders".length);
    const suite: ReaderSuite = {
      label: `${base}.proto ${service}`,
      readers: json[key] as JsonReaderTable,
      requestFields: handler[`${service}RequiredFields`] as RequirementTable,
      registry: handler["typeRegistry"] as Registry,
      errors: errors["errorSpecs"] as PipelineErrorSpecs,
    };
    for (const typeName of Object.keys(suite.readers))
      cases.push({ label: suite.label, typeName, suite });
  }
}

const total = newTally();

describe("generated ProtoJSON readers on the corpus and Google APIs", () => {
  it("are generated for the corpus services", () => {
    expect(cases.length).toBeGreaterThan(20);
  });

  it.each(cases.map((c) => [`${c.label}: ${c.typeName}`, c] as const))("%s", (_label, c) => {
    const schema = c.suite.registry.getMessage(c.typeName);
    expect(schema, c.typeName).toBeDefined();
    const tally = newTally();
    const inputs = fc.oneof(
      randomMessageJson(schema!, c.suite.registry).filter((j): j is JsonValue => j !== undefined),
      mutatedJson(schema!),
      oddJson(schema!, c.suite.registry),
    );
    fc.assert(
      fc.property(inputs, (json) => checkReader(c.suite, schema!, json, tally)),
      { numRuns: 80 },
    );
    total.inputs += tally.inputs;
    total.referenceAccepted += tally.referenceAccepted;
    total.readerAccepted += tally.readerAccepted;
  });

  it("read a good share of what fromJson accepts themselves (run after the cases above)", () => {
    console.log(
      `json-readers corpus: ${total.inputs} inputs, ${total.referenceAccepted} accepted by fromJson, ${total.readerAccepted} read by the readers`,
    );
    expect(total.referenceAccepted).toBeGreaterThan(1000);
    expect(total.readerAccepted).toBeGreaterThan(total.referenceAccepted / 3);
  });
});
