/**
 * The task runtime's byte budgets (issue #25), on every binding over real sockets (JSON-RPC, HTTP+JSON,
 * gRPC on grpc-js and on Connect), with small option values:
 *   - `maxTaskBytes`: a message no task could hold is InvalidParams naming `message`; one that would take
 *     its task past the budget is UnsupportedOperation naming the limit; nothing is stored for either; an
 *     executor's event past it is refused to the executor (ExecutorMisuseError), the task stays servable.
 *   - `maxResponseBytes`: ListTasks pages are filled up to it and every task is reached through
 *     nextPageToken exactly once; a stored task heavier than it (stored under a larger maxTaskBytes) is a
 *     clear error for GetTask that suggests historyLength, and is served with it.
 *   - a stored task that no JSON binding could encode (a NaN in a Value, written before such values were
 *     refused) is a clear error for itself alone and never breaks a list.
 *   - the store's owner quota is UnsupportedOperation naming `maxBytesPerOwner`; push configs are bounded
 *     in count and bytes; an executor that emits a NaN is refused at the emit.
 */
import { create } from "@bufbuild/protobuf";
import { timestampFromMs, ValueSchema } from "@bufbuild/protobuf/wkt";
import { afterEach, describe, expect, it } from "vitest";
import type { A2AError } from "@protoc-gen-a2a/runtime";
import {
  ExecutorMisuseError,
  InMemoryTaskStore,
  type TaskScope,
} from "@protoc-gen-a2a/runtime/task";
import {
  MessageSchema,
  Role,
  TaskSchema,
  TaskState,
  TaskStatusSchema,
  type Task,
} from "../../../generated-example/gen/a2a_pb.js";
import {
  InternalError,
  InvalidParamsError,
  UnsupportedOperationError,
} from "../../../generated-example/gen/a2a_a2a_errors.js";
import type { A2AServiceHandler } from "../../../generated-example/gen/a2a_a2a_handler.js";
import {
  createA2AServiceTaskHandler,
  type A2AServiceExecutor,
} from "../../../generated-example/gen/a2a_a2a_task_handler.js";
import { createA2AServiceSqliteTaskStore } from "../../../generated-example/gen/a2a_a2a_sqlite_task_store.js";
import { SERVERS, rejectionOf, type FaultServer } from "../../support/faults-servers.js";

const anonymous: TaskScope = { tenant: "", owner: "" };
const KB = 1024;

/** A SendMessage request with a one-part user text message. */
function say(value: string, taskId = "") {
  return {
    message: {
      messageId: `m-${Math.random().toString(36).slice(2)}`,
      role: Role.USER,
      parts: [{ content: { case: "text" as const, value } }],
      taskId,
    },
  };
}

/** A user message of `bytes` characters of text. */
const text = (bytes: number, taskId = "") => say("u".repeat(bytes), taskId);

/** Completes with the request's text echoed back as a status message; "grow:N" adds N artifacts of 20 KB first. */
const echo: A2AServiceExecutor = {
  async execute(request, emit) {
    const first = request.message.parts[0]?.content;
    const said = first?.case === "text" ? first.value : "";
    if (said.startsWith("input"))
      return emit.requireInput({ parts: [{ content: { case: "text", value: "more?" } }] });
    if (said.startsWith("grow:")) {
      const refused: string[] = [];
      for (let i = 0; i < Number(said.slice(5)); i++) {
        try {
          await emit.addArtifact({
            artifactId: `a${i}`,
            parts: [{ content: { case: "text", value: "a".repeat(20 * KB) } }],
          });
        } catch (e) {
          if (!(e instanceof ExecutorMisuseError)) throw e;
          refused.push(e.message);
          break;
        }
      }
      return emit.complete({
        parts: [{ content: { case: "text", value: refused.join("; ") || "all stored" } }],
      });
    }
    if (said === "nan") {
      try {
        await emit.addArtifact({
          artifactId: "bad",
          parts: [
            {
              content: {
                case: "data",
                value: create(ValueSchema, { kind: { case: "numberValue", value: Number.NaN } }),
              },
            },
          ],
        });
      } catch (e) {
        return emit.complete({
          parts: [
            {
              content: {
                case: "text",
                value: e instanceof ExecutorMisuseError ? `refused: ${e.message}` : "other",
              },
            },
          ],
        });
      }
      return emit.complete({ parts: [{ content: { case: "text", value: "stored" } }] });
    }
    return emit.complete({ parts: [{ content: { case: "text", value: "ok" } }] });
  },
};

