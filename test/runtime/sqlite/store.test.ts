/**
 * SqliteTaskStore beyond the store contract (test/runtime/task/store.test.ts runs that on both
 * stores): persistence across a restart, concurrent writers, files that are not a task
 * store, and the key task-runtime semantics with SQLite underneath.
 */
import { create, toBinary } from "@bufbuild/protobuf";
import Database from "better-sqlite3";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  CancelTaskRequestSchema,
  DeleteTaskPushNotificationConfigRequestSchema,
  GetTaskPushNotificationConfigRequestSchema,
  GetTaskRequestSchema,
  ListTaskPushNotificationConfigsRequestSchema,
  ListTasksRequestSchema,
  TaskPushNotificationConfigSchema,
  TaskSchema,
  TaskState,
} from "../../../generated-example/gen/a2a_pb.js";
import {
  InvalidParamsError,
  TaskNotFoundError,
  UnsupportedOperationError,
} from "../../../generated-example/gen/a2a_a2a_errors.js";
import {
  SQLITE_TASK_STORE_APPLICATION_ID,
  SQLITE_TASK_STORE_SCHEMA_VERSION,
  SqliteTaskStore,
  SqliteTaskStoreError,
} from "@protoc-gen-a2a/runtime/sqlite";
import {
  callOf,
  collect,
  createA2ATaskHandler,
  describeEvent,
  sendRequest,
  taskOf,
  textOf,
  type A2AExecutor,
  type A2ARequestContext,
} from "../../support/task-runtime-binding.js";

const schemas = { Task: TaskSchema, TaskPushNotificationConfig: TaskPushNotificationConfigSchema };
const getTask = (id: string, historyLength?: number) =>
  create(GetTaskRequestSchema, { id, ...(historyLength === undefined ? {} : { historyLength }) });
const listTasks = (init: Parameters<typeof create<typeof ListTasksRequestSchema>>[1] = {}) =>
  create(ListTasksRequestSchema, init);
const listConfigs = (taskId: string, pageSize = 0, pageToken = "") =>
  create(ListTaskPushNotificationConfigsRequestSchema, { taskId, pageSize, pageToken });

/** "ask" → INPUT_REQUIRED; "reply" → a Message; anything else → working, an artifact, COMPLETED. */
class ChatAgent implements A2AExecutor {
  readonly contexts: A2ARequestContext[] = [];
  async execute(
    context: A2ARequestContext,
    emitter: Parameters<A2AExecutor["execute"]>[1],
  ): Promise<void> {
    this.contexts.push(context);
    const text = textOf(context.message);
    if (text === "reply") return emitter.reply("echo");
    if (text === "ask")
      return emitter.requireInput(`what next after ${context.task?.history.length ?? 0}?`);
    await emitter.working();
    await emitter.addArtifact({
      artifactId: "out",
      name: "out",
      parts: [{ content: { case: "text", value: text.toUpperCase() } }],
    });
    await emitter.complete(`did ${text}`);
  }
  async cancel(): Promise<void> {}
}

/** A clock that advances one second per reading. */
function steppingClock(start = Date.UTC(2026, 0, 1)) {
  let t = start;
  return () => new Date((t += 1000));
}

