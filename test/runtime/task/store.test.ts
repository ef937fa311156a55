import { create } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { afterEach, describe, expect, it } from "vitest";
import {
  GetTaskRequestSchema,
  SubscribeToTaskRequestSchema,
  TaskPushNotificationConfigSchema,
  TaskSchema,
  TaskState,
  type Task,
} from "../../../generated-example/gen/a2a_pb.js";
import {
  EventHub,
  InMemoryTaskStore,
  InvalidPageTokenError,
  decodePageToken,
  encodePageToken,
  queryFingerprint,
  type TaskQuery,
  type TaskStore,
} from "@protoc-gen-a2a/runtime/task";
import { Mutex, SerialQueue } from "../../../runtime/src/task/serial.js";
import { SqliteTaskStore } from "@protoc-gen-a2a/runtime/sqlite";
import { openPostgresTaskStore } from "../../support/postgres-task-store.js";
import {
  Gate,
  callOf,
  collect,
  createA2ATaskHandler,
  sendRequest,
  taskOf,
  textOf,
  until,
  type A2ARequestContext,
} from "../../support/task-runtime-binding.js";

const scope = { tenant: "", owner: "" };
const task = (id: string, seconds: number, state = TaskState.WORKING, contextId = "c"): Task =>
  create(TaskSchema, {
    id,
    contextId,
    status: { state, timestamp: timestampFromMs(seconds * 1000) },
  });
const query = (q: Partial<TaskQuery> = {}): TaskQuery => ({
  contextId: "",
  state: undefined,
  statusTimestampAfter: undefined,
  pageSize: 50,
  pageToken: "",
  ...q,
});

const stores: [string, () => Promise<TaskStore & { close?(): unknown }>][] = [
  ["InMemoryTaskStore", async () => new InMemoryTaskStore()],
  [
    "SqliteTaskStore",
    async () =>
      new SqliteTaskStore(":memory:", {
        schemas: { Task: TaskSchema, TaskPushNotificationConfig: TaskPushNotificationConfigSchema },
      }),
  ],
  // An empty schema of its own per test on the run's PostgreSQL (test/support/postgres-task-store.ts). No heartbeat
  // during a test: its reclaim fails WORKING tasks that no turn holds (those saveTask stores here) as left by a dead instance.
  [
    "PostgresTaskStore",
    () => openPostgresTaskStore({ heartbeatMs: 3_600_000, leaseMs: 7_200_000 }),
  ],
];

