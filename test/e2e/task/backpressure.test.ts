/**
 * Bounded subscriber queues (TaskHandlerOptions.maxQueuedEvents): a stream whose reader
 * falls too far behind is ended on its own with UnsupportedOperationError, its queue is
 * freed at once, and the task and the other streams go on.
 */
import { create } from "@bufbuild/protobuf";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterEach, describe, expect, it } from "vitest";
import {
  GetTaskRequestSchema,
  SubscribeToTaskRequestSchema,
  TaskState,
  type StreamResponse,
} from "../../../generated-example/gen/a2a_pb.js";
import { UnsupportedOperationError } from "../../../generated-example/gen/a2a_a2a_errors.js";
import { A2AServiceJsonRpcClient } from "../../../generated-example/gen/a2a_a2a_jsonrpc_client.js";
import { createA2AServiceJsonRpcServer } from "../../../generated-example/gen/a2a_a2a_jsonrpc_server.js";
import {
  DEFAULT_MAX_QUEUED_BYTES,
  DEFAULT_MAX_QUEUED_EVENTS,
  EventHub,
} from "@protoc-gen-a2a/runtime/task";
import { listen, type Listening } from "../../support/servers.js";
import {
  Gate,
  callOf,
  collect,
  createA2ATaskHandler,
  describeEvent,
  drain,
  sendRequest,
  taskOf,
  until,
  type A2AEmitter,
  type A2AExecutor,
} from "../../support/task-runtime-binding.js";

// A real collector, to show that an overflowed queue no longer holds its items.
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

class Overflow extends Error {}

describe("EventHub with a queue limit", () => {
  it("ends only the subscriber past the limit: queue dropped, hub left, onClose once, next() rejects once", async () => {
    const hub = new EventHub<number>({ maxQueued: 3, overflowError: () => new Overflow("behind") });
    let closed = 0;
    const stalled = hub.subscribe(undefined, () => closed++);
    const reader = hub.subscribe();
    const got: number[] = [];
    const reading = (async () => {
      for await (const n of reader) got.push(n);
    })();

    for (let i = 1; i <= 3; i++) hub.publish(i);
    expect(stalled.backlog).toBe(3); // at the limit: still subscribed
    expect(stalled.overflowed).toBe(false);
    expect(hub.size).toBe(2);

    hub.publish(4); // one more than the limit
    expect(stalled.overflowed).toBe(true);
    expect(stalled.backlog).toBe(0);
    expect(hub.size).toBe(1);
    expect(closed).toBe(1);

    for (let i = 5; i <= 2000; i++) {
      await new Promise((r) => setImmediate(r)); // the reader keeps up
      hub.publish(i);
    }
    hub.close();
    await reading;
    expect(got).toEqual(Array.from({ length: 2000 }, (_, i) => i + 1));

    await expect(stalled.next()).rejects.toBeInstanceOf(Overflow);
    expect(await stalled.next()).toEqual({ done: true, value: undefined });
    stalled.close();
    expect(closed).toBe(1);
  });

  it("a reader that keeps at most the limit queued is never ended", async () => {
    const hub = new EventHub<number>({ maxQueued: 2, overflowError: () => new Overflow() });
    const s = hub.subscribe();
    const got: number[] = [];
    for (let i = 0; i < 100; i += 2) {
      hub.publish(i);
      hub.publish(i + 1);
      got.push((await s.next()).value as number, (await s.next()).value as number);
    }
    expect(s.overflowed).toBe(false);
    expect(got).toEqual(Array.from({ length: 100 }, (_, i) => i));
  });

  it("close() after an overflow drops the pending error", async () => {
    const hub = new EventHub<number>({ maxQueued: 1, overflowError: () => new Overflow() });
    const s = hub.subscribe();
    hub.publish(1);
    hub.publish(2);
    expect(s.overflowed).toBe(true);
    await s.return();
    expect(await s.next()).toEqual({ done: true, value: undefined });
  });

  it("releases the queued items at once (they become collectable while the subscription is still held)", async () => {
    const hub = new EventHub<{ payload: Uint8Array }>({
      maxQueued: 50,
      overflowError: () => new Overflow(),
    });
    const stalled = hub.subscribe();
    const refs: WeakRef<object>[] = [];
    const publish = () => {
      const item = { payload: new Uint8Array(1024) };
      refs.push(new WeakRef(item));
      hub.publish(item);
    };
    for (let i = 0; i < 50; i++) publish();
    await new Promise((r) => setImmediate(r)); // WeakRef targets are kept alive until the end of the job
    gc();
    expect(refs.filter((r) => r.deref() !== undefined)).toHaveLength(50); // queued: retained

    publish(); // the 51st: overflow
    await new Promise((r) => setImmediate(r));
    gc();
    expect(stalled.overflowed).toBe(true);
    expect(refs.filter((r) => r.deref() !== undefined)).toHaveLength(0);
    expect(stalled).toBeDefined(); // still referenced here
    for (let i = 0; i < 1000; i++) publish(); // nobody subscribed: nothing retained
    await new Promise((r) => setImmediate(r));
    gc();
    expect(refs.filter((r) => r.deref() !== undefined)).toHaveLength(0);
  });

  it("refuses a limit that is not a positive integer or Infinity", () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      expect(
        () => new EventHub<number>({ maxQueued: bad, overflowError: () => new Overflow() }),
      ).toThrow(RangeError);
    }
    expect(
      () => new EventHub<number>({ maxQueued: Infinity, overflowError: () => new Overflow() }),
    ).not.toThrow();
  });
});

