// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Several example agent processes on one real PostgreSQL (A2A_TASK_DB=postgres://…), behind a
 * round-robin front (test/support/round-robin.ts: an HTTP/1.1 reverse proxy and an h2c proxy for
 * gRPC), as a deployment behind a load balancer runs them: real processes, real sockets on
 * 127.0.0.1, no mocks (test/support/agent-cluster.ts).
 *
 * Three instances a, b, c start once. Through the front: the Agent Card names the front, and ACTS
 * (every binding) passes as it does against one process. Across instances (each call sent to the
 * instance named): streams on one instance get every event of a task running on another, CancelTask
 * reaches the executor wherever it runs, turns of one task run one at a time in arrival order, an
 * SSE stream cut on one instance resumes on another with Last-Event-ID, a killed instance's task is
 * failed by the others after its lease, an instance that joins leaves running tasks alone, and one
 * that is stopped with SIGTERM ends its task with an event and exits 0.
 *
 * Instances heartbeat every 200 ms with a 4 s lease; the only timed bounds are that lease (and the
 * shutdown grace) plus a generous margin, which is what the cluster guarantees.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { join } from "node:path";
import pg from "pg";
import WebSocket from "ws";
import { WS_PROTOCOL_BINDING } from "../../../generated-example/bindings/ws/ws-operations.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ExampleAgent } from "../../../generated-example/agent/echo-agent.js";
import { connectA2AService } from "../../../generated-example/gen/a2a_a2a_agent_client.js";
import { checkA2AServiceBindingEquivalence } from "../../../generated-example/gen/a2a_a2a_equivalence.js";
import type { A2AServiceClient } from "../../../generated-example/gen/a2a_a2a_handler.js";
import {
  Role,
  type StreamResponse,
  type Task,
  TaskState,
} from "../../../generated-example/gen/a2a_pb.js";
import { EXPECTED_OUTCOMES } from "../../conformance/expected-outcomes.js";
import { BINDINGS } from "../../support/acts/client.js";
import { loadActsSuite } from "../../support/acts/document.js";
import {
  createGeneratedClient,
  generatedClientFeatures,
} from "../../support/acts/generated-clients.js";
import {
  CREDENTIALS,
  type ClientImplementation,
  type Harness,
  runSuite,
} from "../../support/acts/harness.js";
import { exceptionsList, type RunReport, totalsTable } from "../../support/acts/report.js";
import type { TestResult } from "../../support/acts/runner.js";
import {
  type AgentCluster,
  type AgentInstance,
  agentBundle,
  CLUSTER_BINDINGS,
  startAgentCluster,
} from "../../support/agent-cluster.js";
import { bindingsBehindFront } from "../../support/round-robin-equivalence.js";
import {
  isTerminal,
  labelOf,
  readAll,
  reading,
  type SseBinding,
  sendStreaming,
  sseEvents,
  stateOf,
  subscribe,
  taskIdOf,
  userMessage,
  type WireEvent,
} from "../../support/agent-cluster-sse.js";
import { repoRoot } from "../../support/repo-root.js";

/** Bearer tokens of ACTS's principals (test/support/acts/harness.ts), so that its auth tests run against the cluster too. */
const TOKENS = {
  [CREDENTIALS.reader]: { subject: "acts-reader", extendedCard: true },
  [CREDENTIALS.limited]: { subject: "acts-limited", extendedCard: false, tasks: false },
  [CREDENTIALS.other]: { subject: "acts-other", extendedCard: false },
};

/** How long tck-long-running works on the cluster (ms): long enough for a stream to be cut, resumed or joined while it runs. */
const LONG_RUNNING_MS = 4_000;

/** The example agent as ACTS's "full" profile runs it (test/support/acts/harness.ts), on every instance of the cluster. */
const FULL_PROFILE = { tokens: TOKENS, allowPrivateWebhooks: true, longRunningMs: LONG_RUNNING_MS };

/** Beyond the lease (or the shutdown grace), what a survivor may take to notice and write the FAILED event on a loaded 2-core machine. */
const MARGIN_MS = 5_000;

