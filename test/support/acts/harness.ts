/**
 * The conformance harness: the example agent in its three profiles, and a run of the whole
 * ACTS suite through one client on one binding with the runner on the wire.
 *
 * Profiles: "full" (streaming, push notifications, extended card; bearer tokens optional)
 * takes the suite; "minimal-capabilities" (no optional capability) takes the tests whose
 * preconditions want a capability absent; "secured" (every operation needs a bearer token,
 * the card says so in `securityRequirements`; the runner calls with the reader's token)
 * takes the tests that want authentication required. A test goes to the first profile whose
 * card meets its preconditions.
 *
 * Each run gets wire taps of its own in front of the agents (optionally mutating what passes,
 * for the runner's mutation tests) and a webhook of its own; raw steps, the Agent Card and
 * every client call go through the taps.
 */
import { randomUUID } from "node:crypto";
import {
  startExampleAgent,
  type ExampleAgent,
  type ExampleAgentOptions,
} from "../../../generated-example/agent/echo-agent.js";
import type { Logger } from "@protoc-gen-a2a/runtime";
import { behaviours } from "../../../generated-example/agent/behaviours.js";
import type { ActsClientFactory, Binding, ClientFeatures, JsonObject } from "./client.js";
import type { ActsDocument } from "./document.js";
import { wirePayloadParser } from "./client-steps.js";
import { sendHttp } from "./raw-http.js";
import type { RunReport } from "./report.js";
import { runActs, type RunnerConfig, type TestResult } from "./runner.js";
import { specialChecks } from "./special-checks.js";
import { startRunnerWebhook, type RunnerWebhook } from "./webhook.js";
import { startWireTap, type WireExchange, type WireMutation, type WireTap } from "./wire-tap.js";

export interface ClientImplementation {
  readonly name: string;
  readonly factory: ActsClientFactory;
  readonly features: ClientFeatures;
}

/** Bearer tokens of every profile: may read the extended card; may use neither tasks nor the extended card (ACTS `insufficientAuthToken`); a second ordinary principal. */
export const CREDENTIALS = {
  reader: "acts-reader-token",
  limited: "acts-limited-token",
  other: "acts-other-token",
} as const;
const TOKENS: ExampleAgentOptions["tokens"] = {
  [CREDENTIALS.reader]: { subject: "acts-reader", extendedCard: true },
  [CREDENTIALS.limited]: { subject: "acts-limited", extendedCard: false, tasks: false },
  [CREDENTIALS.other]: { subject: "acts-other", extendedCard: false },
};

interface Profile {
  readonly name: string;
  readonly agent: ExampleAgent;
  readonly card: JsonObject;
  /** Headers of every operation (the secured profile's credentials). */
  readonly callHeaders: Readonly<Record<string, string>>;
  readonly variables: Readonly<Record<string, string>>;
}

export interface Harness {
  readonly profiles: readonly Profile[];
  close(): Promise<void>;
}

/** A task the "other" principal owns on `agent` (SEC-AUTH-003's `otherUserTaskId`). */
async function taskOfOtherPrincipal(agent: ExampleAgent): Promise<string> {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "SendMessage",
    params: {
      message: {
        messageId: randomUUID(),
        role: "ROLE_USER",
        parts: [{ text: "tck-complete-task of another user" }],
      },
    },
  });
  const result = await sendHttp({
    method: "POST",
    url: agent.endpoints.jsonrpc,
    headers: {
      "content-type": "application/json",
      "a2a-version": "1.0",
      authorization: `Bearer ${CREDENTIALS.other}`,
    },
    body,
    signal: AbortSignal.timeout(10_000),
  });
  const id = (result.body as { result?: { task?: { id?: string } } }).result?.task?.id;
  if (typeof id !== "string")
    throw new Error(`could not create the other principal's task: ${JSON.stringify(result.body)}`);
  return id;
}

/**
 * The agents' logger: ACTS registers webhooks nobody listens on (https://example.com/…), so failed push deliveries
 * are expected and not logged; everything else goes to the console.
 */
const ACTS_LOGGER: Logger = {
  error: (message, ...details) => console.error(message, ...details),
  warn: (message, ...details) => {
    if (!message.startsWith("example agent: push notification for task "))
      console.warn(message, ...details);
  },
};