/** WORKING (then `started` opens), waits for `gate`, then `count` numbered artifacts, then COMPLETED (then `finished` opens). */
function burstAgent(
  count: number,
  text: (i: number) => string = (i) => `chunk ${i}`,
  paced = false,
) {
  const gate = new Gate();
  const started = new Gate();
  const finished = new Gate();
  const executor: A2AExecutor = {
    async execute(_context, emitter: A2AEmitter) {
      await emitter.working("started");
      started.open();
      await gate.promise;
      for (let i = 0; i < count; i++) {
        // Paced: one event per event-loop turn, as an agent producing from I/O does (a purely microtask-driven
        // burst would give a network writer no turn to drain its socket).
        if (paced) await new Promise((r) => setImmediate(r));
        await emitter.addArtifact({
          artifactId: `a${i}`,
          parts: [{ content: { case: "text", value: text(i) } }],
        });
      }
      await emitter.complete("done");
      finished.open();
    },
  };
  return { gate, started, finished, executor };
}

const expectedBurst = (count: number) => [
  "task:WORKING",
  ...Array.from({ length: count }, (_, i) => `artifact:a${i}`),
  "status:COMPLETED:done",
];

/** Expects the error a stream that fell behind ends with (the byte bound at its default unless given). */
function expectFellBehind(
  error: unknown,
  taskId: string,
  limit: number,
  maxQueuedBytes = DEFAULT_MAX_QUEUED_BYTES,
): void {
  expect(error).toBeInstanceOf(UnsupportedOperationError);
  const e = error as UnsupportedOperationError;
  expect(e.message).toContain("fell behind");
  expect(e.message).toContain(`more than ${limit} events or ${maxQueuedBytes} bytes`);
  expect(e.message).toContain("SubscribeToTask");
  expect(e.metadata).toEqual({
    taskId,
    maxQueuedEvents: String(limit),
    maxQueuedBytes: String(maxQueuedBytes),
  });
}