/** A task as an older version may have stored it: `kb` KB of history, optionally a NaN in its metadata. */
function storedTask(id: string, kb: number, seconds: number, nan = false): Task {
  return create(TaskSchema, {
    id,
    contextId: "ctx",
    status: { state: TaskState.COMPLETED, timestamp: timestampFromMs(seconds * 1000) },
    history: [
      create(MessageSchema, {
        messageId: `old-${id}`,
        role: Role.USER,
        parts: [{ content: { case: "text", value: "h".repeat(kb * KB) } }],
      }),
      create(MessageSchema, {
        messageId: `new-${id}`,
        role: Role.AGENT,
        parts: [{ content: { case: "text", value: "short" } }],
      }),
    ],
    ...(nan ? { metadata: { score: Number.NaN } } : {}),
  });
}

type Client = FaultServer["client"];
const taskOf = async (client: Client, request: ReturnType<typeof say>): Promise<Task> => {
  const response = await client.sendMessage(request);
  if (response.payload.case !== "task") throw new Error("expected a task");
  return response.payload.value;
};

async function allPages(
  client: Client,
  pageSize: number,
): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let pageToken = "";
  let pages = 0;
  do {
    const page = await client.listTasks({ pageSize, pageToken });
    ids.push(...page.tasks.map((t) => t.id));
    pageToken = page.nextPageToken;
    pages++;
  } while (pageToken !== "" && pages < 100);
  return { ids, pages };
}

/** A `serve(handler)` that starts the binding's server over it for one test (closed after it), and returns its client. */
function servingWith(
  start: (handler: A2AServiceHandler) => Promise<FaultServer>,
): (handler: A2AServiceHandler) => Promise<Client> {
  let server: FaultServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  return async (handler) => {
    server = await start(handler);
    return server.client;
  };
}

/** The stores the budgets are tested on: a fresh one per test. */
const STORES = [
  {
    store: "memory",
    create: (maxBytesPerOwner?: number) =>
      new InMemoryTaskStore(maxBytesPerOwner === undefined ? {} : { maxBytesPerOwner }),
  },
  {
    store: "SQLite",
    create: (maxBytesPerOwner?: number) =>
      createA2AServiceSqliteTaskStore(
        ":memory:",
        maxBytesPerOwner === undefined ? {} : { maxBytesPerOwner },
      ),
  },
] as const;