/** The example agent's shutdown grace (ExampleAgentOptions.shutdownGraceMs default). */
const SHUTDOWN_GRACE_MS = 5_000;

let cluster: AgentCluster;

beforeAll(async () => {
  // main.ts's bundle is made now, while the instances start: the instance that joins later starts from it at once.
  const example = agentBundle("example");
  cluster = await startAgentCluster({ size: 3, name: "multi", agentOptions: FULL_PROFILE });
  await example;
}, 120_000);

afterAll(async () => {
  await cluster?.close();
});

afterEach(({ task }) => {
  // The instances' stderr explains most failures (a refused start, an error while stopping, a lost connection).
  if (task.result?.state === "fail") console.error(cluster?.diagnostics());
});

/** A user message for the generated clients: `text` in one part; `messageId` may select a TCK behaviour. */
function message(text: string, options: { messageId?: string; taskId?: string } = {}) {
  return {
    messageId: options.messageId ?? randomUUID(),
    role: Role.USER,
    parts: [{ content: { case: "text" as const, value: text } }],
    ...(options.taskId !== undefined ? { taskId: options.taskId } : {}),
  };
}

/** A TCK messageId for `behaviour` (`tck-cancel-1a2b3c4d`), which selects it whatever the text. */
const tckId = (behaviour: string) => `${behaviour}-${randomBytes(4).toString("hex")}`;

/** The task a SendMessage answered with (fails the test on a Message). */
async function sendTask(
  client: A2AServiceClient,
  request: Parameters<A2AServiceClient["sendMessage"]>[0],
): Promise<Task> {
  const response = await client.sendMessage(request, { timeoutMs: 20_000 });
  if (response.payload.case !== "task")
    throw new Error(`expected a task, got ${response.payload.case}`);
  return response.payload.value;
}

/** The state of a task on an instance, by name (`WORKING`). */
async function stateOn(client: A2AServiceClient, taskId: string): Promise<string> {
  const task = await client.getTask({ id: taskId, historyLength: 0 }, { timeoutMs: 10_000 });
  return TaskState[task.status?.state ?? TaskState.UNSPECIFIED] ?? "?";
}

/** Polls `check` until it holds (at most `ms`, default 15 s: a bound for "eventually", not a measured guarantee). */
async function until(
  what: string,
  check: () => boolean | Promise<boolean>,
  ms = 15_000,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not reached within ${ms} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A short label of a generated client's stream event (`status:COMPLETED`), as {@link labelOf} labels SSE events. */
function labelOfEvent(event: StreamResponse): string {
  switch (event.payload.case) {
    case "task":
      return `task:${TaskState[event.payload.value.status?.state ?? 0]}`;
    case "statusUpdate":
      return `status:${TaskState[event.payload.value.status?.state ?? 0]}`;
    case "artifactUpdate":
      return `artifact:${event.payload.value.artifact?.artifactId}`;
    default:
      return String(event.payload.case);
  }
}

/** Reads a generated client's stream in the background into `events`. */
function collecting(stream: AsyncIterable<StreamResponse>): {
  readonly events: StreamResponse[];
  readonly done: Promise<StreamResponse[]>;
} {
  const events: StreamResponse[] = [];
  const done = (async () => {
    for await (const event of stream) events.push(event);
    return events;
  })();
  done.catch(() => undefined);
  return { events, done };
}

/** Opens a WebSocket to `url`, sends `request` (one frame of the example's WebSocket binding), resolves with the first frame back. */
async function wsCall(
  url: string,
  request: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const socket = new WebSocket(url, { perMessageDeflate: false });
  try {
    return await new Promise((resolve, reject) => {
      socket.once("error", reject);
      socket.once("open", () => socket.send(JSON.stringify(request)));
      socket.once("message", (data) =>
        resolve(JSON.parse(String(data)) as Record<string, unknown>),
      );
    });
  } finally {
    socket.close();
  }
}

/** Sequence numbers that go up by one from the first. */
function expectContiguous(events: readonly WireEvent[], taskId: string): void {
  for (const event of events)
    expect(event.id, `an event without its id: ${labelOf(event.payload)}`).toMatch(
      new RegExp(`^\\d+:${taskId}$`),
    );
  const seqs = events.map((e) => e.seq as number);
  expect(seqs).toEqual(seqs.map((_, i) => (seqs[0] as number) + i));
}

/** ACTS's agent profiles as clusters behind their fronts, for the runner (test/support/acts/harness.ts's profiles). */
type Profile = Harness["profiles"][number];

/** A profile of the ACTS harness whose "agent" is a cluster's front. */
async function profileOf(
  name: string,
  target: AgentCluster,
  callHeaders: Record<string, string> = {},
  variables: Record<string, string> = {},
): Promise<Profile> {
  const card = (await (await fetch(target.endpoints.cardUrl)).json()) as Profile["card"];
  return {
    name,
    agent: { endpoints: target.endpoints } as unknown as ExampleAgent,
    card,
    callHeaders,
    variables,
  };
}

/** A task the "other" principal owns (SEC-AUTH-003's `otherUserTaskId`), made through the front. */
async function taskOfOtherPrincipal(target: AgentCluster): Promise<string> {
  const response = await fetch(target.endpoints.jsonrpc, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "a2a-version": "1.0",
      authorization: `Bearer ${CREDENTIALS.other}`,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "SendMessage",
      params: { message: userMessage("tck-complete-task of another user") },
    }),
  });
  const id = ((await response.json()) as { result?: { task?: { id?: string } } }).result?.task?.id;
  if (typeof id !== "string") throw new Error("could not create the other principal's task");
  return id;
}

