/**
 * The A2A project's conformance suite (ACTS, test/conformance/acts/*.acts.yaml) against the
 * example agent (generated-example/agent), on all three bindings, through two clients:
 * ours (the generated clients) and @a2a-js/sdk 1.3.0's. Real servers and clients on
 * 127.0.0.1.
 *
 * The agent runs twice: the full profile (streaming, push notifications, extended card,
 * bearer tokens) for the suite, and a minimal profile (no optional capability) for the tests
 * whose preconditions ask for a capability to be absent. Each (client, binding) result is
 * asserted against test/conformance/expected-outcomes.ts; the totals table (file × binding,
 * pass/fail/n-a/gap) and every exception are printed at the end, and the §13 JSON reports
 * are written to node_modules/.cache/acts/.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startExampleAgent, type ExampleAgent } from "../generated-example/agent/echo-agent.js";
import { behaviours } from "../generated-example/agent/behaviours.js";
import { BINDINGS, type ActsClientFactory, type Binding, type JsonObject, type JsonValue } from "./support/acts/client.js";
import { loadActsSuite } from "./support/acts/document.js";
import { createGeneratedClient } from "./support/acts/generated-clients.js";
import { createSdkClient } from "./support/acts/sdk-clients.js";
import { wirePayloadParser } from "./support/acts/client-steps.js";
import { runActs, type TestResult } from "./support/acts/runner.js";
import { actsReport, exceptionsList, totalsTable, type RunReport } from "./support/acts/report.js";
import { specialChecks, type WebhookRecorder } from "./support/acts/special-checks.js";
import { listen, type Listening } from "./support/servers.js";
import { EXPECTED_OUTCOMES } from "./conformance/expected-outcomes.js";

const SUITE = join(import.meta.dirname, "conformance", "acts", "suite.acts.yaml");
const documents = loadActsSuite(SUITE);
const tests = documents.flatMap((d) => d.suites.flatMap((s) => s.tests));

const CLIENTS: readonly { readonly name: string; readonly factory: ActsClientFactory }[] = [
  { name: "protoc-gen-a2a", factory: createGeneratedClient },
  { name: "@a2a-js/sdk", factory: createSdkClient },
];

/** The vitest project "sqlite-store" runs the suite again with the agent on the SQLite task store. */
const STORE = process.env["A2A_TEST_TASK_STORE"] === "sqlite" ? "sqlite" : "memory";
const storeOption = STORE === "sqlite" ? { taskDatabase: ":memory:" } : {};

/** Bearer tokens of the full agent: one that may read the extended card, one that may not (ACTS `insufficientAuthToken`). */
const TOKENS = { "acts-reader-token": { subject: "acts-reader", extendedCard: true }, "acts-limited-token": { subject: "acts-limited", extendedCard: false } };

let full: ExampleAgent;
let minimal: ExampleAgent;
let webhook: Listening;
const received: { headers: Record<string, string | string[] | undefined>; body: JsonValue }[] = [];
const runs = new Map<string, RunReport>();

async function card(agent: ExampleAgent): Promise<JsonObject> {
  return (await (await fetch(agent.cardUrl)).json()) as JsonObject;
}

async function runOne(client: (typeof CLIENTS)[number], binding: Binding): Promise<RunReport> {
  const recorder: WebhookRecorder = { url: webhook.url, received };
  const base = {
    binding,
    behaviours: new Set(behaviours.map(([prefix]) => prefix)),
    variables: { webhookUrl: webhook.url, insufficientAuthToken: "acts-limited-token", SUT_BASE_URL: new URL(full.cardUrl).origin },
    authHeaders: { authorization: "Bearer acts-reader-token" },
    runnerRequirements: new Set(["webhook_endpoint", "concurrent_streams", "stream_disconnect", "header_inspection"]),
    specialChecks: specialChecks(recorder, { reader: "acts-reader-token", limited: "acts-limited-token" }),
    parseWirePayload: wirePayloadParser(client.factory, binding),
    concurrency: 12,
  };
  const fullClient = await client.factory(binding, full.endpoints);
  const minimalClient = await client.factory(binding, minimal.endpoints);
  try {
    const results = await runActs(documents, { ...base, client: fullClient, endpoints: full.endpoints, card: await card(full) });
    // Tests the full agent cannot take because they want a capability to be absent run against the minimal agent.
    const absent = new Set(results.filter((r) => r.skip_kind === "capability").map((r) => r.id));
    const second = await runActs(documents, { ...base, client: minimalClient, endpoints: minimal.endpoints, card: await card(minimal) }, (t) => absent.has(t.id));
    const merged = results.map((r): TestResult => {
      const other = second.find((s) => s.id === r.id);
      return other === undefined || other.skip_kind === "capability" ? r : { ...other, notes: [...other.notes, "ran against the minimal-capabilities agent"] };
    });
    return { implementation: client.name, binding, results: merged };
  } finally {
    await Promise.all([fullClient.close(), minimalClient.close()]);
  }
}

