// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Two task runtimes ("instances") on one real PostgreSQL, in one process: streams, cancel, turns,
 * resume and dead instances across them. (test/e2e/postgres/multi-instance.test.ts runs separate agent processes.)
 */
import { create } from "@bufbuild/protobuf";
import { PostgresTaskStore } from "@protoc-gen-a2a/runtime/postgres";
import { createCallContext, ServiceParameters } from "@protoc-gen-a2a/runtime";
import { eventIdOf } from "../../../runtime/src/task/event-ids.js";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createPushNotificationSender, InMemoryTaskStore } from "@protoc-gen-a2a/runtime/task";
import { afterEach, describe, expect, it } from "vitest";
import {
  CancelTaskRequestSchema,
  GetTaskRequestSchema,
  StreamResponseSchema,
  SubscribeToTaskRequestSchema,
  TaskPushNotificationConfigSchema,
  TaskSchema,
  TaskState,
  type StreamResponse,
} from "../../../generated-example/gen/a2a_pb.js";
import {
  createA2AServiceTaskHandler,
  type A2AServiceExecutor,
} from "../../../generated-example/gen/a2a_a2a_task_handler.js";
import { listenA2AServiceGrpc } from "../../../generated-example/gen/a2a_a2a_grpc_server.js";
import { A2AServiceGrpcClient } from "../../../generated-example/gen/a2a_a2a_grpc_client.js";
import { freshDatabase, type FreshDatabase } from "../../support/postgres.js";
import { postgresUrl } from "../../support/postgres-url.js";
import {
  collect,
  describeEvent,
  sendRequest,
  taskOf,
  textOf,
} from "../../support/task-runtime-binding.js";

const schemas = {
  Task: TaskSchema,
  TaskPushNotificationConfig: TaskPushNotificationConfigSchema,
  StreamResponse: StreamResponseSchema,
};
const capabilities = { streaming: true, pushNotifications: true };

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function database(): Promise<FreshDatabase> {
  const db = await freshDatabase(postgresUrl(), "cluster");
  cleanups.push(() => db.drop());
  return db;
}

async function instance(
  db: FreshDatabase,
  executor: A2AServiceExecutor,
  options: { leaseMs?: number; heartbeatMs?: number } = {},
) {
  const store = await PostgresTaskStore.open({
    connectionString: db.url,
    schemas,
    heartbeatMs: options.heartbeatMs ?? 100,
    leaseMs: options.leaseMs ?? 1_000,
    onError: () => {},
  });
  cleanups.push(() => store.close());
  const handler = createA2AServiceTaskHandler({ executor, store, capabilities, onError: () => {} });
  return { store, handler };
}

const call = (operation: string, headers: Record<string, string> = {}, signal?: AbortSignal) =>
  createCallContext({
    operation,
    binding: "JSONRPC",
    serviceParameters: new ServiceParameters(Object.entries(headers)),
    ...(signal ? { signal } : {}),
  });

/** An executor that works, waits for `release` (or its signal), then completes; records what it saw. */
function gatedExecutor() {
  const seen = { aborted: 0, messages: [] as string[], running: 0, maxRunning: 0 };
  // Releases are counted: one that comes before the executor waits is not lost.
  let permits = 0;
  const waiting: (() => void)[] = [];
  const permit = (): Promise<void> =>
    new Promise((resolve) => {
      if (permits > 0) {
        permits--;
        resolve();
      } else waiting.push(resolve);
    });
  const executor: A2AServiceExecutor = {
    async execute(context, emit) {
      seen.running++;
      seen.maxRunning = Math.max(seen.maxRunning, seen.running);
      seen.messages.push(textOf(context.message));
      try {
        await emit.working(`working on ${textOf(context.message)}`);
        const aborted = new Promise<void>((resolve) =>
          context.signal.addEventListener("abort", () => resolve(), { once: true }),
        );
        await Promise.race([permit(), aborted]);
        if (context.signal.aborted) {
          seen.aborted++;
          return;
        }
        await emit.addArtifact({
          artifactId: "a",
          parts: [{ content: { case: "text", value: `done ${textOf(context.message)}` } }],
        });
        await emit.requireInput(`more? (${textOf(context.message)})`);
      } finally {
        seen.running--;
      }
    },
  };
  return {
    executor,
    seen,
    release() {
      const next = waiting.shift();
      if (next !== undefined) next();
      else permits++;
    },
  };
}

