/**
 * Agreement property test: for payloads of every request message, generated from the
 * descriptors (valid ones, and ones broken or bent in one place, test/support/proto-json-arbitrary.ts),
 * the JSON Schema bundle's verdict equals the server's verdict (ProtoJSON decoding plus the
 * REQUIRED, exactly-one and range validation) on every binding that takes JSON: JSON-RPC
 * (every method, the whole envelope against `<Rpc>.JsonRpcRequest`) and HTTP+JSON (every
 * route with a body, against `<Rpc>.HttpRequestBody`), through the generated servers.
 *
 * Two ProtoJSON leniencies are not in the schema (it is the stricter one there, by design):
 * proto (snake_case) field names and `null` values. For those mutations the test checks
 * the one direction that matters to a validating gateway: what the schema accepts, the
 * server accepts.
 */
import type { DescMessage, DescMethod, JsonValue } from "@bufbuild/protobuf";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { A2AService } from "../../../../generated-example/gen/a2a_pb.js";
import { A2AServiceRoutes } from "../../../../generated-example/gen/a2a_a2a_rest_routes.js";
import {
  MUTATION_KINDS,
  mutate,
  validJson,
  type MutationKind,
} from "../../../support/proto-json-arbitrary.js";
import { operationDef, validate } from "../../../support/schema-validator.js";
import { jsonRpcVerdict, restVerdict, type Verdict } from "../../../support/stub-servers.js";

interface Tally {
  runs: number;
  accepted: number;
  rejected: number;
  lenient: number;
  byKind: Map<MutationKind, number>;
}
const tally: Tally = { runs: 0, accepted: 0, rejected: 0, lenient: 0, byKind: new Map() };

/** Payload + a mutation kind applied at some place (or none, when the payload has no such place). */
function mutated(desc: DescMessage, skip: ReadonlySet<string> = new Set()) {
  return fc
    .record({
      json: validJson(desc, 0, skip),
      first: fc.nat(MUTATION_KINDS.length - 1),
      pick: fc.nat(),
      salt: fc.nat(),
    })
    .map(({ json, first, pick, salt }) => {
      // The drawn kind, or the next one that has a place in this payload ("none" always has).
      for (let i = 0; i < MUTATION_KINDS.length; i++) {
        const kind = MUTATION_KINDS[(first + i) % MUTATION_KINDS.length]!;
        const changed = mutate(desc, json, kind, pick, salt);
        if (changed !== undefined) return { kind, payload: changed };
      }
      return { kind: "none" as MutationKind, payload: json };
    });
}

function judge(
  kind: MutationKind,
  schema: string[],
  server: { verdict: Verdict; detail: string },
  payload: JsonValue,
): void {
  tally.runs++;
  tally.byKind.set(kind, (tally.byKind.get(kind) ?? 0) + 1);
  tally[server.verdict]++;
  const schemaVerdict: Verdict = schema.length === 0 ? "accepted" : "rejected";
  const where = `${kind}: schema ${schemaVerdict} (${schema.slice(0, 3).join("; ")}), server ${server.verdict} (${server.detail}) for ${JSON.stringify(payload)}`;
  if (kind.startsWith("lenient:")) {
    if (schemaVerdict !== server.verdict) tally.lenient++;
    // What the schema accepts, the server accepts.
    if (schemaVerdict === "accepted") expect(server.verdict, where).toBe("accepted");
    return;
  }
  expect(schemaVerdict, where).toBe(server.verdict);
}

const RUNS_PER_METHOD = 1000;
const RUNS_PER_ROUTE = 800;

describe("JSON Schema and server agree", () => {
  const methods = A2AService.methods as readonly DescMethod[];

  describe.each(methods.map((m) => [m.name, m] as const))("JSON-RPC %s", (name, method) => {
    it(`agrees on ${RUNS_PER_METHOD} generated payloads`, async () => {
      await fc.assert(
        fc.asyncProperty(mutated(method.input), async ({ kind, payload }) => {
          const envelope = { jsonrpc: "2.0", id: 1, method: name, params: payload };
          judge(
            kind,
            validate(operationDef(name, "JsonRpcRequest"), envelope),
            await jsonRpcVerdict(envelope),
            payload,
          );
        }),
        { numRuns: RUNS_PER_METHOD },
      );
    }, 120_000);
  });

  // The main route of every operation that takes a JSON body; path variables get fixed values and stay out of the body.
  const bodyRoutes = A2AServiceRoutes.routes.filter(
    (r) => r.body !== "" && r.pattern.variables.every((v) => v.field !== "tenant"),
  );
  describe.each(bodyRoutes.map((r) => [`${r.method} ${r.template}`, r] as const))(
    "HTTP+JSON %s",
    (_name, route) => {
      const method = methods.find((m) => m.name === route.operation)!;
      const inPath = new Set(route.pattern.variables.map((v) => v.field));
      const path = route.template.replace(
        /\{([^}=]+)(?:=[^}]*)?\}/g,
        (_m, field: string) => `p-${field}`,
      );

      it(`agrees on ${RUNS_PER_ROUTE} generated payloads`, async () => {
        await fc.assert(
          fc.asyncProperty(mutated(method.input, inPath), async ({ kind, payload }) => {
            judge(
              kind,
              validate(operationDef(route.operation, "HttpRequestBody"), payload),
              await restVerdict(route.method, path, payload),
              payload,
            );
          }),
          { numRuns: RUNS_PER_ROUTE },
        );
      }, 120_000);
    },
  );

  it("ran at least 10,000 payloads, valid and invalid ones, every kind of mutation", () => {
    const kinds = Object.fromEntries(tally.byKind);
    console.log(
      `agreement: ${tally.runs} payloads, ${tally.accepted} accepted and ${tally.rejected} rejected by both; ${tally.lenient} lenient ProtoJSON forms the schema refuses and the server reads; by kind ${JSON.stringify(kinds)}`,
    );
    expect(tally.runs).toBeGreaterThanOrEqual(10_000);
    expect(tally.accepted).toBeGreaterThan(tally.runs * 0.2);
    expect(tally.rejected).toBeGreaterThan(tally.runs * 0.2);
    // Each kind ran (rare ones, like a bad timestamp, only where requests have such a field).
    for (const kind of MUTATION_KINDS) expect(tally.byKind.get(kind) ?? 0, kind).toBeGreaterThan(2);
  });
});