/** Whether an ACTS result is what test/conformance/acts.test.ts accepts: the listed exception exactly, else a pass or a skip that does not apply. */
function actsProblem(r: TestResult, binding: string, implementation: string): string | undefined {
  const summary = `${r.result}${r.skip_reason ? ` (${r.skip_reason})` : ""}${r.failure ? `: ${r.failure.step_id ? `[${r.failure.step_id}] ` : ""}${r.failure.message}` : ""}`;
  const expected = (EXPECTED_OUTCOMES[r.id] ?? []).find(
    (e) =>
      (e.bindings ?? BINDINGS).includes(binding as never) &&
      (e.implementations ?? [implementation]).includes(implementation),
  );
  if (expected !== undefined) {
    const text = r.result === "skip" ? (r.skip_reason ?? "") : (r.failure?.message ?? "");
    const same =
      r.result === expected.result &&
      r.failure?.step_id === expected.step &&
      expected.message.test(text);
    return same
      ? undefined
      : `${r.id} (${r.level}): expected ${expected.result}${expected.step ? ` at ${expected.step}` : ""} (${expected.reason.slice(0, 80)}…), got ${summary}`;
  }
  const applicable =
    r.result !== "skip" || r.skip_kind === "transport" || r.skip_kind === "capability";
  return applicable && r.result !== "fail" && r.result !== "error"
    ? undefined
    : `${r.id} (${r.level}): ${summary}`;
}