describe.each(SERVERS.flatMap((server) => STORES.map((store) => ({ ...server, ...store }))))(
  "byte budgets on $name, $store store",
  ({ start, create: createStore }) => {
    const serve = servingWith(start);

    it("maxTaskBytes: a message no task can hold is InvalidParams naming it; nothing is stored", async () => {
      const client = await serve(
        createA2AServiceTaskHandler({ executor: echo, maxTaskBytes: 64 * KB }),
      );
      const error = await rejectionOf(client.sendMessage(text(80 * KB)));
      expect(error).toBeInstanceOf(InvalidParamsError);
      expect((error as A2AError).message).toContain("maxTaskBytes");
      expect((error as A2AError).fieldViolations.map((v) => v.field)).toEqual(["message"]);
      expect((await client.listTasks({})).tasks).toEqual([]);
    });

    it("maxTaskBytes: a message that would take its task past it is UnsupportedOperation naming the limit; the task is unchanged", async () => {
      const client = await serve(
        createA2AServiceTaskHandler({ executor: echo, maxTaskBytes: 64 * KB }),
      );
      const task = await taskOf(client, say(`input${"i".repeat(40 * KB)}`));
      expect(task.status?.state).toBe(TaskState.INPUT_REQUIRED);
      const error = await rejectionOf(client.sendMessage(text(30 * KB, task.id)));
      expect(error).toBeInstanceOf(UnsupportedOperationError);
      expect((error as A2AError).metadata).toEqual({
        taskId: task.id,
        maxTaskBytes: String(64 * KB),
      });
      const after = await client.getTask({ id: task.id });
      expect(after.history).toHaveLength(2);
      expect(after.status?.state).toBe(TaskState.INPUT_REQUIRED);
    });

    it("maxTaskBytes: the executor's artifact past it is refused to the executor; the task completes and is served", async () => {
      const client = await serve(
        createA2AServiceTaskHandler({ executor: echo, maxTaskBytes: 100 * KB }),
      );
      const task = await taskOf(client, say("grow:10"));
      expect(task.status?.state).toBe(TaskState.COMPLETED);
      expect(task.artifacts.length).toBeGreaterThan(0);
      expect(task.artifacts.length).toBeLessThan(5);
      const note = task.status?.message?.parts[0]?.content;
      expect(note?.case === "text" ? note.value : "").toMatch(/maxTaskBytes/);
      expect((await client.getTask({ id: task.id })).artifacts).toHaveLength(task.artifacts.length);
    });

    it("maxResponseBytes: ListTasks pages stay within it and reach every task once", async () => {
      const store = createStore();
      for (let i = 0; i < 10; i++)
        await store.saveTask(anonymous, storedTask(`t${i}`, 30, 100 - i));
      const client = await serve(
        createA2AServiceTaskHandler({
          executor: echo,
          store,
          maxTaskBytes: 100 * KB,
          maxResponseBytes: 100 * KB,
        }),
      );
      const { ids, pages } = await allPages(client, 10);
      expect(ids).toEqual(Array.from({ length: 10 }, (_, i) => `t${i}`));
      // 3 tasks of ~30 KB per page at most.
      expect(pages).toBeGreaterThanOrEqual(4);
      const first = await client.listTasks({ pageSize: 10 });
      expect(first.tasks.length).toBeLessThanOrEqual(3);
      expect(first.totalSize).toBe(10);
      // Without their history the same tasks fit one page.
      expect((await client.listTasks({ pageSize: 10, historyLength: 0 })).tasks).toHaveLength(10);
    });

    it("maxResponseBytes: a stored task heavier than it is a clear error suggesting historyLength, and is served with it", async () => {
      const store = createStore();
      await store.saveTask(anonymous, storedTask("huge", 200, 5));
      await store.saveTask(anonymous, storedTask("small", 1, 4));
      const reported: string[] = [];
      const client = await serve(
        createA2AServiceTaskHandler({
          executor: echo,
          store,
          maxTaskBytes: 100 * KB,
          maxResponseBytes: 100 * KB,
          onError: (_e, context) => reported.push(context),
        }),
      );
      const error = await rejectionOf(client.getTask({ id: "huge" }));
      expect(error).toBeInstanceOf(UnsupportedOperationError);
      expect((error as A2AError).message).toContain("historyLength");
      expect((error as A2AError).metadata["maxResponseBytes"]).toBe(String(100 * KB));
      const trimmed = await client.getTask({ id: "huge", historyLength: 1 });
      expect(trimmed.history.map((m) => m.messageId)).toEqual(["new-huge"]);
      // A list never breaks: the task is left out, the others are served.
      expect((await client.listTasks({})).tasks.map((t) => t.id)).toEqual(["small"]);
      expect(reported).toEqual(["ListTasks left out task huge"]);
      expect((await client.listTasks({ historyLength: 1 })).tasks.map((t) => t.id)).toEqual([
        "huge",
        "small",
      ]);
    });

    it("the store's owner quota is UnsupportedOperation naming maxBytesPerOwner; unfinished tasks are kept", async () => {
      const store = createStore(100 * KB);
      const client = await serve(
        createA2AServiceTaskHandler({
          executor: echo,
          store,
          maxTaskBytes: 100 * KB,
          maxResponseBytes: 100 * KB,
        }),
      );
      const waiting = await taskOf(client, say(`input${"i".repeat(70 * KB)}`));
      const error = await rejectionOf(client.sendMessage(say(`input${"j".repeat(40 * KB)}`)));
      expect(error).toBeInstanceOf(UnsupportedOperationError);
      expect((error as A2AError).metadata).toEqual({ maxBytesPerOwner: String(100 * KB) });
      expect((await client.getTask({ id: waiting.id })).status?.state).toBe(
        TaskState.INPUT_REQUIRED,
      );
      expect((await client.listTasks({})).tasks.map((t) => t.id)).toEqual([waiting.id]);
    });

    it("push configs: at most maxPushConfigsPerTask, each within maxPushConfigBytes", async () => {
      const client = await serve(
        createA2AServiceTaskHandler({
          executor: echo,
          capabilities: { pushNotifications: true },
          checkPushUrl: false,
          maxPushConfigsPerTask: 2,
          maxPushConfigBytes: 4 * KB,
        }),
      );
      const task = await taskOf(client, text(10));
      for (const id of ["c1", "c2"])
        await client.createTaskPushNotificationConfig({
          taskId: task.id,
          id,
          url: "https://example.com/hook",
        });
      // Replacing an existing one is not one more.
      await client.createTaskPushNotificationConfig({
        taskId: task.id,
        id: "c2",
        url: "https://example.com/other",
      });
      const tooMany = await rejectionOf(
        client.createTaskPushNotificationConfig({
          taskId: task.id,
          id: "c3",
          url: "https://example.com/hook",
        }),
      );
      expect(tooMany).toBeInstanceOf(UnsupportedOperationError);
      expect((tooMany as A2AError).metadata).toEqual({
        taskId: task.id,
        maxPushConfigsPerTask: "2",
      });
      await client.deleteTaskPushNotificationConfig({ taskId: task.id, id: "c1" });
      const tooBig = await rejectionOf(
        client.createTaskPushNotificationConfig({
          taskId: task.id,
          id: "c4",
          url: "https://example.com/hook",
          token: "t".repeat(5 * KB),
        }),
      );
      expect(tooBig).toBeInstanceOf(InvalidParamsError);
      expect((tooBig as A2AError).message).toContain("maxPushConfigBytes");
      expect(
        (await client.listTaskPushNotificationConfigs({ taskId: task.id })).configs.map(
          (c) => c.id,
        ),
      ).toEqual(["c2"]);
    });

    it("an executor's NaN is refused at the emit: nothing unservable is stored", async () => {
      const client = await serve(createA2AServiceTaskHandler({ executor: echo }));
      const task = await taskOf(client, say("nan"));
      const note = task.status?.message?.parts[0]?.content;
      expect(note?.case === "text" ? note.value : "").toMatch(
        /^refused: artifact "bad" holds a number JSON cannot express \(NaN or ±Infinity\) at parts\[0\]\.data$/,
      );
      expect(task.artifacts).toEqual([]);
      expect((await client.listTasks({})).tasks.map((t) => t.id)).toEqual([task.id]);
    });
  },
);

