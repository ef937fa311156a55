import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Role, TaskState } from "../../../generated-example/gen/a2a_pb.js";
import { A2AServiceJsonRpcClient } from "../../../generated-example/gen/a2a_a2a_jsonrpc_client.js";
import { createA2AServiceJsonRpcServer } from "../../../generated-example/gen/a2a_a2a_jsonrpc_server.js";
import {
  TaskNotCancelableError,
  TaskNotFoundError,
  UnsupportedOperationError,
} from "../../../generated-example/gen/a2a_a2a_errors.js";
import { listen, type Listening } from "../../support/servers.js";
import {
  createA2ATaskHandler,
  describeEvent,
  textOf,
  type A2AExecutor,
} from "../../support/task-runtime-binding.js";

const message = (text: string, taskId = "") => ({
  message: {
    messageId: `m-${text}-${Math.random()}`,
    role: Role.USER,
    taskId,
    parts: [{ content: { case: "text" as const, value: text } }],
  },
});

/** "ask" → INPUT_REQUIRED; anything else → WORKING, an artifact, COMPLETED. */
const executor: A2AExecutor<{ user: string }> = {
  async execute(context, emitter) {
    const text = textOf(context.message);
    if (text === "ask")
      return emitter.requireInput(`hello ${context.call.principal?.user ?? "?"}, what now?`);
    await emitter.working("working");
    await emitter.addArtifact({
      artifactId: "answer",
      parts: [{ content: { case: "text", value: text.toUpperCase() } }],
    });
    await emitter.complete("done");
  },
};

describe("task runtime behind the generated JSON-RPC server (smoke)", () => {
  const handler = createA2ATaskHandler<{ user: string }>({
    executor,
    capabilities: { streaming: true, pushNotifications: true },
  });
  let server: Listening;
  let alice: A2AServiceJsonRpcClient;
  let bob: A2AServiceJsonRpcClient;

  beforeAll(async () => {
    const jsonrpc = createA2AServiceJsonRpcServer(handler, {
      authenticate: ({ serviceParameters }) => ({
        user: serviceParameters.get("authorization") ?? "anonymous",
      }),
      keepAliveMs: 0,
    });
    server = await listen(jsonrpc.node, "/a2a");
    alice = new A2AServiceJsonRpcClient({ url: server.url, headers: { authorization: "alice" } });
    bob = new A2AServiceJsonRpcClient({ url: server.url, headers: { authorization: "bob" } });
  });
  afterAll(() => server.close());

  it("multi-turn task over the wire: send, stream, get, list, scoping, cancel, subscribe, push configs", async () => {
    const first = await alice.sendMessage(message("ask"));
    if (first.payload.case !== "task") throw new Error("expected a task");
    const task = first.payload.value;
    expect(task.status?.state).toBe(TaskState.INPUT_REQUIRED);
    expect(textOf(task.status?.message)).toBe("hello alice, what now?");

    const events: string[] = [];
    for await (const e of alice.sendStreamingMessage(message("finish it", task.id)))
      events.push(describeEvent(e));
    expect(events).toEqual([
      "task:INPUT_REQUIRED",
      "status:WORKING:working",
      "artifact:answer",
      "status:COMPLETED:done",
    ]);

    const got = await alice.getTask({ id: task.id, historyLength: 2 });
    expect(got.history.map(textOf)).toEqual(["working", "done"]);
    expect(got.contextId).toBe(task.contextId);
    expect(got.artifacts[0]?.parts[0]?.content).toEqual({ case: "text", value: "FINISH IT" });

    const list = await alice.listTasks({});
    expect(list.tasks.map((t) => t.id)).toEqual([task.id]);
    expect(list.tasks[0]?.artifacts).toEqual([]);
    expect(list.nextPageToken).toBe("");

    await expect(bob.getTask({ id: task.id })).rejects.toBeInstanceOf(TaskNotFoundError);
    expect((await bob.listTasks({})).tasks).toEqual([]);
    await expect(alice.cancelTask({ id: task.id })).rejects.toBeInstanceOf(TaskNotCancelableError);
    await expect(
      (async () => {
        for await (const _ of alice.subscribeToTask({ id: task.id })) void _;
      })(),
    ).rejects.toBeInstanceOf(UnsupportedOperationError);

    const config = await alice.createTaskPushNotificationConfig({
      taskId: task.id,
      url: "https://hooks.example.com/a2a",
    });
    expect(config.id).not.toBe("");
    expect(
      (await alice.listTaskPushNotificationConfigs({ taskId: task.id })).configs.map((c) => c.id),
    ).toEqual([config.id]);
    await alice.deleteTaskPushNotificationConfig({ taskId: task.id, id: config.id });
    await alice.deleteTaskPushNotificationConfig({ taskId: task.id, id: config.id });
  });

  it("JSON presence on the wire: nextPageToken always present, artifacts omitted in ListTasks, history omitted at historyLength 0", async () => {
    const sent = await alice.sendMessage(message("json"));
    if (sent.payload.case !== "task") throw new Error("expected a task");
    const rpc = async (method: string, params: object) => {
      const res = await fetch(server.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "a2a-version": "1.0",
          authorization: "alice",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
      });
      return ((await res.json()) as { result: Record<string, unknown> }).result;
    };
    const list = await rpc("ListTasks", { contextId: sent.payload.value.contextId });
    expect(list["nextPageToken"]).toBe("");
    expect(list["tasks"]).toEqual([expect.not.objectContaining({ artifacts: expect.anything() })]);
    expect((list["tasks"] as Record<string, unknown>[])[0]?.["status"]).toEqual(
      expect.objectContaining({
        state: "TASK_STATE_COMPLETED",
        timestamp: expect.stringMatching(/Z$/),
      }),
    );
    const noHistory = await rpc("GetTask", { id: sent.payload.value.id, historyLength: 0 });
    expect(noHistory).not.toHaveProperty("history");
    expect(noHistory).toHaveProperty("artifacts");
    const withArtifacts = await rpc("ListTasks", {
      contextId: sent.payload.value.contextId,
      includeArtifacts: true,
    });
    expect(withArtifacts["tasks"]).toEqual([
      expect.objectContaining({ artifacts: [expect.objectContaining({ artifactId: "answer" })] }),
    ]);
  });
});
