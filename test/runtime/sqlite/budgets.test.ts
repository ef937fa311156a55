// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * SqliteTaskStore's byte budgets (issue #25): each owner's stored bytes (`scope_usage`, kept by
 * triggers) stay exactly the sum over its rows through every kind of write; `maxBytesPerOwner`
 * refuses a growing save past it with TaskStoreFullError having stored nothing, never a terminal
 * save; `purge({ maxBytesPerOwner })` deletes each owner's oldest terminal tasks down to a number
 * of bytes; ListTasks with `query.budget` fills pages up to the budget and continues with
 * nextPageToken, decoding at most one task past it. Real database files in a temp directory.
 */
import { create } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  MessageSchema,
  Role,
  TaskPushNotificationConfigSchema,
  TaskSchema,
  TaskState,
  type Task,
} from "../../../generated-example/gen/a2a_pb.js";
import {
  DEFAULT_SQLITE_MAX_BYTES_PER_OWNER,
  SqliteTaskStore,
} from "@protoc-gen-a2a/runtime/sqlite";
import {
  TaskStoreFullError,
  taskBytes,
  valueBytes,
  type TaskQuery,
  type TaskScope,
} from "@protoc-gen-a2a/runtime/task";

const schemas = { Task: TaskSchema, TaskPushNotificationConfig: TaskPushNotificationConfigSchema };
const alice: TaskScope = { tenant: "", owner: "alice" };
const bob: TaskScope = { tenant: "", owner: "bob" };
const carol: TaskScope = { tenant: "acme", owner: "alice" };
const query = (q: Partial<TaskQuery> = {}): TaskQuery => ({
  contextId: "",
  state: undefined,
  statusTimestampAfter: undefined,
  pageSize: 100,
  pageToken: "",
  ...q,
});

/** A task of about `size` bytes of text (its weight is `taskBytes`). */
function task(id: string, state: TaskState, seconds: number, size = 100): Task {
  return create(TaskSchema, {
    id,
    contextId: `ctx-${id}`,
    status: { state, timestamp: timestampFromMs(seconds * 1000) },
    history: [
      create(MessageSchema, {
        messageId: `${id}-m`,
        role: Role.USER,
        parts: [{ content: { case: "text", value: "x".repeat(size) } }],
      }),
    ],
  });
}
const config = (taskId: string, id: string, url = `https://hooks.example.com/${taskId}/${id}`) =>
  create(TaskPushNotificationConfigSchema, { taskId, id, url });

let dir = "";
const opened: SqliteTaskStore[] = [];
const connections: Database.Database[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "a2a-sqlite-budgets-"));
});
afterEach(() => {
  for (const store of opened.splice(0)) store.close();
  for (const db of connections.splice(0)) db.close();
  rmSync(dir, { recursive: true, force: true });
  vi.useRealTimers();
});

/** A store on a new file, and a second connection to read its tables. */
function open(
  options: Partial<ConstructorParameters<typeof SqliteTaskStore>[1]> = {},
  name = "tasks.db",
) {
  const path = join(dir, name);
  const store = new SqliteTaskStore(path, { schemas, ...options });
  opened.push(store);
  const db = new Database(path, { readonly: true });
  connections.push(db);
  const usage = (scope: TaskScope): number =>
    Number(
      db
        .prepare(
          "SELECT COALESCE((SELECT bytes FROM scope_usage WHERE tenant = ? AND owner = ?), 0)",
        )
        .pluck()
        .get(scope.tenant, scope.owner),
    );
  /** scope_usage must equal SUM(bytes) over the rows, per owner, at every step. */
  const expectExact = (step: string) => {
    const kept = db
      .prepare("SELECT tenant, owner, bytes FROM scope_usage ORDER BY tenant, owner")
      .all();
    const summed = db
      .prepare(
        "SELECT tenant, owner, SUM(bytes) AS bytes FROM (SELECT tenant, owner, bytes FROM tasks UNION ALL SELECT tenant, owner, bytes FROM push_configs) GROUP BY tenant, owner ORDER BY tenant, owner",
      )
      .all();
    expect(kept, step).toEqual(summed);
  };
  return { store, db, usage, expectExact };
}