let dir = "";
const opened: SqliteTaskStore[] = [];
function openStore(path: string): SqliteTaskStore {
  const store = new SqliteTaskStore(path, { schemas });
  opened.push(store);
  return store;
}
function setup(store: SqliteTaskStore, options: { now?: () => Date } = {}) {
  const agent = new ChatAgent();
  const errors: unknown[] = [];
  const handler = createA2ATaskHandler<unknown>({
    executor: agent,
    store,
    capabilities: { streaming: true, pushNotifications: true },
    onError: (e) => errors.push(e),
    ...(options.now === undefined ? {} : { now: options.now }),
  });
  const sendTask = async (
    text: string,
    ids: { taskId?: string; contextId?: string } = {},
    ctx = callOf("SendMessage"),
  ) => taskOf(await handler.sendMessage(sendRequest(text, ids), ctx));
  return { agent, handler, errors, sendTask };
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "a2a-sqlite-"));
});
afterEach(() => {
  for (const store of opened.splice(0)) store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("SqliteTaskStore: a file database", () => {
  it("survives a restart: tasks, lists and push configs read back the same, and a task continues", async () => {
    const path = join(dir, "tasks.db");
    const first = openStore(path);
    const before = setup(first, { now: steppingClock() });
    const alice = callOf("SendMessage", { principal: { user: "alice" }, tenant: "acme" });
    const asked = await before.sendTask("ask", { contextId: "ctx" }, alice);
    const done = await before.sendTask("work", { contextId: "ctx" }, alice);
    const other = await before.sendTask("work");
    const config = await before.handler.createTaskPushNotificationConfig(
      create(TaskPushNotificationConfigSchema, {
        taskId: asked.id,
        url: "https://hooks.example.com/a",
        token: "tok",
      }),
      alice,
    );
    await before.handler.createTaskPushNotificationConfig(
      create(TaskPushNotificationConfigSchema, {
        taskId: asked.id,
        id: "second",
        url: "https://hooks.example.com/b",
      }),
      alice,
    );
    const snapshot = {
      asked: await before.handler.getTask(getTask(asked.id), alice),
      done: await before.handler.getTask(getTask(done.id), alice),
      list: await before.handler.listTasks(listTasks({ includeArtifacts: true }), alice),
      configs: await before.handler.listTaskPushNotificationConfigs(listConfigs(asked.id), alice),
      page: await before.handler.listTasks(listTasks({ pageSize: 1 }), alice),
    };
    expect(snapshot.list.tasks.map((t) => t.id)).toEqual([done.id, asked.id]);
    first.close();
    first.close(); // idempotent
    await expect(first.getTask({ tenant: "", owner: "" }, other.id)).rejects.toThrow();

    const second = openStore(path);
    const after = setup(second, { now: steppingClock(Date.UTC(2026, 5, 1)) });
    expect(await after.handler.getTask(getTask(asked.id), alice)).toEqual(snapshot.asked);
    expect(await after.handler.getTask(getTask(done.id), alice)).toEqual(snapshot.done);
    expect(await after.handler.listTasks(listTasks({ includeArtifacts: true }), alice)).toEqual(
      snapshot.list,
    );
    expect(
      await after.handler.listTaskPushNotificationConfigs(listConfigs(asked.id), alice),
    ).toEqual(snapshot.configs);
    expect(snapshot.configs.configs.map((c) => c.id)).toEqual([config.id, "second"]);
    // A page token issued before the restart still reads the next page.
    const rest = await after.handler.listTasks(
      listTasks({ pageSize: 1, pageToken: snapshot.page.nextPageToken }),
      alice,
    );
    expect(rest.tasks.map((t) => t.id)).toEqual([asked.id]);
    // Scoping holds across the restart.
    await expect(
      after.handler.getTask(getTask(asked.id), callOf("GetTask", { tenant: "acme" })),
    ).rejects.toBeInstanceOf(TaskNotFoundError);
    expect((await after.handler.getTask(getTask(other.id), callOf("GetTask"))).id).toBe(other.id);
    // The INPUT_REQUIRED task continues with its stored history.
    const continued = await after.sendTask("finish", { taskId: asked.id }, alice);
    expect(continued.status?.state).toBe(TaskState.COMPLETED);
    expect(continued.history.map(textOf)).toEqual([
      "ask",
      "what next after 0?",
      "finish",
      "did finish",
    ]);
    expect(after.agent.contexts[0]?.isNewTask).toBe(false);
    expect((await after.handler.listTasks(listTasks(), alice)).tasks.map((t) => t.id)).toEqual([
      asked.id,
      done.id,
    ]);
    await expect(after.sendTask("again", { taskId: done.id }, alice)).rejects.toBeInstanceOf(
      UnsupportedOperationError,
    );
    expect(after.errors).toEqual([]);
  });

  it("concurrent writers: 50 tasks through two handlers on one store; a second store on the file is refused (one process per file)", async () => {
    const path = join(dir, "shared.db");
    const store = openStore(path);
    const a = setup(store);
    const b = setup(store);
    expect(() => new SqliteTaskStore(path, { schemas })).toThrow(
      expect.objectContaining({ code: "in-use" }),
    );
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        (i % 2 ? a : b).sendTask(i % 5 === 0 ? "ask" : `work ${i}`, { contextId: `c${i % 3}` }),
      ),
    );
    const ids = new Set(results.map((t) => t.id));
    expect(ids.size).toBe(50);
    // Continue the INPUT_REQUIRED ones concurrently, each through the other handler.
    await Promise.all(
      results.map((t, i) =>
        t.status?.state === TaskState.INPUT_REQUIRED
          ? (i % 2 ? b : a).sendTask("done", { taskId: t.id })
          : undefined,
      ),
    );
    // Read back by the next store on the file.
    store.close();
    const reader = setup(openStore(path));
    const seen: string[] = [];
    let pageToken = "";
    do {
      const page = await reader.handler.listTasks(
        listTasks({ pageSize: 7, pageToken }),
        callOf("ListTasks"),
      );
      expect(page.totalSize).toBe(50);
      seen.push(...page.tasks.map((t) => t.id));
      for (const t of page.tasks) expect(t.status?.state).toBe(TaskState.COMPLETED);
      pageToken = page.nextPageToken;
    } while (pageToken !== "");
    expect(new Set(seen)).toEqual(ids);
    expect(seen).toHaveLength(50);
    expect(
      (await reader.handler.listTasks(listTasks({ contextId: "c0" }), callOf("ListTasks")))
        .totalSize,
    ).toBe(17);
    expect([...a.errors, ...b.errors]).toEqual([]);
  });

  it("deleteTask removes the task and its push configs; a second delete does nothing", async () => {
    const store = openStore(join(dir, "delete.db"));
    const { handler, sendTask } = setup(store);
    const task = await sendTask("ask");
    await handler.createTaskPushNotificationConfig(
      create(TaskPushNotificationConfigSchema, { taskId: task.id, id: "p", url: "https://h" }),
      callOf("X"),
    );
    const scope = { tenant: "", owner: "" };
    expect(await store.getPushConfig(scope, task.id, "p")).toBeDefined();
    await store.deleteTask(scope, task.id);
    await store.deleteTask(scope, task.id);
    expect(await store.getTask(scope, task.id)).toBeUndefined();
    expect(await store.getPushConfig(scope, task.id, "p")).toBeUndefined();
    await expect(handler.getTask(getTask(task.id), callOf("GetTask"))).rejects.toBeInstanceOf(
      TaskNotFoundError,
    );
  });
});