describe.each(stores)("%s (the TaskStore contract)", (_name, factory) => {
  const opened: (TaskStore & { close?(): unknown })[] = [];
  const open = async () => {
    const store = await factory();
    opened.push(store);
    return store;
  };
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close?.();
  });

  it("keeps scopes apart", async () => {
    const store = await open();
    await store.saveTask({ tenant: "t", owner: "a" }, task("x", 1));
    expect(await store.getTask({ tenant: "t", owner: "a" }, "x")).toBeDefined();
    expect(await store.getTask({ tenant: "t", owner: "b" }, "x")).toBeUndefined();
    expect(await store.getTask({ tenant: "u", owner: "a" }, "x")).toBeUndefined();
    expect((await store.listTasks({ tenant: "t", owner: "b" }, query())).totalSize).toBe(0);
  });

  it("orders by status time, newest first, equal times by the latest save", async () => {
    const store = await open();
    await store.saveTask(scope, task("old", 1));
    await store.saveTask(scope, task("tie-1", 5));
    await store.saveTask(scope, task("tie-2", 5));
    await store.saveTask(scope, task("new", 9));
    expect((await store.listTasks(scope, query())).tasks.map((t) => t.id)).toEqual([
      "new",
      "tie-2",
      "tie-1",
      "old",
    ]);
    await store.saveTask(scope, task("tie-1", 5));
    expect((await store.listTasks(scope, query())).tasks.map((t) => t.id)).toEqual([
      "new",
      "tie-1",
      "tie-2",
      "old",
    ]);
  });

  it("pages with keyset cursors across ties, and filters", async () => {
    const store = await open();
    for (let i = 0; i < 7; i++)
      await store.saveTask(
        scope,
        task(`t${i}`, i % 3, i % 2 ? TaskState.COMPLETED : TaskState.WORKING, i < 4 ? "a" : "b"),
      );
    const all = (await store.listTasks(scope, query())).tasks.map((t) => t.id);
    const paged: string[] = [];
    let pageToken = "";
    do {
      const page = await store.listTasks(scope, query({ pageSize: 2, pageToken }));
      expect(page.totalSize).toBe(7);
      paged.push(...page.tasks.map((t) => t.id));
      pageToken = page.nextPageToken;
    } while (pageToken !== "");
    expect(paged).toEqual(all);
    expect((await store.listTasks(scope, query({ contextId: "a" }))).totalSize).toBe(4);
    expect(
      (await store.listTasks(scope, query({ state: TaskState.COMPLETED }))).tasks
        .map((t) => t.id)
        .sort(),
    ).toEqual(["t1", "t3", "t5"]);
    expect(
      (await store.listTasks(scope, query({ statusTimestampAfter: timestampFromMs(2000) }))).tasks
        .map((t) => t.id)
        .sort(),
    ).toEqual(["t2", "t5"]);
  });

  it("pages of 300 tasks with random times, ties and re-saves: every page size gives the reference order, each task once", async () => {
    const store = await open();
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    // [id, seconds, save number]: the reference sorts by time desc, then by the latest save.
    const saved = new Map<string, [number, number]>();
    for (let i = 0; i < 400; i++) {
      const id = `t${random(300)}`;
      const seconds = random(40);
      await store.saveTask(
        scope,
        task(id, seconds, TaskState.WORKING, random(2) === 0 ? "a" : "b"),
      );
      saved.set(id, [seconds, i]);
    }
    const reference = [...saved]
      .sort(([, a], [, b]) => b[0] - a[0] || b[1] - a[1])
      .map(([id]) => id);
    for (const pageSize of [1, 7, 50, 100]) {
      const paged: string[] = [];
      let pageToken = "";
      do {
        const page = await store.listTasks(scope, query({ pageSize, pageToken }));
        expect(page.totalSize).toBe(saved.size);
        expect(page.tasks.length).toBeLessThanOrEqual(pageSize);
        paged.push(...page.tasks.map((t) => t.id));
        pageToken = page.nextPageToken;
      } while (pageToken !== "");
      expect(paged, `pageSize ${pageSize}`).toEqual(reference);
    }
  });

  it("rejects tokens it did not issue for the query", async () => {
    const store = await open();
    for (let i = 0; i < 3; i++) await store.saveTask(scope, task(`t${i}`, i));
    const { nextPageToken } = await store.listTasks(scope, query({ pageSize: 1 }));
    await expect(
      store.listTasks(scope, query({ pageToken: nextPageToken, contextId: "c" })),
    ).rejects.toBeInstanceOf(InvalidPageTokenError);
    await expect(
      store.listTasks(
        scope,
        query({ pageToken: encodePageToken(queryFingerprint(["", null, null]), "nope") }),
      ),
    ).rejects.toBeInstanceOf(InvalidPageTokenError);
    await expect(store.listTasks(scope, query({ pageToken: "%%%" }))).rejects.toBeInstanceOf(
      InvalidPageTokenError,
    );
  });

  it("pages within a byte budget: filled up to it, one task alone when it is past it, every task once", async () => {
    const store = await open();
    const sizes = [5, 30, 10, 10, 45, 1, 60, 20];
    for (const [i, bytes] of sizes.entries())
      await store.saveTask(
        scope,
        create(TaskSchema, { ...task(`t${i}`, i), metadata: { pad: "x".repeat(bytes) } }),
      );
    const weigh = (t: Task) => String(t.metadata?.["pad"] ?? "").length;
    const pages: string[][] = [];
    let pageToken = "";
    do {
      const page = await store.listTasks(
        scope,
        query({
          pageSize: 3,
          pageToken,
          budget: { maxBytes: 40, sizeOf: (t) => weigh(t as Task) },
        }),
      );
      expect(page.totalSize).toBe(sizes.length);
      pages.push(page.tasks.map((t) => t.id));
      pageToken = page.nextPageToken;
    } while (pageToken !== "");
    // Newest first: t7 (20 bytes), t6 (60: alone), t5 (1) and t4 (45) apart, t3 + t2 (20; t1 would make 50), t1 + t0 (35).
    expect(pages).toEqual([["t7"], ["t6"], ["t5"], ["t4"], ["t3", "t2"], ["t1", "t0"]]);
    const full = await store.listTasks(
      scope,
      query({ pageSize: 3, budget: { maxBytes: 1_000, sizeOf: (t) => weigh(t as Task) } }),
    );
    expect(full.tasks.map((t) => t.id)).toEqual(["t7", "t6", "t5"]);
  });

  // SqliteTaskStore binds the position as is: a time past 64 bits is a RangeError of better-sqlite3 (a 500, not InvalidParams).
  it("a token replayed with a forged position is refused as a page token or ends the list, never another error", async () => {
    const store = await open();
    for (let i = 0; i < 3; i++) await store.saveTask(scope, task(`t${i}`, i));
    const fingerprint = queryFingerprint(["", null, null]);
    for (const position of [
      { t: "9".repeat(30), s: 1 },
      { t: `-${"9".repeat(30)}`, s: 1 },
      { t: "1", s: Number.MAX_SAFE_INTEGER },
      { t: "1", s: -Number.MAX_SAFE_INTEGER },
    ]) {
      const outcome = await store
        .listTasks(scope, query({ pageToken: encodePageToken(fingerprint, position) }))
        .then(
          (page) => page.totalSize,
          (e: unknown) => e,
        );
      if (typeof outcome !== "number")
        expect(outcome, JSON.stringify(position)).toBeInstanceOf(InvalidPageTokenError);
    }
  });

  it("push configs: replace keeps the position, delete is idempotent, pages", async () => {
    const store = await open();
    const config = (id: string, url: string) =>
      create(TaskPushNotificationConfigSchema, { taskId: "t", id, url });
    await store.savePushConfig(scope, config("a", "u1"));
    await store.savePushConfig(scope, config("b", "u2"));
    await store.savePushConfig(scope, config("a", "u3"));
    const all = await store.listPushConfigs(scope, "t", { pageSize: 0, pageToken: "" });
    expect(all.configs.map((c) => [c.id, c.url])).toEqual([
      ["a", "u3"],
      ["b", "u2"],
    ]);
    const first = await store.listPushConfigs(scope, "t", { pageSize: 1, pageToken: "" });
    expect(
      (
        await store.listPushConfigs(scope, "t", { pageSize: 1, pageToken: first.nextPageToken })
      ).configs.map((c) => c.id),
    ).toEqual(["b"]);
    await expect(
      store.listPushConfigs(scope, "other", { pageSize: 1, pageToken: first.nextPageToken }),
    ).rejects.toBeInstanceOf(InvalidPageTokenError);
    await store.deletePushConfig(scope, "t", "a");
    await store.deletePushConfig(scope, "t", "a");
    expect(await store.getPushConfig(scope, "t", "a")).toBeUndefined();
    expect(await store.getPushConfig({ tenant: "", owner: "x" }, "t", "b")).toBeUndefined();
  });

  it("round-trips whole tasks; orders sub-second and pre-epoch times, a missing status as the epoch", async () => {
    const store = await open();
    const full = create(TaskSchema, {
      id: "full",
      contextId: "c",
      status: {
        state: TaskState.INPUT_REQUIRED,
        timestamp: { seconds: 10n, nanos: 500 },
        message: { messageId: "m", parts: [{ content: { case: "text", value: "hi" } }] },
      },
      artifacts: [
        {
          artifactId: "a",
          parts: [{ content: { case: "text", value: "x" } }],
          metadata: { k: [1, "two", null] },
        },
      ],
      history: [
        {
          messageId: "u",
          contextId: "c",
          taskId: "full",
          parts: [{ content: { case: "text", value: "q" } }],
        },
      ],
      metadata: { nested: { ok: true } },
    });
    await store.saveTask(scope, full);
    await store.saveTask(
      scope,
      create(TaskSchema, {
        id: "same-second",
        contextId: "c",
        status: { state: TaskState.WORKING, timestamp: { seconds: 10n, nanos: 499 } },
      }),
    );
    await store.saveTask(
      scope,
      create(TaskSchema, {
        id: "pre-epoch",
        contextId: "c",
        status: { state: TaskState.WORKING, timestamp: { seconds: -5n, nanos: 7 } },
      }),
    );
    await store.saveTask(scope, create(TaskSchema, { id: "no-status", contextId: "c" }));
    expect(await store.getTask(scope, "full")).toEqual(full);
    expect((await store.listTasks(scope, query())).tasks.map((t) => t.id)).toEqual([
      "full",
      "same-second",
      "no-status",
      "pre-epoch",
    ]);
    const since = await store.listTasks(
      scope,
      query({
        statusTimestampAfter: { $typeName: "google.protobuf.Timestamp", seconds: 10n, nanos: 500 },
      }),
    );
    expect(since.tasks.map((t) => t.id)).toEqual(["full"]);
    const paged: string[] = [];
    let pageToken = "";
    do {
      const page = await store.listTasks(scope, query({ pageSize: 1, pageToken }));
      paged.push(...page.tasks.map((t) => t.id));
      pageToken = page.nextPageToken;
    } while (pageToken !== "");
    expect(paged).toEqual(["full", "same-second", "no-status", "pre-epoch"]);
  });

  it("push configs are scoped by tenant, owner and task", async () => {
    const store = await open();
    const config = (taskId: string, id: string) =>
      create(TaskPushNotificationConfigSchema, { taskId, id, url: `https://h/${taskId}/${id}` });
    await store.savePushConfig({ tenant: "t", owner: "a" }, config("x", "1"));
    await store.savePushConfig({ tenant: "t", owner: "a" }, config("y", "1"));
    await store.savePushConfig({ tenant: "u", owner: "a" }, config("x", "1"));
    expect((await store.getPushConfig({ tenant: "t", owner: "a" }, "x", "1"))?.url).toBe(
      "https://h/x/1",
    );
    expect(await store.getPushConfig({ tenant: "t", owner: "b" }, "x", "1")).toBeUndefined();
    expect(
      (
        await store.listPushConfigs({ tenant: "t", owner: "a" }, "x", {
          pageSize: 0,
          pageToken: "",
        })
      ).configs,
    ).toHaveLength(1);
    await store.deletePushConfig({ tenant: "t", owner: "a" }, "x", "1");
    expect(await store.getPushConfig({ tenant: "u", owner: "a" }, "x", "1")).toBeDefined();
    expect(await store.getPushConfig({ tenant: "t", owner: "a" }, "y", "1")).toBeDefined();
  });
});

