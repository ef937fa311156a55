import { create, toJson } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import {
  ArtifactSchema,
  GetTaskRequestSchema,
  ListTasksRequestSchema,
  MessageSchema,
  Role,
  StreamResponseSchema,
  TaskState,
} from "../../../generated-example/gen/a2a_pb.js";
import {
  InternalError,
  InvalidParamsError,
} from "../../../generated-example/gen/a2a_a2a_errors.js";
import {
  ExecutorMisuseError,
  InMemoryTaskStore,
  type ExecutorMisuseCode,
} from "@protoc-gen-a2a/runtime/task";
import {
  Gate,
  callOf,
  collect,
  createA2ATaskHandler,
  describeEvent,
  messageOf,
  sendRequest,
  taskOf,
  textOf,
  until,
  type A2AEmitter,
  type A2AExecutor,
  type A2ARequestContext,
} from "../../support/task-runtime-binding.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function handlerOf(
  execute: A2AExecutor["execute"],
  extra: { errors?: unknown[]; streaming?: boolean } = {},
) {
  const errors = extra.errors ?? [];
  return createA2ATaskHandler({
    executor: { execute },
    capabilities: { streaming: extra.streaming ?? true },
    onError: (e) => errors.push(e),
  });
}

/** Runs `body` against an emitter and reports what it threw (or "ok"). */
async function misuse(
  body: (emitter: A2AEmitter, context: A2ARequestContext) => Promise<void> | void,
): Promise<string> {
  let outcome = "none";
  const handler = handlerOf(async (context, emitter) => {
    try {
      await body(emitter, context);
      outcome = "ok";
    } catch (e) {
      outcome = e instanceof ExecutorMisuseError ? e.code : `other: ${String(e)}`;
    }
    try {
      // Finish the turn whatever happened, so the call returns.
      if (emitter.state === undefined) await emitter.reply("recovered");
      else await emitter.complete();
    } catch {
      // It was already finished.
    }
  });
  await handler.sendMessage(sendRequest("go"), callOf("SendMessage")).catch(() => undefined);
  // The answer may come before execute() returns: wait until the turn is over.
  await until(() => handler.liveTasks === 0);
  return outcome;
}

