// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * SqliteTaskStore and what older versions or damage left in its file (issue #25): the migration to
 * schema version 3 repairs tasks and push configs holding a NaN or ±Infinity in a Value (which no
 * JSON binding could answer, for every caller, across restarts) and reports them once; a row that
 * does not decode never breaks a list (skipped, reported once), and a task that cannot be answered
 * is never stored. Real files in a temp directory; the version 2 file is built from the store's own
 * MIGRATIONS[0..1].
 */
import { create, fromBinary, toBinary, toJson } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  MessageSchema,
  Role,
  TaskPushNotificationConfigSchema,
  TaskSchema,
  TaskState,
  type Task,
} from "../../../generated-example/gen/a2a_pb.js";
import {
  SQLITE_TASK_STORE_APPLICATION_ID,
  SQLITE_TASK_STORE_SCHEMA_VERSION,
  SqliteTaskStore,
  type SqliteRepairReport,
} from "@protoc-gen-a2a/runtime/sqlite";
import { taskBytes, type TaskQuery, type TaskScope } from "@protoc-gen-a2a/runtime/task";
import { MIGRATIONS } from "../../../runtime/src/sqlite/migrations.js";
import {
  callOf,
  createA2ATaskHandler,
  type A2AExecutor,
} from "../../support/task-runtime-binding.js";
import {
  ListTasksRequestSchema,
  GetTaskRequestSchema,
} from "../../../generated-example/gen/a2a_pb.js";
import { TaskNotFoundError } from "../../../generated-example/gen/a2a_a2a_errors.js";

const schemas = { Task: TaskSchema, TaskPushNotificationConfig: TaskPushNotificationConfigSchema };
const scope: TaskScope = { tenant: "acme", owner: "alice" };
const query = (q: Partial<TaskQuery> = {}): TaskQuery => ({
  contextId: "",
  state: undefined,
  statusTimestampAfter: undefined,
  pageSize: 100,
  pageToken: "",
  ...q,
});
const numberValue = (value: number) => ({ kind: { case: "numberValue" as const, value } });

/** A task as an older version stored it: NaN in message metadata, ±Infinity in Part.data (a Value, a Struct and a list inside it) and in task metadata. */
function poisoned(id: string, seconds: number): Task {
  return create(TaskSchema, {
    id,
    contextId: `ctx-${id}`,
    status: { state: TaskState.COMPLETED, timestamp: timestampFromMs(seconds * 1000) },
    metadata: { fine: 1, bad: Number.NEGATIVE_INFINITY },
    history: [
      create(MessageSchema, {
        messageId: `${id}-m1`,
        role: Role.USER,
        metadata: { n: Number.NaN },
        parts: [{ content: { case: "text", value: "hello" } }],
      }),
      create(MessageSchema, {
        messageId: `${id}-m2`,
        role: Role.AGENT,
        parts: [
          { content: { case: "data", value: numberValue(Number.POSITIVE_INFINITY) } },
          {
            content: {
              case: "data",
              value: {
                kind: {
                  case: "structValue",
                  value: {
                    fields: {
                      x: numberValue(Number.NaN),
                      list: {
                        kind: {
                          case: "listValue",
                          value: {
                            values: [numberValue(2), numberValue(Number.NEGATIVE_INFINITY)],
                          },
                        },
                      },
                    },
                  },
                },
              },
            },
          },
        ],
      }),
    ],
  });
}

function clean(id: string, seconds: number, state = TaskState.COMPLETED): Task {
  return create(TaskSchema, {
    id,
    contextId: `ctx-${id}`,
    status: { state, timestamp: timestampFromMs(seconds * 1000) },
    metadata: { n: 1.5 },
    history: [
      create(MessageSchema, {
        messageId: `${id}-m`,
        role: Role.USER,
        parts: [{ content: { case: "data", value: numberValue(42) } }],
      }),
    ],
  });
}

let dir = "";
const opened: SqliteTaskStore[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "a2a-sqlite-repair-"));
});
afterEach(() => {
  for (const store of opened.splice(0)) store.close();
  rmSync(dir, { recursive: true, force: true });
});

function open(
  path: string,
  reports: SqliteRepairReport[],
  options: Partial<ConstructorParameters<typeof SqliteTaskStore>[1]> = {},
): SqliteTaskStore {
  const store = new SqliteTaskStore(path, {
    schemas,
    onRepair: (r) => reports.push(r),
    ...options,
  });
  opened.push(store);
  return store;
}

