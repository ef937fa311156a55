/**
 * The task runtime's limits (issue #17): subscribers per task (`maxSubscribersPerTask`, default 20,000),
 * unfinished tasks per owner (`maxActiveTasksPerOwner`, default 10,000), and the executor's own output:
 * artifacts per task (`maxArtifactsPerTask`, 1,000) and parts per artifact (`maxPartsPerArtifact`, 10,000).
 *   - On the engine with small limits: one subscription too many (SubscribeToTask, or a message that
 *     continues the task) is UnsupportedOperation with ErrorInfo metadata naming the limit, and nothing is
 *     stored for a refused message; a closed subscription frees its place. A new task beyond the owner's
 *     limit is refused before execute() runs; other owners and tenants are not affected; a task that ends
 *     (completed, canceled) or a turn that creates no task (stateless reply) frees its place.
 *   - An executor's artifact beyond the limits is refused to it (ExecutorMisuseError), nothing stored.
 *   - Through the generated task handler at the defaults: 20,000 SubscribeToTask streams on one task pass,
 *     the next is refused, and the JSON-RPC binding answers it -32004 with the metadata; 10,000 unfinished
 *     tasks of one owner pass, the next SendMessage is refused (-32004 on JSON-RPC), another owner still creates.
 */
import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import {
  MessageSchema,
  Role,
  SendMessageRequestSchema,
  SubscribeToTaskRequestSchema,
  TaskState,
} from "../../../generated-example/gen/a2a_pb.js";
import {
  AgentCardSchema,
  ArtifactSchema,
  ListTaskPushNotificationConfigsResponseSchema,
  ListTasksResponseSchema,
  SendMessageResponseSchema,
  StreamResponseSchema,
  TaskArtifactUpdateEventSchema,
  TaskPushNotificationConfigSchema,
  TaskSchema,
  TaskStatusSchema,
  TaskStatusUpdateEventSchema,
} from "../../../generated-example/gen/a2a_pb.js";
import {
  InternalError,
  InvalidParamsError,
  TaskNotFoundError,
  UnsupportedOperationError,
  ExtendedAgentCardNotConfiguredError,
  PushNotificationNotSupportedError,
  TaskNotCancelableError,
  UnauthenticatedError,
} from "../../../generated-example/gen/a2a_a2a_errors.js";
import {
  createA2AServiceTaskHandler,
  type A2AServiceExecutor,
} from "../../../generated-example/gen/a2a_a2a_task_handler.js";
import { createA2AServiceJsonRpcServer } from "../../../generated-example/gen/a2a_a2a_jsonrpc_server.js";
import {
  DEFAULT_MAX_ACTIVE_TASKS_PER_OWNER,
  DEFAULT_MAX_SUBSCRIBERS_PER_TASK,
  InMemoryTaskStore,
} from "@protoc-gen-a2a/runtime/task";
import { createCallContext, type CallContext } from "@protoc-gen-a2a/runtime";
import { TaskEngine } from "../../../runtime/src/task/engine.js";
import { TaskFactory } from "../../../runtime/src/task/factory.js";
import { TaskStates } from "../../../runtime/src/task/states.js";
import type { TaskRuntimeSchemas } from "../../../runtime/src/task/shapes.js";
import type { AgentExecutor } from "../../../runtime/src/task/executor.js";
import type { TaskRuntimeErrors } from "../../../runtime/src/task/errors.js";

const schemas = {
  Task: TaskSchema,
  TaskStatus: TaskStatusSchema,
  Message: MessageSchema,
  Artifact: ArtifactSchema,
  TaskStatusUpdateEvent: TaskStatusUpdateEventSchema,
  TaskArtifactUpdateEvent: TaskArtifactUpdateEventSchema,
  StreamResponse: StreamResponseSchema,
  SendMessageResponse: SendMessageResponseSchema,
  ListTasksResponse: ListTasksResponseSchema,
  TaskPushNotificationConfig: TaskPushNotificationConfigSchema,
  ListTaskPushNotificationConfigsResponse: ListTaskPushNotificationConfigsResponseSchema,
  AgentCard: AgentCardSchema,
};
const errors: TaskRuntimeErrors = {
  TaskNotFound: (m, o) => new TaskNotFoundError(m, o),
  TaskNotCancelable: (m, o) => new TaskNotCancelableError(m, o),
  UnsupportedOperation: (m, o) => new UnsupportedOperationError(m, o),
  PushNotificationNotSupported: (m, o) => new PushNotificationNotSupportedError(m, o),
  ExtendedAgentCardNotConfigured: (m, o) => new ExtendedAgentCardNotConfiguredError(m, o),
  InvalidParams: (m, o) => new InvalidParamsError(m, o),
  Internal: (m, o) => new InternalError(m, o),
  Unauthenticated: (m, o) => new UnauthenticatedError(m, o),
};

