/**
 * The A2A project's conformance suite (ACTS, test/conformance/acts/*.acts.yaml) against the
 * example agent (generated-example/agent), on all three bindings, through two clients:
 * ours (the generated clients) and @a2a-js/sdk 1.3.0's. Real servers and clients on
 * 127.0.0.1; every client call, raw step and Agent Card fetch goes through the runner's wire
 * tap and is judged on what the agent put on the wire (test/support/acts/wire-*.ts).
 *
 * The agent runs in three profiles (test/support/acts/harness.ts): full, minimal
 * capabilities, secured. Each (client, binding) result is asserted against
 * test/conformance/expected-outcomes.ts; the totals table (file × binding,
 * pass/fail/n-a/gap) and every exception are printed at the end, and the §13 JSON reports
 * are written to node_modules/.cache/acts/.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BINDINGS } from "../support/acts/client.js";
import { loadActsSuite } from "../support/acts/document.js";
import {
  createGeneratedClient,
  generatedClientFeatures,
} from "../support/acts/generated-clients.js";
import { createSdkClient, sdkClientFeatures } from "../support/acts/sdk-clients.js";
import {
  runSuite,
  startHarness,
  type ClientImplementation,
  type Harness,
} from "../support/acts/harness.js";
import type { TestResult } from "../support/acts/runner.js";
import { actsReport, exceptionsList, totalsTable, type RunReport } from "../support/acts/report.js";
import { EXPECTED_OUTCOMES } from "./expected-outcomes.js";
import { freshDatabase, type FreshDatabase } from "../support/postgres.js";
import { postgresUrl } from "../support/postgres-url.js";
import { repoRoot } from "../support/repo-root.js";

const SUITE = join(repoRoot, "test", "conformance", "acts", "suite.acts.yaml");
const documents = loadActsSuite(SUITE);
const tests = documents.flatMap((d) => d.suites.flatMap((s) => s.tests));

const CLIENTS: readonly ClientImplementation[] = [
  { name: "protoc-gen-a2a", factory: createGeneratedClient, features: generatedClientFeatures },
  { name: "@a2a-js/sdk", factory: createSdkClient, features: sdkClientFeatures },
];

/** The vitest projects "sqlite-store" and "postgres-store" run the suite again with the agent on the SQLite or PostgreSQL task store. */
const STORE =
  process.env["A2A_TEST_TASK_STORE"] === "sqlite"
    ? "sqlite"
    : process.env["A2A_TEST_TASK_STORE"] === "postgres"
      ? "postgres"
      : "memory";

/** On PostgreSQL, a database per profile (dropped after the suite): differently configured agents must not share one. */
const databases: FreshDatabase[] = [];
async function postgresDatabase(): Promise<string> {
  const database = await freshDatabase(postgresUrl(), "acts");
  databases.push(database);
  return database.url;
}

let harness: Harness | undefined;
const runs = new Map<string, RunReport>();

beforeAll(async () => {
  const taskDatabase =
    STORE === "sqlite" ? ":memory:" : STORE === "postgres" ? postgresDatabase : undefined;
  harness = await startHarness({
    longRunningMs: 5000,
    ...(taskDatabase !== undefined ? { taskDatabase } : {}),
  });
  const all = await Promise.all(
    CLIENTS.flatMap((client) =>
      BINDINGS.map((binding) => runSuite(harness!, documents, client, binding)),
    ),
  );
  for (const run of all) runs.set(`${run.implementation} ${run.binding}`, run);
}, 240_000);