describe("SqliteTaskStore: files that are not a task store", () => {
  it("a corrupt (non-SQLite) file is a clear SqliteTaskStoreError naming the file", () => {
    const path = join(dir, "corrupt.db");
    writeFileSync(path, Buffer.alloc(8192, "this is not sqlite "));
    let error: unknown;
    try {
      new SqliteTaskStore(path, { schemas });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SqliteTaskStoreError);
    expect((error as Error).message).toContain("corrupt.db");
    expect((error as Error).message).toMatch(/not a (usable task store )?database/);
  });

  it("another application's SQLite database is refused and left untouched", () => {
    const path = join(dir, "foreign.db");
    const foreign = new Database(path);
    foreign.exec("CREATE TABLE tasks (whatever TEXT); INSERT INTO tasks VALUES ('keep me')");
    foreign.close();
    expect(() => new SqliteTaskStore(path, { schemas })).toThrow(/another application/);
    const check = new Database(path);
    expect(check.prepare("SELECT whatever FROM tasks").pluck().all()).toEqual(["keep me"]);
    expect(check.pragma("user_version", { simple: true })).toBe(0);
    check.close();
  });

  it("a task store of a newer schema version is refused; the current one is marked and reopens", () => {
    const path = join(dir, "versions.db");
    openStore(path).close();
    const db = new Database(path);
    expect(db.pragma("application_id", { simple: true })).toBe(SQLITE_TASK_STORE_APPLICATION_ID);
    expect(db.pragma("user_version", { simple: true })).toBe(SQLITE_TASK_STORE_SCHEMA_VERSION);
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    db.pragma(`user_version = ${SQLITE_TASK_STORE_SCHEMA_VERSION + 1}`);
    db.close();
    expect(() => new SqliteTaskStore(path, { schemas })).toThrow(SqliteTaskStoreError);
    expect(() => new SqliteTaskStore(path, { schemas })).toThrow(/newer/);
  });

  it("a version 1 file (WITHOUT ROWID tasks) is migrated in place: tasks, order and configs read back, saves continue", async () => {
    const path = join(dir, "v1.db");
    const v1 = new Database(path);
    v1.exec(`
      CREATE TABLE tasks (tenant TEXT NOT NULL, owner TEXT NOT NULL, id TEXT NOT NULL, context_id TEXT NOT NULL, state INTEGER NOT NULL,
        status_seconds INTEGER NOT NULL, status_nanos INTEGER NOT NULL, seq INTEGER NOT NULL, data BLOB NOT NULL, PRIMARY KEY (tenant, owner, id)) WITHOUT ROWID;
      CREATE INDEX tasks_by_time ON tasks (tenant, owner, status_seconds DESC, status_nanos DESC, seq DESC);
      CREATE INDEX tasks_by_context_time ON tasks (tenant, owner, context_id, status_seconds DESC, status_nanos DESC, seq DESC);
      CREATE UNIQUE INDEX tasks_by_seq ON tasks (seq);
      CREATE TABLE push_configs (seq INTEGER PRIMARY KEY AUTOINCREMENT, tenant TEXT NOT NULL, owner TEXT NOT NULL, task_id TEXT NOT NULL, id TEXT NOT NULL,
        data BLOB NOT NULL, UNIQUE (tenant, owner, task_id, id));
      CREATE INDEX push_configs_by_task ON push_configs (tenant, owner, task_id, seq);
    `);
    const insert = v1.prepare("INSERT INTO tasks VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
    const old = (id: string, seconds: number, _seq: number) =>
      create(TaskSchema, {
        id,
        contextId: "ctx",
        status: { state: TaskState.COMPLETED, timestamp: { seconds: BigInt(seconds), nanos: 0 } },
      });
    for (const [id, seconds, seq] of [
      ["a", 10, 1],
      ["b", 10, 2],
      ["c", 5, 3],
    ] as const) {
      insert.run(
        "",
        "",
        id,
        "ctx",
        TaskState.COMPLETED,
        seconds,
        0,
        seq,
        toBinary(TaskSchema, old(id, seconds, seq)),
      );
    }
    const config = create(TaskPushNotificationConfigSchema, {
      taskId: "a",
      id: "k",
      url: "https://hooks.example.com/k",
    });
    v1.prepare(
      "INSERT INTO push_configs (tenant, owner, task_id, id, data) VALUES ('', '', 'a', 'k', ?)",
    ).run(toBinary(TaskPushNotificationConfigSchema, config));
    v1.pragma(`application_id = ${SQLITE_TASK_STORE_APPLICATION_ID}`);
    v1.pragma("user_version = 1");
    v1.close();

    const store = openStore(path);
    const scope = { tenant: "", owner: "" };
    expect(await store.getTask(scope, "a")).toEqual(old("a", 10, 1));
    const page = await store.listTasks(scope, {
      contextId: "",
      state: undefined,
      statusTimestampAfter: undefined,
      pageSize: 10,
      pageToken: "",
    });
    expect(page.tasks.map((t) => t.id)).toEqual(["b", "a", "c"]);
    expect((await store.getPushConfig(scope, "a", "k"))?.url).toBe("https://hooks.example.com/k");
    await store.saveTask(scope, old("c", 10, 0));
    const after = await store.listTasks(scope, {
      contextId: "ctx",
      state: undefined,
      statusTimestampAfter: undefined,
      pageSize: 10,
      pageToken: "",
    });
    expect(after.tasks.map((t) => t.id)).toEqual(["c", "b", "a"]);
    store.close();
    const check = new Database(path);
    expect(check.pragma("user_version", { simple: true })).toBe(SQLITE_TASK_STORE_SCHEMA_VERSION);
    expect(
      String(check.prepare("SELECT sql FROM sqlite_schema WHERE name = 'tasks'").pluck().get()),
    ).not.toMatch(/WITHOUT ROWID/i);
    check.close();
  });

  it("group commit: saves issued together are committed in one transaction before any of them resolves; reads see them in issue order", async () => {
    const path = join(dir, "group.db");
    const store = openStore(path);
    const other = new Database(path);
    const count = () => other.prepare("SELECT COUNT(*) FROM tasks").pluck().get();
    const scope = { tenant: "t", owner: "o" };
    const resolved: string[] = [];
    const saves = ["x", "y", "z"].map((id) =>
      store
        .saveTask(scope, create(TaskSchema, { id, contextId: "c" }))
        .then(() => resolved.push(id)),
    );
    // Nothing is committed (nor resolved) within the tick that issued the saves.
    expect(count()).toBe(0);
    await Promise.resolve();
    expect(resolved).toEqual([]);
    await Promise.all(saves);
    expect(resolved).toEqual(["x", "y", "z"]);
    expect(count()).toBe(3); // visible to another connection once resolved
    // A read of a task with a pending save commits it first (read-your-writes, as before).
    const pending = store.saveTask(
      scope,
      create(TaskSchema, { id: "x", contextId: "c", status: { state: TaskState.WORKING } }),
    );
    expect((await store.getTask(scope, "x"))?.status?.state).toBe(TaskState.WORKING);
    expect(other.prepare("SELECT state FROM tasks WHERE id = 'x'").pluck().get()).toBe(
      TaskState.WORKING,
    );
    await pending;
    // Two saves of one task before the commit: the last one wins and is the most recent save.
    const first = store.saveTask(
      scope,
      create(TaskSchema, { id: "y", contextId: "c", status: { state: TaskState.WORKING } }),
    );
    const between = store.saveTask(scope, create(TaskSchema, { id: "z", contextId: "c" }));
    const last = store.saveTask(
      scope,
      create(TaskSchema, { id: "y", contextId: "c", status: { state: TaskState.COMPLETED } }),
    );
    await Promise.all([first, between, last]);
    expect((await store.getTask(scope, "y"))?.status?.state).toBe(TaskState.COMPLETED);
    const page = await store.listTasks(scope, {
      contextId: "",
      state: undefined,
      statusTimestampAfter: undefined,
      pageSize: 10,
      pageToken: "",
    });
    expect(page.tasks.map((t) => t.id)).toEqual(["y", "z", "x"]);
    // close() commits what is pending.
    const closing = store.saveTask(scope, create(TaskSchema, { id: "w", contextId: "c" }));
    store.close();
    await closing;
    expect(count()).toBe(4);
    other.close();
  });

  it("an open connection handed in is used and left open by close()", async () => {
    const db = new Database(":memory:");
    const store = new SqliteTaskStore(db, { schemas });
    await store.saveTask(
      { tenant: "", owner: "" },
      create(TaskSchema, { id: "x", contextId: "c" }),
    );
    store.close();
    expect(db.open).toBe(true);
    expect(db.prepare("SELECT COUNT(*) FROM tasks").pluck().get()).toBe(1);
    db.close();
  });
});

describe("task runtime semantics on SQLite (a smoke of test/runtime/task/runtime.test.ts)", () => {
  const memory = () => setup(openStore(":memory:"), { now: steppingClock() });

  it("a message to an INPUT_REQUIRED task continues it; a stateless reply stores nothing; unknown tasks are TaskNotFound", async () => {
    const { handler, sendTask, agent } = memory();
    const first = await sendTask("ask");
    const second = await sendTask("ask", { taskId: first.id });
    expect(agent.contexts[1]?.task?.history.map(textOf)).toEqual([
      "ask",
      "what next after 0?",
      "ask",
    ]);
    const third = await sendTask("work", { taskId: first.id });
    expect(third.history.map(textOf)).toEqual([
      "ask",
      "what next after 0?",
      "ask",
      "what next after 3?",
      "work",
      "did work",
    ]);
    expect(second.id).toBe(first.id);
    expect(third.artifacts.map((a) => a.artifactId)).toEqual(["out"]);
    const reply = await handler.sendMessage(sendRequest("reply"), callOf("SendMessage"));
    expect(reply.payload.case).toBe("message");
    expect((await handler.listTasks(listTasks(), callOf("ListTasks"))).totalSize).toBe(1);
    await expect(
      handler.sendMessage(sendRequest("hi", { taskId: "no-such-task" }), callOf("SendMessage")),
    ).rejects.toBeInstanceOf(TaskNotFoundError);
    await expect(handler.getTask(getTask("nope"), callOf("GetTask"))).rejects.toBeInstanceOf(
      TaskNotFoundError,
    );
  });

  it("ListTasks: newest first, filters, cursor pages with totalSize, bad tokens are InvalidParams, historyLength", async () => {
    const { handler, sendTask } = memory();
    const call = callOf("ListTasks");
    const a = await sendTask("ask", { contextId: "c1" });
    const b = await sendTask("work", { contextId: "c1" });
    const c = await sendTask("ask", { contextId: "c2" });
    const list = async (init: Parameters<typeof listTasks>[0] = {}) =>
      handler.listTasks(listTasks(init), call);
    expect((await list()).tasks.map((t) => t.id)).toEqual([c.id, b.id, a.id]);
    await sendTask("work", { taskId: a.id });
    expect((await list()).tasks.map((t) => t.id)).toEqual([a.id, c.id, b.id]);
    expect((await list({ contextId: "c1" })).tasks.map((t) => t.id)).toEqual([a.id, b.id]);
    expect((await list({ status: TaskState.INPUT_REQUIRED })).tasks.map((t) => t.id)).toEqual([
      c.id,
    ]);
    const cTime = (await handler.getTask(getTask(c.id), call)).status!.timestamp!;
    expect((await list({ statusTimestampAfter: cTime })).tasks.map((t) => t.id)).toEqual([
      a.id,
      c.id,
    ]);
    const first = await list({ pageSize: 2 });
    expect(first.totalSize).toBe(3);
    const second = await list({ pageSize: 2, pageToken: first.nextPageToken });
    expect([...first.tasks, ...second.tasks].map((t) => t.id)).toEqual([a.id, c.id, b.id]);
    expect(second.nextPageToken).toBe("");
    for (const pageToken of ["garbage!", "eyJ2IjoxfQ", "abc"])
      await expect(list({ pageToken })).rejects.toBeInstanceOf(InvalidParamsError);
    await expect(list({ pageToken: first.nextPageToken, contextId: "c1" })).rejects.toBeInstanceOf(
      InvalidParamsError,
    );
    expect((await handler.getTask(getTask(a.id, 1), call)).history.map(textOf)).toEqual([
      "did work",
    ]);
    expect((await handler.getTask(getTask(a.id), call)).history).toHaveLength(4);
  });

  it("scoping: another principal or tenant does not see the task", async () => {
    const { handler, sendTask } = memory();
    const alice = callOf("SendMessage", { principal: { user: "alice" } });
    const task = await sendTask("ask", {}, alice);
    for (const other of [
      callOf("GetTask", { principal: { user: "bob" } }),
      callOf("GetTask"),
      callOf("GetTask", { principal: { user: "alice" }, tenant: "t2" }),
    ]) {
      await expect(handler.getTask(getTask(task.id), other)).rejects.toBeInstanceOf(
        TaskNotFoundError,
      );
      expect((await handler.listTasks(listTasks(), other)).tasks).toEqual([]);
    }
    expect((await handler.getTask(getTask(task.id), alice)).id).toBe(task.id);
  });

  it("push configs: create, get, list in pages, delete idempotently", async () => {
    const { handler, sendTask } = memory();
    const call = callOf("X");
    const task = await sendTask("ask");
    const created = await handler.createTaskPushNotificationConfig(
      create(TaskPushNotificationConfigSchema, {
        taskId: task.id,
        url: "https://hooks.example.com/a2a",
        token: "tok",
      }),
      call,
    );
    expect(created.id).not.toBe("");
    await handler.createTaskPushNotificationConfig(
      create(TaskPushNotificationConfigSchema, { taskId: task.id, id: "mine", url: "https://h/2" }),
      call,
    );
    expect(
      await handler.getTaskPushNotificationConfig(
        create(GetTaskPushNotificationConfigRequestSchema, { taskId: task.id, id: created.id }),
        call,
      ),
    ).toEqual(created);
    const page1 = await handler.listTaskPushNotificationConfigs(listConfigs(task.id, 1), call);
    const page2 = await handler.listTaskPushNotificationConfigs(
      listConfigs(task.id, 1, page1.nextPageToken),
      call,
    );
    expect([...page1.configs, ...page2.configs].map((c) => c.id)).toEqual([created.id, "mine"]);
    expect(page2.nextPageToken).toBe("");
    await expect(
      handler.listTaskPushNotificationConfigs(listConfigs(task.id, 1, "garbage!"), call),
    ).rejects.toBeInstanceOf(InvalidParamsError);
    const del = create(DeleteTaskPushNotificationConfigRequestSchema, {
      taskId: task.id,
      id: "mine",
    });
    await handler.deleteTaskPushNotificationConfig(del, call);
    await handler.deleteTaskPushNotificationConfig(del, call);
    await expect(
      handler.getTaskPushNotificationConfig(
        create(GetTaskPushNotificationConfigRequestSchema, { taskId: task.id, id: "mine" }),
        call,
      ),
    ).rejects.toBeInstanceOf(TaskNotFoundError);
    await expect(
      handler.createTaskPushNotificationConfig(
        create(TaskPushNotificationConfigSchema, { taskId: "nope", url: "https://h" }),
        call,
      ),
    ).rejects.toBeInstanceOf(TaskNotFoundError);
  });

  it("streams and cancel: the Task first then updates; an interrupted task cancels and stays canceled", async () => {
    const { handler, sendTask } = memory();
    const events = await collect(
      handler.sendStreamingMessage(sendRequest("work"), callOf("SendStreamingMessage")),
    );
    expect(events.map(describeEvent)).toEqual([
      "task:SUBMITTED",
      "status:WORKING:",
      "artifact:out",
      "status:COMPLETED:did work",
    ]);
    const task = await sendTask("ask");
    const canceled = await handler.cancelTask(
      create(CancelTaskRequestSchema, { id: task.id }),
      callOf("CancelTask"),
    );
    expect(canceled.status?.state).toBe(TaskState.CANCELED);
    expect((await handler.getTask(getTask(task.id), callOf("GetTask"))).status?.state).toBe(
      TaskState.CANCELED,
    );
    await expect(sendTask("more", { taskId: task.id })).rejects.toBeInstanceOf(
      UnsupportedOperationError,
    );
  });
});