describe("EventHub with a byte bound", () => {
  it("ends a subscriber whose unread items would pass maxQueuedBytes; one item always fits; reading frees its bytes", async () => {
    const hub = new EventHub<number>({
      maxQueued: 1000,
      maxQueuedBytes: 100,
      weightOf: (n) => n,
      overflowError: () => new Error("behind"),
    });
    const heavy = hub.subscribe();
    hub.publish(150); // alone in the queue: kept
    expect(heavy.backlogBytes).toBe(150);
    expect((await heavy.next()).value).toBe(150);
    expect(heavy.backlogBytes).toBe(0);
    hub.publish(40);
    hub.publish(40);
    expect(heavy.backlogBytes).toBe(80);
    expect((await heavy.next()).value).toBe(40);
    hub.publish(50); // 40 + 50 fits
    expect(heavy.backlogBytes).toBe(90);
    hub.publish(20); // 110 > 100: ended, queue dropped
    expect(heavy.overflowed).toBe(true);
    expect(heavy.backlogBytes).toBe(0);
    await expect(heavy.next()).rejects.toThrow("behind");
    expect(hub.size).toBe(0);
    expect(
      () =>
        new EventHub<number>({ maxQueued: 1, maxQueuedBytes: 0, overflowError: () => undefined }),
    ).toThrow(RangeError);
  });
});

describe("task handler: maxQueuedBytes", () => {
  it("a subscriber that stops reading large events is ended by bytes long before the count; a reader gets every event", async () => {
    const { gate, started, executor } = burstAgent(20, (i) => `${i}:${"b".repeat(50 * 1024)}`);
    const handler = createA2ATaskHandler({
      executor,
      capabilities: { streaming: true },
      maxQueuedBytes: 200 * 1024,
    });
    const task = taskOf(
      await handler.sendMessage(
        sendRequest("go", {}, { returnImmediately: true }),
        callOf("SendMessage"),
      ),
    );
    await started.promise;
    const subscribe = () =>
      handler
        .subscribeToTask(
          create(SubscribeToTaskRequestSchema, { id: task.id }),
          callOf("SubscribeToTask"),
        )
        [Symbol.asyncIterator]();
    const stalled = subscribe();
    expect(describeEvent((await stalled.next()).value as StreamResponse)).toBe("task:WORKING");
    const reader = subscribe();
    const all = collect({ [Symbol.asyncIterator]: () => reader });
    gate.open();
    expect((await all).map(describeEvent)).toEqual(expectedBurst(20));
    const error = await stalled.next().then(
      () => undefined,
      (e: unknown) => e,
    );
    expectFellBehind(error, task.id, DEFAULT_MAX_QUEUED_EVENTS, 200 * 1024);
    await until(() => handler.liveTasks === 0);
  });
});