/** Starts the three profiles of the example agent (`store`: its task store option). */
export async function startHarness(options: {
  readonly taskDatabase?: string | (() => Promise<string>);
  readonly longRunningMs: number;
}): Promise<Harness> {
  const start = async (
    name: string,
    agentOptions: ExampleAgentOptions,
    callHeaders: Record<string, string> = {},
  ): Promise<Profile> => {
    // A function gives each profile a database of its own (PostgreSQL: instances sharing one serve each other's tasks and push deliveries).
    const taskDatabase =
      typeof options.taskDatabase === "function"
        ? await options.taskDatabase()
        : options.taskDatabase;
    const agent = await startExampleAgent({
      tokens: TOKENS,
      logger: ACTS_LOGGER,
      ...(taskDatabase !== undefined ? { taskDatabase } : {}),
      ...agentOptions,
    });
    const card = (await (await fetch(agent.cardUrl)).json()) as JsonObject;
    return { name, agent, card, callHeaders, variables: {} };
  };
  const [full, minimal, secured] = await Promise.all([
    start("full", { longRunningMs: options.longRunningMs, allowPrivateWebhooks: true }),
    start("minimal-capabilities", {
      capabilities: { streaming: false, pushNotifications: false, extendedAgentCard: false },
    }),
    start(
      "secured",
      { requireAuthentication: true },
      { authorization: `Bearer ${CREDENTIALS.reader}` },
    ),
  ]);
  const profiles = [
    full,
    minimal,
    { ...secured, variables: { otherUserTaskId: await taskOfOtherPrincipal(secured.agent) } },
  ];
  return {
    profiles,
    close: async () => void (await Promise.all(profiles.map((p) => p.agent.close()))),
  };
}

export interface RunOptions {
  /** Makes the taps a deliberately wrong agent (mutation tests). */
  readonly mutation?: WireMutation;
  /** Rewrites the headers of each delivery reaching the webhook, as a wrong agent would send them. */
  readonly webhookHeaders?: (headers: Record<string, string>) => Record<string, string>;
  /** See RunnerConfig.judgeWire. Default true. */
  readonly judgeWire?: boolean;
  readonly concurrency?: number;
  /** Sees every JSON-RPC / HTTP+JSON / card exchange of the run, as it crossed the wire. */
  readonly onExchange?: (exchange: WireExchange) => void;
}

/** Runs `documents` through `client` on `binding` against the harness's agents; the results of every test. */
export async function runSuite(
  harness: Harness,
  documents: readonly ActsDocument[],
  client: ClientImplementation,
  binding: Binding,
  options: RunOptions = {},
): Promise<RunReport> {
  const webhook: RunnerWebhook = await startRunnerWebhook(options.webhookHeaders);
  const taps: WireTap[] = await Promise.all(
    harness.profiles.map((p) =>
      startWireTap(p.agent.endpoints, {
        ...(options.onExchange !== undefined ? { onExchange: options.onExchange } : {}),
      }),
    ),
  );
  for (const tap of taps) tap.mutate(options.mutation);
  const clients = await Promise.all(taps.map((tap) => client.factory(binding, tap.endpoints)));
  try {
    const base = {
      binding,
      behaviours: new Set(behaviours.map(([prefix]) => prefix)),
      authHeaders: { authorization: `Bearer ${CREDENTIALS.reader}` },
      runnerRequirements: new Set([
        "webhook_endpoint",
        "concurrent_streams",
        "stream_disconnect",
        "header_inspection",
      ]),
      specialChecks: specialChecks(webhook, CREDENTIALS, client.features),
      parseWirePayload: wirePayloadParser(client.factory, binding),
      concurrency: options.concurrency ?? 12,
      judgeWire: options.judgeWire !== false,
    };
    let results: TestResult[] | undefined;
    for (const [i, profile] of harness.profiles.entries()) {
      const config: RunnerConfig = {
        ...base,
        client: clients[i]!,
        wire: taps[i]!,
        endpoints: taps[i]!.endpoints,
        card: profile.card,
        callHeaders: profile.callHeaders,
        variables: {
          webhookUrl: webhook.url,
          insufficientAuthToken: CREDENTIALS.limited,
          SUT_BASE_URL: new URL(taps[i]!.endpoints.cardUrl).origin,
          ...profile.variables,
        },
      };
      if (results === undefined) {
        results = await runActs(documents, config);
        continue;
      }
      // Tests the profiles so far could not take for a capability run against this one.
      const waiting = new Set(results.filter((r) => r.skip_kind === "capability").map((r) => r.id));
      if (waiting.size === 0) break;
      const more = await runActs(documents, config, (t) => waiting.has(t.id));
      results = results.map((r) => {
        const other = more.find((s) => s.id === r.id);
        return other === undefined || other.skip_kind === "capability"
          ? r
          : { ...other, notes: [...other.notes, `ran against the ${profile.name} agent`] };
      });
    }
    return { implementation: client.name, binding, results: results! };
  } finally {
    await Promise.all(clients.map((c) => c.close()));
    await Promise.all([...taps.map((t) => t.close()), webhook.close()]);
  }
}