/** Texts the executors understand: "reply" (a stateless Message), "done" (COMPLETED), anything else (INPUT_REQUIRED). */
const executor: A2AServiceExecutor<string> = {
  async execute(context, emitter) {
    const text =
      context.message.parts[0]?.content.case === "text"
        ? context.message.parts[0].content.value
        : "";
    if (text === "reply")
      return emitter.reply({ parts: [{ content: { case: "text", value: "hi" } }] });
    if (text === "done") return emitter.complete();
    await emitter.requireInput({ parts: [{ content: { case: "text", value: "more?" } }] });
  },
};

const request = (text: string, taskId = "") =>
  create(SendMessageRequestSchema, {
    message: {
      messageId: crypto.randomUUID(),
      role: Role.USER,
      parts: [{ content: { case: "text", value: text } }],
      taskId,
    },
  });
const call = (principal?: string, tenant = "") =>
  createCallContext<string>({ operation: "SendMessage", binding: "JSONRPC", principal, tenant });

type Limits = {
  maxSubscribersPerTask?: number;
  maxActiveTasksPerOwner?: number;
  maxArtifactsPerTask?: number;
  maxPartsPerArtifact?: number;
};

function engine(limits: Limits, agent: A2AServiceExecutor<string> = executor): TaskEngine<string> {
  const states = new TaskStates(TaskState);
  return new TaskEngine<string>({
    factory: new TaskFactory(
      schemas as unknown as TaskRuntimeSchemas,
      states,
      Role,
      () => new Date(),
      () => crypto.randomUUID(),
    ),
    store: new InMemoryTaskStore(),
    errors,
    executor: agent as unknown as AgentExecutor<string, TaskRuntimeSchemas>,
    ownerOf: (p) => p ?? "",
    clientContextIds: "accept",
    pushNotifications: false,
    checkPushUrl: undefined,
    onTaskEvent: undefined,
    onError: () => {},
    maxQueuedEvents: 1000,
    ...limits,
  });
}

/** Starts a turn and waits for its end; returns the task id. */
async function turn(
  e: TaskEngine<string>,
  text: string,
  context: CallContext<string>,
  taskId = "",
): Promise<string> {
  const start = await e.beginTurn(request(text, taskId) as never, context);
  for await (const item of start.feed) if (item.kind === "end" && item.turn === start.turn) break;
  start.feed.return?.();
  return start.taskId;
}

const never = () => () => {};

async function refusal(promise: Promise<unknown>): Promise<UnsupportedOperationError> {
  const e = await promise.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(UnsupportedOperationError);
  return e as UnsupportedOperationError;
}

describe("maxSubscribersPerTask (engine, limit 3)", () => {
  it("the 4th subscription is refused with the metadata; a closed one frees its place", async () => {
    const e = engine({ maxSubscribersPerTask: 3 });
    const taskId = await turn(e, "wait", call());
    const scope = e.scopeOf(call());
    const feeds = await Promise.all([1, 2, 3].map(() => e.subscribe(scope, taskId, never)));
    const err = await refusal(e.subscribe(scope, taskId, never));
    expect(err.metadata).toEqual({ taskId, maxSubscribersPerTask: "3" });
    expect(err.message).toContain("already has 3 open streams");
    await feeds[0]!.feed?.return?.();
    const again = await e.subscribe(scope, taskId, never);
    for (const f of [...feeds.slice(1), again]) await f.feed?.return?.();
  });

  it("a message that continues a full task is refused before anything is stored", async () => {
    const e = engine({ maxSubscribersPerTask: 2 });
    const taskId = await turn(e, "wait", call());
    const scope = e.scopeOf(call());
    const feeds = await Promise.all([1, 2].map(() => e.subscribe(scope, taskId, never)));
    const before = (await e.requireTask(scope, taskId)).history.length;
    await refusal(e.beginTurn(request("more", taskId) as never, call()));
    expect((await e.requireTask(scope, taskId)).history.length).toBe(before);
    for (const f of feeds) await f.feed?.return?.();
    await turn(e, "more", call(), taskId);
    expect((await e.requireTask(scope, taskId)).history.length).toBeGreaterThan(before);
  });
});

