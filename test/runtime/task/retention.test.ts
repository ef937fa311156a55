/**
 * Retention of the task stores: InMemoryTaskStore's bound (`maxTasks`, `terminalTaskTtlMs`)
 * and SqliteTaskStore.purge / autoPurge. Only terminal tasks ever go, oldest first, with their
 * push configs; the indexes (scope maps, the contextId index) stay consistent; no real waiting
 * (injected clocks, fake timers).
 */
import { create } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  GetTaskRequestSchema,
  ListTasksRequestSchema,
  TaskPushNotificationConfigSchema,
  TaskSchema,
  TaskState,
  type Task,
} from "../../../generated-example/gen/a2a_pb.js";
import { TaskNotFoundError } from "../../../generated-example/gen/a2a_a2a_errors.js";
import { A2AError } from "@protoc-gen-a2a/runtime";
import {
  A2A_TASK_STATE_NUMBERS,
  DEFAULT_MAX_TASKS,
  InMemoryTaskStore,
  TaskStoreFullError,
  type TaskQuery,
  type TaskScope,
} from "@protoc-gen-a2a/runtime/task";
import { SqliteTaskStore } from "@protoc-gen-a2a/runtime/sqlite";
import {
  callOf,
  createA2ATaskHandler,
  sendRequest,
  taskOf,
  textOf,
  until,
  type A2AExecutor,
} from "../../support/task-runtime-binding.js";

const scope: TaskScope = { tenant: "", owner: "" };
const schemas = { Task: TaskSchema, TaskPushNotificationConfig: TaskPushNotificationConfigSchema };
const task = (id: string, state: TaskState, seconds = 1, contextId = "c"): Task =>
  create(TaskSchema, {
    id,
    contextId,
    status: { state, timestamp: timestampFromMs(seconds * 1000) },
  });
const query = (q: Partial<TaskQuery> = {}): TaskQuery => ({
  contextId: "",
  state: undefined,
  statusTimestampAfter: undefined,
  pageSize: 100,
  pageToken: "",
  ...q,
});
const config = (taskId: string, id: string) =>
  create(TaskPushNotificationConfigSchema, {
    taskId,
    id,
    url: `https://example.com/${taskId}/${id}`,
  });
const ids = async (
  store: InMemoryTaskStore | SqliteTaskStore,
  q: Partial<TaskQuery> = {},
  s = scope,
) => (await store.listTasks(s, query(q))).tasks.map((t) => t.id).sort();