describe("per-owner usage", () => {
  it("stays SUM(bytes) over the owner's tasks and push configs through creates, updates, deletes, purges, push config changes and failInterruptedTasks", async () => {
    const { store, db, usage, expectExact } = open({ maxBytesPerOwner: Number.POSITIVE_INFINITY });
    let seed = 25;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const scopes = [alice, bob, carol];
    const states = [
      TaskState.SUBMITTED,
      TaskState.WORKING,
      TaskState.INPUT_REQUIRED,
      TaskState.COMPLETED,
      TaskState.FAILED,
      TaskState.CANCELED,
    ];
    let clock = 1;
    for (let step = 0; step < 300; step++) {
      const scope = scopes[random(3)] as TaskScope;
      const id = `t${random(12)}`;
      const op = random(10);
      if (op < 4) {
        // A group commit of several saves, some of one task.
        await Promise.all(
          Array.from({ length: 1 + random(4) }, () =>
            store.saveTask(
              scope,
              task(id, states[random(states.length)] as TaskState, clock++, random(3000)),
            ),
          ),
        );
      } else if (op < 6) {
        await store.savePushConfig(
          scope,
          config(id, `p${random(3)}`, `https://hooks.example.com/${"y".repeat(random(200))}`),
        );
      } else if (op === 6) {
        await store.deletePushConfig(scope, id, `p${random(3)}`);
      } else if (op === 7) {
        await store.deleteTask(scope, id);
      } else if (op === 8) {
        await store.purge(
          random(2) === 0
            ? { finishedBefore: (clock - random(50)) * 1000 }
            : random(2) === 0
              ? { maxTasks: random(20) }
              : { maxBytesPerOwner: random(20_000) },
        );
      } else {
        await store.failInterruptedTasks("restarted");
      }
      expectExact(`step ${step}`);
    }
    // Each row's bytes is the weight of what it holds.
    for (const scope of scopes) {
      const page = await store.listTasks(scope, query());
      let sum = 0;
      for (const t of page.tasks) {
        expect(
          Number(
            db
              .prepare("SELECT bytes FROM tasks WHERE tenant = ? AND owner = ? AND id = ?")
              .pluck()
              .get(scope.tenant, scope.owner, t.id),
          ),
        ).toBe(taskBytes(t));
        sum += taskBytes(t);
      }
      // Push configs (the store does not check their task exists: the runtime does).
      const configRows = db
        .prepare("SELECT task_id, id, bytes FROM push_configs WHERE tenant = ? AND owner = ?")
        .all(scope.tenant, scope.owner) as { task_id: string; id: string; bytes: number }[];
      for (const row of configRows) {
        const stored = await store.getPushConfig(scope, row.task_id, row.id);
        expect(row.bytes).toBe(valueBytes(stored));
        sum += row.bytes;
      }
      expect(usage(scope)).toBe(sum);
    }
    // An owner whose last row goes has no usage row left.
    for (const scope of scopes)
      for (const t of (await store.listTasks(scope, query())).tasks)
        await store.deleteTask(scope, t.id);
    const orphans = db.prepare("SELECT tenant, owner, task_id, id FROM push_configs").all() as {
      tenant: string;
      owner: string;
      task_id: string;
      id: string;
    }[];
    for (const c of orphans)
      await store.deletePushConfig({ tenant: c.tenant, owner: c.owner }, c.task_id, c.id);
    expect(db.prepare("SELECT COUNT(*) FROM scope_usage").pluck().get()).toBe(0);
  });
});

