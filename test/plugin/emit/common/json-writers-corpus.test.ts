/**
 * The generated ProtoJSON writers on protos beyond A2A: the corpus fixtures (well-known types,
 * Any, proto2, REQUIRED fields, awkward names) and Google APIs (Pub/Sub, Firestore, Secret
 * Manager, long-running operations), generated into a temporary folder. Same property as
 * json-writers.test.ts: byte-identical text where the reflective path writes, a refusal where it
 * refuses, and through `encodeMessageText` its own error.
 */
import type { Registry } from "@bufbuild/protobuf";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import {
  encodeMessage,
  encodeMessageText,
  type JsonTextWriterTable,
  type RequirementTable,
} from "@protoc-gen-a2a/runtime";
import { generateJsonCorpus } from "../../../support/json-corpus.js";
import { randomMessage } from "../../../support/proto-message-arbitrary.js";

const corpus = await generateJsonCorpus("json-writers-corpus");
afterAll(corpus.remove);

interface WriterCase {
  readonly label: string;
  readonly typeName: string;
  readonly writers: JsonTextWriterTable;
  readonly responseFields: RequirementTable;
  readonly registry: Registry;
}

const cases: WriterCase[] = [];
for (const { base, json, handler } of corpus.files) {
  for (const key of Object.keys(json).sort()) {
    if (!key.endsWith("ResponseJsonWriters")) continue;
    const service = key.slice(0, -"ResponseJsonWriters".length);
    const writers = json[key] as JsonTextWriterTable;
    for (const typeName of Object.keys(writers)) {
      cases.push({
        label: `${base}.proto ${service}`,
        typeName,
        writers,
        responseFields: handler[`${service}ResponseFields`] as RequirementTable,
        registry: handler["typeRegistry"] as Registry,
      });
    }
  }
}

type Verdict = { readonly text: string } | { readonly error: string };

function verdict(run: () => string): Verdict {
  try {
    return { text: run() };
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

describe("generated ProtoJSON writers on the corpus and Google APIs", () => {
  it("are generated for every corpus service with responses", () => {
    expect(cases.length).toBeGreaterThan(20);
  });

  it.each(cases.map((c) => [`${c.label}: ${c.typeName}`, c] as const))("%s", (_label, c) => {
    const schema = c.registry.getMessage(c.typeName);
    expect(schema, c.typeName).toBeDefined();
    fc.assert(
      fc.property(randomMessage(schema!), (message) => {
        const reference = verdict(() =>
          JSON.stringify(encodeMessage(schema!, message, c.responseFields, c.registry)),
        );
        const direct = verdict(() => c.writers[c.typeName]!(message, c.registry));
        if ("text" in reference) expect(direct).toEqual(reference);
        else expect("error" in direct).toBe(true);
        expect(
          verdict(() =>
            encodeMessageText(schema!, message, c.responseFields, c.registry, c.writers),
          ),
        ).toEqual(reference);
      }),
      { numRuns: 60 },
    );
  });
});