describe("InMemoryTaskStore retention", () => {
  it("keeps working without options, bounded by DEFAULT_MAX_TASKS; the numbering is a2a.proto's", async () => {
    expect(A2A_TASK_STATE_NUMBERS).toMatchObject({
      SUBMITTED: TaskState.SUBMITTED,
      WORKING: TaskState.WORKING,
      COMPLETED: TaskState.COMPLETED,
      FAILED: TaskState.FAILED,
      CANCELED: TaskState.CANCELED,
      INPUT_REQUIRED: TaskState.INPUT_REQUIRED,
      REJECTED: TaskState.REJECTED,
      AUTH_REQUIRED: TaskState.AUTH_REQUIRED,
    });
    expect(DEFAULT_MAX_TASKS).toBe(10_000);
    const store = new InMemoryTaskStore();
    for (let i = 0; i < DEFAULT_MAX_TASKS; i++)
      await store.saveTask(scope, task(`t${i}`, i === 5 ? TaskState.COMPLETED : TaskState.WORKING));
    expect(store.size).toBe(DEFAULT_MAX_TASKS);
    await store.saveTask(scope, task("one-more", TaskState.WORKING));
    expect(await store.getTask(scope, "t5")).toBeUndefined();
    expect(store.size).toBe(DEFAULT_MAX_TASKS);
    await expect(store.saveTask(scope, task("refused", TaskState.WORKING))).rejects.toBeInstanceOf(
      TaskStoreFullError,
    );
    expect(await store.getTask(scope, "refused")).toBeUndefined();
    expect((await store.listTasks(scope, query({ pageSize: 1 }))).totalSize).toBe(
      DEFAULT_MAX_TASKS,
    );
  });

  it("evicts terminal tasks, least recently saved first; never a task that is not terminal: creating one then fails", async () => {
    const store = new InMemoryTaskStore({ maxTasks: 4 });
    await store.saveTask(scope, task("t1", TaskState.COMPLETED));
    await store.saveTask(scope, task("t2", TaskState.CANCELED));
    await store.saveTask(scope, task("t3", TaskState.WORKING));
    await store.saveTask(scope, task("t4", TaskState.REJECTED));
    await store.saveTask(scope, task("t1", TaskState.COMPLETED, 2)); // a save makes it the newest
    await store.saveTask(scope, task("t5", TaskState.INPUT_REQUIRED));
    expect(await ids(store)).toEqual(["t1", "t3", "t4", "t5"]);
    await store.saveTask(scope, task("t6", TaskState.AUTH_REQUIRED));
    expect(await ids(store)).toEqual(["t1", "t3", "t5", "t6"]);
    await store.saveTask(scope, task("t7", TaskState.SUBMITTED));
    expect(await ids(store)).toEqual(["t3", "t5", "t6", "t7"]);
    // Full of live tasks: a new one is refused, with a clear error; nothing is dropped.
    await expect(store.saveTask(scope, task("t8", TaskState.WORKING))).rejects.toThrow(
      /task store is full: 4 tasks, none of them in a terminal state \(maxTasks 4\)/,
    );
    expect(await ids(store)).toEqual(["t3", "t5", "t6", "t7"]);
    // Saving an existing task never needs room.
    await store.saveTask(scope, task("t3", TaskState.FAILED, 3));
    await store.saveTask(scope, task("t8", TaskState.WORKING));
    expect(await ids(store)).toEqual(["t5", "t6", "t7", "t8"]);
    expect(store.size).toBe(4);
  });

  it("a task saved again in a state that is not terminal leaves the eviction queue", async () => {
    const store = new InMemoryTaskStore({ maxTasks: 2 });
    await store.saveTask(scope, task("a", TaskState.COMPLETED));
    await store.saveTask(scope, task("a", TaskState.WORKING));
    await store.saveTask(scope, task("b", TaskState.COMPLETED));
    await store.saveTask(scope, task("c", TaskState.WORKING));
    expect(await ids(store)).toEqual(["a", "c"]);
    await expect(store.saveTask(scope, task("d", TaskState.WORKING))).rejects.toBeInstanceOf(
      TaskStoreFullError,
    );
  });

  it("drops terminal tasks terminalTaskTtlMs after their last save (injected clock); live tasks stay", async () => {
    let now = 1_000_000;
    const store = new InMemoryTaskStore({ terminalTaskTtlMs: 1000, now: () => now });
    await store.saveTask(scope, task("done", TaskState.COMPLETED));
    await store.saveTask(scope, task("live", TaskState.WORKING));
    await store.saveTask(scope, task("asks", TaskState.INPUT_REQUIRED));
    await store.savePushConfig(scope, config("done", "p"));
    now += 500;
    await store.saveTask(scope, task("later", TaskState.FAILED));
    now += 499;
    expect(await store.getTask(scope, "done")).toBeDefined();
    now += 1;
    expect(await store.getTask(scope, "done")).toBeUndefined();
    expect(await store.getPushConfig(scope, "done", "p")).toBeUndefined();
    expect(await ids(store)).toEqual(["asks", "later", "live"]);
    await store.saveTask(scope, task("later", TaskState.FAILED, 2)); // re-saved: its TTL starts again
    now += 999;
    expect(await ids(store)).toEqual(["asks", "later", "live"]);
    now += 1;
    expect(await ids(store)).toEqual(["asks", "live"]);
    now += 10 * 365 * 86_400_000;
    expect(await ids(store)).toEqual(["asks", "live"]);
    expect(store.size).toBe(2);
  });

  it("a task's push configs go with it; other tasks' stay; a re-created task starts without any", async () => {
    const store = new InMemoryTaskStore({ maxTasks: 2 });
    await store.saveTask(scope, task("a", TaskState.COMPLETED));
    await store.saveTask(scope, task("b", TaskState.COMPLETED));
    await store.savePushConfig(scope, config("a", "1"));
    await store.savePushConfig(scope, config("a", "2"));
    await store.savePushConfig(scope, config("b", "1"));
    await store.saveTask(scope, task("c", TaskState.WORKING));
    expect(await store.getPushConfig(scope, "a", "1")).toBeUndefined();
    expect(
      (await store.listPushConfigs(scope, "a", { pageSize: 0, pageToken: "" })).configs,
    ).toEqual([]);
    expect(
      (await store.listPushConfigs(scope, "b", { pageSize: 0, pageToken: "" })).configs.map(
        (c) => c.id,
      ),
    ).toEqual(["1"]);
    await store.saveTask(scope, task("b", TaskState.WORKING));
    await expect(store.saveTask(scope, task("a", TaskState.WORKING))).rejects.toBeInstanceOf(
      TaskStoreFullError,
    );
    await store.saveTask(scope, task("c", TaskState.COMPLETED));
    await store.saveTask(scope, task("a", TaskState.WORKING));
    expect(
      (await store.listPushConfigs(scope, "a", { pageSize: 0, pageToken: "" })).configs,
    ).toEqual([]);
  });

  it("the bound is over all scopes; each scope's lists and context index stay consistent", async () => {
    const store = new InMemoryTaskStore({ maxTasks: 3 });
    const alice = { tenant: "t", owner: "alice" };
    const bob = { tenant: "t", owner: "bob" };
    await store.saveTask(alice, task("x", TaskState.COMPLETED, 1, "ctx"));
    await store.saveTask(bob, task("x", TaskState.COMPLETED, 1, "ctx"));
    await store.saveTask(alice, task("y", TaskState.WORKING, 2, "ctx"));
    await store.saveTask(bob, task("z", TaskState.WORKING, 3, "ctx"));
    expect(await store.getTask(alice, "x")).toBeUndefined();
    expect(await store.getTask(bob, "x")).toBeDefined();
    expect(await ids(store, { contextId: "ctx" }, alice)).toEqual(["y"]);
    expect(await ids(store, { contextId: "ctx" }, bob)).toEqual(["x", "z"]);
    expect((await store.listTasks(alice, query({ state: TaskState.COMPLETED }))).totalSize).toBe(0);
  });

  it("matches a model under random saves, evictions and expiries (getTask, ListTasks by context and state, push configs)", async () => {
    let seed = 20261201;
    const random = (n: number) => {
      // mulberry32
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
    };
    let now = 0;
    const maxTasks = 8;
    const ttl = 20;
    const store = new InMemoryTaskStore({ maxTasks, terminalTaskTtlMs: ttl, now: () => now });
    const scopes = [scope, { tenant: "t", owner: "o" }];
    // Mostly terminal states, so that the store is not always full of live tasks.
    const states = [
      TaskState.SUBMITTED,
      TaskState.WORKING,
      TaskState.INPUT_REQUIRED,
      ...Array(3)
        .fill([TaskState.COMPLETED, TaskState.FAILED, TaskState.CANCELED, TaskState.REJECTED])
        .flat(),
    ];
    const terminal = new Set<number>([
      TaskState.COMPLETED,
      TaskState.FAILED,
      TaskState.CANCELED,
      TaskState.REJECTED,
    ]);
    // The model: key → task, state, context, last save time and order, configs.
    const model = new Map<
      string,
      {
        s: number;
        id: string;
        state: TaskState;
        contextId: string;
        savedAt: number;
        order: number;
        configs: Set<string>;
      }
    >();
    let order = 0;
    const seen = { expired: 0, evicted: 0, refused: 0 };
    const expire = () => {
      for (const [k, m] of model) {
        if (terminal.has(m.state) && now - m.savedAt >= ttl) {
          model.delete(k);
          seen.expired++;
        }
      }
    };
    for (let step = 0; step < 3000; step++) {
      now += random(5);
      expire();
      const s = random(2);
      const id = `t${random(14)}`;
      const key = `${s}/${id}`;
      if (random(4) === 0) {
        if (model.has(key)) {
          const cid = `p${random(3)}`;
          await store.savePushConfig(scopes[s] as TaskScope, config(id, cid));
          model.get(key)?.configs.add(cid);
        }
      } else {
        const existing = model.get(key);
        const state = states[random(states.length)] as TaskState;
        const contextId = existing?.contextId ?? `c${random(3)}`;
        let refused = false;
        if (existing === undefined && model.size >= maxTasks) {
          const victims = [...model.entries()]
            .filter(([, m]) => terminal.has(m.state))
            .sort((a, b) => a[1].order - b[1].order);
          if (victims.length === 0) refused = true;
          else model.delete((victims[0] as [string, unknown])[0]);
          seen[refused ? "refused" : "evicted"]++;
        }
        const saving = store.saveTask(scopes[s] as TaskScope, task(id, state, step, contextId));
        if (refused) {
          await expect(saving).rejects.toBeInstanceOf(TaskStoreFullError);
        } else {
          await saving;
          model.set(key, {
            s,
            id,
            state,
            contextId,
            savedAt: now,
            order: ++order,
            configs: existing?.configs ?? new Set(),
          });
        }
      }
      if (step % 7 !== 0) continue;
      expect(store.size).toBe(model.size);
      for (let si = 0; si < 2; si++) {
        const mine = [...model.values()].filter((m) => m.s === si);
        expect(await ids(store, {}, scopes[si])).toEqual(mine.map((m) => m.id).sort());
        for (const c of ["c0", "c1", "c2"])
          expect(await ids(store, { contextId: c }, scopes[si])).toEqual(
            mine
              .filter((m) => m.contextId === c)
              .map((m) => m.id)
              .sort(),
          );
        expect(await ids(store, { state: TaskState.COMPLETED }, scopes[si])).toEqual(
          mine
            .filter((m) => m.state === TaskState.COMPLETED)
            .map((m) => m.id)
            .sort(),
        );
        for (let i = 0; i < 14; i++) {
          const m = model.get(`${si}/t${i}`);
          expect((await store.getTask(scopes[si] as TaskScope, `t${i}`))?.status?.state).toBe(
            m?.state,
          );
          const configs = (
            await store.listPushConfigs(scopes[si] as TaskScope, `t${i}`, {
              pageSize: 0,
              pageToken: "",
            })
          ).configs
            .map((c) => c.id)
            .sort();
          expect(configs).toEqual([...(m?.configs ?? [])].sort());
        }
      }
    }
    expect(seen.expired).toBeGreaterThan(50);
    expect(seen.evicted).toBeGreaterThan(50);
    expect(seen.refused).toBeGreaterThan(10);
  });

  it("takes a TaskState numbering; refuses nonsensical bounds", async () => {
    const store = new InMemoryTaskStore({
      maxTasks: 1,
      states: { ...A2A_TASK_STATE_NUMBERS, COMPLETED: 42 },
    });
    await store.saveTask(scope, task("a", 42 as TaskState));
    await store.saveTask(scope, task("b", TaskState.WORKING));
    expect(await ids(store)).toEqual(["b"]);
    expect(() => new InMemoryTaskStore({ maxTasks: 0 })).toThrow(RangeError);
    expect(() => new InMemoryTaskStore({ maxTasks: 1.5 })).toThrow(RangeError);
    expect(() => new InMemoryTaskStore({ maxTasks: Number.NaN })).toThrow(RangeError);
    expect(() => new InMemoryTaskStore({ terminalTaskTtlMs: -1 })).toThrow(RangeError);
    expect(
      () => new InMemoryTaskStore({ maxTasks: Number.POSITIVE_INFINITY, terminalTaskTtlMs: 0 }),
    ).not.toThrow();
  });
});

