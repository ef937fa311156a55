// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The SQLite file becoming unwritable while the agent runs (issue #17): the example agent's executor
 * and task handler on a SqliteTaskStore served on JSON-RPC, HTTP+JSON and gRPC; the database is made
 * full mid-run (`PRAGMA max_page_count` at its current size, the free space filled: SQLITE_FULL, which
 * works as root too, where file permissions do not stop writes). Then every write (SendMessage creating
 * a task, CreateTaskPushNotificationConfig) is either acknowledged and stored, or refused with an
 * InternalError on its binding's wire (JSON-RPC -32603, HTTP 500 INTERNAL, gRPC INTERNAL) that leaks
 * nothing of SQLite; reads (GetTask, ListTasks, GetTaskPushNotificationConfig) keep being served; and
 * once the file is reopened without the limit, everything acknowledged is there, nothing refused is.
 * And a database another process keeps write-locked: writes wait for it on timers, without blocking
 * the agent (reads are answered meanwhile, WAL), and go through when it is released in time, or fail
 * the same way after busyTimeoutMs.
 */
import { create } from "@bufbuild/protobuf";
import Database from "better-sqlite3";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createExampleExecutor } from "../../../generated-example/agent/echo-agent.js";
import { InternalError } from "../../../generated-example/gen/a2a_a2a_errors.js";
import { A2AServiceGrpcClient } from "../../../generated-example/gen/a2a_a2a_grpc_client.js";
import { listenA2AServiceGrpc } from "../../../generated-example/gen/a2a_a2a_grpc_server.js";
import type { A2AServiceClient } from "../../../generated-example/gen/a2a_a2a_handler.js";
import { A2AServiceJsonRpcClient } from "../../../generated-example/gen/a2a_a2a_jsonrpc_client.js";
import { createA2AServiceJsonRpcServer } from "../../../generated-example/gen/a2a_a2a_jsonrpc_server.js";
import { A2AServiceRestClient } from "../../../generated-example/gen/a2a_a2a_rest_client.js";
import { createA2AServiceRestServer } from "../../../generated-example/gen/a2a_a2a_rest_server.js";
import { createA2AServiceTaskHandler } from "../../../generated-example/gen/a2a_a2a_task_handler.js";
import {
  Role,
  TaskPushNotificationConfigSchema,
  TaskSchema,
  TaskState,
} from "../../../generated-example/gen/a2a_pb.js";
import { SqliteTaskStore } from "@protoc-gen-a2a/runtime/sqlite";
import { isSameOrLater } from "../../support/crash-harness.js";
import { type Listening, listen } from "../../support/servers.js";
import { repoRoot } from "../../support/repo-root.js";

const schemas = { Task: TaskSchema, TaskPushNotificationConfig: TaskPushNotificationConfigSchema };
const LEAKS = /sqlite|disk|full|database|constraint|page/i;

let dir = "";
let db: Database.Database;
let store: SqliteTaskStore;
let served: Served;
const shutdown = new AbortController();
const logged: unknown[] = [];
type Clients = Record<"JSONRPC" | "HTTP+JSON" | "GRPC", A2AServiceClient>;

/** The example agent's executor and the task handler on `store`, served on JSON-RPC, HTTP+JSON and gRPC. */
interface Served {
  readonly clients: Clients;
  readonly restUrl: string;
  close(): Promise<void>;
}

async function serve(on: SqliteTaskStore): Promise<Served> {
  const handler = createA2AServiceTaskHandler({
    executor: createExampleExecutor({ longRunningMs: 50, shutdown: shutdown.signal }),
    store: on,
    capabilities: { streaming: true, pushNotifications: true },
    onError: (e) => logged.push(e),
  });
  const options = {
    logger: { error: (_m: string, e?: unknown) => logged.push(e) },
    keepAliveMs: 0,
  };
  const jsonrpc: Listening = await listen(
    createA2AServiceJsonRpcServer(handler, options).node,
    "/a2a/jsonrpc",
  );
  const rest: Listening = await listen(
    createA2AServiceRestServer(handler, { ...options, basePath: "/a2a/rest" }).node,
    "/a2a/rest",
  );
  const grpc = await listenA2AServiceGrpc(handler, { logger: options.logger });
  return {
    clients: {
      JSONRPC: new A2AServiceJsonRpcClient({ url: jsonrpc.url }),
      "HTTP+JSON": new A2AServiceRestClient({ url: rest.url }),
      GRPC: new A2AServiceGrpcClient({ address: grpc.address }),
    },
    restUrl: rest.url,
    close: async () => {
      await Promise.all([jsonrpc.close(), rest.close(), grpc.close()]);
    },
  };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "a2a-unwritable-"));
  db = new Database(join(dir, "tasks.db"));
  store = new SqliteTaskStore(db, { schemas });
  served = await serve(store);
});

