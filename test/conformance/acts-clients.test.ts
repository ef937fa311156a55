/**
 * The two `ActsClientFactory`s of the ACTS runner (test/support/acts): OUR generated clients and
 * @a2a-js/sdk 1.3.0's client transports, on all three bindings, against one real agent on
 * 127.0.0.1 (the generated task handler over a small executor; JSON-RPC and HTTP+JSON on one
 * node:http server next to the Agent Card, gRPC on grpc-js). Each client runs the same scenario;
 * the ProtoJSON both implementations produce must agree (server-generated ids and timestamps aside).
 * These are the clients' own readings; the conformance run checks them against the wire.
 */
import { create } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentCardSchema, type AgentCard } from "../../generated-example/gen/a2a_pb.js";
import type { A2AServiceHandler } from "../../generated-example/gen/a2a_a2a_handler.js";
import {
  createA2AServiceTaskHandler,
  type A2AServiceExecutor,
  type A2AServiceRequestContext,
  type A2AServiceTaskEmitter,
} from "../../generated-example/gen/a2a_a2a_task_handler.js";
import { createA2AServiceJsonRpcServer } from "../../generated-example/gen/a2a_a2a_jsonrpc_server.js";
import { createA2AServiceRestServer } from "../../generated-example/gen/a2a_a2a_rest_server.js";
import { listenA2AServiceGrpc } from "../../generated-example/gen/a2a_a2a_grpc_server.js";
import type { AuthenticateFn } from "@protoc-gen-a2a/runtime";
import { UnauthenticatedError } from "../../generated-example/gen/a2a_a2a_errors.js";
import type { GrpcEndpoint } from "@protoc-gen-a2a/runtime/grpc";
import {
  BINDINGS,
  type ActsClient,
  type ActsClientFactory,
  type AgentEndpoints,
  type Binding,
  type CallOptions,
  type JsonObject,
  type JsonValue,
  type OperationOutcome,
  type StreamOutcome,
} from "../support/acts/client.js";
import { createGeneratedClient } from "../support/acts/generated-clients.js";
import { createSdkClient } from "../support/acts/sdk-clients.js";
import { AGENT_CARD_PATH, agentCardListener } from "../support/sdk-agent.js";
import { listen, eventually, type Listening } from "../support/servers.js";
import { Gate, textOf } from "../support/task-runtime-binding.js";
import { TestAgent } from "../support/test-agent.js";

// ---------------------------------------------------------------------------------------------
// The agent under test
// ---------------------------------------------------------------------------------------------

/**
 * "hello…" → a stateless Message "echo: hello…"; "work" → WORKING, artifact "out", COMPLETED;
 * "hold" → SUBMITTED until canceled; "gate" → SUBMITTED until the test opens its gate, then WORKING,
 * artifact "out", COMPLETED.
 */
class ActsExecutor implements A2AServiceExecutor {
  readonly gates = new Map<string, Gate>();

  async execute(context: A2AServiceRequestContext, emitter: A2AServiceTaskEmitter): Promise<void> {
    const text = textOf(context.message);
    if (text.startsWith("hello")) return emitter.reply(`echo: ${text}`);
    if (text === "hold") {
      await emitter.submit();
      await new Promise<void>((resolve) =>
        context.signal.aborted
          ? resolve()
          : context.signal.addEventListener("abort", () => resolve(), { once: true }),
      );
      return;
    }
    if (text === "gate") {
      const gate = new Gate();
      this.gates.set(context.taskId, gate);
      await emitter.submit();
      await gate.promise;
    }
    await emitter.working();
    await emitter.addArtifact({
      artifactId: "out",
      name: "out",
      parts: [{ content: { case: "text", value: "WORK DONE" } }],
    });
    await emitter.complete("done");
  }
}

interface Agent {
  readonly endpoints: AgentEndpoints;
  readonly executor: ActsExecutor;
  /** Task ids with a SubscribeToTask stream that has delivered its first event. */
  readonly subscribed: Set<string>;
  close(): Promise<void>;
}

