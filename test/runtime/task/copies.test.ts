import { clone, create, equals, toJson } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import {
  GetTaskRequestSchema,
  MessageSchema,
  StreamResponseSchema,
  SubscribeToTaskRequestSchema,
  TaskSchema,
  TaskState,
  type Task,
} from "../../../generated-example/gen/a2a_pb.js";
import { deepCopy } from "../../../runtime/src/task/factory.js";
import { BINDING_CALL, isImmutable } from "../../../runtime/src/pipeline/binding-call.js";
import type { TaskEventNotice } from "@protoc-gen-a2a/runtime/task";
import {
  Gate,
  callOf,
  collect,
  createA2ATaskHandler,
  sendRequest,
  taskOf,
  type A2ARequestContext,
  type A2ASchemas,
} from "../../support/task-runtime-binding.js";

/** Every object (and array) reachable from `value`. */
function objectsOf(value: unknown, into = new Set<object>()): Set<object> {
  if (typeof value === "object" && value !== null && !into.has(value)) {
    into.add(value);
    for (const v of Object.values(value)) objectsOf(v, into);
  }
  return into;
}

/** Overwrites every string (but `$typeName`) and number reachable from `value`, and appends to every array. */
function vandalize(value: unknown): void {
  if (typeof value !== "object" || value === null || value instanceof Uint8Array) return;
  if (Array.isArray(value)) {
    for (const v of value) vandalize(v);
    value.push("vandalized");
    return;
  }
  const record = value as Record<string, unknown>;
  for (const [key, v] of Object.entries(record)) {
    if (key === "$typeName") continue;
    if (typeof v === "string") record[key] = "vandalized";
    else if (typeof v === "number") record[key] = 999;
    else vandalize(v);
  }
}

const richTask = (): Task =>
  create(TaskSchema, {
    id: "t-1",
    contextId: "c-1",
    status: {
      state: TaskState.WORKING,
      timestamp: timestampFromMs(1_700_000_000_123),
      message: {
        messageId: "m-2",
        role: 2,
        parts: [{ content: { case: "text", value: "working" } }],
      },
    },
    history: [
      {
        messageId: "m-1",
        role: 1,
        parts: [
          { content: { case: "raw", value: new Uint8Array([1, 2, 3]) } },
          { content: { case: "text", value: "hi" } },
        ],
        metadata: { a: [1, { b: null }] },
      },
    ],
    artifacts: [
      {
        artifactId: "a-1",
        name: "n",
        parts: [{ content: { case: "text", value: "x" } }],
        metadata: { k: { deep: ["v"] } },
        extensions: ["urn:x"],
      },
    ],
    metadata: JSON.parse('{"__proto__": {"polluted": true}, "plain": 1}') as Record<string, never>,
  });

describe("deepCopy", () => {
  it("equals clone() and shares no object with its source", () => {
    const task = richTask();
    task.$unknown = [{ no: 99, wireType: 2, data: new Uint8Array([7]) }];
    const copy = deepCopy(TaskSchema, task);
    expect(equals(TaskSchema, copy, task)).toBe(true);
    expect(toJson(TaskSchema, copy)).toEqual(toJson(TaskSchema, clone(TaskSchema, task)));
    expect(copy.$unknown).toEqual(task.$unknown);
    const shared = [...objectsOf(copy)].filter((o) => objectsOf(task).has(o));
    expect(shared).toEqual([]);
    // A "__proto__" key of a Struct is copied as a key, never as a prototype.
    expect(Object.getPrototypeOf(copy.metadata)).toBe(Object.prototype);
    expect(Object.keys(copy.metadata ?? {})).toEqual(["__proto__", "plain"]);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });

  it("mutating the copy leaves the source intact", () => {
    const task = richTask();
    const before = toJson(TaskSchema, task);
    vandalize(deepCopy(TaskSchema, task));
    expect(toJson(TaskSchema, task)).toEqual(before);
  });

  it("falls back to clone() for what it does not copy itself", () => {
    const message = create(MessageSchema, {
      messageId: "m",
      parts: [{ content: { case: "raw", value: Buffer.from([1, 2]) } }],
    });
    const copy = deepCopy(MessageSchema, message);
    expect(equals(MessageSchema, copy, message)).toBe(true);
    expect(copy.parts[0]).not.toBe(message.parts[0]);
    // An `undefined` in a Struct (not JSON, but JavaScript lets it through): clone() makes it null.
    const task = richTask();
    task.metadata = { gone: undefined } as unknown as Record<string, never>;
    expect(deepCopy(TaskSchema, task).metadata).toEqual(clone(TaskSchema, task).metadata);
    expect(toJson(TaskSchema, deepCopy(TaskSchema, task))).toEqual({
      ...(toJson(TaskSchema, richTask()) as object),
      metadata: { gone: null },
    });
    const event = create(StreamResponseSchema, { payload: { case: "task", value: richTask() } });
    const withPrototype = Object.assign(
      Object.create({ inherited: true }) as object,
      event,
    ) as typeof event;
    const copied = deepCopy(StreamResponseSchema, withPrototype);
    expect(equals(StreamResponseSchema, copied, event)).toBe(true);
    expect(copied.payload.value).not.toBe(event.payload.value);
  });
});