describe("task handler: maxQueuedEvents", () => {
  async function startBurst(count: number, maxQueuedEvents?: number) {
    const { gate, started, finished, executor } = burstAgent(count);
    const errors: unknown[] = [];
    const handler = createA2ATaskHandler({
      executor,
      capabilities: { streaming: true },
      onError: (e) => errors.push(e),
      ...(maxQueuedEvents === undefined ? {} : { maxQueuedEvents }),
    });
    const task = taskOf(
      await handler.sendMessage(
        sendRequest("go", {}, { returnImmediately: true }),
        callOf("SendMessage"),
      ),
    );
    await started.promise;
    const subscribe = () =>
      handler
        .subscribeToTask(
          create(SubscribeToTaskRequestSchema, { id: task.id }),
          callOf("SubscribeToTask"),
        )
        [Symbol.asyncIterator]();
    const state = async () =>
      (await handler.getTask(create(GetTaskRequestSchema, { id: task.id }), callOf("GetTask")))
        .status?.state;
    return { gate, finished, handler, task, subscribe, state, errors };
  }

  it("a subscriber that stops reading is ended with UnsupportedOperationError; another gets every event in order; the task completes", async () => {
    const { gate, handler, task, subscribe, state, errors } = await startBurst(30, 5);
    const stalled = subscribe();
    expect(describeEvent((await stalled.next()).value as StreamResponse)).toBe("task:WORKING");
    const reader = subscribe();
    const all = collect({ [Symbol.asyncIterator]: () => reader });

    gate.open();
    expect((await all).map(describeEvent)).toEqual(expectedBurst(30));
    expect(await state()).toBe(TaskState.COMPLETED);
    // The stalled stream no longer holds the task's live state, although nobody read it.
    await until(() => handler.liveTasks === 0);

    const error = await stalled.next().then(
      () => undefined,
      (e: unknown) => e,
    );
    expectFellBehind(error, task.id, 5);
    expect(await stalled.next()).toEqual({ done: true, value: undefined });
    expect(errors).toEqual([]);
  });

  it("a SendStreamingMessage stream that stops reading is ended the same way; the turn still completes", async () => {
    const { gate, started, executor } = burstAgent(20);
    const handler = createA2ATaskHandler({
      executor,
      capabilities: { streaming: true },
      maxQueuedEvents: 4,
    });
    const stream = handler
      .sendStreamingMessage(sendRequest("go"), callOf("SendStreamingMessage"))
      [Symbol.asyncIterator]();
    const first = (await stream.next()).value as StreamResponse;
    expect(describeEvent(first)).toBe("task:SUBMITTED");
    await started.promise; // WORKING is queued (1 of 4)
    const taskId = first.payload.case === "task" ? first.payload.value.id : "";
    gate.open();
    await until(() => handler.liveTasks === 0);
    expect(
      (await handler.getTask(create(GetTaskRequestSchema, { id: taskId }), callOf("GetTask")))
        .status?.state,
    ).toBe(TaskState.COMPLETED);
    // What was read before the cut is kept; then the error.
    const read: string[] = [];
    let error: unknown;
    try {
      for (;;) {
        const step = await stream.next();
        if (step.done === true) break;
        read.push(describeEvent(step.value));
      }
    } catch (e) {
      error = e;
    }
    expect(read).toEqual([]); // the first unread event was dropped with the queue
    expectFellBehind(error, taskId, 4);
  });

  it("is configurable: the same stall within a larger limit loses nothing", async () => {
    const { gate, finished, subscribe } = await startBurst(30, 40);
    const slow = subscribe();
    expect(describeEvent((await slow.next()).value as StreamResponse)).toBe("task:WORKING");
    gate.open();
    await finished.promise; // the whole burst, COMPLETED included, has been emitted while nobody read
    const rest = await collect({ [Symbol.asyncIterator]: () => slow });
    expect(["task:WORKING", ...rest.map(describeEvent)]).toEqual(expectedBurst(30));
  });

  it(`defaults to ${DEFAULT_MAX_QUEUED_EVENTS} events`, async () => {
    expect(DEFAULT_MAX_QUEUED_EVENTS).toBe(1000);
    // Just within the default: 998 artifacts + COMPLETED + the turn's end = 1,000 feed items queued unread…
    const within = await startBurst(DEFAULT_MAX_QUEUED_EVENTS - 2);
    const kept = within.subscribe();
    await kept.next();
    within.gate.open();
    await within.finished.promise;
    await drain(20);
    expect(await within.state()).toBe(TaskState.COMPLETED);
    expect((await collect({ [Symbol.asyncIterator]: () => kept })).length).toBe(
      DEFAULT_MAX_QUEUED_EVENTS - 1,
    );
    // …and just past it.
    const past = await startBurst(DEFAULT_MAX_QUEUED_EVENTS + 1);
    const cut = past.subscribe();
    await cut.next();
    past.gate.open();
    await until(() => past.handler.liveTasks === 0);
    expectFellBehind(
      await cut.next().then(
        () => undefined,
        (e: unknown) => e,
      ),
      past.task.id,
      DEFAULT_MAX_QUEUED_EVENTS,
    );
  });

  it("refuses a limit that is not a positive integer or Infinity", () => {
    const { executor } = burstAgent(0);
    for (const bad of [0, -5, 2.5, Number.NaN])
      expect(() => createA2ATaskHandler({ executor, maxQueuedEvents: bad })).toThrow(RangeError);
    expect(() => createA2ATaskHandler({ executor, maxQueuedEvents: Infinity })).not.toThrow();
  });
});

/** Parses a complete SSE body into its data payloads (JSON). */
function sseData(body: string): unknown[] {
  return body
    .split("\n\n")
    .filter((block) => block.startsWith("data: "))
    .map((block) => JSON.parse(block.slice("data: ".length)) as unknown);
}