/** Completes every task at once, unless told "ask" (INPUT_REQUIRED). */
const agent: A2AExecutor = {
  async execute(context, emitter) {
    if (textOf(context.message) === "ask") return emitter.requireInput("more?");
    await emitter.complete("done");
  },
  async cancel() {},
};

describe("retention through the task handler", () => {
  it("GetTask of an evicted task is TaskNotFound; ListTasks no longer lists it; a full store refuses a new task, continues an existing one", async () => {
    const store = new InMemoryTaskStore({ maxTasks: 2 });
    const errors: unknown[] = [];
    const handler = createA2ATaskHandler({
      executor: agent,
      store,
      onError: (e) => errors.push(e),
    });
    const send = async (text: string, taskId?: string) =>
      taskOf(
        await handler.sendMessage(
          sendRequest(text, taskId === undefined ? {} : { taskId }),
          callOf("SendMessage"),
        ),
      );
    const getTask = (id: string) =>
      handler.getTask(create(GetTaskRequestSchema, { id }), callOf("GetTask"));
    const first = await send("one");
    const second = await send("ask");
    await until(() => handler.liveTasks === 0);
    const third = await send("three");
    expect(third.status?.state).toBe(TaskState.COMPLETED);
    await expect(getTask(first.id)).rejects.toBeInstanceOf(TaskNotFoundError);
    expect((await getTask(second.id)).status?.state).toBe(TaskState.INPUT_REQUIRED);
    const listed = await handler.listTasks(create(ListTasksRequestSchema, {}), callOf("ListTasks"));
    expect(listed.tasks.map((t) => t.id).sort()).toEqual([second.id, third.id].sort());
    expect(listed.totalSize).toBe(2);
    // Two live (INPUT_REQUIRED) tasks fill it: a new task is refused, the existing ones go on.
    await send("ask");
    await until(() => handler.liveTasks === 0);
    // The client is told why, as the A2A InternalError with a clear message (nothing it was told about is lost).
    const refusal = await send("four").then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(refusal).toBeInstanceOf(A2AError);
    expect((refusal as A2AError).spec.name).toBe("InternalError");
    expect((refusal as A2AError).message).toMatch(
      /cannot take a new task now: its task store is full/,
    );
    expect((await send("go on", second.id)).status?.state).toBe(TaskState.COMPLETED);
    expect((await send("five")).status?.state).toBe(TaskState.COMPLETED);
    await expect(getTask(second.id)).rejects.toBeInstanceOf(TaskNotFoundError);
    await until(() => handler.liveTasks === 0);
    expect(errors.some((e) => e instanceof A2AError && /task store is full/.test(e.message))).toBe(
      true,
    );
  });
});