describe("task runtime: the executor API", () => {
  it("a stateless reply: one Message with a generated contextId, no task", async () => {
    const handler = handlerOf((_c, emitter) => emitter.reply("hello back"));
    const reply = messageOf(await handler.sendMessage(sendRequest("hello"), callOf("SendMessage")));
    expect(textOf(reply)).toBe("hello back");
    expect(reply.role).toBe(Role.AGENT);
    expect(reply.taskId).toBe("");
    expect(reply.contextId).toMatch(UUID);
    expect(reply.messageId).toMatch(UUID);
    expect(
      (await handler.listTasks(create(ListTasksRequestSchema, {}), callOf("ListTasks"))).tasks,
    ).toEqual([]);
  });

  it("a client contextId is kept on the reply (§3.4.1 MAY accept)", async () => {
    const handler = handlerOf((_c, emitter) => emitter.reply("ok"));
    const reply = messageOf(
      await handler.sendMessage(
        sendRequest("hi", { contextId: "ctx-client" }),
        callOf("SendMessage"),
      ),
    );
    expect(reply.contextId).toBe("ctx-client");
  });

  it("a task lifecycle: server ids, history of user and agent status messages, artifacts", async () => {
    const seen: A2ARequestContext[] = [];
    const handler = handlerOf(async (context, emitter) => {
      seen.push(context);
      await emitter.working("on it");
      await emitter.addArtifact({
        name: "result",
        parts: [{ content: { case: "text", value: "42" } }],
      });
      await emitter.complete("done");
    });
    const task = taskOf(await handler.sendMessage(sendRequest("compute"), callOf("SendMessage")));
    const context = seen[0]!;
    expect(task.id).toMatch(UUID);
    expect(task.contextId).toMatch(UUID);
    expect(task.id).not.toBe(task.contextId);
    expect(context.taskId).toBe(task.id);
    expect(context.contextId).toBe(task.contextId);
    expect(context.isNewTask).toBe(true);
    expect(context.task).toBeUndefined();
    expect(context.message.taskId).toBe(task.id);
    expect(task.status?.state).toBe(TaskState.COMPLETED);
    expect(textOf(task.status?.message)).toBe("done");
    expect(task.history.map((m) => [m.role, textOf(m)])).toEqual([
      [Role.USER, "compute"],
      [Role.AGENT, "on it"],
      [Role.AGENT, "done"],
    ]);
    expect(task.history.every((m) => m.taskId === task.id && m.contextId === task.contextId)).toBe(
      true,
    );
    expect(task.artifacts).toHaveLength(1);
    expect(task.artifacts[0]?.artifactId).toMatch(UUID);
    expect(task.artifacts[0]?.name).toBe("result");
  });

  it("agent messages given as Message objects or init objects get their ids filled in", async () => {
    const handler = handlerOf(async (_c, emitter) => {
      await emitter.working(
        create(MessageSchema, { parts: [{ content: { case: "text", value: "a" } }] }),
      );
      await emitter.complete({
        messageId: "mine",
        parts: [{ content: { case: "text", value: "b" } }],
        metadata: { k: 1 },
      });
    });
    const task = taskOf(await handler.sendMessage(sendRequest("x"), callOf("SendMessage")));
    const [, first, second] = task.history;
    expect(first?.messageId).toMatch(UUID);
    expect(first?.role).toBe(Role.AGENT);
    expect(second?.messageId).toBe("mine");
    expect(second?.metadata).toEqual({ k: 1 });
    expect(second?.taskId).toBe(task.id);
  });

  it("events that are not awaited are stored and streamed in call order", async () => {
    const handler = handlerOf(async (_c, emitter) => {
      void emitter.working("1");
      void emitter.addArtifact({
        artifactId: "a",
        parts: [{ content: { case: "text", value: "x" } }],
      });
      void emitter.working("2");
      await emitter.complete("3");
    });
    const events = await collect(
      handler.sendStreamingMessage(sendRequest("go"), callOf("SendStreamingMessage")),
    );
    expect(events.map(describeEvent)).toEqual([
      "task:SUBMITTED",
      "status:WORKING:1",
      "artifact:a",
      "status:WORKING:2",
      "status:COMPLETED:3",
    ]);
  });

  it("artifact chunks: append extends the stored artifact, the stream carries the chunks", async () => {
    const handler = handlerOf(async (_c, emitter) => {
      await emitter.addArtifact({
        artifactId: "doc",
        name: "doc",
        parts: [{ content: { case: "text", value: "Hel" } }],
      });
      await emitter.addArtifact(
        { artifactId: "doc", parts: [{ content: { case: "text", value: "lo" } }] },
        { append: true },
      );
      await emitter.addArtifact(
        { artifactId: "doc", parts: [{ content: { case: "text", value: "!" } }] },
        { append: true, lastChunk: true },
      );
      await emitter.complete();
    });
    const events = await collect(
      handler.sendStreamingMessage(sendRequest("go"), callOf("SendStreamingMessage")),
    );
    const chunks = events.flatMap((e) =>
      e.payload.case === "artifactUpdate" ? [e.payload.value] : [],
    );
    expect(chunks.map((c) => [c.append, c.lastChunk, c.artifact?.parts.length])).toEqual([
      [false, false, 1],
      [true, false, 1],
      [true, true, 1],
    ]);
    const taskId = events[0]?.payload.case === "task" ? events[0].payload.value.id : "";
    const stored = await handler.getTask(
      create(GetTaskRequestSchema, { id: taskId }),
      callOf("GetTask"),
    );
    expect(stored.artifacts).toHaveLength(1);
    expect(stored.artifacts[0]?.parts.map((p) => p.content.value)).toEqual(["Hel", "lo", "!"]);
    expect(stored.artifacts[0]?.name).toBe("doc");
  });

  it("an artifact with the same id and no append replaces the earlier one", async () => {
    const handler = handlerOf(async (_c, emitter) => {
      await emitter.addArtifact(
        create(ArtifactSchema, {
          artifactId: "a",
          parts: [{ content: { case: "text", value: "v1" } }],
        }),
      );
      await emitter.addArtifact({
        artifactId: "a",
        parts: [{ content: { case: "text", value: "v2" } }],
      });
      await emitter.complete();
    });
    const task = taskOf(await handler.sendMessage(sendRequest("go"), callOf("SendMessage")));
    expect(task.artifacts.map((a) => a.parts.map((p) => p.content.value))).toEqual([["v2"]]);
  });

  it("the low-level publish applies status and artifact events of its own task", async () => {
    const handler = handlerOf(async (context, emitter) => {
      await emitter.publish({
        case: "statusUpdate",
        value: {
          taskId: context.taskId,
          contextId: context.contextId,
          status: { state: TaskState.WORKING },
        },
      });
      await emitter.publish({
        case: "artifactUpdate",
        value: {
          artifact: { artifactId: "z", parts: [{ content: { case: "text", value: "1" } }] },
          metadata: { m: true },
        },
      });
      await emitter.publish({
        case: "statusUpdate",
        value: { status: { state: TaskState.COMPLETED } },
      });
    });
    const events = await collect(
      handler.sendStreamingMessage(sendRequest("go"), callOf("SendStreamingMessage")),
    );
    expect(events.map(describeEvent)).toEqual([
      "task:SUBMITTED",
      "status:WORKING:",
      "artifact:z",
      "status:COMPLETED:",
    ]);
    const artifactEvent = events[2]?.payload;
    expect(artifactEvent?.case === "artifactUpdate" && artifactEvent.value.metadata).toEqual({
      m: true,
    });
  });

  describe("misuse is a synchronous ExecutorMisuseError, never a corrupted task", () => {
    const cases: [
      string,
      ExecutorMisuseCode,
      (emitter: A2AEmitter, context: A2ARequestContext) => Promise<void> | void,
    ][] = [
      [
        "a second Message",
        "second-message",
        (e) => {
          void e.reply("one");
          void e.reply("two");
        },
      ],
      [
        "a task event after a Message",
        "event-after-message",
        (e) => {
          void e.reply("one");
          void e.working();
        },
      ],
      [
        "a Message after task events",
        "message-for-task",
        async (e) => {
          await e.working();
          void e.reply("late");
        },
      ],
      [
        "an update after a terminal state",
        "event-after-terminal",
        async (e) => {
          await e.complete();
          void e.working();
        },
      ],
      [
        "an artifact after a terminal state",
        "event-after-terminal",
        async (e) => {
          await e.fail();
          void e.addArtifact({ parts: [{ content: { case: "text", value: "x" } }] });
        },
      ],
      [
        "an artifact event for another task",
        "wrong-task",
        (e) => {
          void e.publish({
            case: "artifactUpdate",
            value: {
              taskId: "someone-else",
              artifact: { parts: [{ content: { case: "text", value: "x" } }] },
            },
          });
        },
      ],
      [
        "a status event for another context",
        "wrong-task",
        (e) => {
          void e.publish({
            case: "statusUpdate",
            value: { contextId: "other-ctx", status: { state: TaskState.WORKING } },
          });
        },
      ],
      [
        "a message naming another task",
        "wrong-task",
        (e) => {
          void e.working({ taskId: "other", parts: [{ content: { case: "text", value: "x" } }] });
        },
      ],
      [
        "a stateless reply naming a task",
        "wrong-task",
        (e) => {
          void e.reply({ taskId: "t", parts: [{ content: { case: "text", value: "x" } }] });
        },
      ],
      [
        "a message without parts",
        "invalid-event",
        (e) => {
          void e.working({ parts: [] });
        },
      ],
      [
        "an artifact without parts",
        "invalid-event",
        (e) => {
          void e.addArtifact({ artifactId: "a" });
        },
      ],
      [
        "an append to an unknown artifact",
        "invalid-event",
        (e) => {
          void e.addArtifact(
            { artifactId: "nope", parts: [{ content: { case: "text", value: "x" } }] },
            { append: true },
          );
        },
      ],
      [
        "an append after lastChunk",
        "invalid-event",
        async (e) => {
          await e.addArtifact(
            { artifactId: "a", parts: [{ content: { case: "text", value: "x" } }] },
            { lastChunk: true },
          );
          void e.addArtifact(
            { artifactId: "a", parts: [{ content: { case: "text", value: "y" } }] },
            { append: true },
          );
        },
      ],
      [
        "a status with an unknown state",
        "invalid-event",
        (e) => {
          void e.publish({ case: "statusUpdate", value: { status: { state: 42 as TaskState } } });
        },
      ],
    ];
    it.each(cases)("%s", async (_name, code, body) => {
      expect(await misuse(body)).toBe(code);
    });

    it("any event after execute() settled", async () => {
      let kept: A2AEmitter | undefined;
      const handler = handlerOf(async (_c, emitter) => {
        kept = emitter;
        await emitter.requireInput("more?");
      });
      const task = taskOf(await handler.sendMessage(sendRequest("go"), callOf("SendMessage")));
      await until(() => handler.liveTasks === 0);
      expect(() => kept!.working()).toThrow(expect.objectContaining({ code: "event-after-end" }));
      const again = await handler.getTask(
        create(GetTaskRequestSchema, { id: task.id }),
        callOf("GetTask"),
      );
      expect(again.status?.state).toBe(TaskState.INPUT_REQUIRED);
    });

    it("a stateless Message on a turn that continues a task", async () => {
      const codes: string[] = [];
      const handler = handlerOf(async (context, emitter) => {
        if (context.isNewTask) return void (await emitter.requireInput("more?"));
        try {
          void emitter.reply("not allowed");
        } catch (e) {
          codes.push((e as ExecutorMisuseError).code);
        }
        await emitter.complete();
      });
      const first = taskOf(await handler.sendMessage(sendRequest("go"), callOf("SendMessage")));
      const second = taskOf(
        await handler.sendMessage(sendRequest("more", { taskId: first.id }), callOf("SendMessage")),
      );
      expect(codes).toEqual(["message-for-task"]);
      expect(second.status?.state).toBe(TaskState.COMPLETED);
    });

    it("the rejected event leaves nothing behind", async () => {
      const handler = handlerOf(async (_c, emitter) => {
        await emitter.complete("final");
        expect(() => emitter.working("zombie")).toThrow(ExecutorMisuseError);
      });
      const task = taskOf(await handler.sendMessage(sendRequest("go"), callOf("SendMessage")));
      await until(() => handler.liveTasks === 0);
      const stored = await handler.getTask(
        create(GetTaskRequestSchema, { id: task.id }),
        callOf("GetTask"),
      );
      expect(stored.status?.state).toBe(TaskState.COMPLETED);
      expect(stored.history.map(textOf)).toEqual(["go", "final"]);
    });
  });

  describe("when execute() misbehaves", () => {
    it("resolving without emitting anything: InternalError for the caller, reported to onError", async () => {
      const errors: unknown[] = [];
      const handler = handlerOf(() => {}, { errors });
      await expect(
        handler.sendMessage(sendRequest("x"), callOf("SendMessage")),
      ).rejects.toBeInstanceOf(InternalError);
      expect(errors).toEqual([expect.objectContaining({ name: "ExecutorMisuseError" })]);
    });

    it("throwing before emitting anything: the caller gets that error", async () => {
      const handler = handlerOf(() => {
        throw new InvalidParamsError("I only speak French");
      });
      await expect(handler.sendMessage(sendRequest("x"), callOf("SendMessage"))).rejects.toThrow(
        "I only speak French",
      );
      await expect(
        collect(handler.sendStreamingMessage(sendRequest("x"), callOf("SendStreamingMessage"))),
      ).rejects.toBeInstanceOf(InvalidParamsError);
    });

    it("throwing after the task exists: the task is FAILED and the error goes to onError", async () => {
      const errors: unknown[] = [];
      const handler = handlerOf(
        async (_c, emitter) => {
          await emitter.working();
          throw new Error("database password hunter2");
        },
        { errors },
      );
      const task = taskOf(await handler.sendMessage(sendRequest("x"), callOf("SendMessage")));
      expect(task.status?.state).toBe(TaskState.FAILED);
      expect(textOf(task.status?.message)).toBe("The agent failed while processing the task.");
      expect(
        JSON.stringify(
          toJson(
            StreamResponseSchema,
            create(StreamResponseSchema, { payload: { case: "task", value: task } }),
          ),
        ),
      ).not.toContain("hunter2");
      expect(errors).toEqual([expect.objectContaining({ message: "database password hunter2" })]);
    });

    it("resolving while the task is still WORKING: the task is FAILED, onError says why", async () => {
      const errors: unknown[] = [];
      const handler = handlerOf(
        async (_c, emitter) => {
          await emitter.working();
        },
        { errors },
      );
      const task = taskOf(await handler.sendMessage(sendRequest("x"), callOf("SendMessage")));
      expect(task.status?.state).toBe(TaskState.FAILED);
      expect(textOf(task.status?.message)).toBe("The agent stopped before finishing the task.");
      expect(errors).toEqual([expect.objectContaining({ name: "ExecutorMisuseError" })]);
    });

    it("throwing after a reply: the reply stands, the error goes to onError", async () => {
      const errors: unknown[] = [];
      const handler = handlerOf(
        async (_c, emitter) => {
          await emitter.reply("hi");
          throw new Error("late");
        },
        { errors },
      );
      expect(
        textOf(messageOf(await handler.sendMessage(sendRequest("x"), callOf("SendMessage")))),
      ).toBe("hi");
      await until(() => errors.length === 1);
    });

    it("a failing store: the caller gets the error instead of hanging, onError hears of it", async () => {
      const errors: unknown[] = [];
      const store = new InMemoryTaskStore();
      store.saveTask = () => Promise.reject(new Error("disk full"));
      const handler = createA2ATaskHandler({
        store,
        onError: (e) => errors.push(e),
        executor: {
          async execute(_c, emitter) {
            await emitter.working();
            await emitter.complete();
          },
        },
      });
      await expect(handler.sendMessage(sendRequest("x"), callOf("SendMessage"))).rejects.toThrow(
        "disk full",
      );
      expect(errors).toEqual([expect.objectContaining({ message: "disk full" })]);
      await until(() => handler.liveTasks === 0);
    });

    it("submit() creates the task without changing it, and is a no-op afterwards", async () => {
      const gate = new Gate();
      const handler = handlerOf(async (_c, emitter) => {
        await emitter.submit();
        await emitter.submit();
        await gate.promise;
        await emitter.complete();
      });
      const task = taskOf(
        await handler.sendMessage(
          sendRequest("x", {}, { returnImmediately: true }),
          callOf("SendMessage"),
        ),
      );
      expect(task.status?.state).toBe(TaskState.SUBMITTED);
      gate.open();
      await until(() => handler.liveTasks === 0);
      expect(
        (await handler.getTask(create(GetTaskRequestSchema, { id: task.id }), callOf("GetTask")))
          .status?.state,
      ).toBe(TaskState.COMPLETED);
    });
  });
});