describe("maxBytesPerOwner", () => {
  it("refuses a growing save past it with TaskStoreFullError, having stored nothing; other owners are not affected", async () => {
    const max = 3 * taskBytes(task("a", TaskState.WORKING, 1, 1000)) + 50;
    const { store, usage, expectExact } = open({ maxBytesPerOwner: max });
    for (const id of ["a", "b", "c"])
      await store.saveTask(alice, task(id, TaskState.WORKING, 1, 1000));
    const before = usage(alice);
    const refused = await store
      .saveTask(alice, task("d", TaskState.WORKING, 2, 1000))
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(TaskStoreFullError);
    expect(refused).toMatchObject({ limit: "maxBytesPerOwner", maximum: max });
    expect((refused as Error).message).toMatch(/more than maxBytesPerOwner \(\d+\)/);
    expect(await store.getTask(alice, "d")).toBeUndefined();
    expect(usage(alice)).toBe(before);
    // An update that grows the task is refused too, and leaves it as it was.
    await expect(
      store.saveTask(alice, task("a", TaskState.INPUT_REQUIRED, 3, 1200)),
    ).rejects.toBeInstanceOf(TaskStoreFullError);
    expect((await store.getTask(alice, "a"))?.status?.state).toBe(TaskState.WORKING);
    // One that does not grow it lands.
    await store.saveTask(alice, task("a", TaskState.INPUT_REQUIRED, 3, 900));
    expect((await store.getTask(alice, "a"))?.status?.state).toBe(TaskState.INPUT_REQUIRED);
    // Push configs count and are refused alike.
    await expect(
      store.savePushConfig(alice, config("a", "p", `https://hooks.example.com/${"z".repeat(500)}`)),
    ).rejects.toMatchObject({ name: "TaskStoreFullError", limit: "maxBytesPerOwner" });
    expect(await store.getPushConfig(alice, "a", "p")).toBeUndefined();
    await store.savePushConfig(alice, config("a", "small"));
    // Another owner (and the same owner key in another tenant) has its own quota.
    await store.saveTask(bob, task("d", TaskState.WORKING, 2, 1000));
    await store.saveTask(carol, task("d", TaskState.WORKING, 2, 1000));
    expect(usage(alice)).toBeLessThanOrEqual(max);
    expectExact("after refusals");
  });

  it("never refuses a save that makes a task terminal, even past it; the owner then stays refused until purged", async () => {
    const max = 2 * taskBytes(task("a", TaskState.WORKING, 1, 1000)) + 10;
    const { store, usage } = open({ maxBytesPerOwner: max });
    await store.saveTask(alice, task("a", TaskState.WORKING, 1, 1000));
    await store.saveTask(alice, task("b", TaskState.WORKING, 2, 1000));
    for (const [id, state] of [
      ["a", TaskState.COMPLETED],
      ["b", TaskState.FAILED],
      ["c", TaskState.CANCELED],
      ["d", TaskState.REJECTED],
    ] as const) {
      await store.saveTask(alice, task(id, state, 5, 3000));
      expect((await store.getTask(alice, id))?.status?.state).toBe(state);
    }
    expect(usage(alice)).toBeGreaterThan(max);
    await expect(
      store.saveTask(alice, task("e", TaskState.SUBMITTED, 6, 10)),
    ).rejects.toBeInstanceOf(TaskStoreFullError);
    expect(await store.purge({ maxBytesPerOwner: max - 200 })).toBe(4);
    await store.saveTask(alice, task("e", TaskState.SUBMITTED, 6, 10));
  });

  it("in one group commit, the refused save rejects alone and the others land", async () => {
    const unit = taskBytes(task("a", TaskState.WORKING, 1, 1000));
    const { store, expectExact } = open({ maxBytesPerOwner: 2 * unit + 10 });
    const results = await Promise.allSettled([
      store.saveTask(alice, task("a", TaskState.WORKING, 1, 1000)),
      store.saveTask(bob, task("x", TaskState.WORKING, 1, 1000)),
      store.saveTask(alice, task("b", TaskState.WORKING, 2, 1000)),
      store.saveTask(alice, task("c", TaskState.WORKING, 3, 1000)), // the third of alice's: refused
      store.saveTask(alice, task("d", TaskState.COMPLETED, 4, 1000)), // terminal: lands
      store.saveTask(bob, task("y", TaskState.WORKING, 2, 1000)),
    ]);
    expect(results.map((r) => r.status)).toEqual([
      "fulfilled",
      "fulfilled",
      "fulfilled",
      "rejected",
      "fulfilled",
      "fulfilled",
    ]);
    expect((results[3] as PromiseRejectedResult).reason).toBeInstanceOf(TaskStoreFullError);
    expect((await store.listTasks(alice, query())).tasks.map((t) => t.id)).toEqual(["d", "b", "a"]);
    expect((await store.listTasks(bob, query())).tasks.map((t) => t.id)).toEqual(["y", "x"]);
    expectExact("after the batch");
  });

  it("defaults to 1 GiB, takes Infinity, refuses anything else", () => {
    expect(DEFAULT_SQLITE_MAX_BYTES_PER_OWNER).toBe(1024 ** 3);
    expect(() => open({ maxBytesPerOwner: Number.POSITIVE_INFINITY }, "inf.db")).not.toThrow();
    for (const bad of [0, -1, 1.5, Number.NaN])
      expect(() => new SqliteTaskStore(":memory:", { schemas, maxBytesPerOwner: bad })).toThrow(
        RangeError,
      );
  });
});