describe("maxActiveTasksPerOwner (engine, limit 2)", () => {
  it("a third unfinished task of one owner is refused before execute(); other owners and tenants are not affected", async () => {
    const e = engine({ maxActiveTasksPerOwner: 2 });
    await turn(e, "wait", call("alice"));
    await turn(e, "wait", call("alice"));
    const err = await refusal(e.beginTurn(request("wait") as never, call("alice")));
    expect(err.metadata).toEqual({ maxActiveTasksPerOwner: "2" });
    expect(e.activeTasksOf(e.scopeOf(call("alice")))).toBe(2);
    await turn(e, "wait", call("bob"));
    await turn(e, "wait", call("alice", "other-tenant"));
  });

  it("tasks that end, turns that create no task and cancels free places; continuing a task is not refused", async () => {
    const e = engine({ maxActiveTasksPerOwner: 2 });
    const alice = call("alice");
    const scope = e.scopeOf(alice);
    await turn(e, "done", alice);
    await turn(e, "reply", alice);
    expect(e.activeTasksOf(scope)).toBe(0);
    const first = await turn(e, "wait", alice);
    await turn(e, "wait", alice);
    await refusal(e.beginTurn(request("wait") as never, alice));
    await turn(e, "more", alice, first); // continuing is fine
    await turn(e, "done", alice, first); // completes: frees a place
    expect(e.activeTasksOf(scope)).toBe(1);
    const third = await turn(e, "wait", alice);
    await e.cancel(scope, third, alice, undefined);
    expect(e.activeTasksOf(scope)).toBe(1);
    await turn(e, "wait", alice);
    await refusal(e.beginTurn(request("wait") as never, alice));
  });

  it("limits that are not positive integers are a RangeError", () => {
    expect(() => engine({ maxActiveTasksPerOwner: 0 })).toThrow(RangeError);
    expect(() => engine({ maxSubscribersPerTask: 1.5 })).toThrow(RangeError);
  });
});

describe("maxArtifactsPerTask and maxPartsPerArtifact (engine, limits 3 and 4)", () => {
  const part = (i: number) => ({ content: { case: "text" as const, value: `p${i}` } });
  it("the executor's artifact beyond the limits is refused with ExecutorMisuseError, nothing stored; replacing an artifact is fine", async () => {
    const refused: string[] = [];
    const agent: A2AServiceExecutor<string> = {
      async execute(_context, emitter) {
        for (let i = 0; i < 4; i++) {
          await emitter
            .addArtifact({ artifactId: `a${i}`, parts: [part(i)] })
            .catch((e: Error) => refused.push(`${e.name}: ${e.message}`));
        }
        await emitter.addArtifact({ artifactId: "a0", parts: [part(9)] }); // replaces a0: not one more
        await emitter.addArtifact({ artifactId: "a1", parts: [part(1)] }, { append: true });
        await emitter.addArtifact(
          { artifactId: "a1", parts: [part(2), part(3)] },
          { append: true },
        ); // 4 parts: at the limit
        await emitter
          .addArtifact({ artifactId: "a1", parts: [part(4)] }, { append: true })
          .catch((e: Error) => refused.push(`${e.name}: ${e.message}`));
        await emitter
          .addArtifact({ artifactId: "a2", parts: [0, 1, 2, 3, 4].map(part) })
          .catch((e: Error) => refused.push(`${e.name}: ${e.message}`));
        await emitter.requireInput({ parts: [part(0)] });
      },
    };
    const e = engine({ maxArtifactsPerTask: 3, maxPartsPerArtifact: 4 }, agent);
    const taskId = await turn(e, "x", call());
    const task = await e.requireTask(e.scopeOf(call()), taskId);
    expect(task.artifacts.map((a) => [a.artifactId, a.parts.length])).toEqual([
      ["a0", 1],
      ["a1", 4],
      ["a2", 1],
    ]);
    expect(refused).toHaveLength(3);
    expect(refused[0]).toMatch(
      /ExecutorMisuseError: .*already has 3 artifacts \(maxArtifactsPerTask\)/,
    );
    expect(refused[1]).toMatch(/would have 5 parts, more than 4 \(maxPartsPerArtifact\)/);
    expect(refused[2]).toMatch(/would have 5 parts/);
  });
});

