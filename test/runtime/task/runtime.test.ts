import { create, toJson } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import {
  AgentCardSchema,
  CancelTaskRequestSchema,
  DeleteTaskPushNotificationConfigRequestSchema,
  GetExtendedAgentCardRequestSchema,
  GetTaskPushNotificationConfigRequestSchema,
  GetTaskRequestSchema,
  ListTaskPushNotificationConfigsRequestSchema,
  ListTasksRequestSchema,
  ListTasksResponseSchema,
  SendMessageResponseSchema,
  SubscribeToTaskRequestSchema,
  TaskPushNotificationConfigSchema,
  TaskSchema,
  TaskState,
} from "../../../generated-example/gen/a2a_pb.js";
import {
  ContentTypeNotSupportedError,
  ExtendedAgentCardNotConfiguredError,
  UnauthenticatedError,
  InvalidParamsError,
  PushNotificationNotSupportedError,
  TaskNotCancelableError,
  TaskNotFoundError,
  UnsupportedOperationError,
} from "../../../generated-example/gen/a2a_a2a_errors.js";
import type { TaskEventNotice } from "@protoc-gen-a2a/runtime/task";
import {
  Gate,
  callOf,
  collect,
  createA2ATaskHandler,
  describeEvent,
  sendRequest,
  taskOf,
  textOf,
  until,
  type A2AExecutor,
  type A2ARequestContext,
  type A2ASchemas,
} from "../../support/task-runtime-binding.js";

const ALL = { streaming: true, pushNotifications: true, extendedAgentCard: true };
const call = (operation = "SendMessage", principal?: unknown, tenant?: string) =>
  callOf(operation, {
    ...(principal === undefined ? {} : { principal }),
    ...(tenant === undefined ? {} : { tenant }),
  });
const getTask = (id: string, historyLength?: number) =>
  create(GetTaskRequestSchema, { id, ...(historyLength === undefined ? {} : { historyLength }) });

/**
 * A conversational agent driven by the text of each message:
 * "reply" → a stateless Message; "ask" → INPUT_REQUIRED; "auth" → AUTH_REQUIRED and return;
 * "hold" → WORKING, wait for `gate`, then complete; "auth-oob" → AUTH_REQUIRED, wait for
 * `gate`, then complete (credential out of band); "reject" → REJECTED; anything else → COMPLETED.
 */
class ChatAgent implements A2AExecutor {
  gate = new Gate();
  readonly contexts: A2ARequestContext[] = [];
  readonly cancels: { taskId: string; running: boolean; metadata: unknown }[] = [];
  refuseCancel = false;
  emitterErrors: unknown[] = [];

  async execute(
    context: A2ARequestContext,
    emitter: Parameters<A2AExecutor["execute"]>[1],
  ): Promise<void> {
    this.contexts.push(context);
    const text = textOf(context.message);
    switch (text) {
      case "reply":
        return emitter.reply(`echo ${text}`);
      case "ask":
        return emitter.requireInput(`what next after ${context.task?.history.length ?? 0}?`);
      case "auth":
        return emitter.requireAuth("please sign in");
      case "hold":
        await emitter.working("holding");
        await this.gate.promise;
        try {
          await emitter.complete("released");
        } catch (e) {
          this.emitterErrors.push(e);
        }
        return;
      case "auth-oob":
        await emitter.requireAuth("sign in at https://example.com/auth");
        await this.gate.promise;
        await emitter.working("got the credential");
        await emitter.complete("done after auth");
        return;
      case "reject":
        return emitter.reject("no thanks");
      case "refuse-content":
        // An executor's own validation error, thrown before anything is emitted.
        throw new ContentTypeNotSupportedError("text/x-refused is not accepted");
      default:
        await emitter.working();
        await emitter.addArtifact({
          artifactId: "out",
          name: "out",
          parts: [{ content: { case: "text", value: text.toUpperCase() } }],
        });
        return emitter.complete(`did ${text}`);
    }
  }

  async cancel(taskId: string, context: { running: boolean; metadata: unknown }): Promise<void> {
    this.cancels.push({ taskId, running: context.running, metadata: context.metadata });
    if (this.refuseCancel) throw new TaskNotCancelableError("not now");
  }
}

function setup(
  options: {
    capabilities?: typeof ALL | Partial<typeof ALL>;
    now?: () => Date;
    ownerOf?: (p: unknown) => string;
    clientContextIds?: "accept" | "known";
  } = {},
) {
  const agent = new ChatAgent();
  const errors: unknown[] = [];
  const notices: TaskEventNotice<A2ASchemas>[] = [];
  const handler = createA2ATaskHandler<unknown>({
    executor: agent,
    capabilities: options.capabilities ?? ALL,
    onError: (e) => errors.push(e),
    onTaskEvent: (n) => void notices.push(n),
    ...(options.now === undefined ? {} : { now: options.now }),
    ...(options.ownerOf === undefined ? {} : { ownerOf: options.ownerOf }),
    ...(options.clientContextIds === undefined
      ? {}
      : { clientContextIds: options.clientContextIds }),
  });
  const send = async (
    text: string,
    ids: { taskId?: string; contextId?: string; referenceTaskIds?: string[] } = {},
    configuration?: Parameters<typeof sendRequest>[2],
    ctx = call(),
  ) => handler.sendMessage(sendRequest(text, ids, configuration), ctx);
  const sendTask = async (...args: Parameters<typeof send>) => taskOf(await send(...args));
  return { agent, handler, errors, notices, send, sendTask };
}

/** A clock that advances one second per reading. */
function steppingClock(start = Date.UTC(2026, 0, 1)) {
  let t = start;
  return () => new Date((t += 1000));
}