async function startAgent(): Promise<Agent> {
  const executor = new ActsExecutor();
  const extendedCard = create(AgentCardSchema, {
    name: "ACTS test agent (extended)",
    description: "what authenticated callers see",
    version: "1.0.0",
    capabilities: { streaming: true, pushNotifications: true, extendedAgentCard: true },
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [{ id: "work", name: "Work", description: "Does the work", tags: ["work"] }],
  });
  const taskHandler = createA2AServiceTaskHandler<unknown>({
    executor,
    capabilities: { streaming: true, pushNotifications: true, extendedAgentCard: true },
    extendedAgentCard: extendedCard,
    onError: () => {},
  });
  const subscribed = new Set<string>();
  const handler: A2AServiceHandler<unknown> = {
    ...taskHandler,
    async *subscribeToTask(request, context) {
      for await (const event of taskHandler.subscribeToTask(request, context)) {
        subscribed.add(request.id);
        yield event;
      }
    },
  };
  const logger = { error: () => {} };
  // "Bearer good" → a principal; no authorization → anonymous; anything else → UnauthenticatedError
  const authenticate: AuthenticateFn<unknown> = ({ serviceParameters }) => {
    const authorization = serviceParameters.get("authorization");
    if (authorization === undefined) return undefined;
    if (authorization === "Bearer good") return { user: "good" };
    throw new UnauthenticatedError("bad credentials");
  };
  const jsonrpc = createA2AServiceJsonRpcServer(handler, {
    basePath: "/a2a/jsonrpc",
    logger,
    authenticate,
  });
  const rest = createA2AServiceRestServer(handler, {
    basePath: "/a2a/rest",
    keepAliveMs: 0,
    logger,
    authenticate,
  });
  let card: AgentCard | undefined;
  const http: Listening = await listen(
    agentCardListener(
      () => card,
      (req, res) =>
        req.url?.startsWith("/a2a/jsonrpc") ? jsonrpc.node(req, res) : rest.node(req, res),
    ),
  );
  const grpc: GrpcEndpoint = await listenA2AServiceGrpc(handler, { logger, authenticate });
  const base = `http://127.0.0.1:${http.port}`;
  const endpoints: AgentEndpoints = {
    cardUrl: `${base}${AGENT_CARD_PATH}`,
    jsonrpc: `${base}/a2a/jsonrpc`,
    rest: `${base}/a2a/rest`,
    grpc: grpc.address,
  };
  card = create(AgentCardSchema, {
    name: "ACTS test agent",
    description: "the agent the ACTS client factories are tested against",
    version: "1.0.0",
    supportedInterfaces: [
      { url: endpoints.jsonrpc, protocolBinding: "JSONRPC", protocolVersion: "1.0" },
      { url: endpoints.rest, protocolBinding: "HTTP+JSON", protocolVersion: "1.0" },
      { url: endpoints.grpc, protocolBinding: "GRPC", protocolVersion: "1.0" },
    ],
    capabilities: { streaming: true, pushNotifications: true, extendedAgentCard: true },
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [{ id: "work", name: "Work", description: "Does the work", tags: ["work"] }],
  });
  return {
    endpoints,
    executor,
    subscribed,
    close: async () => {
      await http.close();
      await grpc.close();
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The scenario every client runs
// ---------------------------------------------------------------------------------------------

type Outcome = OperationOutcome | StreamOutcome;

const opts = (headers: Record<string, string> = {}): CallOptions => ({
  headers,
  signal: AbortSignal.timeout(10_000),
});

const userMessage = (tag: string, n: number, text: string, extra: JsonObject = {}): JsonObject => ({
  message: {
    messageId: `m-${tag}-${n}`,
    contextId: `ctx-${tag}`,
    role: "ROLE_USER",
    parts: [{ text }],
    ...extra,
  },
});

function body(outcome: Outcome | undefined): JsonObject {
  if (outcome === undefined || !("ok" in outcome))
    throw new Error(`not a unary outcome: ${JSON.stringify(outcome)}`);
  if (!outcome.ok) throw new Error(`the call failed: ${JSON.stringify(outcome.error)}`);
  return outcome.body as JsonObject;
}

function field(value: JsonValue | undefined, ...path: (string | number)[]): JsonValue | undefined {
  let v: JsonValue | undefined = value;
  for (const key of path) {
    if (v === null || typeof v !== "object") return undefined;
    v = Array.isArray(v) ? v[key as number] : v[key as string];
  }
  return v;
}

/** The steps, in order, with their outcomes. */
async function runScenario(client: ActsClient, agent: Agent): Promise<Record<string, Outcome>> {
  const tag = `${client.implementation === "@a2a-js/sdk" ? "sdk" : "gen"}-${client.binding}`;
  const out: Record<string, Outcome> = {};

  out["send_message→message"] = await client.call(
    "send_message",
    userMessage(tag, 1, "hello there"),
    opts(),
  );
  out["send_message→task"] = await client.call("send_message", userMessage(tag, 2, "work"), opts());
  const done = String(field(body(out["send_message→task"]), "task", "id"));
  out["get_task"] = await client.call("get_task", { id: done, historyLength: 5 }, opts());
  out["list_tasks"] = await client.call(
    "list_tasks",
    { contextId: `ctx-${tag}`, includeArtifacts: true },
    opts(),
  );

  // returnImmediately: the call comes back while the task is SUBMITTED (it stays so until canceled)
  out["send_message→held task"] = await client.call(
    "send_message",
    { ...userMessage(tag, 4, "hold"), configuration: { returnImmediately: true } },
    opts(),
  );
  const held = String(field(body(out["send_message→held task"]), "task", "id"));
  out["cancel_task(running)"] = await client.call("cancel_task", { id: held }, opts());
  out["cancel_task(completed)"] = await client.call("cancel_task", { id: done }, opts());
  out["get_task(unknown)"] = await client.call("get_task", { id: "no-such-task" }, opts());

  out["create_push_config"] = await client.call(
    "create_push_config",
    {
      taskId: done,
      id: "cfg-1",
      url: "https://example.com/hook",
      token: "tok-1",
      authentication: { scheme: "Bearer", credentials: "s3cret" },
    },
    opts(),
  );
  out["get_push_config"] = await client.call(
    "get_push_config",
    { taskId: done, id: "cfg-1" },
    opts(),
  );
  out["list_push_configs"] = await client.call("list_push_configs", { taskId: done }, opts());
  out["delete_push_config"] = await client.call(
    "delete_push_config",
    { taskId: done, id: "cfg-1" },
    opts(),
  );
  out["list_push_configs(after delete)"] = await client.call(
    "list_push_configs",
    { taskId: done },
    opts(),
  );
  out["get_extended_agent_card"] = await client.call(
    "get_extended_agent_card",
    {},
    opts({ authorization: "Bearer good" }),
  );
  out["get_extended_agent_card(anonymous)"] = await client.call(
    "get_extended_agent_card",
    {},
    opts(),
  );
  out["get_task(bad credentials)"] = await client.call(
    "get_task",
    { id: done },
    opts({ authorization: "Bearer bad" }),
  );

  out["send_streaming_message"] = await client.stream(
    "send_streaming_message",
    userMessage(tag, 5, "work"),
    opts(),
  );

  // subscribe_to_task on a task held at its gate: the snapshot, then what happens once the gate opens
  out["send_message→gated task"] = await client.call(
    "send_message",
    { ...userMessage(tag, 6, "gate"), configuration: { returnImmediately: true } },
    opts(),
  );
  const gated = String(field(body(out["send_message→gated task"]), "task", "id"));
  const subscription = client.stream("subscribe_to_task", { id: gated }, opts());
  await eventually(() => agent.subscribed.has(gated), 5000);
  await eventually(() => agent.executor.gates.has(gated), 5000);
  agent.executor.gates.get(gated)?.open();
  out["subscribe_to_task"] = await subscription;
  out["subscribe_to_task(completed)"] = await client.stream(
    "subscribe_to_task",
    { id: done },
    opts(),
  );
  return out;
}

/**
 * Server-generated ids become `<id1>`, `<id2>`, … in order of appearance (also inside strings), and
 * timestamps `<ts>`: what remains must be the same for both implementations.
 */
function normalize(value: unknown): unknown {
  const ids = new Map<string, string>();
  const ID_KEYS = new Set(["id", "taskId", "contextId", "messageId"]);
  const collect = (v: unknown, key?: string): void => {
    if (Array.isArray(v)) for (const x of v) collect(x, key);
    else if (v !== null && typeof v === "object")
      for (const [k, x] of Object.entries(v)) collect(x, k);
    else if (typeof v === "string" && key !== undefined && ID_KEYS.has(key) && !ids.has(v))
      ids.set(v, `<id${ids.size + 1}>`);
  };
  collect(value);
  const known = [...ids.keys()].sort((a, b) => b.length - a.length);
  const replace = (v: unknown, key?: string): unknown => {
    if (Array.isArray(v)) return v.map((x) => replace(x, key));
    if (v !== null && typeof v === "object")
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, replace(x, k)]));
    if (typeof v !== "string") return v;
    if (key === "timestamp") return "<ts>";
    const whole = ids.get(v);
    if (whole !== undefined) return whole;
    let s = v;
    for (const id of known) s = s.split(id).join(ids.get(id) ?? id);
    return s;
  };
  return replace(value);
}

