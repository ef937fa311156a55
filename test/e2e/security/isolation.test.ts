// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Security review (#17): tenant and principal isolation in the example agent (tokens → principals,
 * `ownerOf` = the token's subject, `clientContextIds: "known"`), on every binding it serves
 * (JSON-RPC, HTTP+JSON, gRPC, gRPC-web, Connect, WebSocket), on the memory and the SQLite task
 * store. Alice owns a task waiting for input and a push config on it. Proves, table-driven over the
 * bindings:
 * - no existence leak: what Bob (another token) and an anonymous caller get for Alice's task, on
 *   GetTask, CancelTask, SubscribeToTask, SendMessage and SendStreamingMessage naming it, and the four
 *   push config operations (Alice's config id included), is byte for byte what they get for a task
 *   id that does not exist once the id is replaced: status, content type, body, gRPC status,
 *   message and details (the generated clients see TaskNotFoundError);
 * - ListTasks of Bob never lists Alice's task, also when filtered by Alice's contextId (the answer is
 *   the one for a context that does not exist); SendMessage by Bob with Alice's contextId does not
 *   join it (the same InvalidParams as for an unknown contextId);
 * - nothing Bob did changed Alice's task or config (still waiting for input, history and config as
 *   before, not cancelled, not deleted);
 * - tenants: Alice's task is not found under another tenant (byte for byte as a missing id), and a
 *   task created in a tenant is found only in that tenant.
 * And in the runtime itself: a custom binding's dispatcher scopes a call by the request's tenant field
 * when the binding passes none (a conflicting one is InvalidParams), and the owner key fails closed
 * (InternalError) for principals the default key cannot tell apart and for an ownerOf returning no string.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createConnectTransport, createGrpcWebTransport } from "@connectrpc/connect-node";
import { TaskState } from "../../../generated-example/gen/a2a_pb.js";
import { errorSpecs, TaskNotFoundError } from "../../../generated-example/gen/a2a_a2a_errors.js";
import {
  A2AServiceOperationsByName,
  A2AServiceRequiredFields,
  A2AServiceResponseFields,
  dispatchA2AService,
  type A2AServiceClient,
  type A2AServiceHandler,
  type A2AServiceOperationName,
} from "../../../generated-example/gen/a2a_a2a_handler.js";
import {
  createA2AServiceTaskHandler,
  type A2AServiceExecutor,
} from "../../../generated-example/gen/a2a_a2a_task_handler.js";
import { createBindingDispatcher } from "@protoc-gen-a2a/runtime/binding";
import type { A2AError } from "@protoc-gen-a2a/runtime";
import type { JsonObject } from "@bufbuild/protobuf";
import { A2AServiceJsonRpcClient } from "../../../generated-example/gen/a2a_a2a_jsonrpc_client.js";
import { A2AServiceRestClient } from "../../../generated-example/gen/a2a_a2a_rest_client.js";
import { A2AServiceGrpcClient } from "../../../generated-example/gen/a2a_a2a_grpc_client.js";
import {
  A2AServiceWsClient,
  connectWs,
  type WsSocketConnection,
} from "../../../generated-example/bindings/ws/ws-client.js";
import {
  startExampleAgent,
  type ExampleAgent,
} from "../../../generated-example/agent/echo-agent.js";
import {
  bearer,
  callOperation,
  failureOf,
  userMessage,
  type OperationName,
} from "../../support/security-operations.js";
import { WIRE_BINDINGS, rawAnswer, type WireBinding } from "../../support/security-wire.js";

const TOKENS = {
  "alice-token": { subject: "alice", extendedCard: true },
  "bob-token": { subject: "bob", extendedCard: false },
};

/** Operations that name a task, checked for existence leaks. */
const TASK_OPERATIONS: readonly OperationName[] = [
  "GetTask",
  "CancelTask",
  "SubscribeToTask",
  "SendMessage",
  "SendStreamingMessage",
  "CreateTaskPushNotificationConfig",
  "GetTaskPushNotificationConfig",
  "ListTaskPushNotificationConfigs",
  "DeleteTaskPushNotificationConfig",
];

/** Callers other than Alice: another token, and no token. */
const OTHERS: readonly [string, string | undefined][] = [
  ["Bob", "bob-token"],
  ["an anonymous caller", undefined],
];

let agent: ExampleAgent;
let wsConnection: WsSocketConnection;
const clients = {} as Record<WireBinding, A2AServiceClient>;