afterAll(async () => {
  if (runs.size > 0) {
    const dir = join(repoRoot, "node_modules", ".cache", "acts");
    mkdirSync(dir, { recursive: true });
    const out: string[] = [];
    for (const client of CLIENTS) {
      const mine = BINDINGS.map((b) => runs.get(`${client.name} ${b}`)!).filter(Boolean);
      for (const run of mine) {
        const file = join(
          dir,
          `acts-report-${client.name.replace(/[^a-z0-9]+/gi, "-").replace(/^-|-$/g, "")}-${run.binding}-${STORE}.json`,
        );
        writeFileSync(
          file,
          `${JSON.stringify(actsReport(run, { actsVersion: documents[0]!.actsVersion, specVersion: documents[0]!.specVersion, sdkVersion: client.name === "@a2a-js/sdk" ? "1.3.0" : "0.1.0" }), null, 2)}\n`,
        );
      }
      out.push(
        `\nACTS totals, client ${client.name}, agent on the ${STORE} task store (cells: pass/fail/n-a/gap; n-a = not applicable to the binding or the agent's capabilities, gap = skipped for a missing behaviour, runner or client feature)`,
      );
      out.push(totalsTable(mine));
      out.push(`exceptions (${client.name}):`);
      out.push(exceptionsList(mine));
    }
    out.push(`\nJSON reports (ACTS §13): ${dir}`);
    console.log(out.join("\n"));
  }
  await harness?.close();
  for (const database of databases.splice(0)) await database.drop();
});

/** One line for a result: what it was, where it failed and why. */
const summaryOf = (r: TestResult) =>
  `${r.result}${r.skip_reason ? ` (${r.skip_reason})` : ""}${r.failure ? `: ${r.failure.step_id ? `[${r.failure.step_id}] ` : ""}${r.failure.message}` : ""}`;

describe.each(CLIENTS.map((c) => c.name))("ACTS with the %s client", (implementation) => {
  describe.each([...BINDINGS])("over %s", (binding) => {
    it.each(tests.map((t) => [t.id, t.level] as const))("%s (%s)", (id) => {
      const result = runs.get(`${implementation} ${binding}`)?.results.find((r) => r.id === id);
      expect(result, "the run produced no result").toBeDefined();
      const r = result!;
      const expected = (EXPECTED_OUTCOMES[id] ?? []).find(
        (e) =>
          (e.bindings ?? BINDINGS).includes(binding) &&
          (e.implementations ?? [implementation]).includes(implementation),
      );
      if (expected !== undefined) {
        // Exactly the listed outcome: same result, same step, a message matching the pattern.
        const text = r.result === "skip" ? (r.skip_reason ?? "") : (r.failure?.message ?? "");
        expect(
          { result: r.result, step: r.failure?.step_id, matches: expected.message.test(text) },
          `expected ${expected.result}${expected.step ? ` at ${expected.step}` : ""} matching ${expected.message} (${expected.reason}), got ${summaryOf(r)}`,
        ).toEqual({
          result: expected.result,
          step: expected.step,
          matches: true,
        });
        return;
      }
      const applicable =
        r.result !== "skip" || r.skip_kind === "transport" || r.skip_kind === "capability";
      expect(applicable && r.result !== "fail" && r.result !== "error", summaryOf(r)).toBe(true);
    });
  });
});

describe("a third-party client sees the same results", () => {
  it.each([...BINDINGS])(
    "over %s: @a2a-js/sdk's outcome equals ours for every test (client-side gaps aside)",
    (binding) => {
      const ours = runs.get(`protoc-gen-a2a ${binding}`)!.results;
      const theirs = runs.get(`@a2a-js/sdk ${binding}`)!.results;
      // A test listed for one implementation only is about that client, not the agent.
      const clientSpecific = (id: string) =>
        (EXPECTED_OUTCOMES[id] ?? []).some((e) => e.implementations !== undefined);
      const outcome = (r: TestResult) =>
        `${r.id}: ${r.result}${r.failure?.step_id ? ` at ${r.failure.step_id}` : ""}${r.skip_reason ? ` (${r.skip_reason})` : ""}`;
      expect(theirs.filter((r) => !clientSpecific(r.id)).map(outcome)).toEqual(
        ours.filter((r) => !clientSpecific(r.id)).map(outcome),
      );
    },
  );
});