describe("three example agent processes on one PostgreSQL, behind a round-robin front", () => {
  it("the front sends requests to every instance in turn; its Agent Card (the same from each) names the front, so clients that discover the agent go through it", async () => {
    const before = cluster.front.served();
    const responses = await Promise.all([0, 1, 2].map(() => fetch(cluster.endpoints.cardUrl)));
    const cards = await Promise.all(
      responses.map(
        (r) =>
          r.json() as Promise<{ supportedInterfaces: { url: string; protocolBinding: string }[] }>,
      ),
    );
    // One card: same body and ETag whichever instance answered.
    expect(new Set(responses.map((r) => r.headers.get("etag"))).size).toBe(1);
    expect(cards[1]).toEqual(cards[0]);
    const urls = Object.fromEntries(
      cards[0]!.supportedInterfaces.map((i) => [i.protocolBinding, i.url]),
    );
    expect(urls).toMatchObject({
      JSONRPC: `${cluster.front.url}/a2a/jsonrpc`,
      "HTTP+JSON": `${cluster.front.url}/a2a/rest`,
      GRPC: expect.stringContaining(cluster.front.grpcAddress),
    });
    for (const iface of cards[0]!.supportedInterfaces)
      expect(
        [new URL(cluster.front.url).host, cluster.front.grpcAddress].some((host) =>
          iface.url.includes(host),
        ),
        iface.url,
      ).toBe(true);
    // A client that discovers the agent from the card, on each binding: every call lands on the front, which spreads them.
    const ids: string[] = [];
    for (const binding of CLUSTER_BINDINGS) {
      const connection = await connectA2AService(cluster.endpoints.cardUrl, {
        bindings: [binding],
      });
      const task = await sendTask(connection.client, {
        message: message(`via the card over ${binding}`),
      });
      expect(TaskState[task.status?.state ?? 0]).toBe("COMPLETED");
      for (let i = 0; i < 3; i++)
        expect(await stateOn(connection.client, task.id)).toBe("COMPLETED");
      ids.push(task.id);
    }
    // The WebSocket binding's URL too: the upgrade goes through the front.
    expect(urls[WS_PROTOCOL_BINDING]).toBe(`ws://${new URL(cluster.front.url).host}/a2a/ws`);
    const frame = await wsCall(urls[WS_PROTOCOL_BINDING]!, {
      id: 1,
      method: "GetTask",
      params: { id: ids[0] },
      serviceParameters: { "A2A-Version": "1.0" },
    });
    expect(frame).toMatchObject({
      id: 1,
      result: { id: ids[0], status: { state: "TASK_STATE_COMPLETED" } },
    });
    const after = cluster.front.served();
    for (const id of ["a", "b", "c"])
      expect(after[id] ?? 0, `requests served by ${id}`).toBeGreaterThanOrEqual(
        (before[id] ?? 0) + 4,
      );
  });

  it("ACTS through the front, on JSON-RPC, HTTP+JSON and gRPC: every test ends as it does against one process (every must test passes)", async () => {
    const documents = loadActsSuite(
      join(repoRoot, "test", "conformance", "acts", "suite.acts.yaml"),
    );
    const client: ClientImplementation = {
      name: "protoc-gen-a2a",
      factory: createGeneratedClient,
      features: generatedClientFeatures,
    };
    // ACTS's other two agent profiles (test/support/acts/harness.ts), as clusters of their own.
    const [minimal, secured] = await Promise.all([
      startAgentCluster({
        size: 2,
        name: "acts_minimal",
        agentOptions: {
          tokens: TOKENS,
          capabilities: { streaming: false, pushNotifications: false, extendedAgentCard: false },
        },
      }),
      startAgentCluster({
        size: 2,
        name: "acts_secured",
        agentOptions: { tokens: TOKENS, requireAuthentication: true },
      }),
    ]);
    try {
      const authorization = `Bearer ${CREDENTIALS.reader}`;
      const harness: Harness = {
        profiles: [
          await profileOf("full", cluster),
          await profileOf("minimal-capabilities", minimal),
          await profileOf(
            "secured",
            secured,
            { authorization },
            { otherUserTaskId: await taskOfOtherPrincipal(secured) },
          ),
        ],
        close: async () => {},
      };
      const runs: RunReport[] = await Promise.all(
        BINDINGS.map((binding) => runSuite(harness, documents, client, binding)),
      );
      const must = runs.map((run) => {
        const results = run.results.filter((r) => r.level === "must");
        const failed = results.filter((r) => r.result === "fail" || r.result === "error");
        const listed = failed.filter((r) => EXPECTED_OUTCOMES[r.id] !== undefined).length;
        return `${run.binding}: ${results.filter((r) => r.result === "pass").length} pass, ${failed.length} fail (${listed} of them listed in expected-outcomes.ts), ${results.filter((r) => r.result === "skip").length} n/a of ${results.length}`;
      });
      console.log(
        [
          `\nACTS totals through the round-robin front (3 + 2 + 2 instances on PostgreSQL), client ${client.name} (cells: pass/fail/n-a/gap)`,
          totalsTable(runs),
          `must tests: ${must.join("; ")}`,
          `exceptions:`,
          exceptionsList(runs),
        ].join("\n"),
      );
      const problems = runs.flatMap((run) =>
        run.results
          .map((r) => actsProblem(r, run.binding, client.name))
          .filter((p) => p !== undefined)
          .map((p) => `${run.binding}: ${p}`),
      );
      if (problems.length > 0) console.error(`${minimal.diagnostics()}\n${secured.diagnostics()}`);
      expect(problems).toEqual([]);
    } finally {
      await Promise.all([minimal.close(), secured.close()]);
    }
  }, 150_000);

  it("the binding-equivalence kit through a round-robin front gives the direct bindings' outcomes (it serves its own reference agent: it cannot target the cluster)", async () => {
    const report = await checkA2AServiceBindingEquivalence({
      candidates: {
        "JSONRPC via front": bindingsBehindFront.JSONRPC,
        "HTTP+JSON via front": bindingsBehindFront["HTTP+JSON"],
        "GRPC via front": bindingsBehindFront.GRPC,
      },
    });
    expect(report.failures.map((f) => `${f.binding}: ${f.message}`)).toEqual([]);
    expect(
      report.cells.filter((c) => c.binding.endsWith("via front") && c.status === "pass").length,
    ).toBeGreaterThan(0);
    console.log(
      `binding-equivalence kit through the front: ${report.scenarios.length} scenarios × ${report.bindings.length} bindings, ${report.cells.filter((c) => c.status === "pass").length} pass, ${report.cells.filter((c) => c.status === "n/a").length} n/a, ${report.failures.length} failures`,
    );
  });

  it("SubscribeToTask on b (SSE) and c (gRPC) while the task runs on a: every event, in order, contiguous ids, to COMPLETED", async () => {
    const [a, b, c] = [cluster.instance("a"), cluster.instance("b"), cluster.instance("c")];
    const onA = reading(
      await sendStreaming(
        "JSONRPC",
        a.endpoints,
        userMessage("subscribe across instances", { messageId: tckId("tck-long-running") }),
      ),
    );
    await until("a's stream shows the task WORKING", () =>
      onA.events.some((e) => stateOf(e.payload) === "TASK_STATE_WORKING"),
    );
    const taskId = taskIdOf(onA.events[0]!.payload)!;
    const onB = reading(await subscribe("JSONRPC", b.endpoints, taskId));
    const onC = collecting(c.clients.GRPC.subscribeToTask({ id: taskId }, { timeoutMs: 30_000 }));
    const [fromA, fromB, fromC] = await Promise.all([onA.done, onB.done, onC.done]);
    // a streamed the whole turn: task, WORKING, the artifact, COMPLETED, numbered 1, 2, 3, …
    expect(fromA.map((e) => labelOf(e.payload))).toEqual([
      "task:SUBMITTED",
      "status:WORKING",
      "artifact:result",
      "status:COMPLETED",
    ]);
    expectContiguous(fromA, taskId);
    expect(fromA[0]!.seq).toBe(1);
    // b: a snapshot of the task as of some event k, then exactly a's events after k (same payloads, same ids).
    expect(fromB[0]!.payload["task"]).toBeDefined();
    expectContiguous(fromB, taskId);
    const k = fromB[0]!.seq as number;
    expect(fromB.slice(1).map((e) => ({ id: e.id, payload: e.payload }))).toEqual(
      fromA.filter((e) => (e.seq as number) > k).map((e) => ({ id: e.id, payload: e.payload })),
    );
    expect(stateOf(fromB.at(-1)!.payload)).toBe("TASK_STATE_COMPLETED");
    // c (gRPC has no ids): a snapshot, then a's last events, ending COMPLETED.
    const labelsC = fromC.map(labelOfEvent);
    expect(labelsC[0]).toMatch(/^task:/);
    const labelsA = fromA.map((e) => labelOf(e.payload));
    expect(labelsA.slice(labelsA.length - (labelsC.length - 1))).toEqual(labelsC.slice(1));
    expect(labelsC.at(-1)).toBe("status:COMPLETED");
  });

  it("CancelTask on b of a task streaming on a: a's stream ends CANCELED, b answers CANCELED, GetTask on every instance says CANCELED", async () => {
    const [a, b, c] = [cluster.instance("a"), cluster.instance("b"), cluster.instance("c")];
    const onA = collecting(
      a.clients.GRPC.sendStreamingMessage(
        { message: message("cancel across instances", { messageId: tckId("tck-cancel") }) },
        { timeoutMs: 30_000 },
      ),
    );
    await until("a's stream shows the task WORKING", () =>
      onA.events.some((e) => labelOfEvent(e) === "status:WORKING"),
    );
    const taskId = (onA.events[0]!.payload.value as Task).id;
    const onC = reading(await subscribe("HTTP+JSON", c.endpoints, taskId));
    await until("c's stream has its snapshot", () => onC.events.length > 0);
    const canceled = await b.clients["HTTP+JSON"].cancelTask({ id: taskId }, { timeoutMs: 20_000 });
    expect(TaskState[canceled.status?.state ?? 0]).toBe("CANCELED");
    // The executor on a saw its signal abort: tck-cancel ends without a word of its own (no FAILED after the cap), its stream CANCELED.
    expect((await onA.done).map(labelOfEvent).at(-1)).toBe("status:CANCELED");
    expect(labelOf((await onC.done).at(-1)!.payload)).toBe("status:CANCELED");
    for (const [instance, binding] of [
      [a, "JSONRPC"],
      [b, "HTTP+JSON"],
      [c, "GRPC"],
    ] as const)
      expect(
        await stateOn(instance.clients[binding], taskId),
        `GetTask on ${instance.id} over ${binding}`,
      ).toBe("CANCELED");
  });

  it("two SendMessage turns of one task, on a and b at once: one at a time (no overlap), in order of arrival, both messages in the history", async () => {
    const [a, b, c] = [cluster.instance("a"), cluster.instance("b"), cluster.instance("c")];
    const task = await sendTask(a.clients.JSONRPC, {
      message: message("tck-multi-turn across instances"),
    });
    expect(TaskState[task.status?.state ?? 0]).toBe("INPUT_REQUIRED");
    // The first turn is held in the database (a row lock on the task, which its commit waits for), so that the
    // second arrives while the first runs; then both are let go. Arrival order = the order of the turn tickets.
    const db = new pg.Client({ connectionString: cluster.database.url });
    await db.connect();
    const tickets = async () =>
      Number(
        (
          await db.query<{ n: string }>("SELECT count(*) AS n FROM a2a_turns WHERE task_id = $1", [
            task.id,
          ])
        ).rows[0]?.n,
      );
    const holder = new pg.Client({ connectionString: cluster.database.url });
    await holder.connect();
    try {
      await holder.query("BEGIN");
      await holder.query("SELECT 1 FROM a2a_tasks WHERE id = $1 FOR UPDATE", [task.id]);
      const first = sendTask(a.clients.JSONRPC, {
        message: message("first follow-up, on a", {
          taskId: task.id,
          messageId: tckId("tck-input-required"),
        }),
      });
      first.catch(() => undefined);
      await until("a's turn holds its ticket", async () => (await tickets()) === 1);
      const second = sendTask(b.clients.GRPC, {
        message: message("second follow-up, on b", {
          taskId: task.id,
          messageId: tckId("tck-auth-required"),
        }),
      });
      second.catch(() => undefined);
      await until("b's turn waits with a ticket behind a's", async () => (await tickets()) === 2);
      await holder.query("ROLLBACK");
      expect(TaskState[(await first).status?.state ?? 0]).toBe("INPUT_REQUIRED");
      expect(TaskState[(await second).status?.state ?? 0]).toBe("AUTH_REQUIRED");
      // Both turns gave their tickets back (a release follows the answer).
      await until("both tickets released", async () => (await tickets()) === 0);
    } finally {
      await holder.end().catch(() => undefined);
      await db.end().catch(() => undefined);
    }
    const final = await c.clients["HTTP+JSON"].getTask({ id: task.id }, { timeoutMs: 10_000 });
    const text = (m: { parts: { content: { case?: string; value?: unknown } }[] }) =>
      String(m.parts[0]?.content.value ?? "");
    // Each turn's user message is followed by its own reply: a turn ran only after the previous one ended.
    expect(
      final.history.map((m) => `${m.role === Role.USER ? "user" : "agent"}: ${text(m)}`),
    ).toEqual([
      "user: tck-multi-turn across instances",
      "user: first follow-up, on a",
      "agent: What else should I know?",
      "user: second follow-up, on b",
      "agent: Authorization required: send the credentials in the next message.",
    ]);
    expect(TaskState[final.status?.state ?? 0]).toBe("AUTH_REQUIRED");
  });

  it.each(["JSONRPC", "HTTP+JSON"] as const)(
    "SSE over %s: a stream cut on a after 2 events and resumed on b with Last-Event-ID gets every event exactly once, contiguous ids",
    async (binding: SseBinding) => {
      const [a, b] = [cluster.instance("a"), cluster.instance("b")];
      const cut = new AbortController();
      const first: WireEvent[] = [];
      const response = await sendStreaming(
        binding,
        a.endpoints,
        userMessage("resume across instances", { messageId: tckId("tck-long-running") }),
        cut.signal,
      );
      for await (const event of sseEvents(response)) {
        first.push(event);
        if (first.length === 2) break;
      }
      cut.abort();
      const taskId = taskIdOf(first[0]!.payload)!;
      const lastEventId = first[1]!.id!;
      expect(lastEventId).toBe(`2:${taskId}`);
      const resumed = await readAll(await subscribe(binding, b.endpoints, taskId, { lastEventId }));
      // No snapshot on resumption: only what came after event 2, up to the end.
      expect(resumed[0]?.payload["task"]).toBeUndefined();
      const union = [...first, ...resumed];
      expectContiguous(union, taskId);
      expect(union.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
      expect(union.map((e) => labelOf(e.payload))).toEqual([
        "task:SUBMITTED",
        "status:WORKING",
        "artifact:result",
        "status:COMPLETED",
      ]);
    },
  );

  it("kill -9 of the instance running a task: streams on the others end FAILED within the lease (+ margin), GetTask says FAILED everywhere, nothing acknowledged is lost", async () => {
    const [a, b, c] = [cluster.instance("a"), cluster.instance("b"), cluster.instance("c")];
    // Acknowledged by c before it dies: one completed task per binding.
    const done = await Promise.all(
      CLUSTER_BINDINGS.map((binding) =>
        sendTask(c.clients[binding], { message: message(`completed on c over ${binding}`) }),
      ),
    );
    for (const t of done) expect(TaskState[t.status?.state ?? 0]).toBe("COMPLETED");
    const running = await sendTask(c.clients.JSONRPC, {
      message: message("doomed", { messageId: tckId("tck-cancel") }),
      configuration: { returnImmediately: true },
    });
    await until(
      "the task runs (WORKING)",
      async () => (await stateOn(a.clients.JSONRPC, running.id)) === "WORKING",
    );
    const onA = reading(await subscribe("JSONRPC", a.endpoints, running.id));
    const onB = collecting(
      b.clients.GRPC.subscribeToTask({ id: running.id }, { timeoutMs: 60_000 }),
    );
    await until(
      "both streams have their snapshot",
      () => onA.events.length > 0 && onB.events.length > 0,
    );
    const killedAt = Date.now();
    await cluster.kill("c");
    const [fromA, fromB] = await Promise.all([onA.done, onB.done]);
    const noticedMs = Date.now() - killedAt;
    expect(
      noticedMs,
      `FAILED reached the streams ${noticedMs} ms after the kill (lease ${cluster.leaseMs} ms)`,
    ).toBeLessThan(cluster.leaseMs + MARGIN_MS);
    expect(labelOf(fromA.at(-1)!.payload)).toBe("status:FAILED");
    expectContiguous(fromA, running.id);
    expect(fromB.map(labelOfEvent).at(-1)).toBe("status:FAILED");
    for (const instance of [a, b]) {
      expect(
        await stateOn(instance.clients["HTTP+JSON"], running.id),
        `GetTask on ${instance.id}`,
      ).toBe("FAILED");
      for (const t of done) {
        const found = await instance.clients.GRPC.getTask({ id: t.id }, { timeoutMs: 10_000 });
        expect(
          TaskState[found.status?.state ?? 0],
          `task ${t.id} completed on c, read on ${instance.id}`,
        ).toBe("COMPLETED");
        expect(found.artifacts.map((x) => x.artifactId)).toEqual(
          t.artifacts.map((x) => x.artifactId),
        );
      }
    }
  });

  it("an instance that joins (npm run example's main.ts) while others run tasks leaves them alone: they complete", async () => {
    const [a, b] = [cluster.instance("a"), cluster.instance("b")];
    const start = (x: AgentInstance, behaviour: string) =>
      sendTask(x.clients.JSONRPC, {
        message: message(`running on ${x.id} while d joins`, { messageId: tckId(behaviour) }),
        configuration: { returnImmediately: true },
      });
    // Two that finish on their own (after LONG_RUNNING_MS), and one that runs until canceled, whatever d's start takes.
    const finishing = await Promise.all([
      start(a, "tck-long-running"),
      start(b, "tck-long-running"),
    ]);
    const open = await start(a, "tck-cancel");
    await until("every task runs (WORKING)", async () =>
      (await Promise.all([...finishing, open].map((t) => stateOn(b.clients.GRPC, t.id)))).every(
        (s) => s === "WORKING",
      ),
    );
    const d = await cluster.start({ id: "d", entry: "example" });
    // d reclaimed at its start: the tasks of live instances were left alone (running, or finished by their own instance)…
    expect(await stateOn(d.clients.GRPC, open.id), "the open task right after d started").toBe(
      "WORKING",
    );
    for (const t of finishing)
      expect(["WORKING", "COMPLETED"], `task ${t.id} right after d started`).toContain(
        await stateOn(d.clients.GRPC, t.id),
      );
    // …and end as their own instances finish them, seen from d.
    for (const t of finishing) {
      await until(
        `task ${t.id} ends`,
        async () => (await stateOn(d.clients.JSONRPC, t.id)) !== "WORKING",
      );
      expect(await stateOn(d.clients.JSONRPC, t.id)).toBe("COMPLETED");
    }
    expect(await stateOn(a.clients.JSONRPC, open.id), "the open task, still running on a").toBe(
      "WORKING",
    );
    expect(
      TaskState[
        (await d.clients["HTTP+JSON"].cancelTask({ id: open.id }, { timeoutMs: 20_000 })).status
          ?.state ?? 0
      ],
    ).toBe("CANCELED");
    expect(
      cluster.front
        .backends()
        .map((x) => x.id)
        .sort(),
    ).toEqual(["a", "b", "d"]);
  });

  it("SIGTERM of an instance running a short task: the task ends (COMPLETED or FAILED, with an event) within the shutdown grace; the process exits 0", async () => {
    const [a, d] = [cluster.instance("a"), cluster.instance("d")];
    // A short task: test-resubscribe-message-id works 4 s (less than the 5 s shutdown grace), then completes.
    const task = await sendTask(d.clients["HTTP+JSON"], {
      message: message("running on d when it stops", {
        messageId: tckId("test-resubscribe-message-id"),
      }),
      configuration: { returnImmediately: true },
    });
    await until(
      "the task runs (WORKING)",
      async () => (await stateOn(a.clients.JSONRPC, task.id)) === "WORKING",
    );
    const onA = reading(await subscribe("HTTP+JSON", a.endpoints, task.id));
    await until("a's stream has its snapshot", () => onA.events.length > 0);
    const stoppedAt = Date.now();
    const exit = await cluster.stop("d");
    expect(exit).toEqual({ code: 0, signal: null });
    const events = await onA.done;
    const endedMs = Date.now() - stoppedAt;
    expect(endedMs, `the task's last event came ${endedMs} ms after SIGTERM`).toBeLessThan(
      SHUTDOWN_GRACE_MS + MARGIN_MS,
    );
    const last = stateOf(events.at(-1)!.payload);
    expect(
      isTerminal(last) && ["TASK_STATE_COMPLETED", "TASK_STATE_FAILED"].includes(last!),
      `last event ${labelOf(events.at(-1)!.payload)}`,
    ).toBe(true);
    expectContiguous(events, task.id);
    expect(`TASK_STATE_${await stateOn(a.clients.GRPC, task.id)}`).toBe(last);
    expect(d.stderr()).not.toMatch(/error while stopping/);
  });
});