/** A UniversalRequest as the node adapter makes it (in process, no socket). */
function rpcRequest(method: string, params: object) {
  const bytes = new TextEncoder().encode(JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }));
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "a2a-version": "1.0",
  };
  return {
    method: "POST",
    path: "/",
    query: "",
    header: (name: string) => headers[name.toLowerCase()],
    headers: () => Object.entries(headers),
    readBody: () => Promise.resolve(bytes),
    get signal(): AbortSignal {
      return new AbortController().signal;
    },
    aborted: false,
    onAbort: never,
  };
}

describe("the defaults, through the generated task handler and the JSON-RPC binding", () => {
  it(`${DEFAULT_MAX_SUBSCRIBERS_PER_TASK} SubscribeToTask streams on one task pass, the next is -32004`, {
    timeout: 60_000,
  }, async () => {
    const handler = createA2AServiceTaskHandler<string>({
      executor,
      capabilities: { streaming: true },
    });
    const created = await handler.sendMessage(request("wait"), call());
    const taskId = created.payload.case === "task" ? created.payload.value.id : "";
    const streams: AsyncIterator<unknown>[] = [];
    for (let i = 0; i < DEFAULT_MAX_SUBSCRIBERS_PER_TASK; i++) {
      const it = handler
        .subscribeToTask(create(SubscribeToTaskRequestSchema, { id: taskId }), call())
        [Symbol.asyncIterator]();
      await it.next(); // the Task snapshot: subscribed
      streams.push(it);
    }
    const server = createA2AServiceJsonRpcServer(handler, { authenticate: () => undefined });
    const answer = (await server.handler(
      rpcRequest("SubscribeToTask", { id: taskId }) as never,
    )) as { status: number; body: string };
    const body = JSON.parse(answer.body) as {
      error: { code: number; data: { metadata: Record<string, string> }[] };
    };
    expect(body.error.code).toBe(-32004);
    expect(body.error.data[0]?.metadata).toEqual({
      taskId,
      maxSubscribersPerTask: String(DEFAULT_MAX_SUBSCRIBERS_PER_TASK),
    });
    await Promise.all(streams.map((s) => s.return?.()));
    expect(handler.liveTasks).toBe(0);
  });

  it(`${DEFAULT_MAX_ACTIVE_TASKS_PER_OWNER} unfinished tasks of one owner pass, the next SendMessage is -32004; another owner still creates`, {
    timeout: 60_000,
  }, async () => {
    const handler = createA2AServiceTaskHandler<string>({
      executor,
      store: new InMemoryTaskStore({ maxTasks: 2 * DEFAULT_MAX_ACTIVE_TASKS_PER_OWNER }),
    });
    for (let i = 0; i < DEFAULT_MAX_ACTIVE_TASKS_PER_OWNER; i++) {
      const r = await handler.sendMessage(request("wait"), call("alice"));
      expect(r.payload.case).toBe("task");
    }
    const server = createA2AServiceJsonRpcServer(handler, { authenticate: () => "alice" });
    const answer = (await server.handler(
      rpcRequest("SendMessage", {
        message: { messageId: "m-x", role: "ROLE_USER", parts: [{ text: "wait" }] },
      }) as never,
    )) as { body: string };
    const body = JSON.parse(answer.body) as {
      error: { code: number; data: { metadata: Record<string, string> }[] };
    };
    expect(body.error.code).toBe(-32004);
    expect(body.error.data[0]?.metadata).toEqual({
      maxActiveTasksPerOwner: String(DEFAULT_MAX_ACTIVE_TASKS_PER_OWNER),
    });
    expect((await handler.sendMessage(request("wait"), call("bob"))).payload.case).toBe("task");
  });
});
