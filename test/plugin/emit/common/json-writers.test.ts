/**
 * The plugin's per-message ProtoJSON writers (`<file>_a2a_json.ts`) against the reference,
 * `JSON.stringify(encodeMessage(schema, message, responseFields, registry))`: byte-identical text
 * for every message the reference writes, a refusal for every message it refuses, and through
 * `encodeMessageText` (what the servers call) the reference's own error. fast-check over random
 * messages of every response and stream event type of the A2A 1.0 and 0.3 services.
 */
import type { DescMessage, Message, Registry } from "@bufbuild/protobuf";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  encodeMessage,
  encodeMessageText,
  type JsonTextWriterTable,
  type RequirementTable,
} from "@protoc-gen-a2a/runtime";
import {
  A2AServiceResponseFields,
  typeRegistry,
} from "../../../../generated-example/gen/a2a_a2a_handler.js";
import { A2AServiceResponseJsonWriters } from "../../../../generated-example/gen/a2a_a2a_json.js";
import {
  A2AServiceResponseFields as V03ResponseFields,
  typeRegistry as v03Registry,
} from "../../../../generated-example/gen/v0_3/a2a_a2a_handler.js";
import { A2AServiceResponseJsonWriters as V03Writers } from "../../../../generated-example/gen/v0_3/a2a_a2a_json.js";
import { randomMessage } from "../../../support/proto-message-arbitrary.js";

type Verdict = { readonly text: string } | { readonly error: string };

function verdict(run: () => string): Verdict {
  try {
    return { text: run() };
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

interface WriterSuite {
  readonly label: string;
  readonly writers: JsonTextWriterTable;
  readonly responseFields: RequirementTable;
  readonly registry: Registry;
}

const suites: WriterSuite[] = [
  {
    label: "A2A 1.0",
    writers: A2AServiceResponseJsonWriters,
    responseFields: A2AServiceResponseFields,
    registry: typeRegistry,
  },
  {
    label: "A2A 0.3",
    writers: V03Writers,
    responseFields: V03ResponseFields,
    registry: v03Registry,
  },
];

/** Asserts the writer's verdict on `message` is the reference's; returns whether the reference refused it. */
function checkMessage(suite: WriterSuite, schema: DescMessage, message: Message): boolean {
  const reference = verdict(() =>
    JSON.stringify(encodeMessage(schema, message, suite.responseFields, suite.registry)),
  );
  const direct = verdict(() => suite.writers[schema.typeName]!(message, suite.registry));
  const served = verdict(() =>
    encodeMessageText(schema, message, suite.responseFields, suite.registry, suite.writers),
  );
  if ("text" in reference) {
    expect(direct).toEqual(reference);
  } else {
    expect(
      "error" in direct,
      `the writer wrote ${"text" in direct ? direct.text : ""} where toJson refuses: ${reference.error}`,
    ).toBe(true);
  }
  expect(served).toEqual(reference);
  return "error" in reference;
}

describe.each(suites)("generated ProtoJSON writers: $label", (suite) => {
  const typeNames = Object.keys(suite.writers);

  it("cover every response type of the service", () => {
    expect(typeNames.length).toBeGreaterThan(5);
    for (const typeName of typeNames)
      expect(suite.registry.getMessage(typeName), typeName).toBeDefined();
  });

  it.each(typeNames)(
    "%s: the same text as toJson + fillRequiredDefaults + JSON.stringify, the same refusals",
    (typeName) => {
      const schema = suite.registry.getMessage(typeName)!;
      let refused = 0;
      let runs = 0;
      fc.assert(
        fc.property(randomMessage(schema), (message) => {
          runs++;
          if (checkMessage(suite, schema, message)) refused++;
        }),
        { numRuns: 300 },
      );
      // The arbitrary reaches both verdicts wherever the type holds something toJson can refuse.
      expect(refused).toBeLessThan(runs);
    },
  );
});