describe("copies: deep mutations of anything handed out leave the store and other readers intact", () => {
  it("responses, stream events, subscription events, onTaskEvent notices and the executor's context", async () => {
    const gate = new Gate();
    const waiting = new Gate();
    const notices: TaskEventNotice<A2ASchemas>[] = [];
    const contexts: A2ARequestContext[] = [];
    const handler = createA2ATaskHandler({
      capabilities: { streaming: true },
      onTaskEvent: (notice) => {
        notices.push(notice);
        vandalize(notice.event);
      },
      executor: {
        async execute(context, emitter) {
          contexts.push(context);
          vandalize(context.message);
          if (context.task !== undefined) vandalize(context.task);
          for (const t of context.referenceTasks) vandalize(t);
          await emitter.working("step");
          if (context.task === undefined) {
            waiting.open();
            await gate.promise;
          }
          await emitter.addArtifact({
            artifactId: "a",
            parts: [{ content: { case: "text", value: "x" } }],
            metadata: { k: "v" },
          });
          await emitter.requireInput("more?");
        },
      },
    });
    const request = sendRequest("one");
    const first = handler.sendMessage(request, callOf("SendMessage"));
    await waiting.promise; // the first turn is WORKING, held at the gate
    const taskId = contexts[0]!.taskId;
    const sub = handler.subscribeToTask(
      create(SubscribeToTaskRequestSchema, { id: taskId }),
      callOf("SubscribeToTask"),
    );
    const subEvents: unknown[] = [];
    const subscribed = new Gate();
    const subDone = (async () => {
      for await (const e of sub) {
        subEvents.push(toJson(StreamResponseSchema, e));
        vandalize(e);
        subscribed.open();
        if (subEvents.length === 3) break;
      }
    })();
    await subscribed.promise; // the subscription's snapshot (the WORKING task) has arrived
    gate.open();
    const response = taskOf(await first);
    const snapshot = toJson(TaskSchema, response);
    vandalize(response);
    const stored = await handler.getTask(
      create(GetTaskRequestSchema, { id: taskId }),
      callOf("GetTask"),
    );
    expect(toJson(TaskSchema, stored)).toEqual(snapshot);
    vandalize(stored);
    await subDone;
    expect(subEvents.map((e) => Object.keys((e as { [k: string]: unknown }) ?? {})[0])).toEqual([
      "task",
      "artifactUpdate",
      "statusUpdate",
    ]);

    // A second turn, streamed, referencing the task; then every reader's view must still be the stored one.
    const events = await collect(
      handler.sendStreamingMessage(
        sendRequest("two", { taskId, referenceTaskIds: [taskId] }),
        callOf("SendStreamingMessage"),
      ),
    );
    const streamed = events.map((e) => toJson(StreamResponseSchema, e));
    for (const e of events) vandalize(e);
    const after = await handler.getTask(
      create(GetTaskRequestSchema, { id: taskId }),
      callOf("GetTask"),
    );
    const json = toJson(TaskSchema, after) as {
      history: unknown[];
      artifacts: { parts: unknown[]; metadata: unknown }[];
      status: { state: string };
    };
    expect(json.history).toHaveLength(6);
    expect(JSON.stringify(json)).not.toContain("vandalized");
    expect(json.artifacts[0]?.metadata).toEqual({ k: "v" });
    expect(json.status.state).toBe("TASK_STATE_INPUT_REQUIRED");
    expect(JSON.stringify(streamed)).not.toContain("vandalized");
    expect(notices.length).toBeGreaterThan(0);
    expect(
      JSON.stringify(request.message ? toJson(MessageSchema, request.message) : {}),
    ).not.toContain("vandalized");
  });
});