describe("page tokens", () => {
  it("round-trip a position bound to its query, opaque base64url", () => {
    const token = encodePageToken("abcd1234", { t: "123", s: 4 });
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodePageToken(token, "abcd1234")).toEqual({ t: "123", s: 4 });
    expect(() => decodePageToken(token, "other")).toThrow(InvalidPageTokenError);
    for (const bad of ["", "!", "AAAA", btoa("[1]"), btoa("\xff\xfe")])
      expect(() => decodePageToken(bad, "abcd1234")).toThrow(InvalidPageTokenError);
  });
});

describe("EventHub and the serialization primitives", () => {
  it("fans out in order; a subscription's return() ends it at once, even with a next() pending", async () => {
    const hub = new EventHub<number>();
    const a = hub.subscribe();
    const b = hub.subscribe();
    const pending = b.next();
    hub.publish(1);
    expect(await pending).toEqual({ done: false, value: 1 });
    const waiting = b.next();
    await b.return();
    expect(await waiting).toEqual({ done: true, value: undefined });
    expect(hub.size).toBe(1);
    for (let i = 2; i <= 3000; i++) hub.publish(i);
    hub.close();
    const got: number[] = [];
    for await (const n of a) got.push(n);
    expect(got).toEqual(Array.from({ length: 3000 }, (_, i) => i + 1));
    expect((await hub.subscribe().next()).done).toBe(true);
  });

  it("an aborted signal ends a subscription and calls its onClose once", async () => {
    const hub = new EventHub<number>();
    const controller = new AbortController();
    let closed = 0;
    const s = hub.subscribe(controller.signal, () => closed++);
    const pending = s.next();
    controller.abort();
    expect((await pending).done).toBe(true);
    s.close();
    expect(closed).toBe(1);
    expect(hub.size).toBe(0);
  });

  it("SerialQueue runs in call order whatever each outcome; Mutex grants in order", async () => {
    const queue = new SerialQueue();
    const log: number[] = [];
    const gate = new Gate();
    const results = [
      queue.run(async () => {
        await gate.promise;
        log.push(1);
      }),
      queue.run(() => {
        log.push(2);
        throw new Error("two");
      }),
      queue.run(() => log.push(3)),
    ];
    gate.open();
    const settled = await Promise.allSettled(results);
    expect(settled.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(log).toEqual([1, 2, 3]);
    await until(() => queue.idle);
    const mutex = new Mutex();
    const order: number[] = [];
    const release1 = await mutex.acquire();
    const waiters = [1, 2, 3].map((i) =>
      mutex.acquire().then((release) => {
        order.push(i);
        release();
      }),
    );
    expect(mutex.idle).toBe(false);
    release1();
    await Promise.all(waiters);
    expect(order).toEqual([1, 2, 3]);
    expect(mutex.idle).toBe(true);
  });
});

describe("copies: nothing handed out aliases the stored task", () => {
  it("mutating responses, stream events and the executor's context leaves the store intact", async () => {
    const contexts: A2ARequestContext[] = [];
    const handler = createA2ATaskHandler({
      capabilities: { streaming: true },
      executor: {
        async execute(context, emitter) {
          contexts.push(context);
          if (context.task) {
            context.task.history.length = 0;
            context.task.status = undefined;
            context.message.parts.length = 0;
          }
          await emitter.addArtifact({
            artifactId: "a",
            parts: [{ content: { case: "text", value: "x" } }],
          });
          await emitter.requireInput("more?");
        },
      },
    });
    const response = taskOf(await handler.sendMessage(sendRequest("one"), callOf("SendMessage")));
    response.history.length = 0;
    response.artifacts[0]!.parts.length = 0;
    const events = await collect(
      handler.sendStreamingMessage(
        sendRequest("two", { taskId: response.id }),
        callOf("SendStreamingMessage"),
      ),
    );
    for (const e of events) if (e.payload.case === "task") e.payload.value.history.length = 0;
    const sub = handler
      .subscribeToTask(
        create(SubscribeToTaskRequestSchema, { id: response.id }),
        callOf("SubscribeToTask"),
      )
      [Symbol.asyncIterator]();
    const head = await sub.next();
    if (!head.done && head.value.payload.case === "task")
      head.value.payload.value.artifacts.length = 0;
    await sub.return?.();
    const stored = await handler.getTask(
      create(GetTaskRequestSchema, { id: response.id }),
      callOf("GetTask"),
    );
    expect(stored.history.map(textOf)).toEqual(["one", "more?", "two", "more?"]);
    expect(stored.artifacts[0]?.parts).toHaveLength(1);
    expect(stored.status?.state).toBe(TaskState.INPUT_REQUIRED);
  });
});