describe("several instances on one PostgreSQL", () => {
  it("SubscribeToTask on B delivers every event of a turn running on A, in order, with ids", async () => {
    const db = await database();
    const agent = gatedExecutor();
    const a = await instance(db, agent.executor);
    const b = await instance(db, agent.executor);
    const first = taskOf(
      await a.handler.sendMessage(
        sendRequest("one", {}, { returnImmediately: true }),
        call("SendMessage"),
      ),
    );
    const stream = b.handler.subscribeToTask(
      create(SubscribeToTaskRequestSchema, { id: first.id }),
      call("SubscribeToTask"),
    );
    const events: StreamResponse[] = [];
    const reading = (async () => {
      for await (const event of stream) {
        events.push(event);
        if (describeEvent(event).startsWith("status:INPUT_REQUIRED")) break;
      }
    })();
    await until(() => events.length >= 1);
    agent.release();
    await reading;
    expect(events.map(describeEvent)).toEqual([
      expect.stringMatching(/^task:/),
      expect.stringMatching(/^status:WORKING|^artifact/),
      ...events.slice(2).map(describeEvent),
    ]);
    expect(events.at(-1)?.payload.case).toBe("statusUpdate");
    const last = events.at(-1)?.payload.value as { status?: { state: number } };
    expect(last.status?.state).toBe(TaskState.INPUT_REQUIRED);
    // Ids: task id + strictly increasing sequence, no gap after the snapshot.
    const seqs = events.map((e) => Number(eventIdOf(e)?.split(":")[0]));
    for (let i = 1; i < seqs.length; i++) expect(seqs[i]).toBe((seqs[i - 1] as number) + 1);
    expect(eventIdOf(events[0] as object)).toMatch(new RegExp(`^\\d+:${first.id}$`));
  });

  it("CancelTask on B reaches the executor on A; every stream ends CANCELED; both instances say CANCELED", async () => {
    const db = await database();
    const agent = gatedExecutor();
    const a = await instance(db, agent.executor);
    const b = await instance(db, agent.executor);
    const streamA = a.handler.sendStreamingMessage(
      sendRequest("long"),
      call("SendStreamingMessage"),
    );
    const eventsA: StreamResponse[] = [];
    const readingA = (async () => {
      for await (const event of streamA) eventsA.push(event);
    })();
    await until(() => eventsA.length >= 2);
    const taskId = taskOf({ payload: eventsA[0]?.payload as never }).id;
    const subscribed = collect(
      b.handler.subscribeToTask(
        create(SubscribeToTaskRequestSchema, { id: taskId }),
        call("SubscribeToTask"),
      ),
    );
    const canceled = await b.handler.cancelTask(
      create(CancelTaskRequestSchema, { id: taskId }),
      call("CancelTask"),
    );
    expect(canceled.status?.state).toBe(TaskState.CANCELED);
    await readingA;
    expect(agent.seen.aborted).toBe(1);
    expect(describeEvent(eventsA.at(-1) as StreamResponse)).toMatch(/^status:CANCELED/);
    expect(describeEvent((await subscribed).at(-1) as StreamResponse)).toMatch(/^status:CANCELED/);
    for (const x of [a, b])
      expect(
        (await x.handler.getTask(create(GetTaskRequestSchema, { id: taskId }), call("GetTask")))
          .status?.state,
      ).toBe(TaskState.CANCELED);
  });

  it("two turns of one task on two instances run one at a time, both messages kept in arrival order", async () => {
    const db = await database();
    const agent = gatedExecutor();
    const a = await instance(db, agent.executor);
    const b = await instance(db, agent.executor);
    const first = taskOf(
      await a.handler.sendMessage(
        sendRequest("first", {}, { returnImmediately: true }),
        call("SendMessage"),
      ),
    );
    agent.release();
    await until(
      async () =>
        (await a.handler.getTask(create(GetTaskRequestSchema, { id: first.id }), call("GetTask")))
          .status?.state === TaskState.INPUT_REQUIRED,
    );
    const onA = a.handler.sendMessage(
      sendRequest("second", { taskId: first.id }),
      call("SendMessage"),
    );
    await until(() => agent.seen.messages.length === 2);
    const onB = b.handler.sendMessage(
      sendRequest("third", { taskId: first.id }),
      call("SendMessage"),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(agent.seen.messages).toEqual(["first", "second"]);
    agent.release();
    await onA;
    await until(() => agent.seen.messages.length === 3);
    agent.release();
    await onB;
    expect(agent.seen.maxRunning).toBe(1);
    const task = await b.handler.getTask(
      create(GetTaskRequestSchema, { id: first.id }),
      call("GetTask"),
    );
    expect(task.history.filter((m) => m.role === 1).map(textOf)).toEqual([
      "first",
      "second",
      "third",
    ]);
  });

  it("SubscribeToTask with Last-Event-ID on another instance gets what it missed, then live events, no gap, no duplicate", async () => {
    const db = await database();
    const agent = gatedExecutor();
    const a = await instance(db, agent.executor);
    const b = await instance(db, agent.executor);
    const streamA = a.handler.sendStreamingMessage(
      sendRequest("resume"),
      call("SendStreamingMessage"),
    );
    const got: StreamResponse[] = [];
    const iterator = streamA[Symbol.asyncIterator]();
    for (let i = 0; i < 2; i++) got.push((await iterator.next()).value as StreamResponse);
    const lastId = eventIdOf(got[1] as object) as string;
    expect(lastId).toMatch(/^2:/);
    // The client "loses" its stream; the turn goes on.
    await iterator.return?.(undefined);
    agent.release();
    const taskId = lastId.slice(lastId.indexOf(":") + 1);
    await until(
      async () =>
        (await b.handler.getTask(create(GetTaskRequestSchema, { id: taskId }), call("GetTask")))
          .status?.state === TaskState.INPUT_REQUIRED,
    );
    const resumed = await collectUntil(
      b.handler.subscribeToTask(
        create(SubscribeToTaskRequestSchema, { id: taskId }),
        call("SubscribeToTask", { "last-event-id": lastId }),
      ),
      /^status:INPUT_REQUIRED/,
    );
    expect(resumed.map((e) => eventIdOf(e))).toEqual([`3:${taskId}`, `4:${taskId}`]);
    expect(resumed.map(describeEvent)).toEqual([
      expect.stringMatching(/^artifact/),
      expect.stringMatching(/^status:INPUT_REQUIRED/),
    ]);
    await expect(
      collectUntil(
        b.handler.subscribeToTask(
          create(SubscribeToTaskRequestSchema, { id: taskId }),
          call("SubscribeToTask", { "last-event-id": `99:${taskId}` }),
        ),
        /^status/,
      ),
    ).rejects.toThrow(/Last-Event-ID/);
  });

  it("gRPC: SubscribeToTask with the last-event-id metadata key on another instance resumes the same way", async () => {
    const db = await database();
    const agent = gatedExecutor();
    const a = await instance(db, agent.executor);
    const b = await instance(db, agent.executor);
    const endpoint = await listenA2AServiceGrpc(b.handler, { logger: { error() {} }, listen: {} });
    cleanups.push(() => endpoint.close());
    const client = new A2AServiceGrpcClient({ address: endpoint.address });
    const first = taskOf(
      await a.handler.sendMessage(
        sendRequest("grpc resume", {}, { returnImmediately: true }),
        call("SendMessage"),
      ),
    );
    agent.release();
    await until(
      async () =>
        (await a.handler.getTask(create(GetTaskRequestSchema, { id: first.id }), call("GetTask")))
          .status?.state === TaskState.INPUT_REQUIRED,
    );
    const resumed = await collectUntil(
      client.subscribeToTask({ id: first.id }, { headers: { "last-event-id": `2:${first.id}` } }),
      /^status:INPUT_REQUIRED/,
    );
    expect(resumed.map(describeEvent)).toEqual([
      expect.stringMatching(/^artifact/),
      expect.stringMatching(/^status:INPUT_REQUIRED/),
    ]);
  });

  it("an instance that stops heartbeating: its running task is failed by another, whose streams get the FAILED event", async () => {
    const db = await database();
    const agent = gatedExecutor();
    const a = await instance(db, agent.executor, { heartbeatMs: 100, leaseMs: 600 });
    const b = await instance(db, agent.executor, { heartbeatMs: 100, leaseMs: 600 });
    const first = taskOf(
      await a.handler.sendMessage(
        sendRequest("doomed", {}, { returnImmediately: true }),
        call("SendMessage"),
      ),
    );
    await until(
      async () =>
        (await b.handler.getTask(create(GetTaskRequestSchema, { id: first.id }), call("GetTask")))
          .status?.state === TaskState.WORKING,
    );
    const subscribed = collect(
      b.handler.subscribeToTask(
        create(SubscribeToTaskRequestSchema, { id: first.id }),
        call("SubscribeToTask"),
      ),
    );
    // A "dies": it stops heartbeating (its process would be gone).
    a.store.cluster.stopHeartbeatForTest();
    const events = await subscribed;
    expect(describeEvent(events.at(-1) as StreamResponse)).toMatch(/^status:FAILED/);
    expect(
      (await b.handler.getTask(create(GetTaskRequestSchema, { id: first.id }), call("GetTask")))
        .status?.state,
    ).toBe(TaskState.FAILED);
    agent.release();
  });

  it("a new instance starting leaves the running tasks of live instances alone", async () => {
    const db = await database();
    const agent = gatedExecutor();
    const a = await instance(db, agent.executor);
    const first = taskOf(
      await a.handler.sendMessage(
        sendRequest("keep", {}, { returnImmediately: true }),
        call("SendMessage"),
      ),
    );
    const b = await instance(db, agent.executor);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(
      (await b.handler.getTask(create(GetTaskRequestSchema, { id: first.id }), call("GetTask")))
        .status?.state,
    ).toBe(TaskState.WORKING);
    agent.release();
    await until(
      async () =>
        (await b.handler.getTask(create(GetTaskRequestSchema, { id: first.id }), call("GetTask")))
          .status?.state === TaskState.INPUT_REQUIRED,
    );
  });
});

describe("push notifications from the PostgreSQL outbox", () => {
  /** A webhook receiver on 127.0.0.1 that counts deliveries per A2A-Event-Id. */
  async function receiver() {
    const counts = new Map<string, number>();
    const server = createServer((req, res) => {
      const id = String(req.headers["a2a-event-id"] ?? "none");
      counts.set(id, (counts.get(id) ?? 0) + 1);
      req.resume();
      req.on("end", () => res.writeHead(200).end());
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, counts };
  }

  const sender = () =>
    createPushNotificationSender({
      store: new InMemoryTaskStore(),
      schemas: { StreamResponse: StreamResponseSchema },
      allowPrivateNetworks: true,
      timeoutMs: 2_000,
    });

  it("every event is delivered exactly once across two delivering instances", async () => {
    const db = await database();
    const hook = await receiver();
    const agent = gatedExecutor();
    const a = await instance(db, agent.executor);
    const b = await instance(db, agent.executor);
    a.store.deliverPushNotifications(sender(), { pollMs: 50 });
    b.store.deliverPushNotifications(sender(), { pollMs: 50 });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const x = i % 2 === 0 ? a : b;
      const task = taskOf(
        await x.handler.sendMessage(
          sendRequest(
            `push ${i}`,
            {},
            {
              returnImmediately: true,
              taskPushNotificationConfig: create(TaskPushNotificationConfigSchema, {
                url: hook.url,
              }),
            },
          ),
          call("SendMessage"),
        ),
      );
      agent.release();
      ids.push(task.id);
    }
    // Each task: creation, WORKING, artifact, INPUT_REQUIRED = 4 events.
    await until(() => [...hook.counts.values()].reduce((n, c) => n + c, 0) >= 20);
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const id of ids)
      for (let seq = 1; seq <= 4; seq++) expect(hook.counts.get(`${seq}:${id}`)).toBe(1);
    expect(hook.counts.size).toBe(20);
  });

  it("events stored by an instance that dies before delivering them are delivered by another", async () => {
    const db = await database();
    const hook = await receiver();
    const agent = gatedExecutor();
    const a = await instance(db, agent.executor);
    // A queues with every event but never delivers (it "dies" right after each commit).
    a.store.pushOutbox = true;
    const task = taskOf(
      await a.handler.sendMessage(
        sendRequest(
          "orphaned pushes",
          {},
          {
            returnImmediately: true,
            taskPushNotificationConfig: create(TaskPushNotificationConfigSchema, { url: hook.url }),
          },
        ),
        call("SendMessage"),
      ),
    );
    agent.release();
    await until(
      async () =>
        (await a.handler.getTask(create(GetTaskRequestSchema, { id: task.id }), call("GetTask")))
          .status?.state === TaskState.INPUT_REQUIRED,
    );
    expect(hook.counts.size).toBe(0);
    const b = await instance(db, agent.executor);
    b.store.deliverPushNotifications(sender(), { pollMs: 50 });
    await until(() => hook.counts.size >= 4);
    expect([...hook.counts.entries()].sort()).toEqual(
      [1, 2, 3, 4].map((seq) => [`${seq}:${task.id}`, 1]),
    );
  });
});

/** Reads a stream until an event matches `end` (included). */
async function collectUntil(
  stream: AsyncIterable<StreamResponse>,
  end: RegExp,
): Promise<StreamResponse[]> {
  const events: StreamResponse[] = [];
  for await (const event of stream) {
    events.push(event);
    if (end.test(describeEvent(event))) break;
  }
  return events;
}

/** Polls `check` (sync or async) until it holds, for at most 10 s. */
async function until(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not reached");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