describe("purge({ maxBytesPerOwner })", () => {
  it("deletes each owner's oldest terminal tasks, with their push configs, until it stores at most that; never a live task", async () => {
    const { store, usage, expectExact } = open({ maxBytesPerOwner: Number.POSITIVE_INFINITY });
    const unit = taskBytes(task("x", TaskState.COMPLETED, 1, 1000));
    // alice: live w1 (oldest), d2..d6 terminal, a config on d2; bob: two terminal tasks, under the bound.
    await store.saveTask(alice, task("w1", TaskState.WORKING, 1, 1000));
    for (let i = 2; i <= 6; i++)
      await store.saveTask(
        alice,
        task(`d${i}`, i === 4 ? TaskState.FAILED : TaskState.COMPLETED, i, 1000),
      );
    await store.savePushConfig(alice, config("d2", "p"));
    await store.saveTask(bob, task("b1", TaskState.COMPLETED, 1, 1000));
    await store.saveTask(bob, task("b2", TaskState.COMPLETED, 2, 1000));
    const bound = 3 * unit + 10;
    expect(await store.purge({ maxBytesPerOwner: bound })).toBe(3);
    expect((await store.listTasks(alice, query())).tasks.map((t) => t.id)).toEqual([
      "d6",
      "d5",
      "w1",
    ]);
    expect(await store.getPushConfig(alice, "d2", "p")).toBeUndefined();
    expect(usage(alice)).toBeLessThanOrEqual(bound);
    expect((await store.listTasks(bob, query())).tasks.map((t) => t.id)).toEqual(["b2", "b1"]);
    expectExact("after purge");
    // Down to 0: only the live task remains (it counts, it stays).
    expect(await store.purge({ maxBytesPerOwner: 0 })).toBe(4);
    expect((await store.listTasks(alice, query())).tasks.map((t) => t.id)).toEqual(["w1"]);
    expect((await store.listTasks(bob, query())).tasks).toEqual([]);
    expect(usage(alice)).toBeGreaterThan(0);
    expect(usage(bob)).toBe(0);
    expectExact("after purge to 0");
    await expect(store.purge({ maxBytesPerOwner: -1 })).rejects.toBeInstanceOf(RangeError);
    await expect(store.purge({ maxBytesPerOwner: Number.NaN })).rejects.toBeInstanceOf(RangeError);
  });

  it("runs on the autoPurge timer", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const unit = taskBytes(task("x", TaskState.COMPLETED, 1, 1000));
    const failures: unknown[] = [];
    const { store } = open({
      autoPurge: {
        intervalMs: 60_000,
        maxBytesPerOwner: 2 * unit + 10,
        onError: (e) => failures.push(e),
      },
    });
    for (let i = 1; i <= 4; i++)
      await store.saveTask(alice, task(`d${i}`, TaskState.COMPLETED, i, 1000));
    vi.advanceTimersByTime(60_000);
    expect((await store.listTasks(alice, query())).tasks.map((t) => t.id)).toEqual(["d4", "d3"]);
    expect(failures).toEqual([]);
    expect(
      () =>
        new SqliteTaskStore(":memory:", {
          schemas,
          autoPurge: { intervalMs: 1000, maxBytesPerOwner: -5 },
        }),
    ).toThrow(RangeError);
  });
});

