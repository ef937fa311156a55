/**
 * InMemoryTaskStore's byte bounds (issue #25): `maxBytes` for the store and `maxBytesPerOwner` for one
 * owner, counted with `taskBytes()`/`valueBytes()` (push configs included). A save that grows past a bound
 * drops terminal tasks (the owner's own for its bound), oldest first; when that cannot make room it is
 * refused with TaskStoreFullError naming the bound, nothing dropped; a save that makes a task terminal is
 * never refused. The running totals always equal the sum over what is stored. ListTasks honours a page
 * budget. Table-driven over random operations as well.
 */
import { create } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import {
  TaskPushNotificationConfigSchema,
  TaskSchema,
  TaskState,
  type Task,
} from "../../../generated-example/gen/a2a_pb.js";
import {
  DEFAULT_MAX_BYTES_PER_OWNER,
  DEFAULT_MAX_STORE_BYTES,
  InMemoryTaskStore,
  TaskStoreFullError,
  taskBytes,
  valueBytes,
  type TaskQuery,
  type TaskScope,
} from "@protoc-gen-a2a/runtime/task";
import { seededRandom } from "../../support/random.js";

const alice: TaskScope = { tenant: "", owner: "alice" };
const bob: TaskScope = { tenant: "", owner: "bob" };
const query = (q: Partial<TaskQuery> = {}): TaskQuery => ({
  contextId: "",
  state: undefined,
  statusTimestampAfter: undefined,
  pageSize: 100,
  pageToken: "",
  ...q,
});

/** A task of about `kb` KB of history text. */
function task(id: string, state: TaskState, kb: number, seconds = 1): Task {
  return create(TaskSchema, {
    id,
    contextId: "c",
    status: { state, timestamp: timestampFromMs(seconds * 1000) },
    history:
      kb === 0
        ? []
        : [
            {
              messageId: `m-${id}`,
              parts: [{ content: { case: "text", value: "x".repeat(kb * 1024) } }],
            },
          ],
  });
}

const ids = async (store: InMemoryTaskStore, scope: TaskScope) =>
  (await store.listTasks(scope, query())).tasks.map((t) => t.id).sort();

async function refusal(promise: Promise<unknown>): Promise<TaskStoreFullError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TaskStoreFullError);
  return error as TaskStoreFullError;
}