describe("callers that only serialize (contexts made by a binding's pipeline) share what is stored", () => {
  const serializing = (operation: string): ReturnType<typeof callOf> =>
    Object.assign(callOf(operation), { [BINDING_CALL]: true });

  it("get the stored task itself, a shallow copy where a view trims it, and the store never sees the trim", async () => {
    const handler = createA2ATaskHandler({
      capabilities: { streaming: true },
      executor: {
        async execute(_context, emitter) {
          await emitter.working("step");
          await emitter.requireInput("more?");
        },
      },
    });
    const created = taskOf(
      await handler.sendMessage(sendRequest("one"), serializing("SendMessage")),
    );
    const get = (historyLength?: number) =>
      handler.getTask(
        create(GetTaskRequestSchema, { id: created.id, historyLength }),
        serializing("GetTask"),
      );
    const whole = await get();
    expect(await get()).toBe(whole); // no copy per call
    expect(whole.history.length).toBe(3);
    const trimmed = await get(1);
    expect(trimmed).not.toBe(whole);
    expect(trimmed.history).toEqual([whole.history[2]]);
    expect(trimmed.history[0]).toBe(whole.history[2]); // elements shared, arrays not
    expect((await get()).history.length).toBe(3);
    // A direct caller (no mark) still gets a deep copy it may change.
    const direct = await handler.getTask(
      create(GetTaskRequestSchema, { id: created.id }),
      callOf("GetTask"),
    );
    expect(direct).not.toBe(whole);
    vandalize(direct);
    expect(JSON.stringify(toJson(TaskSchema, await get()))).not.toContain("vandalized");
  });

  it("a stateless Message reply and stream events are handed over without copies, and say the same as the copies", async () => {
    const handler = createA2ATaskHandler({
      capabilities: { streaming: true },
      executor: {
        async execute(context, emitter) {
          if (context.message.parts[0]?.content.value === "reply") return emitter.reply("hello");
          await emitter.working("step");
          await emitter.complete("done");
        },
      },
    });
    const shared = await handler.sendMessage(sendRequest("reply"), serializing("SendMessage"));
    const copied = await handler.sendMessage(sendRequest("reply"), callOf("SendMessage"));
    expect(shared.payload.case).toBe("message");
    expect(
      (toJson(MessageSchema, shared.payload.value as never) as { parts: unknown }).parts,
    ).toEqual([{ text: "hello" }]);
    expect(copied.payload.case).toBe("message");
    const streamedShared = (
      await collect(
        handler.sendStreamingMessage(sendRequest("task"), serializing("SendStreamingMessage")),
      )
    ).map((e) => e.payload.case);
    const streamedCopied = (
      await collect(
        handler.sendStreamingMessage(sendRequest("task"), callOf("SendStreamingMessage")),
      )
    ).map((e) => e.payload.case);
    expect(streamedShared).toEqual(["task", "statusUpdate", "statusUpdate"]);
    expect(streamedCopied).toEqual(streamedShared);
  });

  it("hand the executor the request's own message, and the stored history is a copy the executor cannot reach", async () => {
    const seen: unknown[] = [];
    const handler = createA2ATaskHandler({
      executor: {
        async execute(context, emitter) {
          seen.push(context.message);
          await emitter.working("step");
          vandalize(context.message);
          await emitter.requireInput("more?");
        },
      },
    });
    const request = sendRequest("one");
    const created = taskOf(await handler.sendMessage(request, serializing("SendMessage")));
    expect(seen[0]).toBe(request.message); // no copy for a binding's call…
    expect(created.history[0]).not.toBe(request.message);
    const stored = await handler.getTask(
      create(GetTaskRequestSchema, { id: created.id }),
      serializing("GetTask"),
    );
    expect(JSON.stringify(toJson(TaskSchema, stored))).not.toContain("vandalized"); // …but the store has its own
    expect(stored.history[0]?.parts[0]?.content.value).toBe("one");
  });

  it("mark an event immutable (one encoding for every stream) only when it fans out to several streams", async () => {
    const gate = new Gate();
    const working = new Gate();
    const handler = createA2ATaskHandler({
      capabilities: { streaming: true },
      executor: {
        async execute(_context, emitter) {
          await emitter.working("step");
          working.open();
          await gate.promise;
          await emitter.complete("done");
        },
      },
    });
    const own = handler
      .sendStreamingMessage(sendRequest("task"), serializing("SendStreamingMessage"))
      [Symbol.asyncIterator]();
    const first = await own.next(); // the Task
    const second = await own.next(); // WORKING: published to this stream alone
    expect(second.value && isImmutable(second.value)).toBe(false);
    await working.promise;
    const taskId = (first.value as { payload: { value: Task } }).payload.value.id;
    const sub = handler
      .subscribeToTask(
        create(SubscribeToTaskRequestSchema, { id: taskId }),
        serializing("SubscribeToTask"),
      )
      [Symbol.asyncIterator]();
    await sub.next(); // its snapshot: from now on two streams read the task's events
    gate.open();
    const mine = await own.next();
    const theirs = await sub.next();
    expect(mine.value).toBe(theirs.value); // the very same event…
    expect(isImmutable(mine.value as object)).toBe(true); // …encoded once for both
    await own.return?.(undefined);
    await sub.return?.(undefined);
  });
});