describe("task runtime: SendMessage (§3.1.1, §3.2.2, §3.4)", () => {
  it("a message naming an unknown task is TaskNotFoundError (§3.4.2)", async () => {
    const { send } = setup();
    await expect(send("hi", { taskId: "no-such-task" })).rejects.toBeInstanceOf(TaskNotFoundError);
  });

  it("contextId is inferred from taskId; a mismatching one is InvalidParamsError (§3.4.3)", async () => {
    const { sendTask, agent, send } = setup();
    const first = await sendTask("ask");
    const second = await sendTask("ask", { taskId: first.id });
    expect(second.id).toBe(first.id);
    expect(agent.contexts[1]?.contextId).toBe(first.contextId);
    expect(agent.contexts[1]?.message.contextId).toBe(first.contextId);
    const error = await send("ask", { taskId: first.id, contextId: "another-context" }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InvalidParamsError);
    expect((error as InvalidParamsError).fieldViolations).toEqual([
      expect.objectContaining({ field: "message.contextId" }),
    ]);
    await expect(
      send("ask", { taskId: first.id, contextId: first.contextId }),
    ).resolves.toBeDefined();
  });

  it("a message to a terminal task is UnsupportedOperationError (§3.1.1)", async () => {
    const { sendTask, send } = setup();
    const done = await sendTask("work");
    expect(done.status?.state).toBe(TaskState.COMPLETED);
    await expect(send("more", { taskId: done.id })).rejects.toBeInstanceOf(
      UnsupportedOperationError,
    );
    const rejected = await sendTask("reject");
    expect(rejected.status?.state).toBe(TaskState.REJECTED);
    await expect(send("more", { taskId: rejected.id })).rejects.toBeInstanceOf(
      UnsupportedOperationError,
    );
  });

  it("a message to an INPUT_REQUIRED task continues it; the history keeps user and agent messages", async () => {
    const { sendTask, agent } = setup();
    const first = await sendTask("ask");
    expect(first.status?.state).toBe(TaskState.INPUT_REQUIRED);
    await sendTask("ask", { taskId: first.id });
    expect(agent.contexts[1]?.isNewTask).toBe(false);
    expect(agent.contexts[1]?.task?.history.map(textOf)).toEqual([
      "ask",
      "what next after 0?",
      "ask",
    ]);
    const third = await sendTask("work", { taskId: first.id });
    expect(third.status?.state).toBe(TaskState.COMPLETED);
    expect(third.history.map(textOf)).toEqual([
      "ask",
      "what next after 0?",
      "ask",
      "what next after 3?",
      "work",
      "did work",
    ]);
    expect(third.artifacts.map((a) => a.artifactId)).toEqual(["out"]);
  });

  it("a message to an AUTH_REQUIRED task continues it (§7.6.1)", async () => {
    const { sendTask } = setup();
    const first = await sendTask("auth");
    expect(first.status?.state).toBe(TaskState.AUTH_REQUIRED);
    expect(textOf(first.status?.message)).toBe("please sign in");
    expect((await sendTask("work", { taskId: first.id })).status?.state).toBe(TaskState.COMPLETED);
  });

  it("blocking (default) waits for a terminal state", async () => {
    const { send, agent } = setup();
    const pending = send("hold");
    await until(() => agent.contexts.length === 1);
    agent.gate.open();
    expect(taskOf(await pending).status?.state).toBe(TaskState.COMPLETED);
  });

  it("blocking returns at an interrupted state even while execute() goes on (AUTH_REQUIRED out of band)", async () => {
    const { handler, sendTask, agent } = setup();
    const task = await sendTask("auth-oob");
    expect(task.status?.state).toBe(TaskState.AUTH_REQUIRED);
    agent.gate.open();
    await until(() => handler.liveTasks === 0);
    expect((await handler.getTask(getTask(task.id), call("GetTask"))).status?.state).toBe(
      TaskState.COMPLETED,
    );
  });

  it("returnImmediately returns as soon as the task exists; processing goes on (§3.2.2)", async () => {
    const { handler, sendTask, agent } = setup();
    const task = await sendTask("hold", {}, { returnImmediately: true });
    expect([TaskState.SUBMITTED, TaskState.WORKING]).toContain(task.status?.state);
    agent.gate.open();
    await until(() => handler.liveTasks === 0);
    const later = await handler.getTask(getTask(task.id), call("GetTask"));
    expect(later.status?.state).toBe(TaskState.COMPLETED);
  });

  it("returnImmediately on a continued task returns it with the new message, before the turn ends", async () => {
    const { handler, sendTask } = setup();
    const first = await sendTask("ask");
    const second = await sendTask("work", { taskId: first.id }, { returnImmediately: true });
    expect(second.history.at(-1)?.parts[0]?.content.value).toBe("work");
    await until(() => handler.liveTasks === 0);
    expect((await handler.getTask(getTask(first.id), call("GetTask"))).status?.state).toBe(
      TaskState.COMPLETED,
    );
  });

  it("returnImmediately has no effect on a stateless reply", async () => {
    const { send } = setup();
    expect((await send("reply", {}, { returnImmediately: true })).payload.case).toBe("message");
  });

  it("referenceTaskIds: the executor gets the referenced tasks the caller may see", async () => {
    const { sendTask, agent } = setup();
    const mine = await sendTask("work");
    await sendTask("work", {}, undefined, call("SendMessage", { user: "bob" }));
    const bobs = agent.contexts[1]!.taskId;
    await sendTask("work", { referenceTaskIds: [mine.id, bobs, "missing"] });
    expect(agent.contexts[2]?.referenceTasks.map((t) => t.id)).toEqual([mine.id]);
  });

  it("an error execute() throws before emitting anything is the caller's error, and no task is left behind", async () => {
    const { handler, send, errors } = setup();
    await expect(send("refuse-content")).rejects.toBeInstanceOf(ContentTypeNotSupportedError);
    await expect(
      collect(handler.sendStreamingMessage(sendRequest("refuse-content"), call())),
    ).rejects.toBeInstanceOf(ContentTypeNotSupportedError);
    await until(() => handler.liveTasks === 0);
    expect(
      (await handler.listTasks(create(ListTasksRequestSchema, {}), call("ListTasks"))).totalSize,
    ).toBe(0);
    expect(errors).toEqual([]);
  });

  it('clientContextIds "accept" (default) keeps a client-chosen contextId for a new task (§3.4.1)', async () => {
    const { sendTask } = setup();
    expect((await sendTask("work", { contextId: "client-context" })).contextId).toBe(
      "client-context",
    );
  });

  it('clientContextIds "known": a new task may only join a context that has a task in the caller\'s scope (§3.4.1)', async () => {
    const { handler, send, sendTask, agent } = setup({ clientContextIds: "known" });
    const error = await send("work", { contextId: "client-context" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidParamsError);
    expect((error as InvalidParamsError).fieldViolations).toEqual([
      expect.objectContaining({ field: "message.contextId" }),
    ]);
    await expect(
      collect(
        handler.sendStreamingMessage(sendRequest("work", { contextId: "client-context" }), call()),
      ),
    ).rejects.toBeInstanceOf(InvalidParamsError);
    expect(agent.contexts).toEqual([]);
    expect(
      (await handler.listTasks(create(ListTasksRequestSchema, {}), call("ListTasks"))).totalSize,
    ).toBe(0);
    // A context the agent issued is accepted; a second task joins it.
    const first = await sendTask("work");
    const second = await sendTask("work", { contextId: first.contextId });
    expect(second.contextId).toBe(first.contextId);
    expect(second.id).not.toBe(first.id);
    // Another principal does not know it.
    await expect(
      send("work", { contextId: first.contextId }, undefined, call("SendMessage", { user: "bob" })),
    ).rejects.toBeInstanceOf(InvalidParamsError);
    // Continuing a task by taskId is unaffected, and messages without a contextId get a fresh one.
    const asking = await sendTask("ask");
    expect(
      (await sendTask("work", { taskId: asking.id, contextId: asking.contextId })).status?.state,
    ).toBe(TaskState.COMPLETED);
    expect((await sendTask("work")).contextId).not.toBe(first.contextId);
  });

  it("the executor sees the call: principal, tenant, extensions", async () => {
    const { sendTask, agent } = setup();
    await sendTask("work", {}, undefined, call("SendMessage", { user: "alice" }, "acme"));
    expect(agent.contexts[0]?.call.principal).toEqual({ user: "alice" });
    expect(agent.contexts[0]?.call.tenant).toBe("acme");
  });
});

describe("task runtime: historyLength (§3.2.4)", () => {
  async function threeTurns() {
    const env = setup();
    const first = await env.sendTask("ask");
    await env.sendTask("ask", { taskId: first.id });
    return { ...env, id: first.id };
  }

  it("unset = the whole history, 0 = none (field omitted), N = the N most recent", async () => {
    const { handler, id } = await threeTurns();
    expect((await handler.getTask(getTask(id), call("GetTask"))).history).toHaveLength(4);
    const none = await handler.getTask(getTask(id, 0), call("GetTask"));
    expect(none.history).toEqual([]);
    expect(toJson(TaskSchema, none)).not.toHaveProperty("history");
    const two = await handler.getTask(getTask(id, 2), call("GetTask"));
    expect(two.history.map(textOf)).toEqual(["ask", "what next after 3?"]);
    expect((await handler.getTask(getTask(id, 99), call("GetTask"))).history).toHaveLength(4);
  });

  it("applies to SendMessage responses and ListTasks; the stored history is untouched", async () => {
    const { handler, send, id } = await threeTurns();
    const response = await send("ask", { taskId: id }, { historyLength: 1 });
    expect(taskOf(response).history.map(textOf)).toEqual(["what next after 5?"]);
    const zero = await send("ask", { taskId: id }, { historyLength: 0 });
    expect(toJson(SendMessageResponseSchema, zero)).toEqual({
      task: expect.not.objectContaining({ history: expect.anything() }),
    });
    const list = await handler.listTasks(
      create(ListTasksRequestSchema, { historyLength: 1 }),
      call("ListTasks"),
    );
    expect(list.tasks[0]?.history).toHaveLength(1);
    expect((await handler.getTask(getTask(id), call("GetTask"))).history).toHaveLength(8);
  });

  it("a negative historyLength is InvalidParamsError", async () => {
    const { handler, send, id } = await threeTurns();
    await expect(handler.getTask(getTask(id, -5), call("GetTask"))).rejects.toBeInstanceOf(
      InvalidParamsError,
    );
    await expect(send("ask", { taskId: id }, { historyLength: -1 })).rejects.toBeInstanceOf(
      InvalidParamsError,
    );
    await expect(
      handler.listTasks(create(ListTasksRequestSchema, { historyLength: -1 }), call("ListTasks")),
    ).rejects.toBeInstanceOf(InvalidParamsError);
  });
});

describe("task runtime: GetTask and ListTasks (§3.1.3, §3.1.4)", () => {
  it("GetTask of an unknown task is TaskNotFoundError", async () => {
    const { handler } = setup();
    await expect(handler.getTask(getTask("nope"), call("GetTask"))).rejects.toBeInstanceOf(
      TaskNotFoundError,
    );
    await expect(handler.getTask(getTask(""), call("GetTask"))).rejects.toBeInstanceOf(
      TaskNotFoundError,
    );
  });

  it("sorted by last status update, newest first; filters by context, state and time", async () => {
    const now = steppingClock();
    const { handler, sendTask } = setup({ now });
    const a = await sendTask("ask", { contextId: "c1" });
    const b = await sendTask("work", { contextId: "c1" });
    const c = await sendTask("ask", { contextId: "c2" });
    const list = (req: Parameters<typeof create<typeof ListTasksRequestSchema>>[1]) =>
      handler.listTasks(create(ListTasksRequestSchema, req), call("ListTasks"));
    expect((await list({})).tasks.map((t) => t.id)).toEqual([c.id, b.id, a.id]);
    await sendTask("work", { taskId: a.id }); // a is updated last now
    expect((await list({})).tasks.map((t) => t.id)).toEqual([a.id, c.id, b.id]);
    expect((await list({ contextId: "c1" })).tasks.map((t) => t.id)).toEqual([a.id, b.id]);
    expect((await list({ status: TaskState.INPUT_REQUIRED })).tasks.map((t) => t.id)).toEqual([
      c.id,
    ]);
    const cTime = (await handler.getTask(getTask(c.id), call("GetTask"))).status!.timestamp!;
    expect((await list({ statusTimestampAfter: cTime })).tasks.map((t) => t.id)).toEqual([
      a.id,
      c.id,
    ]);
    expect(
      (await list({ statusTimestampAfter: timestampFromDate(new Date(Date.UTC(2030, 0, 1))) }))
        .tasks,
    ).toEqual([]);
  });

  it('cursor pagination: opaque tokens, totalSize, nextPageToken "" on the last page', async () => {
    const { handler, sendTask } = setup({ now: steppingClock() });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.unshift((await sendTask("work")).id);
    const pages: string[][] = [];
    let token = "";
    do {
      const page = await handler.listTasks(
        create(ListTasksRequestSchema, { pageSize: 2, pageToken: token }),
        call("ListTasks"),
      );
      expect(page.totalSize).toBe(5);
      expect(page.pageSize).toBe(2);
      pages.push(page.tasks.map((t) => t.id));
      token = page.nextPageToken;
      if (token !== "") expect(token).not.toContain(page.tasks[0]!.id);
    } while (token !== "");
    expect(pages).toEqual([ids.slice(0, 2), ids.slice(2, 4), ids.slice(4)]);
    const last = await handler.listTasks(create(ListTasksRequestSchema, {}), call("ListTasks"));
    expect(last.pageSize).toBe(50);
    expect(last.nextPageToken).toBe("");
    expect(toJson(ListTasksResponseSchema, last)).toHaveProperty("tasks");
  });

  it("a bad page token, or one replayed with other filters, is InvalidParamsError", async () => {
    const { handler, sendTask } = setup();
    for (let i = 0; i < 3; i++) await sendTask("work", { contextId: "c" });
    const first = await handler.listTasks(
      create(ListTasksRequestSchema, { pageSize: 1 }),
      call("ListTasks"),
    );
    const list = (req: Parameters<typeof create<typeof ListTasksRequestSchema>>[1]) =>
      handler.listTasks(create(ListTasksRequestSchema, req), call("ListTasks"));
    for (const pageToken of ["garbage!", "eyJ2IjoxfQ", "abc"])
      await expect(list({ pageToken })).rejects.toBeInstanceOf(InvalidParamsError);
    await expect(list({ pageToken: first.nextPageToken, contextId: "c" })).rejects.toBeInstanceOf(
      InvalidParamsError,
    );
    await expect(list({ pageToken: first.nextPageToken, pageSize: 1 })).resolves.toBeDefined();
  });

  it("pageSize must be 1–100", async () => {
    const { handler } = setup();
    for (const pageSize of [0, -1, 101, 150]) {
      await expect(
        handler.listTasks(create(ListTasksRequestSchema, { pageSize }), call("ListTasks")),
      ).rejects.toBeInstanceOf(InvalidParamsError);
    }
    for (const pageSize of [1, 100])
      await expect(
        handler.listTasks(create(ListTasksRequestSchema, { pageSize }), call("ListTasks")),
      ).resolves.toBeDefined();
  });

  it("includeArtifacts false (default) omits the artifacts field entirely; true keeps them", async () => {
    const { handler, sendTask } = setup();
    await sendTask("work");
    const without = await handler.listTasks(create(ListTasksRequestSchema, {}), call("ListTasks"));
    expect(toJson(ListTasksResponseSchema, without)).toEqual(
      expect.objectContaining({
        tasks: [expect.not.objectContaining({ artifacts: expect.anything() })],
      }),
    );
    const withArtifacts = await handler.listTasks(
      create(ListTasksRequestSchema, { includeArtifacts: true }),
      call("ListTasks"),
    );
    expect(withArtifacts.tasks[0]?.artifacts.map((a) => a.artifactId)).toEqual(["out"]);
    expect(
      (await handler.getTask(getTask(withArtifacts.tasks[0]!.id), call("GetTask"))).artifacts,
    ).toHaveLength(1);
  });
});

describe("task runtime: CancelTask (§3.1.5, §3.3.1)", () => {
  const cancel = (id: string, metadata?: Record<string, string>) =>
    create(CancelTaskRequestSchema, { id, ...(metadata === undefined ? {} : { metadata }) });

  it("cancels a running task: hook called, execute() aborted, later events refused", async () => {
    const { handler, sendTask, agent } = setup();
    const task = await sendTask("hold", {}, { returnImmediately: true });
    await until(() => agent.contexts.length === 1);
    const canceled = await handler.cancelTask(
      cancel(task.id, { why: "changed my mind" }),
      call("CancelTask"),
    );
    expect(canceled.status?.state).toBe(TaskState.CANCELED);
    expect(agent.cancels).toEqual([
      { taskId: task.id, running: true, metadata: { why: "changed my mind" } },
    ]);
    expect(agent.contexts[0]?.signal.aborted).toBe(true);
    agent.gate.open();
    await until(() => handler.liveTasks === 0);
    expect(agent.emitterErrors).toEqual([expect.objectContaining({ code: "task-canceled" })]);
    expect((await handler.getTask(getTask(task.id), call("GetTask"))).status?.state).toBe(
      TaskState.CANCELED,
    );
  });

  it("messages queued behind a canceled turn are refused at once, even if its execute() never returns", async () => {
    const started = new Gate();
    const handler = createA2ATaskHandler({
      executor: {
        async execute(context, emitter) {
          if (context.isNewTask) return emitter.requireInput("more?");
          await emitter.working("stuck");
          started.open();
          await new Promise(() => {}); // ignores its signal and never returns
        },
      },
    });
    const task = taskOf(await handler.sendMessage(sendRequest("start"), call()));
    const stuck = handler.sendMessage(sendRequest("go", { taskId: task.id }), call());
    await started.promise;
    const queued = handler.sendMessage(sendRequest("queued", { taskId: task.id }), call());
    await handler.cancelTask(cancel(task.id), call("CancelTask"));
    await expect(queued).rejects.toBeInstanceOf(UnsupportedOperationError);
    expect(taskOf(await stuck).status?.state).toBe(TaskState.CANCELED);
  });

  it("is idempotent: canceling a canceled task returns it", async () => {
    const { handler, sendTask } = setup();
    const task = await sendTask("ask");
    const once = await handler.cancelTask(cancel(task.id), call("CancelTask"));
    const twice = await handler.cancelTask(cancel(task.id), call("CancelTask"));
    expect(twice.status?.state).toBe(TaskState.CANCELED);
    expect(twice.status?.timestamp).toEqual(once.status?.timestamp);
  });

  it("cancels an interrupted task with no running turn", async () => {
    const { handler, sendTask, agent, send } = setup();
    const task = await sendTask("ask");
    // The answer may come before execute() returns: wait until the turn is over.
    await until(() => handler.liveTasks === 0);
    expect((await handler.cancelTask(cancel(task.id), call("CancelTask"))).status?.state).toBe(
      TaskState.CANCELED,
    );
    expect(agent.cancels[0]?.running).toBe(false);
    await expect(send("more", { taskId: task.id })).rejects.toBeInstanceOf(
      UnsupportedOperationError,
    );
  });

  it("another terminal state is TaskNotCancelableError; an unknown task TaskNotFoundError", async () => {
    const { handler, sendTask } = setup();
    const done = await sendTask("work");
    await expect(handler.cancelTask(cancel(done.id), call("CancelTask"))).rejects.toBeInstanceOf(
      TaskNotCancelableError,
    );
    await expect(handler.cancelTask(cancel("nope"), call("CancelTask"))).rejects.toBeInstanceOf(
      TaskNotFoundError,
    );
  });

  it("the executor's cancel hook may refuse; the task is untouched", async () => {
    const { handler, sendTask, agent } = setup();
    agent.refuseCancel = true;
    const task = await sendTask("ask");
    await expect(handler.cancelTask(cancel(task.id), call("CancelTask"))).rejects.toBeInstanceOf(
      TaskNotCancelableError,
    );
    expect((await handler.getTask(getTask(task.id), call("GetTask"))).status?.state).toBe(
      TaskState.INPUT_REQUIRED,
    );
  });
});

describe("task runtime: streams (§3.1.2, §3.1.6, §3.5.2)", () => {
  it("SendStreamingMessage: the Task first, then updates, closed at the terminal state", async () => {
    const { handler } = setup();
    const events = await collect(
      handler.sendStreamingMessage(sendRequest("work"), call("SendStreamingMessage")),
    );
    expect(events.map(describeEvent)).toEqual([
      "task:SUBMITTED",
      "status:WORKING:",
      "artifact:out",
      "status:COMPLETED:did work",
    ]);
    const first = events[0]!.payload;
    expect(first.case === "task" && first.value.history.map(textOf)).toEqual(["work"]);
  });

  it("a Message-only stream holds exactly one Message", async () => {
    const { handler } = setup();
    const events = await collect(
      handler.sendStreamingMessage(sendRequest("reply"), call("SendStreamingMessage")),
    );
    expect(events.map(describeEvent)).toEqual(["message:echo reply"]);
  });

  it("K10: the stream of a turn closes at INPUT_REQUIRED once execute() returns", async () => {
    const { handler } = setup();
    const events = await collect(
      handler.sendStreamingMessage(sendRequest("ask"), call("SendStreamingMessage")),
    );
    expect(events.map(describeEvent)).toEqual([
      "task:SUBMITTED",
      "status:INPUT_REQUIRED:what next after 0?",
    ]);
  });

  it("K10: the stream stays open in AUTH_REQUIRED while execute() waits for an out-of-band credential (§7.6.1)", async () => {
    const { handler, agent } = setup();
    const seen: string[] = [];
    const done = (async () => {
      for await (const e of handler.sendStreamingMessage(
        sendRequest("auth-oob"),
        call("SendStreamingMessage"),
      )) {
        seen.push(describeEvent(e));
        if (seen.length === 2) agent.gate.open();
      }
    })();
    await done;
    expect(seen).toEqual([
      "task:SUBMITTED",
      "status:AUTH_REQUIRED:sign in at https://example.com/auth",
      "status:WORKING:got the credential",
      "status:COMPLETED:done after auth",
    ]);
  });

  it("a stream that continues a task begins with the Task holding the new message", async () => {
    const { handler, sendTask } = setup();
    const first = await sendTask("ask");
    const events = await collect(
      handler.sendStreamingMessage(
        sendRequest("work", { taskId: first.id }),
        call("SendStreamingMessage"),
      ),
    );
    expect(events.map(describeEvent)).toEqual([
      "task:INPUT_REQUIRED",
      "status:WORKING:",
      "artifact:out",
      "status:COMPLETED:did work",
    ]);
    const head = events[0]!.payload;
    expect(head.case === "task" && head.value.history.map(textOf)).toEqual([
      "ask",
      "what next after 0?",
      "work",
    ]);
  });

  it("historyLength applies to the Task event of a stream", async () => {
    const { handler, sendTask } = setup();
    const first = await sendTask("ask");
    const events = await collect(
      handler.sendStreamingMessage(
        sendRequest("work", { taskId: first.id }, { historyLength: 1 }),
        call("SendStreamingMessage"),
      ),
    );
    const head = events[0]!.payload;
    expect(head.case === "task" && head.value.history.map(textOf)).toEqual(["work"]);
  });

  it("SubscribeToTask: the current Task first, then live events; survives interrupted states; closes at terminal", async () => {
    const { handler, sendTask, send } = setup();
    const task = await sendTask("ask");
    const stream = handler.subscribeToTask(
      create(SubscribeToTaskRequestSchema, { id: task.id }),
      call("SubscribeToTask"),
    );
    const iterator = stream[Symbol.asyncIterator]();
    const head = await iterator.next();
    expect(head.value && describeEvent(head.value)).toBe("task:INPUT_REQUIRED");
    await send("ask", { taskId: task.id });
    await send("work", { taskId: task.id });
    const rest: string[] = [];
    for (let r = await iterator.next(); !r.done; r = await iterator.next())
      rest.push(describeEvent(r.value));
    expect(rest).toEqual([
      "status:INPUT_REQUIRED:what next after 3?",
      "status:WORKING:",
      "artifact:out",
      "status:COMPLETED:did work",
    ]);
  });

  it("SubscribeToTask on a terminal task is UnsupportedOperationError, on an unknown one TaskNotFoundError", async () => {
    const { handler, sendTask } = setup();
    const done = await sendTask("work");
    await expect(
      collect(
        handler.subscribeToTask(create(SubscribeToTaskRequestSchema, { id: done.id }), call()),
      ),
    ).rejects.toBeInstanceOf(UnsupportedOperationError);
    await expect(
      collect(
        handler.subscribeToTask(create(SubscribeToTaskRequestSchema, { id: "nope" }), call()),
      ),
    ).rejects.toBeInstanceOf(TaskNotFoundError);
  });

  it("a subscriber that goes away (abort signal) ends its stream and nothing else", async () => {
    const { handler, sendTask, send } = setup();
    const task = await sendTask("ask");
    const controller = new AbortController();
    const leaving = handler.subscribeToTask(
      create(SubscribeToTaskRequestSchema, { id: task.id }),
      callOf("SubscribeToTask", { signal: controller.signal }),
    );
    const staying = handler.subscribeToTask(
      create(SubscribeToTaskRequestSchema, { id: task.id }),
      call("SubscribeToTask"),
    );
    const leavingIt = leaving[Symbol.asyncIterator]();
    const stayingIt = staying[Symbol.asyncIterator]();
    await leavingIt.next();
    await stayingIt.next();
    const pending = leavingIt.next();
    controller.abort();
    expect((await pending).done).toBe(true);
    await send("work", { taskId: task.id });
    const rest: string[] = [];
    for (let r = await stayingIt.next(); !r.done; r = await stayingIt.next())
      rest.push(describeEvent(r.value));
    expect(rest.at(-1)).toBe("status:COMPLETED:did work");
    await until(() => handler.liveTasks === 0);
  });
});

describe("task runtime: scoping by tenant and principal (§13.1)", () => {
  it("another principal's task does not exist for them: TaskNotFoundError everywhere, absent from ListTasks", async () => {
    const { handler, sendTask, send } = setup();
    const alice = call("SendMessage", { user: "alice" });
    const bob = call("SendMessage", { user: "bob" });
    const task = await sendTask("ask", {}, undefined, alice);
    await expect(handler.getTask(getTask(task.id), bob)).rejects.toBeInstanceOf(TaskNotFoundError);
    await expect(send("work", { taskId: task.id }, undefined, bob)).rejects.toBeInstanceOf(
      TaskNotFoundError,
    );
    await expect(
      handler.cancelTask(create(CancelTaskRequestSchema, { id: task.id }), bob),
    ).rejects.toBeInstanceOf(TaskNotFoundError);
    await expect(
      collect(handler.subscribeToTask(create(SubscribeToTaskRequestSchema, { id: task.id }), bob)),
    ).rejects.toBeInstanceOf(TaskNotFoundError);
    await expect(
      handler.createTaskPushNotificationConfig(
        create(TaskPushNotificationConfigSchema, { taskId: task.id, url: "https://x" }),
        bob,
      ),
    ).rejects.toBeInstanceOf(TaskNotFoundError);
    expect((await handler.listTasks(create(ListTasksRequestSchema, {}), bob)).tasks).toEqual([]);
    expect(
      (await handler.listTasks(create(ListTasksRequestSchema, {}), alice)).tasks.map((t) => t.id),
    ).toEqual([task.id]);
    expect((await handler.getTask(getTask(task.id), alice)).id).toBe(task.id);
  });

  it("tenants are separate too, and anonymous calls are their own owner", async () => {
    const { handler, sendTask } = setup();
    const acme = await sendTask("work", {}, undefined, call("SendMessage", undefined, "acme"));
    await expect(
      handler.getTask(getTask(acme.id), call("GetTask", undefined, "globex")),
    ).rejects.toBeInstanceOf(TaskNotFoundError);
    await expect(
      handler.getTask(getTask(acme.id), call("GetTask", { user: "x" }, "acme")),
    ).rejects.toBeInstanceOf(TaskNotFoundError);
    expect((await handler.getTask(getTask(acme.id), call("GetTask", undefined, "acme"))).id).toBe(
      acme.id,
    );
  });

  it("ownerOf decides who owns what", async () => {
    const { handler, sendTask } = setup({
      ownerOf: (p) => (p as { user?: string } | undefined)?.user ?? "",
    });
    const task = await sendTask(
      "work",
      {},
      undefined,
      call("SendMessage", { user: "alice", session: 1 }),
    );
    expect(
      (await handler.getTask(getTask(task.id), call("GetTask", { user: "alice", session: 2 }))).id,
    ).toBe(task.id);
  });
});

describe("task runtime: push notification configs (§3.1.7–3.1.10)", () => {
  const config = (taskId: string, id = "") =>
    create(TaskPushNotificationConfigSchema, {
      taskId,
      id,
      url: "https://hooks.example.com/a2a",
      token: "tok",
    });
  const ref = (taskId: string, id: string) => ({ taskId, id });

  it("create (server id when none given), get, list with pages, delete (idempotent)", async () => {
    const { handler, sendTask } = setup();
    const task = await sendTask("ask");
    const created = await handler.createTaskPushNotificationConfig(config(task.id), call());
    expect(created.id).not.toBe("");
    expect(created.url).toBe("https://hooks.example.com/a2a");
    const named = await handler.createTaskPushNotificationConfig(config(task.id, "mine"), call());
    expect(named.id).toBe("mine");
    const got = await handler.getTaskPushNotificationConfig(
      create(GetTaskPushNotificationConfigRequestSchema, ref(task.id, created.id)),
      call(),
    );
    expect(got).toEqual(created);
    const all = await handler.listTaskPushNotificationConfigs(
      create(ListTaskPushNotificationConfigsRequestSchema, { taskId: task.id }),
      call(),
    );
    expect(all.configs.map((c) => c.id)).toEqual([created.id, "mine"]);
    expect(all.nextPageToken).toBe("");
    const page1 = await handler.listTaskPushNotificationConfigs(
      create(ListTaskPushNotificationConfigsRequestSchema, { taskId: task.id, pageSize: 1 }),
      call(),
    );
    expect(page1.configs.map((c) => c.id)).toEqual([created.id]);
    const page2 = await handler.listTaskPushNotificationConfigs(
      create(ListTaskPushNotificationConfigsRequestSchema, {
        taskId: task.id,
        pageSize: 1,
        pageToken: page1.nextPageToken,
      }),
      call(),
    );
    expect(page2.configs.map((c) => c.id)).toEqual(["mine"]);
    expect(page2.nextPageToken).toBe("");
    const del = create(DeleteTaskPushNotificationConfigRequestSchema, ref(task.id, "mine"));
    await handler.deleteTaskPushNotificationConfig(del, call());
    await handler.deleteTaskPushNotificationConfig(del, call());
    await expect(
      handler.getTaskPushNotificationConfig(
        create(GetTaskPushNotificationConfigRequestSchema, ref(task.id, "mine")),
        call(),
      ),
    ).rejects.toBeInstanceOf(TaskNotFoundError);
  });

  it("the task must exist; a missing config is TaskNotFoundError; a bad page token InvalidParamsError", async () => {
    const { handler, sendTask } = setup();
    await expect(
      handler.createTaskPushNotificationConfig(config("nope"), call()),
    ).rejects.toBeInstanceOf(TaskNotFoundError);
    await expect(
      handler.listTaskPushNotificationConfigs(
        create(ListTaskPushNotificationConfigsRequestSchema, { taskId: "nope" }),
        call(),
      ),
    ).rejects.toBeInstanceOf(TaskNotFoundError);
    await expect(
      handler.deleteTaskPushNotificationConfig(
        create(DeleteTaskPushNotificationConfigRequestSchema, ref("nope", "x")),
        call(),
      ),
    ).rejects.toBeInstanceOf(TaskNotFoundError);
    const task = await sendTask("ask");
    await expect(
      handler.getTaskPushNotificationConfig(
        create(GetTaskPushNotificationConfigRequestSchema, ref(task.id, "x")),
        call(),
      ),
    ).rejects.toBeInstanceOf(TaskNotFoundError);
    await expect(
      handler.listTaskPushNotificationConfigs(
        create(ListTaskPushNotificationConfigsRequestSchema, { taskId: task.id, pageToken: "zzz" }),
        call(),
      ),
    ).rejects.toBeInstanceOf(InvalidParamsError);
  });

  it("a push config in SendMessage is registered for the new task", async () => {
    const { handler, sendTask } = setup();
    const task = await sendTask(
      "ask",
      {},
      {
        taskPushNotificationConfig: create(TaskPushNotificationConfigSchema, {
          url: "https://hooks.example.com/x",
        }),
      },
    );
    const list = await handler.listTaskPushNotificationConfigs(
      create(ListTaskPushNotificationConfigsRequestSchema, { taskId: task.id }),
      call(),
    );
    expect(list.configs).toEqual([
      expect.objectContaining({
        taskId: task.id,
        url: "https://hooks.example.com/x",
        id: expect.stringMatching(/.+/),
      }),
    ]);
  });

  it("a push config in a SendMessage that continues a task is registered for that task", async () => {
    const { handler, sendTask } = setup();
    const task = await sendTask("ask");
    await sendTask(
      "ask",
      { taskId: task.id },
      {
        taskPushNotificationConfig: create(TaskPushNotificationConfigSchema, {
          id: "later",
          url: "https://hooks.example.com/y",
        }),
      },
    );
    const list = await handler.listTaskPushNotificationConfigs(
      create(ListTaskPushNotificationConfigsRequestSchema, { taskId: task.id }),
      call(),
    );
    expect(list.configs.map((c) => [c.id, c.taskId])).toEqual([["later", task.id]]);
  });

  it("without the capability every push operation is PushNotificationNotSupportedError (§3.3.4)", async () => {
    const { handler, sendTask, send } = setup({ capabilities: { streaming: true } });
    const task = await sendTask("ask");
    const ops = [
      handler.createTaskPushNotificationConfig(config(task.id), call()),
      handler.getTaskPushNotificationConfig(
        create(GetTaskPushNotificationConfigRequestSchema, ref(task.id, "x")),
        call(),
      ),
      handler.listTaskPushNotificationConfigs(
        create(ListTaskPushNotificationConfigsRequestSchema, { taskId: task.id }),
        call(),
      ),
      handler.deleteTaskPushNotificationConfig(
        create(DeleteTaskPushNotificationConfigRequestSchema, ref(task.id, "x")),
        call(),
      ),
      send(
        "ask",
        {},
        {
          taskPushNotificationConfig: create(TaskPushNotificationConfigSchema, {
            url: "https://x",
          }),
        },
      ),
    ];
    for (const op of ops)
      await expect(op).rejects.toBeInstanceOf(PushNotificationNotSupportedError);
  });

  it("onTaskEvent (the push sender's hook) gets every stored event in order, with the scope", async () => {
    const { sendTask, notices, errors } = setup();
    const task = await sendTask(
      "work",
      {},
      undefined,
      call("SendMessage", { user: "alice" }, "acme"),
    );
    expect(notices.map((n) => describeEvent(n.event))).toEqual([
      "task:SUBMITTED",
      "status:WORKING:",
      "artifact:out",
      "status:COMPLETED:did work",
    ]);
    expect(notices.every((n) => n.taskId === task.id && n.contextId === task.contextId)).toBe(true);
    expect(notices[0]?.scope).toEqual({ tenant: "acme", owner: JSON.stringify({ user: "alice" }) });
    expect(notices.map((n) => n.state)).toEqual([
      TaskState.SUBMITTED,
      TaskState.WORKING,
      TaskState.WORKING,
      TaskState.COMPLETED,
    ]);
    expect(errors).toEqual([]);
  });

  it("a failing onTaskEvent hook is reported and changes nothing", async () => {
    const errors: unknown[] = [];
    const handler = createA2ATaskHandler({
      executor: new ChatAgent(),
      onError: (e) => errors.push(e),
      onTaskEvent: (n) => {
        if (n.event.payload.case === "task") throw new Error("sync boom");
        return Promise.reject(new Error("async boom"));
      },
    });
    const task = taskOf(await handler.sendMessage(sendRequest("work"), call()));
    expect(task.status?.state).toBe(TaskState.COMPLETED);
    await until(() => errors.length === 4);
    expect(errors.map((e) => (e as Error).message)).toEqual([
      "sync boom",
      "async boom",
      "async boom",
      "async boom",
    ]);
  });
});

describe("task runtime: capabilities and the extended card (§3.3.4, §3.1.11)", () => {
  it("streaming operations without the capability are UnsupportedOperationError", async () => {
    const { handler, sendTask } = setup({ capabilities: {} });
    const task = await sendTask("ask");
    await expect(
      collect(handler.sendStreamingMessage(sendRequest("work"), call())),
    ).rejects.toBeInstanceOf(UnsupportedOperationError);
    await expect(
      collect(
        handler.subscribeToTask(create(SubscribeToTaskRequestSchema, { id: task.id }), call()),
      ),
    ).rejects.toBeInstanceOf(UnsupportedOperationError);
  });

  it("GetExtendedAgentCard: not declared → UnsupportedOperation; declared, none → ExtendedAgentCardNotConfigured; else the card", async () => {
    const request = create(GetExtendedAgentCardRequestSchema, {});
    const card = create(AgentCardSchema, { name: "secret agent", description: "d", version: "1" });
    const undeclared = createA2ATaskHandler({ executor: new ChatAgent(), extendedAgentCard: card });
    await expect(undeclared.getExtendedAgentCard(request, call())).rejects.toBeInstanceOf(
      UnsupportedOperationError,
    );
    const unconfigured = createA2ATaskHandler({
      executor: new ChatAgent(),
      capabilities: { extendedAgentCard: true },
    });
    await expect(unconfigured.getExtendedAgentCard(request, call())).rejects.toBeInstanceOf(
      ExtendedAgentCardNotConfiguredError,
    );
    const fixed = createA2ATaskHandler({
      executor: new ChatAgent(),
      capabilities: { extendedAgentCard: true },
      extendedAgentCard: card,
    });
    // §3.1.11/§13.3: only for authenticated callers.
    await expect(fixed.getExtendedAgentCard(request, call())).rejects.toBeInstanceOf(
      UnauthenticatedError,
    );
    const got = await fixed.getExtendedAgentCard(
      request,
      callOf("GetExtendedAgentCard", { principal: { user: "bob" } }),
    );
    expect(got).toEqual(card);
    expect(got).not.toBe(card);
    const perCaller = createA2ATaskHandler<{ user: string }>({
      executor: new ChatAgent(),
      capabilities: { extendedAgentCard: true },
      extendedAgentCard: (c) =>
        create(AgentCardSchema, { name: `card for ${c.principal?.user ?? "nobody"}` }),
    });
    expect(
      (
        await perCaller.getExtendedAgentCard(
          request,
          callOf("GetExtendedAgentCard", { principal: { user: "alice" } }),
        )
      ).name,
    ).toBe("card for alice");
  });
});

describe("task runtime: the handler object", () => {
  it("is a plain object of functions: destructuring and spreading with overrides work", async () => {
    const { handler } = setup();
    const { sendMessage, getTask: get } = handler;
    const task = taskOf(await sendMessage(sendRequest("work"), call()));
    expect((await get(getTask(task.id), call("GetTask"))).id).toBe(task.id);
    const custom = {
      ...handler,
      getExtendedAgentCard: async () => create(AgentCardSchema, { name: "custom" }),
    };
    expect((await custom.getExtendedAgentCard()).name).toBe("custom");
    expect(
      (await custom.listTasks(create(ListTasksRequestSchema, {}), call("ListTasks"))).totalSize,
    ).toBe(1);
  });
});

describe("task runtime: live state is released", () => {
  it("after turns, streams, cancels and subscriptions end, no task keeps in-process state", async () => {
    const { handler, sendTask, send, agent } = setup();
    const a = await sendTask("ask");
    const sub = handler.subscribeToTask(create(SubscribeToTaskRequestSchema, { id: a.id }), call());
    const it = sub[Symbol.asyncIterator]();
    await it.next();
    await it.return?.();
    await collect(handler.sendStreamingMessage(sendRequest("work"), call()));
    const held = await sendTask("hold", {}, { returnImmediately: true });
    await until(() => agent.contexts.length === 3);
    await handler.cancelTask(create(CancelTaskRequestSchema, { id: held.id }), call());
    agent.gate.open();
    await send("reply");
    await expect(send("x", { taskId: "missing" })).rejects.toBeInstanceOf(TaskNotFoundError);
    await until(() => handler.liveTasks === 0);
    expect(handler.liveTasks).toBe(0);
  });
});