describe("InMemoryTaskStore byte bounds", () => {
  it("has safe defaults: 256 MiB in all, 64 MiB per owner", () => {
    expect(DEFAULT_MAX_STORE_BYTES).toBe(256 * 1024 * 1024);
    expect(DEFAULT_MAX_BYTES_PER_OWNER).toBe(64 * 1024 * 1024);
    expect(() => new InMemoryTaskStore({ maxBytes: 0 })).toThrow(RangeError);
    expect(() => new InMemoryTaskStore({ maxBytesPerOwner: 1.5 })).toThrow(RangeError);
  });

  it("per owner: drops the owner's oldest terminal tasks to make room, never another owner's", async () => {
    const store = new InMemoryTaskStore({ maxBytesPerOwner: 100 * 1024 });
    await store.saveTask(bob, task("b1", TaskState.COMPLETED, 40));
    await store.saveTask(alice, task("a1", TaskState.COMPLETED, 40));
    await store.saveTask(alice, task("a2", TaskState.COMPLETED, 40));
    await store.saveTask(alice, task("a3", TaskState.WORKING, 40));
    expect(await ids(store, alice)).toEqual(["a2", "a3"]);
    expect(await ids(store, bob)).toEqual(["b1"]);
    expect(store.bytesOf(alice)).toBeLessThanOrEqual(100 * 1024);
  });

  it("per owner: refuses a task that unfinished tasks leave no room for, dropping nothing; other owners go on", async () => {
    const store = new InMemoryTaskStore({ maxBytesPerOwner: 100 * 1024 });
    await store.saveTask(alice, task("done", TaskState.COMPLETED, 10));
    await store.saveTask(alice, task("w1", TaskState.WORKING, 45));
    await store.saveTask(alice, task("w2", TaskState.INPUT_REQUIRED, 40));
    const error = await refusal(store.saveTask(alice, task("w3", TaskState.WORKING, 20)));
    expect(error.limit).toBe("maxBytesPerOwner");
    expect(error.maximum).toBe(100 * 1024);
    expect(await ids(store, alice)).toEqual(["done", "w1", "w2"]);
    // Growth of an existing unfinished task is refused likewise.
    await refusal(store.saveTask(alice, task("w1", TaskState.WORKING, 70)));
    expect((await store.getTask(alice, "w1"))?.history[0]?.parts[0]?.content.value).toHaveLength(
      45 * 1024,
    );
    await store.saveTask(bob, task("b", TaskState.WORKING, 90));
    expect(await ids(store, bob)).toEqual(["b"]);
  });

  it("never refuses a save that makes a task terminal, and never drops the task it just saved", async () => {
    const store = new InMemoryTaskStore({ maxBytesPerOwner: 100 * 1024 });
    await store.saveTask(alice, task("w1", TaskState.WORKING, 60));
    await store.saveTask(alice, task("w2", TaskState.WORKING, 35));
    // FAILED with a larger history (the runtime's own status message): past the bound, kept.
    await store.saveTask(alice, task("w2", TaskState.FAILED, 45));
    expect(await ids(store, alice)).toEqual(["w1", "w2"]);
    expect(store.bytesOf(alice)).toBeGreaterThan(100 * 1024);
    // The next save that needs room drops it (terminal, oldest).
    await store.saveTask(alice, task("w3", TaskState.WORKING, 30));
    expect(await ids(store, alice)).toEqual(["w1", "w3"]);
  });

  it("store-wide: drops anyone's oldest terminal tasks; refuses with limit maxBytes when all are unfinished", async () => {
    const store = new InMemoryTaskStore({
      maxBytes: 100 * 1024,
      maxBytesPerOwner: Number.POSITIVE_INFINITY,
    });
    await store.saveTask(bob, task("b1", TaskState.CANCELED, 40));
    await store.saveTask(alice, task("a1", TaskState.WORKING, 40));
    await store.saveTask(alice, task("a2", TaskState.WORKING, 40));
    expect(await ids(store, bob)).toEqual([]);
    const error = await refusal(store.saveTask(bob, task("b2", TaskState.WORKING, 40)));
    expect(error.limit).toBe("maxBytes");
    expect(store.bytes).toBe(
      taskBytes(task("a1", TaskState.WORKING, 40)) + taskBytes(task("a2", TaskState.WORKING, 40)),
    );
  });

  it("counts push configs, drops them with their task, and refuses one that does not fit", async () => {
    const store = new InMemoryTaskStore({ maxBytesPerOwner: 50 * 1024 });
    await store.saveTask(alice, task("t", TaskState.WORKING, 10));
    const config = create(TaskPushNotificationConfigSchema, {
      taskId: "t",
      id: "c1",
      url: "https://example.com/hook",
      token: "k".repeat(20 * 1024),
    });
    await store.savePushConfig(alice, config);
    expect(store.bytesOf(alice)).toBe(
      taskBytes(task("t", TaskState.WORKING, 10)) + valueBytes(config),
    );
    const big = create(TaskPushNotificationConfigSchema, {
      taskId: "t",
      id: "c2",
      url: "https://example.com/hook",
      token: "k".repeat(30 * 1024),
    });
    expect((await refusal(store.savePushConfig(alice, big))).limit).toBe("maxBytesPerOwner");
    expect(await store.getPushConfig(alice, "t", "c2")).toBeUndefined();
    await store.deletePushConfig(alice, "t", "c1");
    expect(store.bytesOf(alice)).toBe(taskBytes(task("t", TaskState.WORKING, 10)));
    await store.savePushConfig(alice, config);
    await store.saveTask(alice, task("t", TaskState.COMPLETED, 10));
    await store.saveTask(alice, task("u", TaskState.WORKING, 45)); // drops t and its config
    expect(await store.getTask(alice, "t")).toBeUndefined();
    expect(await store.getPushConfig(alice, "t", "c1")).toBeUndefined();
    expect(store.bytesOf(alice)).toBe(taskBytes(task("u", TaskState.WORKING, 45)));
  });

  it("keeps exact totals through random saves, configs, deletions, evictions and TTL expiry", async () => {
    let now = 0;
    const store = new InMemoryTaskStore({
      maxBytes: 400 * 1024,
      maxBytesPerOwner: 150 * 1024,
      maxTasks: 30,
      terminalTaskTtlMs: 5000,
      now: () => now,
    });
    const next = seededRandom(20261202);
    const rnd = { int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)) };
    const scopes = [alice, bob, { tenant: "t2", owner: "alice" }];
    const states = [
      TaskState.WORKING,
      TaskState.INPUT_REQUIRED,
      TaskState.COMPLETED,
      TaskState.FAILED,
    ];
    let refused = 0;
    for (let step = 0; step < 3000; step++) {
      now += rnd.int(0, 50);
      const scope = scopes[rnd.int(0, scopes.length - 1)]!;
      const id = `t${rnd.int(0, 40)}`;
      try {
        if (rnd.int(0, 4) === 0) {
          if ((await store.getTask(scope, id)) === undefined) continue;
          await store.savePushConfig(
            scope,
            create(TaskPushNotificationConfigSchema, {
              taskId: id,
              id: `c${rnd.int(0, 3)}`,
              url: "https://example.com/",
              token: "t".repeat(rnd.int(0, 4000)),
            }),
          );
        } else if (rnd.int(0, 9) === 0) {
          await store.deletePushConfig(scope, id, `c${rnd.int(0, 3)}`);
        } else {
          const existing = await store.getTask(scope, id);
          // The runtime never takes a terminal task back to an unfinished state.
          const terminal =
            existing !== undefined &&
            existing.status!.state >= TaskState.COMPLETED &&
            existing.status!.state !== TaskState.INPUT_REQUIRED;
          await store.saveTask(
            scope,
            task(
              id,
              terminal ? TaskState.COMPLETED : states[rnd.int(0, states.length - 1)]!,
              rnd.int(0, 60),
              step,
            ),
          );
        }
      } catch (e) {
        expect(e).toBeInstanceOf(TaskStoreFullError);
        refused++;
      }
      if (step % 100 !== 0) continue;
      let total = 0;
      for (const s of scopes) {
        let own = 0;
        for (const t of (await store.listTasks(s, query())).tasks) {
          own += taskBytes(t);
          for (const c of (await store.listPushConfigs(s, t.id, { pageSize: 0, pageToken: "" }))
            .configs)
            own += valueBytes(c);
        }
        expect(store.bytesOf(s)).toBe(own);
        total += own;
      }
      expect(store.bytes).toBe(total);
    }
    // The bounds were reached: some saves were refused, and the store stayed within maxTasks.
    expect(refused).toBeGreaterThan(0);
    expect(store.size).toBeLessThanOrEqual(30);
  });
});