beforeAll(async () => {
  webhook = await listen((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      let body: JsonValue = null;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as JsonValue;
      } catch {
        body = Buffer.concat(chunks).toString("utf8");
      }
      received.push({ headers: req.headers, body });
      res.writeHead(200).end();
    });
  });
  [full, minimal] = await Promise.all([
    startExampleAgent({ longRunningMs: 5000, tokens: TOKENS, allowPrivateWebhooks: true, ...storeOption }),
    startExampleAgent({ capabilities: { streaming: false, pushNotifications: false, extendedAgentCard: false }, tokens: TOKENS, ...storeOption }),
  ]);
  const all = await Promise.all(CLIENTS.flatMap((client) => BINDINGS.map((binding) => runOne(client, binding))));
  for (const run of all) runs.set(`${run.implementation} ${run.binding}`, run);
}, 240_000);

afterAll(async () => {
  if (runs.size > 0) {
    const dir = join(import.meta.dirname, "..", "node_modules", ".cache", "acts");
    mkdirSync(dir, { recursive: true });
    const out: string[] = [];
    for (const client of CLIENTS) {
      const mine = BINDINGS.map((b) => runs.get(`${client.name} ${b}`)!).filter(Boolean);
      for (const run of mine) {
        const file = join(dir, `acts-report-${client.name.replace(/[^a-z0-9]+/gi, "-").replace(/^-|-$/g, "")}-${run.binding}-${STORE}.json`);
        writeFileSync(file, `${JSON.stringify(actsReport(run, { actsVersion: documents[0]!.actsVersion, specVersion: documents[0]!.specVersion, sdkVersion: client.name === "@a2a-js/sdk" ? "1.3.0" : "0.1.0" }), null, 2)}\n`);
      }
      out.push(`\nACTS totals, client ${client.name}, agent on the ${STORE} task store (cells: pass/fail/n-a/gap; n-a = not applicable to the binding or the agent's capabilities, gap = skipped for a missing behaviour or runner feature)`);
      out.push(totalsTable(mine));
      out.push(`exceptions (${client.name}):`);
      out.push(exceptionsList(mine));
    }
    out.push(`\nJSON reports (ACTS §13): ${dir}`);
    console.log(out.join("\n"));
  }
  await Promise.all([full?.close(), minimal?.close(), webhook?.close()]);
});

describe.each(CLIENTS.map((c) => c.name))("ACTS with the %s client", (implementation) => {
  describe.each([...BINDINGS])("over %s", (binding) => {
    it.each(tests.map((t) => [t.id, t.level] as const))("%s (%s)", (id) => {
      const result = runs.get(`${implementation} ${binding}`)?.results.find((r) => r.id === id);
      expect(result, "the run produced no result").toBeDefined();
      const expected = (EXPECTED_OUTCOMES[id] ?? []).find((e) => (e.bindings ?? BINDINGS).includes(binding) && (e.implementations ?? [implementation]).includes(implementation));
      const summary = `${result!.result}${result!.skip_reason ? ` (${result!.skip_reason})` : ""}${result!.failure ? `: ${result!.failure.step_id ? `[${result!.failure.step_id}] ` : ""}${result!.failure.message}` : ""}`;
      if (expected !== undefined) {
        expect(summary.startsWith(expected.result), `expected ${expected.result} (${expected.reason}), got ${summary}`).toBe(true);
        return;
      }
      const applicable = result!.result !== "skip" || result!.skip_kind === "transport" || result!.skip_kind === "capability";
      expect(applicable && result!.result !== "fail" && result!.result !== "error", summary).toBe(true);
    });
  });
});

describe("a third-party client sees the same results", () => {
  it.each([...BINDINGS])("over %s: @a2a-js/sdk's outcome equals ours for every test", (binding) => {
    const ours = runs.get(`protoc-gen-a2a ${binding}`)!.results;
    const theirs = runs.get(`@a2a-js/sdk ${binding}`)!.results;
    const outcome = (r: TestResult) => `${r.id}: ${r.result}${r.failure?.step_id ? ` at ${r.failure.step_id}` : ""}${r.skip_reason ? ` (${r.skip_reason})` : ""}`;
    expect(theirs.map(outcome)).toEqual(ours.map(outcome));
  });
});