/** A version 2 task store file (MIGRATIONS[0..1], as the previous release left it) holding these rows. */
function version2File(
  name: string,
  tasks: readonly { scope: TaskScope; task: Task; state?: number; data?: Uint8Array }[],
  configs: readonly { scope: TaskScope; data: Uint8Array; taskId: string; id: string }[] = [],
): string {
  const path = join(dir, name);
  const db = new Database(path);
  db.transaction(() => {
    for (const step of MIGRATIONS.slice(0, 2)) {
      if (typeof step !== "string") throw new Error("the first two migrations are SQL");
      db.exec(step);
    }
    const insert = db.prepare(
      "INSERT INTO tasks (tenant, owner, id, context_id, state, status_seconds, status_nanos, seq, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    );
    tasks.forEach((row, i) => {
      const t = row.task;
      insert.run(
        row.scope.tenant,
        row.scope.owner,
        t.id,
        t.contextId,
        row.state ?? t.status?.state ?? 0,
        t.status?.timestamp?.seconds ?? 0n,
        0,
        i + 1,
        row.data ?? toBinary(TaskSchema, t),
      );
    });
    const insertConfig = db.prepare(
      "INSERT INTO push_configs (tenant, owner, task_id, id, data) VALUES (?, ?, ?, ?, ?)",
    );
    for (const c of configs)
      insertConfig.run(c.scope.tenant, c.scope.owner, c.taskId, c.id, c.data);
    db.pragma(`application_id = ${SQLITE_TASK_STORE_APPLICATION_ID}`);
    db.pragma("user_version = 2");
  })();
  db.close();
  return path;
}

/** scope_usage next to SUM(bytes) over the rows, and each row's bytes next to its weight. */
function usageOf(path: string) {
  const db = new Database(path, { readonly: true });
  try {
    const usage = db
      .prepare("SELECT tenant, owner, bytes FROM scope_usage ORDER BY tenant, owner")
      .all();
    const sums = db
      .prepare(
        "SELECT tenant, owner, SUM(bytes) AS bytes FROM (SELECT tenant, owner, bytes FROM tasks UNION ALL SELECT tenant, owner, bytes FROM push_configs) GROUP BY tenant, owner HAVING SUM(bytes) <> 0 ORDER BY tenant, owner",
      )
      .all();
    const weights = (
      db.prepare("SELECT id, data, bytes FROM tasks").all() as {
        id: string;
        data: Uint8Array;
        bytes: number;
      }[]
    ).map((r) => {
      let weight: number;
      try {
        weight = taskBytes(fromBinary(TaskSchema, r.data));
      } catch {
        weight = r.data.byteLength; // undecodable: weighed by its stored size
      }
      return { id: r.id, bytes: r.bytes, weight };
    });
    return { usage, sums, weights, version: db.pragma("user_version", { simple: true }) };
  } finally {
    db.close();
  }
}

describe("migration from schema version 2", () => {
  it("repairs tasks holding NaN / ±Infinity in a Value: answerable as JSON, the ProtoJSON strings in place, reported once by id", async () => {
    const other: TaskScope = { tenant: "", owner: "bob" };
    const bad = poisoned("poisoned", 20);
    // The defect: binary protobuf stored it; no JSON binding can answer it.
    expect(() => toJson(TaskSchema, fromBinary(TaskSchema, toBinary(TaskSchema, bad)))).toThrow();
    const configData = toBinary(
      TaskPushNotificationConfigSchema,
      create(TaskPushNotificationConfigSchema, {
        taskId: "poisoned",
        id: "hook",
        url: "https://hooks.example.com/a",
      }),
    );
    const path = version2File(
      "v2-poisoned.db",
      [
        { scope, task: clean("clean", 10) },
        { scope, task: bad },
        { scope: other, task: poisoned("bobs", 30) },
      ],
      [{ scope, taskId: "poisoned", id: "hook", data: configData }],
    );
    const reports: SqliteRepairReport[] = [];
    const store = open(path, reports);

    expect(reports).toHaveLength(1);
    const report = reports[0] as SqliteRepairReport;
    expect(report.kind).toBe("repaired");
    expect(report.tasks).toEqual([
      { tenant: "acme", owner: "alice", taskId: "poisoned" },
      { tenant: "", owner: "bob", taskId: "bobs" },
    ]);
    expect(report.pushConfigs).toEqual([]);
    expect(report.message).toContain('"poisoned"');
    expect(report.message).toContain('"bobs"');
    expect(report.message).toMatch(/repaired 2 stored tasks/);

    const repaired = await store.getTask(scope, "poisoned");
    const json = toJson(TaskSchema, repaired as Task) as {
      metadata: unknown;
      history: { metadata?: unknown; parts: { data?: unknown }[] }[];
    };
    expect(json.metadata).toEqual({ fine: 1, bad: "-Infinity" });
    expect(json.history[0]?.metadata).toEqual({ n: "NaN" });
    expect(json.history[1]?.parts.map((p) => p.data)).toEqual([
      "Infinity",
      { x: "NaN", list: [2, "-Infinity"] },
    ]);
    // The rest of the task is as stored.
    expect(repaired?.history.map((m) => m.messageId)).toEqual(["poisoned-m1", "poisoned-m2"]);
    expect(repaired?.history[0]?.parts[0]?.content).toEqual({ case: "text", value: "hello" });
    expect(repaired?.status?.state).toBe(TaskState.COMPLETED);
    // Lists answer every task (the order and totals of before), each encodable.
    const page = await store.listTasks(scope, query());
    expect(page.tasks.map((t) => t.id)).toEqual(["poisoned", "clean"]);
    expect(page.totalSize).toBe(2);
    for (const t of page.tasks) expect(() => toJson(TaskSchema, t as Task)).not.toThrow();
    expect(toJson(TaskSchema, (await store.getTask(scope, "clean")) as Task)).toEqual(
      toJson(TaskSchema, clean("clean", 10)),
    );
    const bobs = (await store.getTask(other, "bobs")) as Task;
    expect(() => toJson(TaskSchema, bobs)).not.toThrow();
    expect((await store.getPushConfig(scope, "poisoned", "hook"))?.url).toBe(
      "https://hooks.example.com/a",
    );

    // Through the task runtime, on the JSON side: GetTask and ListTasks answer.
    const executor: A2AExecutor = { execute: async () => {}, cancel: async () => {} };
    const handler = createA2ATaskHandler<{ user: string }>({
      executor,
      store,
      ownerOf: () => "alice",
    });
    const call = callOf("GetTask", { principal: { user: "alice" }, tenant: "acme" });
    expect(
      (await handler.getTask(create(GetTaskRequestSchema, { id: "poisoned" }), call)).metadata,
    ).toEqual({ fine: 1, bad: "-Infinity" });
    expect(
      (await handler.listTasks(create(ListTasksRequestSchema, {}), call)).tasks.map((t) => t.id),
    ).toEqual(["poisoned", "clean"]);
    await expect(
      handler.getTask(create(GetTaskRequestSchema, { id: "bobs" }), call),
    ).rejects.toBeInstanceOf(TaskNotFoundError);

    // Weighed and summed per owner; the repair was the migration's: reopening reports nothing.
    store.close();
    const after = usageOf(path);
    expect(after.version).toBe(SQLITE_TASK_STORE_SCHEMA_VERSION);
    expect(after.usage).toEqual(after.sums);
    for (const row of after.weights) expect(row.bytes, row.id).toBe(row.weight);
    expect(after.usage.map((u) => (u as { owner: string }).owner)).toEqual(["bob", "alice"]);
    open(path, reports);
    expect(reports).toHaveLength(1);
  });

  it("without anything to repair: no report, bytes backfilled, order, configs and saves continue", async () => {
    const configData = toBinary(
      TaskPushNotificationConfigSchema,
      create(TaskPushNotificationConfigSchema, {
        taskId: "a",
        id: "k",
        url: "https://hooks.example.com/k",
        token: "t",
      }),
    );
    const path = version2File(
      "v2-clean.db",
      [
        { scope, task: clean("a", 10) },
        { scope, task: clean("b", 10) },
        { scope, task: clean("c", 5, TaskState.WORKING) },
      ],
      [{ scope, taskId: "a", id: "k", data: configData }],
    );
    const reports: SqliteRepairReport[] = [];
    const store = open(path, reports);
    expect(reports).toEqual([]);
    expect((await store.listTasks(scope, query())).tasks.map((t) => t.id)).toEqual(["b", "a", "c"]);
    expect(await store.getTask(scope, "a")).toEqual(clean("a", 10));
    expect(
      ((await store.getPushConfig(scope, "a", "k")) as { token?: string } | undefined)?.token,
    ).toBe("t");
    await store.saveTask(scope, clean("d", 20));
    await store.savePushConfig(
      scope,
      create(TaskPushNotificationConfigSchema, {
        taskId: "d",
        id: "k2",
        url: "https://hooks.example.com/d",
      }),
    );
    expect((await store.listTasks(scope, query())).tasks.map((t) => t.id)).toEqual([
      "d",
      "b",
      "a",
      "c",
    ]);
    store.close();
    const after = usageOf(path);
    expect(after.usage).toEqual(after.sums);
    expect(after.weights.map((w) => w.bytes)).toEqual(after.weights.map((w) => w.weight));
    const db = new Database(path, { readonly: true });
    const configBytes = db.prepare("SELECT SUM(bytes) FROM push_configs").pluck().get() as number;
    db.close();
    expect(configBytes).toBeGreaterThan(0);
    expect((after.usage[0] as { bytes: number }).bytes).toBe(
      after.weights.reduce((s, w) => s + w.bytes, 0) + configBytes,
    );
  });

  it("a row that does not decode is kept, weighed by its size and reported as undecodable; the others migrate", async () => {
    const path = version2File("v2-damaged.db", [
      { scope, task: clean("good", 10) },
      { scope, task: clean("broken", 11), data: Uint8Array.of(0x0a, 0xff, 0x01) },
      { scope, task: poisoned("bad", 12) },
    ]);
    const reports: SqliteRepairReport[] = [];
    const store = open(path, reports);
    expect(reports.map((r) => [r.kind, r.tasks.map((t) => t.taskId)])).toEqual([
      ["repaired", ["bad"]],
      ["undecodable", ["broken"]],
    ]);
    expect((await store.listTasks(scope, query())).tasks.map((t) => t.id)).toEqual(["bad", "good"]);
    // Reported once per row and store: the list above met it again without a second report.
    expect(reports).toHaveLength(2);
    store.close();
    const after = usageOf(path);
    expect(after.usage).toEqual(after.sums);
    expect(after.weights.find((w) => w.id === "broken")?.bytes).toBe(3);
  });
});

describe("rows that do not decode (a damaged file)", () => {
  /** A current file with `n` good tasks (seconds 1..n) and one damaged row at `brokenAt` seconds, written by another connection. */
  async function damaged(n: number, brokenAt: number, state = TaskState.COMPLETED) {
    const path = join(dir, "damaged.db");
    const reports: SqliteRepairReport[] = [];
    const store = open(path, reports);
    for (let i = 1; i <= n; i++) await store.saveTask(scope, clean(`t${i}`, i));
    const db = new Database(path);
    db.prepare(
      "INSERT INTO tasks (tenant, owner, id, context_id, state, status_seconds, status_nanos, seq, data, bytes) VALUES (?, ?, 'broken', 'ctx-broken', ?, ?, 0, (SELECT MAX(seq) + 1 FROM tasks), ?, 3)",
    ).run(scope.tenant, scope.owner, state, brokenAt, Uint8Array.of(0x0a, 0xff, 0x01));
    db.close();
    return { path, store, reports };
  }

  it("ListTasks skips it and reports it once; pages still cover every other task exactly once; GetTask of it alone fails", async () => {
    const { store, reports } = await damaged(7, 4);
    // Before #25 a damaged row failed the whole list (fromBinary threw): every caller of that owner got an error.
    const all = await store.listTasks(scope, query());
    expect(all.tasks.map((t) => t.id)).toEqual(["t7", "t6", "t5", "t4", "t3", "t2", "t1"]);
    expect(all.totalSize).toBe(8); // totalSize counts rows, as before
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({
      kind: "undecodable",
      tasks: [{ tenant: "acme", owner: "alice", taskId: "broken" }],
      pushConfigs: [],
    });
    expect(reports[0]?.message).toContain('"broken"');
    for (const pageSize of [1, 2, 3, 4]) {
      const seen: string[] = [];
      let pageToken = "";
      do {
        const page = await store.listTasks(scope, query({ pageSize, pageToken }));
        expect(page.tasks.length).toBeLessThanOrEqual(pageSize);
        seen.push(...page.tasks.map((t) => t.id));
        pageToken = page.nextPageToken;
      } while (pageToken !== "");
      expect(seen, `pageSize ${pageSize}`).toEqual(["t7", "t6", "t5", "t4", "t3", "t2", "t1"]);
    }
    await expect(store.getTask(scope, "broken")).rejects.toThrow(/"broken" does not decode/);
    expect((await store.getTask(scope, "t4"))?.id).toBe("t4");
    expect(reports).toHaveLength(1);
    // Through the task runtime: ListTasks answers the others.
    const executor: A2AExecutor = { execute: async () => {}, cancel: async () => {} };
    const handler = createA2ATaskHandler<{ user: string }>({
      executor,
      store,
      ownerOf: () => "alice",
    });
    const listed = await handler.listTasks(
      create(ListTasksRequestSchema, { pageSize: 3 }),
      callOf("ListTasks", { principal: { user: "alice" }, tenant: "acme" }),
    );
    expect(listed.tasks.map((t) => t.id)).toEqual(["t7", "t6", "t5"]);
    // deleteTask removes it.
    await store.deleteTask(scope, "broken");
    expect((await store.listTasks(scope, query())).totalSize).toBe(7);
  });

  it("a damaged row last in the LIMIT, and a damaged WORKING row left alone by failInterruptedTasks", async () => {
    const { store, reports } = await damaged(3, 2, TaskState.WORKING);
    // pageSize 2 reads 3 rows: t3, broken, t2 — one skipped, so more may follow.
    const first = await store.listTasks(scope, query({ pageSize: 2 }));
    expect(first.tasks.map((t) => t.id)).toEqual(["t3", "t2"]);
    const second = await store.listTasks(
      scope,
      query({ pageSize: 2, pageToken: first.nextPageToken }),
    );
    expect(second.tasks.map((t) => t.id)).toEqual(["t1"]);
    expect(second.nextPageToken).toBe("");
    await store.saveTask(scope, clean("w", 9, TaskState.WORKING));
    expect(await store.failInterruptedTasks("restarted")).toBe(1);
    expect((await store.getTask(scope, "w"))?.status?.state).toBe(TaskState.FAILED);
    expect(reports.map((r) => r.tasks.map((t) => t.taskId))).toEqual([["broken"]]);
  });

  it("ListTaskPushNotificationConfigs skips a damaged config and reports it; GetTaskPushNotificationConfig of it fails", async () => {
    const path = join(dir, "configs.db");
    const reports: SqliteRepairReport[] = [];
    const store = open(path, reports);
    await store.saveTask(scope, clean("t", 1));
    for (const id of ["a", "b", "c"])
      await store.savePushConfig(
        scope,
        create(TaskPushNotificationConfigSchema, {
          taskId: "t",
          id,
          url: `https://hooks.example.com/${id}`,
        }),
      );
    const db = new Database(path);
    db.prepare("UPDATE push_configs SET data = ? WHERE id = 'b'").run(Uint8Array.of(0x12, 0xff));
    db.close();
    expect(
      (await store.listPushConfigs(scope, "t", { pageSize: 0, pageToken: "" })).configs.map(
        (c) => c.id,
      ),
    ).toEqual(["a", "c"]);
    const first = await store.listPushConfigs(scope, "t", { pageSize: 2, pageToken: "" });
    const second = await store.listPushConfigs(scope, "t", {
      pageSize: 2,
      pageToken: first.nextPageToken,
    });
    expect([...first.configs, ...second.configs].map((c) => c.id)).toEqual(["a", "c"]);
    await expect(store.getPushConfig(scope, "t", "b")).rejects.toThrow(/does not decode/);
    expect(reports).toEqual([
      expect.objectContaining({
        kind: "undecodable",
        tasks: [],
        pushConfigs: [{ tenant: "acme", owner: "alice", taskId: "t", configId: "b" }],
      }),
    ]);
  });
});

describe("nothing unservable is stored", () => {
  it("a save of a task holding NaN in a Value rejects alone (naming the field); the rest of its group commit lands", async () => {
    const store = open(join(dir, "refuse.db"), []);
    const results = await Promise.allSettled([
      store.saveTask(scope, clean("ok1", 1)),
      store.saveTask(scope, poisoned("nan", 2)),
      store.saveTask(scope, clean("ok2", 3)),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    const error = (results[1] as PromiseRejectedResult).reason as Error;
    expect(error).toBeInstanceOf(RangeError);
    expect(error.message).toMatch(
      /^task "nan" holds a NaN or Infinity at history\[0\]\.metadata\.n, which JSON cannot express: not stored$/,
    );
    expect(await store.getTask(scope, "nan")).toBeUndefined();
    expect((await store.listTasks(scope, query())).tasks.map((t) => t.id)).toEqual(["ok2", "ok1"]);
    // An update that would bring one in leaves the stored task as it was.
    const update = clean("ok1", 5);
    update.metadata = { n: Number.NaN };
    await expect(store.saveTask(scope, update)).rejects.toBeInstanceOf(RangeError);
    expect((await store.getTask(scope, "ok1"))?.metadata).toEqual({ n: 1.5 });
  });
});