/** Catalog errors @a2a-js/sdk 1.3.0 has no class for (its table: the nine A2A errors and RequestMalformedError). */
const NOT_IN_SDK_TABLE = new Set([
  "JsonParseError",
  "InvalidRequestError",
  "MethodNotFoundError",
  "InternalError",
  "UnauthenticatedError",
  "PermissionDeniedError",
]);

/** Outcomes without what the SDK cannot surface for errors outside its table (REST: details; gRPC: the wire message). */
function withoutSdkGaps(
  binding: Binding,
  outcomes: Record<string, Outcome>,
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(outcomes).map(([step, o]) => {
      if (binding === "jsonrpc" || !("ok" in o) || o.ok || !NOT_IN_SDK_TABLE.has(o.error.type))
        return [step, o];
      const { details: _d, message: _m, ...rest } = o.error;
      return [
        step,
        {
          ok: false,
          error: {
            ...rest,
            ...(binding === "grpc" ? { details: o.error.details } : { message: o.error.message }),
          },
        },
      ];
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// The tests
// ---------------------------------------------------------------------------------------------

const FACTORIES: readonly (readonly [string, ActsClientFactory])[] = [
  ["protoc-gen-a2a", createGeneratedClient],
  ["@a2a-js/sdk", createSdkClient],
];

let agent: Agent;
const results = new Map<string, Record<string, Outcome>>();

beforeAll(async () => {
  agent = await startAgent();
});
afterAll(async () => {
  await agent?.close();
});

async function withClient<T>(
  factory: ActsClientFactory,
  binding: Binding,
  fn: (client: ActsClient) => Promise<T>,
): Promise<T> {
  const client = await factory(binding, agent.endpoints);
  try {
    return await fn(client);
  } finally {
    await client.close();
  }
}

describe.each(BINDINGS)("binding %s", (binding) => {
  describe.each(FACTORIES)("%s", (implementation, factory) => {
    it("runs the scenario: replies, tasks, cancel, errors, push configs, extended card, streams", async () => {
      const out = await withClient(factory, binding, async (client) => {
        expect(client.binding).toBe(binding);
        expect(client.implementation).toBe(implementation);
        return runScenario(client, agent);
      });
      results.set(`${implementation}/${binding}`, out);

      const reply = body(out["send_message→message"]);
      expect(field(reply, "message", "role")).toBe("ROLE_AGENT");
      expect(field(reply, "message", "parts")).toEqual([{ text: "echo: hello there" }]);
      expect(field(reply, "task")).toBeUndefined();

      const task = body(out["send_message→task"]);
      expect(field(task, "task", "status", "state")).toBe("TASK_STATE_COMPLETED");
      expect(field(task, "task", "artifacts", 0, "parts")).toEqual([{ text: "WORK DONE" }]);
      expect(typeof field(task, "task", "status", "timestamp")).toBe("string");

      const got = body(out["get_task"]);
      expect(got["id"]).toBe(field(task, "task", "id"));
      expect(field(got, "status", "state")).toBe("TASK_STATE_COMPLETED");
      expect(field(got, "history", 0, "role")).toBe("ROLE_USER");

      const list = body(out["list_tasks"]);
      expect((list["tasks"] as JsonObject[]).map((t) => t["id"])).toEqual([
        field(task, "task", "id"),
      ]);

      expect(field(body(out["send_message→held task"]), "task", "status", "state")).toBe(
        "TASK_STATE_SUBMITTED",
      );
      expect(field(body(out["cancel_task(running)"]), "status", "state")).toBe(
        "TASK_STATE_CANCELED",
      );

      const notCancelable = out["cancel_task(completed)"] as OperationOutcome;
      expect(notCancelable.ok).toBe(false);
      if (notCancelable.ok) return;
      expect(notCancelable.error).toMatchObject({ type: "TaskNotCancelableError" });

      const notFound = out["get_task(unknown)"] as OperationOutcome;
      if (notFound.ok) throw new Error("get_task of an unknown id succeeded");
      expect(notFound.error).toMatchObject({ type: "TaskNotFoundError" });
      expect(notFound.error.details?.[0]).toMatchObject({
        "@type": "type.googleapis.com/google.rpc.ErrorInfo",
        reason: "TASK_NOT_FOUND",
        domain: "a2a-protocol.org",
      });

      expect(body(out["create_push_config"])).toMatchObject({
        id: "cfg-1",
        url: "https://example.com/hook",
        token: "tok-1",
      });
      expect(body(out["get_push_config"])).toEqual(body(out["create_push_config"]));
      expect(body(out["list_push_configs"])).toEqual({
        configs: [body(out["create_push_config"])],
      });
      expect(body(out["delete_push_config"])).toEqual({});
      expect(body(out["list_push_configs(after delete)"])).toEqual({});
      expect(body(out["get_extended_agent_card"])).toMatchObject({
        name: "ACTS test agent (extended)",
        capabilities: { pushNotifications: true },
      });

      const streamed = out["send_streaming_message"] as StreamOutcome;
      expect(streamed.error).toBeUndefined();
      expect(streamed.events.map((e) => Object.keys(e as JsonObject)[0])).toEqual([
        "task",
        "statusUpdate",
        "artifactUpdate",
        "statusUpdate",
      ]);
      expect(field(streamed.events.at(-1), "statusUpdate", "status", "state")).toBe(
        "TASK_STATE_COMPLETED",
      );

      const subscribed = out["subscribe_to_task"] as StreamOutcome;
      expect(subscribed.error).toBeUndefined();
      expect(subscribed.events.map((e) => Object.keys(e as JsonObject)[0])).toEqual([
        "task",
        "statusUpdate",
        "artifactUpdate",
        "statusUpdate",
      ]);
      expect(field(subscribed.events[0], "task", "status", "state")).toBe("TASK_STATE_SUBMITTED");
      expect(field(subscribed.events.at(-1), "statusUpdate", "status", "state")).toBe(
        "TASK_STATE_COMPLETED",
      );

      const terminal = out["subscribe_to_task(completed)"] as StreamOutcome;
      expect(terminal.events).toEqual([]);
      expect(terminal.error).toMatchObject({ type: "UnsupportedOperationError" });
    });
  });

  it("both implementations produce the same ProtoJSON and errors (ids and timestamps aside)", () => {
    const ours = results.get(`protoc-gen-a2a/${binding}`);
    const sdk = results.get(`@a2a-js/sdk/${binding}`);
    if (ours === undefined || sdk === undefined) throw new Error("a scenario did not run");

    // SDK gaps for errors outside its table (here UNAUTHENTICATED): over REST it keeps no ErrorInfo,
    // over gRPC its message is its own ("gRPC error for <method>: <code> <grpc-message>").
    const anonymous = sdk["get_extended_agent_card(anonymous)"] as OperationOutcome;
    if (anonymous.ok) throw new Error("the anonymous extended card call succeeded");
    expect(anonymous.error.type).toBe("UnauthenticatedError");
    if (binding === "rest") expect(anonymous.error.details).toBeUndefined();
    if (binding === "grpc")
      expect(anonymous.error.message).toBe(
        "gRPC error for getExtendedAgentCard: 16 The extended agent card requires authentication",
      );
    if (binding === "jsonrpc") expect(anonymous.error.details).toHaveLength(1);

    expect(normalize(withoutSdkGaps(binding, sdk))).toEqual(
      normalize(withoutSdkGaps(binding, ours)),
    );
  });
});

it("the generated clients give the same outcomes on all three bindings", () => {
  const [first, ...others] = BINDINGS.map((b) => results.get(`protoc-gen-a2a/${b}`));
  if (first === undefined) throw new Error("no scenario ran");
  for (const other of others) expect(normalize(other ?? {})).toEqual(normalize(first));
});

describe('stream errors (test/support/test-agent.ts: "fail-early" before the first event, "fail-late" after two)', () => {
  let endpoints: AgentEndpoints;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const testAgent = new TestAgent();
    const logger = { error: () => {} };
    const jsonrpc = createA2AServiceJsonRpcServer(testAgent, { basePath: "/a2a/jsonrpc", logger });
    const rest = createA2AServiceRestServer(testAgent, {
      basePath: "/a2a/rest",
      keepAliveMs: 0,
      logger,
    });
    const http = await listen((req, res) =>
      req.url?.startsWith("/a2a/jsonrpc") ? jsonrpc.node(req, res) : rest.node(req, res),
    );
    const grpc = await listenA2AServiceGrpc(testAgent, { logger });
    const base = `http://127.0.0.1:${http.port}`;
    endpoints = {
      cardUrl: `${base}${AGENT_CARD_PATH}`,
      jsonrpc: `${base}/a2a/jsonrpc`,
      rest: `${base}/a2a/rest`,
      grpc: grpc.address,
    };
    close = async () => {
      await http.close();
      await grpc.close();
    };
  });
  afterAll(() => close?.());

  const send = (text: string) => ({
    message: { messageId: `m-${text}`, role: "ROLE_USER", parts: [{ text }] },
  });

  it.each(BINDINGS)(
    "%s: an error on open → no events and the error; mid-stream → the events so far and the error",
    async (binding) => {
      const seen: Record<string, StreamOutcome> = {};
      for (const [implementation, factory] of FACTORIES) {
        const client = await factory(binding, endpoints);
        try {
          const early = await client.stream("send_streaming_message", send("fail-early"), opts());
          expect(early.events).toEqual([]);
          expect(early.error).toMatchObject({
            type: "UnsupportedOperationError",
            message: "streaming is off for this text",
          });
          const late = await client.stream("send_streaming_message", send("fail-late"), opts());
          expect(late.events.map((e) => Object.keys(e as JsonObject)[0])).toEqual([
            "task",
            "statusUpdate",
          ]);
          expect(late.error).toBeDefined();
          seen[implementation] = late;
        } finally {
          await client.close();
        }
      }
      expect(seen["protoc-gen-a2a"]?.error).toMatchObject({
        type: "InternalError",
        message: "Internal error",
      });
      // SDK gap: over REST its error for `event: error` carries the stream's 200 as statusCode and no
      // reason for INTERNAL (not in its table), so the abstract type cannot be told.
      if (binding === "rest")
        expect(seen["@a2a-js/sdk"]?.error).toMatchObject({
          type: "UnknownError",
          message: "Internal error",
        });
      else expect(seen["@a2a-js/sdk"]?.error).toMatchObject({ type: "InternalError" });
      expect(seen["@a2a-js/sdk"]?.events).toEqual(seen["protoc-gen-a2a"]?.events);
    },
  );
});

describe("requests a client cannot express, headers", () => {
  it("the SDK's REST transport: cancel_task with metadata and list_push_configs with paging are ClientUnsupported", async () => {
    await withClient(createSdkClient, "rest", async (client) => {
      const cancel = await client.call(
        "cancel_task",
        { id: "whatever", metadata: { why: "test" } },
        opts(),
      );
      expect(cancel).toMatchObject({ ok: false, error: { type: "ClientUnsupported" } });
      const list = await client.call(
        "list_push_configs",
        { taskId: "whatever", pageSize: 10 },
        opts(),
      );
      expect(list).toMatchObject({ ok: false, error: { type: "ClientUnsupported" } });
    });
    // the SDK's JSON-RPC transport sends the metadata (TaskNotFound: the task does not exist)
    await withClient(createSdkClient, "jsonrpc", async (client) => {
      const cancel = await client.call(
        "cancel_task",
        { id: "whatever", metadata: { why: "test" } },
        opts(),
      );
      expect(cancel).toMatchObject({ ok: false, error: { type: "TaskNotFoundError" } });
    });
  });

  it("a request that is not ProtoJSON of the request message is ClientUnsupported for both", async () => {
    for (const [, factory] of FACTORIES) {
      await withClient(factory, "jsonrpc", async (client) => {
        const outcome = await client.call(
          "get_task",
          { id: 42, bogus: true } as unknown as JsonObject,
          opts(),
        );
        expect(outcome).toMatchObject({ ok: false, error: { type: "ClientUnsupported" } });
      });
    }
  });

  it.each(BINDINGS)(
    "%s: an a2a-version header from the runner replaces 1.0 (VersionNotSupportedError for 9.9)",
    async (binding) => {
      for (const [, factory] of FACTORIES) {
        await withClient(factory, binding, async (client) => {
          const outcome = await client.call(
            "get_task",
            { id: "no-such-task" },
            opts({ "a2a-version": "9.9" }),
          );
          expect(outcome).toMatchObject({ ok: false, error: { type: "VersionNotSupportedError" } });
        });
      }
    },
  );
});