describe("SqliteTaskStore.purge", () => {
  const opened: SqliteTaskStore[] = [];
  const dirs: string[] = [];
  const open = (
    path = ":memory:",
    options: Partial<ConstructorParameters<typeof SqliteTaskStore>[1]> = {},
  ) => {
    const store = new SqliteTaskStore(path, { schemas, ...options });
    opened.push(store);
    return store;
  };
  afterEach(() => {
    for (const store of opened.splice(0)) store.close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    vi.useRealTimers();
  });

  it("finishedBefore deletes the terminal tasks that became terminal before it, with their configs; never a live one", async () => {
    const store = open();
    await store.saveTask(scope, task("done-old", TaskState.COMPLETED, 10));
    await store.saveTask(scope, task("failed-old", TaskState.FAILED, 11));
    await store.saveTask({ tenant: "x", owner: "y" }, task("rejected-old", TaskState.REJECTED, 12));
    await store.saveTask(scope, task("working-old", TaskState.WORKING, 1));
    await store.saveTask(scope, task("asks-old", TaskState.AUTH_REQUIRED, 1));
    await store.saveTask(scope, task("done-new", TaskState.CANCELED, 20));
    await store.savePushConfig(scope, config("done-old", "p1"));
    await store.savePushConfig(scope, config("done-old", "p2"));
    await store.savePushConfig(scope, config("done-new", "p1"));
    await store.savePushConfig(scope, config("working-old", "p1"));
    expect(await store.purge({ finishedBefore: new Date(20_000) })).toBe(3);
    expect(await ids(store)).toEqual(["asks-old", "done-new", "working-old"]);
    expect(await store.getTask({ tenant: "x", owner: "y" }, "rejected-old")).toBeUndefined();
    expect(await store.getPushConfig(scope, "done-old", "p1")).toBeUndefined();
    expect(
      (await store.listPushConfigs(scope, "done-old", { pageSize: 0, pageToken: "" })).configs,
    ).toEqual([]);
    expect(await store.getPushConfig(scope, "done-new", "p1")).toBeDefined();
    expect(await store.getPushConfig(scope, "working-old", "p1")).toBeDefined();
    expect(await store.purge({ finishedBefore: 20_001 })).toBe(1);
    expect(await store.purge({ finishedBefore: Date.now() })).toBe(0);
    expect(await ids(store)).toEqual(["asks-old", "working-old"]);
  });

  it("maxTasks deletes the oldest terminal tasks beyond the bound (status time, then save); live tasks count but stay", async () => {
    const store = open();
    await store.saveTask(scope, task("w1", TaskState.WORKING, 1));
    await store.saveTask(scope, task("d5", TaskState.COMPLETED, 5));
    await store.saveTask(scope, task("d3a", TaskState.COMPLETED, 3));
    await store.saveTask(scope, task("d3b", TaskState.FAILED, 3));
    await store.saveTask(scope, task("w2", TaskState.INPUT_REQUIRED, 2));
    await store.saveTask(scope, task("d9", TaskState.CANCELED, 9));
    expect(await store.purge({ maxTasks: 6 })).toBe(0);
    expect(await store.purge({ maxTasks: 4 })).toBe(2);
    expect(await ids(store)).toEqual(["d5", "d9", "w1", "w2"]);
    expect(await store.purge({ maxTasks: 0 })).toBe(2);
    expect(await ids(store)).toEqual(["w1", "w2"]);
    expect(await store.purge({})).toBe(0);
    await expect(store.purge({ maxTasks: -1 })).rejects.toBeInstanceOf(RangeError);
    await expect(store.purge({ finishedBefore: Number.NaN })).rejects.toBeInstanceOf(RangeError);
  });

  it("commits the pending saves first (group commit), both criteria in one call", async () => {
    const store = open();
    const saves = [
      store.saveTask(scope, task("a", TaskState.COMPLETED, 1)),
      store.saveTask(scope, task("b", TaskState.COMPLETED, 2)),
      store.saveTask(scope, task("c", TaskState.COMPLETED, 30)),
    ];
    const removed = await store.purge({ finishedBefore: 2000, maxTasks: 1 });
    await Promise.all(saves);
    expect(removed).toBe(2);
    expect(await ids(store)).toEqual(["c"]);
  });

  it("persists in the file; GetTask through the handler is then TaskNotFound", async () => {
    const dir = mkdtempSync(join(tmpdir(), "a2a-retention-"));
    dirs.push(dir);
    const path = join(dir, "tasks.db");
    const store = open(path);
    const handler = createA2ATaskHandler({ executor: agent, store });
    const done = taskOf(await handler.sendMessage(sendRequest("one"), callOf("SendMessage")));
    const asks = taskOf(await handler.sendMessage(sendRequest("ask"), callOf("SendMessage")));
    await until(() => handler.liveTasks === 0);
    expect(await store.purge({ finishedBefore: Date.now() + 60_000 })).toBe(1);
    await expect(
      handler.getTask(create(GetTaskRequestSchema, { id: done.id }), callOf("GetTask")),
    ).rejects.toBeInstanceOf(TaskNotFoundError);
    store.close();
    const again = open(path);
    expect(await again.getTask(scope, done.id)).toBeUndefined();
    expect((await again.getTask(scope, asks.id))?.status?.state).toBe(TaskState.INPUT_REQUIRED);
  });

  it("autoPurge runs on its timer with its clock, reports errors, stops at close()", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    let now = 100_000;
    const failures: unknown[] = [];
    const store = open(":memory:", {
      now: () => now,
      autoPurge: {
        intervalMs: 60_000,
        terminalTaskTtlMs: 10_000,
        maxTasks: 3,
        onError: (e) => failures.push(e),
      },
    });
    await store.saveTask(scope, task("old", TaskState.COMPLETED, 80));
    await store.saveTask(scope, task("recent", TaskState.COMPLETED, 95));
    await store.saveTask(scope, task("live", TaskState.WORKING, 1));
    vi.advanceTimersByTime(59_999);
    expect(await ids(store)).toEqual(["live", "old", "recent"]);
    vi.advanceTimersByTime(1);
    expect(await ids(store)).toEqual(["live", "recent"]);
    now = 200_000;
    for (let i = 0; i < 4; i++)
      await store.saveTask(scope, task(`new${i}`, TaskState.COMPLETED, 199 + i / 10));
    vi.advanceTimersByTime(60_000);
    expect(await ids(store)).toEqual(["live", "new2", "new3"]);
    expect(failures).toEqual([]);
    store.close();
    expect(vi.getTimerCount()).toBe(0);
    expect(() => open(":memory:", { autoPurge: { intervalMs: 10 } })).toThrow(RangeError);
  });
});