describe("ListTasks with a byte budget", () => {
  it("pages cover every task exactly once, in order; each page within the budget or a single task; at most one task decoded past it", async () => {
    const { store } = open({ maxBytesPerOwner: Number.POSITIVE_INFINITY });
    const sizes = [
      200, 5000, 300, 300, 300, 20_000, 100, 100, 100, 100, 100, 100, 7000, 50, 4000, 4000, 4000,
      10, 10, 10, 30_000, 500, 500, 500, 500,
    ];
    for (let i = 0; i < sizes.length; i++)
      await store.saveTask(alice, task(`t${i}`, TaskState.COMPLETED, i + 1, sizes[i]));
    await store.saveTask(bob, task("other", TaskState.COMPLETED, 1, 10));
    const unbudgeted = (await store.listTasks(alice, query())).tasks.map((t) => t.id);
    expect(unbudgeted).toHaveLength(sizes.length);
    for (const [maxBytes, pageSize] of [
      [1, 10],
      [6000, 10],
      [6000, 3],
      [12_000, 100],
      [1_000_000, 7],
    ] as const) {
      const seen: string[] = [];
      let pageToken = "";
      let pages = 0;
      do {
        let weighed = 0;
        const sizeOf = (t: Task) => {
          weighed++;
          return taskBytes(t);
        };
        const page = await store.listTasks(
          alice,
          query({ pageSize, pageToken, budget: { maxBytes, sizeOf } }),
        );
        const total = page.tasks.reduce((s, t) => s + taskBytes(t), 0);
        expect(page.tasks.length).toBeGreaterThanOrEqual(1);
        expect(page.tasks.length).toBeLessThanOrEqual(pageSize);
        if (page.tasks.length > 1)
          expect(total, `budget ${maxBytes}, page ${pages}`).toBeLessThanOrEqual(maxBytes);
        expect(weighed).toBeLessThanOrEqual(page.tasks.length + 1);
        expect(page.totalSize).toBe(sizes.length);
        seen.push(...page.tasks.map((t) => t.id));
        pageToken = page.nextPageToken;
        pages++;
      } while (pageToken !== "");
      expect(seen, `budget ${maxBytes}, pageSize ${pageSize}`).toEqual(unbudgeted);
      if (maxBytes === 1) expect(pages).toBe(sizes.length);
    }
    // A page cut by its budget still holds the task that alone passes it.
    const first = await store.listTasks(
      alice,
      query({ budget: { maxBytes: 100, sizeOf: taskBytes } }),
    );
    expect(first.tasks.map((t) => t.id)).toEqual(["t24"]);
    expect(first.nextPageToken).not.toBe("");
    // The page token of a budgeted page is an ordinary one: the next page may be asked without a budget.
    expect(
      (await store.listTasks(alice, query({ pageToken: first.nextPageToken }))).tasks.map(
        (t) => t.id,
      ),
    ).toEqual(unbudgeted.slice(1));
  });
});