describe("end to end over JSON-RPC SSE: a client that stops reading its socket", () => {
  let server: Listening | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("gets its stream ended with the JSON-RPC error event instead of the server queueing without bound", async () => {
    const LIMIT = 20;
    const COUNT = 1000;
    const CHUNK = "x".repeat(32 * 1024); // 32 KB per event: the socket buffers fill after some hundred events
    const { gate, started, executor } = burstAgent(COUNT, (i) => `${i}:${CHUNK}`, true);
    // The task grows to ~32 MB: above the default byte budgets, which this test is not about.
    const handler = createA2ATaskHandler({
      executor,
      capabilities: { streaming: true },
      maxQueuedEvents: LIMIT,
      maxTaskBytes: 64 << 20,
      maxResponseBytes: 64 << 20,
    });
    server = await listen(createA2AServiceJsonRpcServer(handler, { keepAliveMs: 0 }).node, "/a2a");
    const client = new A2AServiceJsonRpcClient({ url: server.url });
    const sent = await client.sendMessage({
      message: sendRequest("go").message!,
      configuration: { returnImmediately: true },
    });
    if (sent.payload.case !== "task") throw new Error("expected a task");
    const taskId = sent.payload.value.id;
    await started.promise;

    // The slow client: raw HTTP, reads up to the first event (the Task), then pauses the response.
    const chunks: Buffer[] = [];
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = httpRequest(server!.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "a2a-version": "1.0",
          accept: "text/event-stream",
        },
      });
      req.on("error", reject);
      req.on("response", resolve);
      req.end(
        JSON.stringify({
          jsonrpc: "2.0",
          id: 7,
          method: "SubscribeToTask",
          params: { id: taskId },
        }),
      );
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^text\/event-stream/);
    await new Promise<void>((resolve) => {
      const onData = (chunk: Buffer) => {
        chunks.push(chunk);
        if (Buffer.concat(chunks).includes("\n\n")) {
          response.off("data", onData);
          response.pause();
          resolve();
        }
      };
      response.on("data", onData);
    });
    const ended = new Promise<void>((resolve) => response.on("end", resolve));

    // A client that reads normally, subscribed before the burst.
    const fast = client.subscribeToTask({ id: taskId })[Symbol.asyncIterator]();
    const fastFirst = await fast.next();
    gate.open();
    const fastEvents = [
      fastFirst.value as StreamResponse,
      ...(await collect({ [Symbol.asyncIterator]: () => fast })),
    ].map(describeEvent);
    expect(fastEvents).toEqual(expectedBurst(COUNT));
    expect((await client.getTask({ id: taskId })).status?.state).toBe(TaskState.COMPLETED);
    // The server let go of the paused stream's queue while the client still does not read.
    await until(() => handler.liveTasks === 0);
    expect(response.isPaused()).toBe(true);

    // Now read what the server had written: a prefix of the events, in order, then the error event, then the end.
    response.on("data", (chunk: Buffer) => chunks.push(chunk));
    response.resume();
    await ended;
    const data = sseData(Buffer.concat(chunks).toString("utf8")) as {
      id: number;
      result?: Record<string, { artifact?: { artifactId: string } }>;
      error?: {
        code: number;
        message: string;
        data: { reason?: string; metadata?: Record<string, string> }[];
      };
    }[];
    const last = data.at(-1)!;
    expect(last.id).toBe(7);
    expect(last.result).toBeUndefined();
    expect(last.error?.code).toBe(-32004);
    expect(last.error?.message).toContain("fell behind");
    expect(last.error?.message).toContain("SubscribeToTask");
    expect(last.error?.data[0]).toMatchObject({
      reason: "UNSUPPORTED_OPERATION",
      metadata: { taskId, maxQueuedEvents: String(LIMIT) },
    });
    const events = data.slice(0, -1);
    expect(events[0]?.result).toHaveProperty("task");
    const artifacts = events
      .slice(1)
      .map((e) => e.result?.["artifactUpdate"]?.artifact?.artifactId);
    expect(artifacts).toEqual(Array.from({ length: artifacts.length }, (_, i) => `a${i}`));
    expect(artifacts.length).toBeLessThan(COUNT); // cut, not delivered in full
  });
});