/** Starts the example agent on a task store and makes a client of each binding. */
async function startOn(store: "memory" | "sqlite"): Promise<void> {
  agent = await startExampleAgent({
    tokens: TOKENS,
    allowPrivateWebhooks: true,
    ...(store === "sqlite" ? { taskDatabase: ":memory:" } : {}),
  });
  const e = agent.endpoints;
  wsConnection = connectWs(e.ws);
  clients["JSONRPC"] = new A2AServiceJsonRpcClient({ url: e.jsonrpc });
  clients["HTTP+JSON"] = new A2AServiceRestClient({ url: e.rest });
  clients["GRPC"] = new A2AServiceGrpcClient({ address: e.grpc });
  clients["GRPC-WEB"] = new A2AServiceGrpcClient({
    address: e.connect,
    transport: createGrpcWebTransport({ baseUrl: e.connect, httpVersion: "1.1" }),
  });
  clients["CONNECT"] = new A2AServiceGrpcClient({
    address: e.connect,
    transport: createConnectTransport({ baseUrl: e.connect, httpVersion: "1.1" }),
  });
  clients["WS"] = new A2AServiceWsClient({ url: e.ws, connection: wsConnection });
}

async function stop(): Promise<void> {
  await wsConnection.close();
  await agent.close();
}

/** `answer` with every occurrence of each id replaced by a placeholder. */
const masked = (answer: string, ids: readonly string[]) =>
  ids.reduce((text, id, i) => text.replaceAll(id, `<id${i}>`), answer);