// SQLite refuses such a task at save and repairs an older file's at open (sqlite-repair): planted in memory.
describe.each(SERVERS)("a task stored with a NaN, on $name", ({ start }) => {
  const serve = servingWith(start);

  it("a stored task with a NaN (an older version's) is a clear error for itself alone; lists and other tasks are served", async () => {
    const store = new InMemoryTaskStore();
    await store.saveTask(anonymous, storedTask("poisoned", 1, 3, true));
    await store.saveTask(anonymous, storedTask("fine", 1, 2));
    const reported: string[] = [];
    const live = storedTask("poisoned-live", 1, 1, true);
    live.status = create(TaskStatusSchema, {
      state: TaskState.WORKING,
      timestamp: timestampFromMs(1000),
    });
    await store.saveTask(anonymous, live);
    const client = await serve(
      createA2AServiceTaskHandler({
        executor: echo,
        store,
        capabilities: { streaming: true },
        onError: (_e, context) => reported.push(context),
      }),
    );
    const stream = rejectionOf(
      (async () => {
        for await (const _event of client.subscribeToTask({ id: "poisoned-live" })) return;
      })(),
    );
    expect(await stream).toBeInstanceOf(InternalError);
    const error = await rejectionOf(client.getTask({ id: "poisoned" }));
    expect(error).toBeInstanceOf(InternalError);
    expect((error as A2AError).message).toMatch(/cannot be answered.*NaN.*metadata\.score/);
    expect((await client.listTasks({})).tasks.map((t) => t.id)).toEqual(["fine"]);
    expect((await client.getTask({ id: "fine" })).id).toBe("fine");
    expect(reported).toContain("ListTasks left out task poisoned");
    // New work goes on.
    expect((await taskOf(client, text(10))).status?.state).toBe(TaskState.COMPLETED);
  });
});

describe("byte budget options", () => {
  it("refuses a maxTaskBytes above maxResponseBytes (a task could be stored that no answer carries), and bounds that are not integers", () => {
    expect(() =>
      createA2AServiceTaskHandler({
        executor: echo,
        maxTaskBytes: 2 * KB * KB,
        maxResponseBytes: KB * KB,
      }),
    ).toThrow(/must not exceed maxResponseBytes/);
    expect(() => createA2AServiceTaskHandler({ executor: echo, maxResponseBytes: 0 })).toThrow(
      RangeError,
    );
    expect(() => createA2AServiceTaskHandler({ executor: echo, maxTaskBytes: 100 })).toThrow(
      RangeError,
    );
  });
});