afterAll(async () => {
  shutdown.abort();
  await served?.close();
  store?.close();
  if (db?.open) db.close();
  rmSync(dir, { recursive: true, force: true });
});

const message = (text: string, taskId?: string) => ({
  message: {
    messageId: crypto.randomUUID(),
    role: Role.USER,
    parts: [{ content: { case: "text" as const, value: text } }],
    ...(taskId ? { taskId } : {}),
  },
});

/** Makes the database full: no page beyond the current ones, and their free space used up. */
function fillUp(): void {
  db.exec("CREATE TABLE IF NOT EXISTS filler (x BLOB)");
  db.pragma(`max_page_count = ${Number(db.pragma("page_count", { simple: true }))}`);
  for (const size of [4000, 1000, 200, 40, 8]) {
    for (;;) {
      try {
        db.prepare("INSERT INTO filler VALUES (randomblob(?))").run(size);
      } catch (e) {
        expect((e as { code?: string }).code).toBe("SQLITE_FULL");
        break;
      }
    }
  }
}

it("a full database: writes are acknowledged-and-stored or a clean InternalError; reads go on; nothing refused is stored", async () => {
  const { clients } = served;
  // Before: the store works on every binding.
  const acked = new Map<string, TaskState>();
  const waiting: string[] = [];
  for (const [binding, client] of Object.entries(clients)) {
    for (const text of [
      "tck-complete-task before",
      "tck-input-required before",
      "tck-input-required before",
      "tck-input-required before",
    ]) {
      const r = await client.sendMessage(message(text));
      expect(r.payload.case, binding).toBe("task");
      const task = r.payload.value as { id: string; status?: { state: TaskState } };
      acked.set(task.id, task.status?.state ?? TaskState.UNSPECIFIED);
      if (task.status?.state === TaskState.INPUT_REQUIRED) waiting.push(task.id);
    }
  }
  const configsAcked = new Set<string>();
  const configsRefused = new Set<string>();

  fillUp();

  let refused = 0;
  let resumes = 0;
  for (let round = 0; round < 20; round++) {
    for (const [binding, client] of Object.entries(clients)) {
      // A new task.
      try {
        const r = await client.sendMessage(
          message(round % 2 === 0 ? "tck-complete-task full" : "tck-input-required full"),
        );
        if (r.payload.case === "task")
          acked.set(r.payload.value.id, r.payload.value.status?.state ?? TaskState.UNSPECIFIED);
      } catch (e) {
        refused++;
        expect(e, binding).toBeInstanceOf(InternalError);
        expect((e as Error).message, binding).not.toMatch(LEAKS);
      }
      // A later message to an acknowledged INPUT_REQUIRED task (it would complete it).
      const resumed = waiting[++resumes];
      if (resumed !== undefined)
        try {
          const r = await client.sendMessage(message("more input", resumed));
          if (r.payload.case === "task")
            acked.set(r.payload.value.id, r.payload.value.status?.state ?? TaskState.UNSPECIFIED);
        } catch (e) {
          refused++;
          expect(e, binding).toBeInstanceOf(InternalError);
          expect((e as Error).message, binding).not.toMatch(LEAKS);
        }
      // A push config on a task that exists.
      const id = `cfg-${binding}-${round}`;
      try {
        const c = await client.createTaskPushNotificationConfig({
          taskId: waiting[0] as string,
          id,
          url: `https://93.184.215.14/${id}`,
        });
        configsAcked.add(c.id);
      } catch (e) {
        refused++;
        configsRefused.add(id);
        expect(e, binding).toBeInstanceOf(InternalError);
        expect((e as Error).message, binding).not.toMatch(LEAKS);
      }
    }
  }
  // The database really was full: writes were refused, and the store said why in the log.
  expect(refused).toBeGreaterThan(0);
  expect(configsRefused.size).toBeGreaterThan(0);
  expect(logged.some((e) => (e as { code?: string })?.code === "SQLITE_FULL")).toBe(true);

  // The raw wire, on HTTP+JSON: a 500 with a google.rpc.Status INTERNAL that says nothing of SQLite.
  const raw = await fetch(`${served.restUrl}/message:send`, {
    method: "POST",
    headers: { "content-type": "application/json", "a2a-version": "1.0" },
    body: JSON.stringify({
      message: {
        messageId: "raw-1",
        role: "ROLE_USER",
        parts: [{ text: "tck-complete-task raw" }],
      },
    }),
  });
  const body = await raw.text();
  if (raw.status !== 200) {
    expect(raw.status).toBe(500);
    expect(JSON.parse(body).error.status).toBe("INTERNAL");
    expect(body).not.toMatch(LEAKS);
  }

  // Reads are still served, on every binding, for everything acknowledged.
  for (const [binding, client] of Object.entries(clients)) {
    for (const [id, state] of acked) {
      const task = await client.getTask({ id });
      expect(
        isSameOrLater(state, task.status?.state ?? TaskState.UNSPECIFIED),
        `${binding} ${id}`,
      ).toBe(true);
    }
    const page = await client.listTasks({ pageSize: 100 });
    for (const id of acked.keys())
      expect(
        page.tasks.map((t) => t.id),
        binding,
      ).toContain(id);
    for (const id of configsAcked)
      expect(
        (await client.getTaskPushNotificationConfig({ taskId: waiting[0] as string, id })).id,
      ).toBe(id);
  }

  // Reopened without the limit: everything acknowledged is stored, no refused config is.
  store.close();
  db.close();
  const reopened = new SqliteTaskStore(join(dir, "tasks.db"), { schemas });
  try {
    const scope = { tenant: "", owner: "" };
    for (const [id, state] of acked) {
      const task = await reopened.getTask(scope, id);
      expect(task, id).toBeDefined();
      expect(isSameOrLater(state, task?.status?.state ?? TaskState.UNSPECIFIED), id).toBe(true);
    }
    for (const id of configsAcked)
      expect(await reopened.getPushConfig(scope, waiting[0] as string, id)).toBeDefined();
    for (const id of configsRefused)
      expect(await reopened.getPushConfig(scope, waiting[0] as string, id)).toBeUndefined();
  } finally {
    reopened.close();
  }
});

