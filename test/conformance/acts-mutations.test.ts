/**
 * Mutation tests of the ACTS runner: the example agent behind a deliberately wrong wire
 * (test/support/acts/mutations.ts: a lowercase enum, a missing REQUIRED field, nextPageToken
 * left out, a wrong JSON-RPC code / HTTP status / gRPC status with the right reason, no
 * ErrorInfo, an unknown field, snake_case names, a stream that ends early, push deliveries
 * with the wrong token). For each mutation and binding the whole suite runs through our
 * client, and compared with an unmutated control run on the same binding the tests the
 * mutation names must newly fail: proof that the runner judges what goes over the wire.
 *
 * Each run is made twice: with the runner's wire judge (what counts), and with it off, where
 * only the suite's own assertions (reading the wire) can fail; a mutation nothing catches
 * then is a hole in ACTS itself. The table of both is printed at the end.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BINDINGS, type Binding } from "../support/acts/client.js";
import { loadActsSuite } from "../support/acts/document.js";
import {
  createGeneratedClient,
  generatedClientFeatures,
} from "../support/acts/generated-clients.js";
import {
  runSuite,
  startHarness,
  type ClientImplementation,
  type Harness,
  type RunOptions,
} from "../support/acts/harness.js";
import { MUTATIONS, type RunnerMutation } from "../support/acts/mutations.js";
import { repoRoot } from "../support/repo-root.js";

const documents = loadActsSuite(join(repoRoot, "test", "conformance", "acts", "suite.acts.yaml"));
const tests = documents.flatMap((d) => d.suites.flatMap((s) => s.tests));
const OURS: ClientImplementation = {
  name: "protoc-gen-a2a",
  factory: createGeneratedClient,
  features: generatedClientFeatures,
};

const CASES: readonly (readonly [RunnerMutation, Binding])[] = MUTATIONS.flatMap((m) =>
  m.bindings.map((b) => [m, b] as const),
);
/** Runs at a time (each is a whole suite on one binding). */
const PARALLEL = 3;

let harness: Harness | undefined;
/** Failing test ids per run: "<mutation|control> <binding> <judged|alone>". */
const failing = new Map<string, Set<string>>();
const key = (name: string, binding: Binding, judged: boolean) =>
  `${name} ${binding} ${judged ? "judged" : "alone"}`;

/** Whether `id` runs on `binding` at all (its transport filter). */
const appliesTo = (id: string, binding: Binding) => {
  const test = tests.find((t) => t.id === id);
  if (test === undefined) throw new Error(`mutations.ts names an unknown ACTS test ${id}`);
  const transports = test.transport ?? test.preconditions?.transport;
  return transports === undefined || transports.includes(binding);
};

/** The tests that fail under the mutation and pass without it. */
const newlyFailing = (mutation: RunnerMutation, binding: Binding, judged: boolean): string[] => {
  const control = failing.get(key("control", binding, judged)) ?? new Set();
  return [...(failing.get(key(mutation.name, binding, judged)) ?? [])].filter(
    (id) => !control.has(id),
  );
};

beforeAll(async () => {
  harness = await startHarness({ longRunningMs: 3000 });
  const jobs: (readonly [string, Binding, boolean, RunOptions])[] = [];
  for (const judged of [true, false]) {
    for (const binding of BINDINGS) jobs.push(["control", binding, judged, { judgeWire: judged }]);
    for (const [mutation, binding] of CASES) {
      jobs.push([
        mutation.name,
        binding,
        judged,
        {
          judgeWire: judged,
          ...(mutation.wire !== undefined ? { mutation: mutation.wire } : {}),
          ...(mutation.webhookHeaders !== undefined
            ? { webhookHeaders: mutation.webhookHeaders }
            : {}),
        },
      ]);
    }
  }
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      for (let job = jobs.shift(); job !== undefined; job = jobs.shift()) {
        const [name, binding, judged, options] = job;
        const run = await runSuite(harness!, documents, OURS, binding, {
          ...options,
          concurrency: 8,
        });
        failing.set(
          key(name, binding, judged),
          new Set(
            run.results.filter((r) => r.result === "fail" || r.result === "error").map((r) => r.id),
          ),
        );
      }
    }),
  );
}, 900_000);

afterAll(async () => {
  if (failing.size > 0) {
    const lines = [
      "",
      "ACTS runner mutations: tests that fail under the mutation and pass without it",
      "(ACTS alone = the suite's own assertions on the wire, the runner's wire judge off; judged = as the conformance run runs)",
      "",
    ];
    for (const mutation of MUTATIONS) {
      lines.push(`${mutation.name}: ${mutation.description}`);
      for (const binding of mutation.bindings) {
        const alone = newlyFailing(mutation, binding, false);
        const judged = newlyFailing(mutation, binding, true);
        lines.push(
          `  ${binding.padEnd(8)} judged: ${String(judged.length).padStart(3)} (${mutation.mustCatch.filter((id) => judged.includes(id)).join(", ")}${judged.length > 0 ? ", …" : ""})   ACTS alone: ${alone.length === 0 ? "none (a hole in ACTS)" : `${alone.length}: ${alone.join(" ")}`}`,
        );
      }
    }
    console.log(lines.join("\n"));
  }
  await harness?.close();
});

describe.each(CASES.map(([m, b]) => [m.name, b, m] as const))(
  "mutation %s on %s",
  (_name, binding, mutation) => {
    it("makes the tests it names fail, which pass without it", () => {
      expect(
        failing.has(key(mutation.name, binding, true)) &&
          failing.has(key("control", binding, true)),
        "a run produced no result",
      ).toBe(true);
      const must = mutation.mustCatch.filter((id) => appliesTo(id, binding));
      expect(must.length, "the mutation names no test for this binding").toBeGreaterThan(0);
      expect(newlyFailing(mutation, binding, true)).toEqual(expect.arrayContaining(must));
    });
  },
);