describe.each(["memory", "sqlite"] as const)("on the %s task store", (store) => {
  beforeAll(() => startOn(store));
  afterAll(() => stop());

  describe.each(WIRE_BINDINGS)("isolation on %s", (binding) => {
    const alice = bearer("alice-token");
    let taskId: string;
    let contextId: string;
    let configId: string;
    let historyLength: number;

    beforeAll(async () => {
      const client = clients[binding];
      const sent = await client.sendMessage({ message: userMessage("tck-input-required") }, alice);
      if (sent.payload.case !== "task")
        throw new Error(`expected a task, got ${sent.payload.case}`);
      taskId = sent.payload.value.id;
      contextId = sent.payload.value.contextId;
      historyLength = sent.payload.value.history.length;
      expect(sent.payload.value.status?.state).toBe(TaskState.INPUT_REQUIRED);
      const config = await client.createTaskPushNotificationConfig(
        { taskId, url: "http://127.0.0.1:9/alice-hook" },
        alice,
      );
      configId = config.id;
    });

    it("Alice reaches her own task on every operation (what the other callers are refused is there)", async () => {
      const answer = await rawAnswer(
        binding,
        agent.endpoints,
        "GetTask",
        { taskId },
        "alice-token",
      );
      expect(answer).toContain(taskId);
      expect(answer).not.toMatch(/TASK_NOT_FOUND/);
      const configs = await clients[binding].listTaskPushNotificationConfigs({ taskId }, alice);
      expect(configs.configs.map((c) => c.id)).toEqual([configId]);
    });

    it.each(OTHERS)(
      "%s gets, for Alice's task, byte for byte the answer about a task that does not exist",
      async (_who, token) => {
        for (const operation of TASK_OPERATIONS) {
          const missing = crypto.randomUUID();
          expect(missing.length).toBe(taskId.length); // equal lengths: the byte-level framing (lengths, base64) matches too
          const about = await rawAnswer(
            binding,
            agent.endpoints,
            operation,
            { taskId, configId },
            token,
          );
          const nothing = await rawAnswer(
            binding,
            agent.endpoints,
            operation,
            { taskId: missing, configId },
            token,
          );
          expect(masked(about, [taskId]), operation).toBe(masked(nothing, [missing]));
          expect(about, operation).toMatch(/TASK_NOT_FOUND/);
        }
      },
    );

    it.each(OTHERS)(
      "%s gets TaskNotFoundError from the generated client on every operation naming Alice's task",
      async (_who, token) => {
        for (const operation of TASK_OPERATIONS) {
          const failure = await failureOf(
            callOperation(clients[binding], operation, { taskId, configId }, bearer(token)),
          );
          expect(failure, `${operation}: ${failure.message}`).toBeInstanceOf(TaskNotFoundError);
          expect(failure.message, operation).toContain(taskId);
        }
      },
    );

    it.each(OTHERS)(
      "%s never lists Alice's task, also filtered by her contextId, and cannot join her context",
      async (_who, token) => {
        const options = bearer(token);
        const all = await clients[binding].listTasks({}, options);
        expect(all.tasks.map((t) => t.id)).not.toContain(taskId);
        expect(all.tasks.map((t) => t.contextId)).not.toContain(contextId);
        const unknown = crypto.randomUUID();
        const byContext = await rawAnswer(
          binding,
          agent.endpoints,
          "ListTasks",
          { contextId },
          token,
        );
        expect(masked(byContext, [contextId])).toBe(
          masked(
            await rawAnswer(binding, agent.endpoints, "ListTasks", { contextId: unknown }, token),
            [unknown],
          ),
        );
        expect((await clients[binding].listTasks({ contextId }, options)).tasks).toEqual([]);
        for (const operation of ["SendMessage", "SendStreamingMessage"] as const) {
          const other = crypto.randomUUID();
          const join = await rawAnswer(binding, agent.endpoints, operation, { contextId }, token);
          expect(masked(join, [contextId]), operation).toBe(
            masked(
              await rawAnswer(binding, agent.endpoints, operation, { contextId: other }, token),
              [other],
            ),
          );
          expect(join, operation).toMatch(
            /INVALID_PARAMS|invalid_argument|-32602|INVALID_ARGUMENT/i,
          );
        }
      },
    );

    it("Alice's task and config are as they were: not continued, not cancelled, not deleted, and still listed for her", async () => {
      const client = clients[binding];
      const task = await client.getTask({ id: taskId }, alice);
      expect(task.status?.state).toBe(TaskState.INPUT_REQUIRED);
      expect(task.history.length).toBe(historyLength);
      expect(
        (await client.getTaskPushNotificationConfig({ taskId, id: configId }, alice)).url,
      ).toBe("http://127.0.0.1:9/alice-hook");
      expect((await client.listTasks({ contextId }, alice)).tasks.map((t) => t.id)).toEqual([
        taskId,
      ]);
    });

    it("tenants: Alice's task is not found under another tenant (as a missing id), and a task made in a tenant lives only there", async () => {
      const missing = crypto.randomUUID();
      for (const operation of [
        "GetTask",
        "CancelTask",
        "SubscribeToTask",
        "GetTaskPushNotificationConfig",
      ] as const) {
        const about = await rawAnswer(
          binding,
          agent.endpoints,
          operation,
          { taskId, configId, tenant: "acme" },
          "alice-token",
        );
        const nothing = await rawAnswer(
          binding,
          agent.endpoints,
          operation,
          { taskId: missing, configId, tenant: "acme" },
          "alice-token",
        );
        expect(masked(about, [taskId]), operation).toBe(masked(nothing, [missing]));
      }
      expect(
        (await clients[binding].listTasks({ tenant: "acme" }, alice)).tasks.map((t) => t.id),
      ).not.toContain(taskId);
      const sent = await clients[binding].sendMessage(
        { tenant: "acme", message: userMessage("tck-input-required") },
        alice,
      );
      if (sent.payload.case !== "task") throw new Error("expected a task");
      const inTenant = sent.payload.value.id;
      expect((await clients[binding].getTask({ tenant: "acme", id: inTenant }, alice)).id).toBe(
        inTenant,
      );
      expect(
        (await clients[binding].listTasks({ tenant: "acme" }, alice)).tasks.map((t) => t.id),
      ).toContain(inTenant);
      await expect(clients[binding].getTask({ id: inTenant }, alice)).rejects.toBeInstanceOf(
        TaskNotFoundError,
      );
      await expect(
        clients[binding].getTask({ tenant: "other", id: inTenant }, alice),
      ).rejects.toBeInstanceOf(TaskNotFoundError);
      expect((await clients[binding].listTasks({}, alice)).tasks.map((t) => t.id)).not.toContain(
        inTenant,
      );
      // Bob in the same tenant does not see it either.
      await expect(
        clients[binding].getTask({ tenant: "acme", id: inTenant }, bearer("bob-token")),
      ).rejects.toBeInstanceOf(TaskNotFoundError);
    });
  });
});