/** A child process holding the write lock of `path` (BEGIN IMMEDIATE with a write, never committed) until killed. */
async function holdWriteLock(path: string): Promise<ChildProcess> {
  const script = `
    const db = new (require("better-sqlite3"))(${JSON.stringify(path)});
    db.exec("BEGIN IMMEDIATE; CREATE TABLE held (x)");
    process.stdout.write("locked\\n");
    setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ["-e", script], {
    cwd: repoRoot,
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on("data", (d: Buffer) => {
      if (d.toString().includes("locked")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`the lock holder exited with ${code}`)));
  });
  return child;
}

it("a database another process keeps locked: writes get a clean InternalError after busyTimeoutMs, reads go on, writes resume after", async () => {
  const path = join(dir, "shared.db");
  const shared = new SqliteTaskStore(path, { schemas, busyTimeoutMs: 200 });
  const agent = await serve(shared);
  try {
    const before = await agent.clients.JSONRPC.sendMessage(
      message("tck-complete-task before the lock"),
    );
    const task = before.payload.value as { id: string };
    const holder = await holdWriteLock(path);
    try {
      for (const [binding, client] of Object.entries(agent.clients)) {
        const error = await client.sendMessage(message("tck-complete-task while locked")).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error, binding).toBeInstanceOf(InternalError);
        expect((error as Error).message, binding).not.toMatch(LEAKS);
        // WAL: readers are not blocked by the other process's write lock.
        expect((await client.getTask({ id: task.id })).status?.state, binding).toBe(
          TaskState.COMPLETED,
        );
        expect(
          (await client.listTasks({ pageSize: 10 })).tasks.map((t) => t.id),
          binding,
        ).toContain(task.id);
      }
      expect(
        logged.some((e) => String((e as { code?: string })?.code).startsWith("SQLITE_BUSY")),
      ).toBe(true);
    } finally {
      const exited = new Promise((r) => holder.once("exit", r));
      holder.kill("SIGKILL");
      await exited;
    }
    const after = await agent.clients.GRPC.sendMessage(message("tck-complete-task after the lock"));
    expect(after.payload.case === "task" && after.payload.value.status?.state).toBe(
      TaskState.COMPLETED,
    );
  } finally {
    await agent.close();
    shared.close();
  }
});

it("while another process holds the lock, writes wait on timers (the agent keeps serving reads) and go through once it is released", async () => {
  const path = join(dir, "shared-wait.db");
  const shared = new SqliteTaskStore(path, { schemas, busyTimeoutMs: 20_000 });
  const agent = await serve(shared);
  try {
    const before = await agent.clients.JSONRPC.sendMessage(
      message("tck-input-required before the lock"),
    );
    const waitingTask = before.payload.value as { id: string };
    const holder = await holdWriteLock(path);
    let settled = 0;
    const writes = Object.values(agent.clients).map((client) =>
      client.sendMessage(message("tck-complete-task while locked")).finally(() => {
        settled++;
      }),
    );
    const config = agent.clients.GRPC.createTaskPushNotificationConfig({
      taskId: waitingTask.id,
      id: "while-locked",
      url: "https://93.184.215.14/locked",
    }).finally(() => {
      settled++;
    });
    // Reads are answered on every binding while those writes wait for the lock.
    for (const [binding, client] of Object.entries(agent.clients)) {
      expect((await client.getTask({ id: waitingTask.id })).status?.state, binding).toBe(
        TaskState.INPUT_REQUIRED,
      );
      expect(
        (await client.listTasks({ pageSize: 10 })).tasks.map((t) => t.id),
        binding,
      ).toContain(waitingTask.id);
    }
    expect(settled).toBe(0);
    const exited = new Promise((r) => holder.once("exit", r));
    holder.kill("SIGKILL");
    await exited;
    // Released: the writes commit and are acknowledged, as if nothing had happened.
    for (const response of await Promise.all(writes)) {
      expect(response.payload.case === "task" && response.payload.value.status?.state).toBe(
        TaskState.COMPLETED,
      );
      const id = (response.payload.value as { id: string }).id;
      expect((await agent.clients["HTTP+JSON"].getTask({ id })).status?.state).toBe(
        TaskState.COMPLETED,
      );
    }
    expect((await config).id).toBe("while-locked");
    expect(
      (
        await agent.clients.JSONRPC.getTaskPushNotificationConfig({
          taskId: waitingTask.id,
          id: "while-locked",
        })
      ).url,
    ).toBe("https://93.184.215.14/locked");
  } finally {
    await agent.close();
    shared.close();
  }
});

it("saves queued while the lock is held keep their order and merge per task; past busyTimeoutMs they are rejected, and later saves work", async () => {
  const path = join(dir, "queued.db");
  const shared = new SqliteTaskStore(path, { schemas, busyTimeoutMs: 20_000 });
  const scope = { tenant: "", owner: "" };
  const task = (id: string, state: TaskState) =>
    create(TaskSchema, { id, contextId: "ctx", status: { state } });
  try {
    const holder = await holdWriteLock(path);
    let settled = 0;
    const saves = [
      task("t1", TaskState.WORKING),
      task("t2", TaskState.WORKING),
      task("t1", TaskState.COMPLETED),
    ].map((t) =>
      shared.saveTask(scope, t).finally(() => {
        settled++;
      }),
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(settled).toBe(0);
    // Reads see what is committed: nothing yet.
    expect(await shared.getTask(scope, "t1")).toBeUndefined();
    const exited = new Promise((r) => holder.once("exit", r));
    holder.kill("SIGKILL");
    await exited;
    await Promise.all(saves);
    expect((await shared.getTask(scope, "t1"))?.status?.state).toBe(TaskState.COMPLETED);
    // Most recent save first: t1's second save came after t2's.
    const page = await shared.listTasks(scope, {
      contextId: "",
      state: undefined,
      statusTimestampAfter: undefined,
      pageSize: 10,
      pageToken: "",
    });
    expect(page.tasks.map((t) => t.id)).toEqual(["t1", "t2"]);
  } finally {
    shared.close();
  }
  // A short busy timeout: the queued saves fail with the lock error, nothing of them is stored; afterwards saves work.
  const impatient = new SqliteTaskStore(path, { schemas, busyTimeoutMs: 150 });
  try {
    const holder = await holdWriteLock(path);
    const failed = await impatient.saveTask(scope, task("t3", TaskState.WORKING)).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((failed as { code?: string })?.code).toMatch(/^SQLITE_BUSY/);
    const exited = new Promise((r) => holder.once("exit", r));
    holder.kill("SIGKILL");
    await exited;
    expect(await impatient.getTask(scope, "t3")).toBeUndefined();
    await impatient.saveTask(scope, task("t4", TaskState.WORKING));
    expect((await impatient.getTask(scope, "t4"))?.id).toBe("t4");
  } finally {
    impatient.close();
  }
});