describe("InMemoryTaskStore ListTasks budget", () => {
  it("ends a page before the task that would pass the budget (one task at least), and the pages cover every task once", async () => {
    const store = new InMemoryTaskStore({ maxBytesPerOwner: Number.POSITIVE_INFINITY });
    const sizes = [30, 5, 60, 10, 10, 10, 80, 1, 1, 1, 1, 45];
    for (let i = 0; i < sizes.length; i++)
      await store.saveTask(alice, task(`t${i}`, TaskState.WORKING, sizes[i]!, 100 - i));
    const budget = { maxBytes: 50 * 1024, sizeOf: (t: Task) => taskBytes(t) };
    const seen: string[] = [];
    let pageToken = "";
    let pages = 0;
    do {
      const page = await store.listTasks(alice, query({ pageSize: 4, pageToken, budget }));
      expect(page.tasks.length).toBeGreaterThanOrEqual(1);
      expect(page.tasks.length).toBeLessThanOrEqual(4);
      const bytes = page.tasks.reduce((n, t) => n + taskBytes(t), 0);
      if (page.tasks.length > 1) expect(bytes).toBeLessThanOrEqual(budget.maxBytes);
      expect(page.totalSize).toBe(sizes.length);
      seen.push(...page.tasks.map((t) => t.id));
      pageToken = page.nextPageToken;
      pages++;
    } while (pageToken !== "");
    expect(seen).toEqual(sizes.map((_, i) => `t${i}`));
    expect(pages).toBeGreaterThan(Math.ceil(sizes.length / 4));
  });
});