describe("isolation in the runtime beyond the example agent", () => {
  const executor = {
    async execute(_request: unknown, emitter: { requireInput(m: object): Promise<void> }) {
      await emitter.requireInput({ parts: [{ content: { case: "text", value: "more?" } }] });
    },
  } as unknown as A2AServiceExecutor<unknown>;

  /** A custom binding's dispatcher over a task handler, as a binding calls it. */
  const dispatcherOver = (handler: A2AServiceHandler<unknown>, principal: unknown) =>
    createBindingDispatcher<unknown>(
      {
        operations: A2AServiceOperationsByName,
        requestFields: A2AServiceRequiredFields,
        responseFields: A2AServiceResponseFields,
        errors: errorSpecs,
        dispatch: (operation, request, context) =>
          dispatchA2AService(handler, operation as A2AServiceOperationName, request, context),
      },
      "urn:test:binding",
      { authenticate: () => principal, logger: { error() {} } },
    );
  /** The ErrorInfo reason a dispatcher call fails with. */
  const reasonOf = async (call: Promise<unknown>) => ((await failureOf(call)) as A2AError).reason;
  const send = { message: { messageId: "m-1", role: "ROLE_USER", parts: [{ text: "hi" }] } };
  const V = { "a2a-version": "1.0" };

  it("a custom binding that passes no tenant is scoped by the request's tenant field (as JSON-RPC and gRPC), and a conflicting one is refused", async () => {
    const handler = createA2AServiceTaskHandler<unknown>({ executor });
    const dispatcher = dispatcherOver(handler, { sub: "p" });
    const sent = await dispatcher.call({
      operation: "SendMessage",
      request: { ...send, tenant: "acme" },
      serviceParameters: V,
    });
    if (sent.kind !== "unary") throw new Error("unary expected");
    const id = (sent.response as { task: { id: string } }).task.id;
    const get = (request: JsonObject, tenant?: string) =>
      dispatcher.call({
        operation: "GetTask",
        request,
        serviceParameters: V,
        ...(tenant === undefined ? {} : { tenant }),
      });
    expect((await get({ id, tenant: "acme" })).kind).toBe("unary");
    expect((await get({ id }, "acme")).kind).toBe("unary");
    expect(await reasonOf(get({ id }))).toBe("TASK_NOT_FOUND");
    expect(await reasonOf(get({ id, tenant: "other" }))).toBe("TASK_NOT_FOUND");
    const conflict = (await failureOf(get({ id, tenant: "other" }, "acme"))) as A2AError;
    expect(conflict.reason).toBe("INVALID_PARAMS");
    expect(conflict.fieldViolations.map((v) => v.field)).toEqual(["tenant"]);
  });

  it("the default owner key refuses principals it cannot tell apart (class instances that serialize to {}), failing closed", async () => {
    class Opaque {
      readonly #subject: string;
      constructor(subject: string) {
        this.#subject = subject;
      }
      get subject() {
        return this.#subject;
      }
    }
    const handler = createA2AServiceTaskHandler<unknown>({ executor });
    const alice = dispatcherOver(handler, new Opaque("alice"));
    expect(
      await reasonOf(alice.call({ operation: "SendMessage", request: send, serviceParameters: V })),
    ).toBe("INTERNAL");
    expect(
      await reasonOf(alice.call({ operation: "ListTasks", request: {}, serviceParameters: V })),
    ).toBe("INTERNAL");
    // Plain objects, strings and null prototypes keep working (their JSON tells them apart).
    const plain = await dispatcherOver(handler, { subject: "alice" }).call({
      operation: "ListTasks",
      request: {},
      serviceParameters: V,
    });
    expect(plain.kind).toBe("unary");
    expect(
      (
        await dispatcherOver(handler, "alice").call({
          operation: "ListTasks",
          request: {},
          serviceParameters: V,
        })
      ).kind,
    ).toBe("unary");
  });

  it("an ownerOf that returns no string fails the call instead of putting principals in one shared scope", async () => {
    const handler = createA2AServiceTaskHandler<unknown>({
      executor,
      ownerOf: (p) => (p as { sub?: string } | undefined)?.sub as string,
    });
    const noSub = dispatcherOver(handler, { name: "no sub claim" });
    expect(
      await reasonOf(noSub.call({ operation: "SendMessage", request: send, serviceParameters: V })),
    ).toBe("INTERNAL");
    expect(
      await reasonOf(noSub.call({ operation: "ListTasks", request: {}, serviceParameters: V })),
    ).toBe("INTERNAL");
    expect(
      (
        await dispatcherOver(handler, { sub: "s" }).call({
          operation: "ListTasks",
          request: {},
          serviceParameters: V,
        })
      ).kind,
    ).toBe("unary");
  });
});
