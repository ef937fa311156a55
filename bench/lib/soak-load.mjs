// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
// The traffic of bench/soak.mjs (bundled with esbuild: it uses the generated clients of generated-example/gen):
// one operation at a time per worker, on the three bindings in turn (JSON-RPC and HTTP+JSON over fetch's
// keep-alive pool, gRPC over one HTTP/2 session), against the example agent's behaviours:
//   message   SendMessage answered with a Message (no task)
//   task      SendMessage "tck-complete-task": a task WORKING → artifact → COMPLETED (its id remembered)
//   get       GetTask of a remembered task
//   list      ListTasks, a page of 20
//   stream    SendStreamingMessage "tck-stream-basic", read to its end (COMPLETED)
//   cancel    SendMessage "tck-cancel" (returnImmediately), SubscribeToTask, CancelTask: the stream ends CANCELED
//   abandon   SendStreamingMessage "tck-cancel", first event read, then abandoned (the client aborts); CancelTask
//   push      a task INPUT_REQUIRED; Create, Get, List push config (webhook on the parent's receiver, 204 or
//             500); the follow-up message completes the task (its events are delivered); Delete the config
import { A2AServiceGrpcClient } from "../../generated-example/gen/a2a_a2a_grpc_client.js";
import { A2AServiceJsonRpcClient } from "../../generated-example/gen/a2a_a2a_jsonrpc_client.js";
import { A2AServiceRestClient } from "../../generated-example/gen/a2a_a2a_rest_client.js";
import { Role, TaskState } from "../../generated-example/gen/a2a_pb.js";

/** Operations and their weights in the mix. */
export const MIX = [
  ["message", 25],
  ["task", 20],
  ["get", 15],
  ["list", 8],
  ["stream", 10],
  ["cancel", 5],
  ["abandon", 5],
  ["push", 12],
];
const TOTAL_WEIGHT = MIX.reduce((n, [, w]) => n + w, 0);
export const BINDINGS = ["jsonrpc", "rest", "grpc"];

let counter = 0;
const msg = (text, extra = {}) => ({
  message: {
    messageId: `soak-${process.pid}-${++counter}`,
    role: Role.USER,
    parts: [{ content: { case: "text", value: text } }],
    ...extra,
  },
});

/** Clients of the three bindings and the state the operations share (remembered task ids). */
export function createLoad({ endpoints, webhook }) {
  const clients = {
    jsonrpc: new A2AServiceJsonRpcClient({ url: endpoints.jsonrpc, timeoutMs: 30_000 }),
    rest: new A2AServiceRestClient({ url: endpoints.rest, timeoutMs: 30_000 }),
    grpc: new A2AServiceGrpcClient({ address: endpoints.grpc, timeoutMs: 30_000 }),
  };
  /** Ids of recent tasks, a ring of 500. */
  const recent = [];
  const remember = (id) => {
    recent.push(id);
    if (recent.length > 500) recent.shift();
  };
  const pick = () => recent[Math.floor(Math.random() * recent.length)];
  const expectState = (task, state, what) => {
    if (task?.status?.state !== state)
      throw new Error(
        `${what}: state ${TaskState[task?.status?.state ?? 0]}, expected ${TaskState[state]}`,
      );
  };

  const ops = {
    async message(c) {
      const r = await c.sendMessage(msg("hello soak"));
      if (r.payload.case !== "message") throw new Error(`message: got ${r.payload.case}`);
    },
    async task(c) {
      const r = await c.sendMessage(msg("tck-complete-task soak"));
      if (r.payload.case !== "task") throw new Error(`task: got ${r.payload.case}`);
      expectState(r.payload.value, TaskState.COMPLETED, "task");
      remember(r.payload.value.id);
    },
    async get(c) {
      const id = pick();
      if (id === undefined) return ops.task(c);
      const t = await c.getTask({ id });
      if (t.id !== id) throw new Error("get: wrong task");
    },
    async list(c) {
      await c.listTasks({ pageSize: 20 });
    },
    async stream(c) {
      let last;
      for await (const e of c.sendStreamingMessage(msg("tck-stream-basic soak"))) last = e;
      if (
        last?.payload.case !== "statusUpdate" ||
        last.payload.value.status?.state !== TaskState.COMPLETED
      )
        throw new Error("stream: did not end COMPLETED");
    },
    async cancel(c) {
      const r = await c.sendMessage({
        ...msg("tck-cancel soak"),
        configuration: { returnImmediately: true },
      });
      const id = r.payload.value.id;
      let canceled = false;
      let asked = false;
      for await (const e of c.subscribeToTask({ id })) {
        if (!asked) {
          asked = true;
          expectState(await c.cancelTask({ id }), TaskState.CANCELED, "cancel");
        }
        if (
          e.payload.case === "statusUpdate" &&
          e.payload.value.status?.state === TaskState.CANCELED
        )
          canceled = true;
      }
      if (!canceled) throw new Error("cancel: the subscription did not end CANCELED");
    },
    async abandon(c) {
      const controller = new AbortController();
      let id;
      try {
        for await (const e of c.sendStreamingMessage(msg("tck-cancel soak"), {
          signal: controller.signal,
        })) {
          if (e.payload.case === "task") id = e.payload.value.id;
          controller.abort();
        }
      } catch (e) {
        if (!controller.signal.aborted) throw e;
      }
      if (id === undefined) throw new Error("abandon: no task event");
      expectState(await c.cancelTask({ id }), TaskState.CANCELED, "abandon");
    },
    async push(c) {
      const r = await c.sendMessage(msg("tck-input-required soak"));
      const task = r.payload.value;
      expectState(task, TaskState.INPUT_REQUIRED, "push");
      const url = `${webhook}/${Math.random() < 0.9 ? "ok" : "fail"}`;
      const created = await c.createTaskPushNotificationConfig({
        taskId: task.id,
        url,
        token: "soak",
      });
      await c.getTaskPushNotificationConfig({ taskId: task.id, id: created.id });
      const list = await c.listTaskPushNotificationConfigs({ taskId: task.id });
      if (list.configs.length !== 1) throw new Error(`push: ${list.configs.length} configs listed`);
      const done = await c.sendMessage(msg("done", { taskId: task.id, contextId: task.contextId }));
      expectState(done.payload.value, TaskState.COMPLETED, "push follow-up");
      await c.deleteTaskPushNotificationConfig({ taskId: task.id, id: created.id });
      remember(task.id);
    },
  };

  /** Runs one operation drawn from the mix, on binding `binding`; resolves `{ op, ms, error }`. */
  async function runOne(binding) {
    let roll = Math.random() * TOTAL_WEIGHT;
    let op = MIX[0][0];
    for (const [name, w] of MIX) {
      if ((roll -= w) < 0) {
        op = name;
        break;
      }
    }
    const t0 = performance.now();
    try {
      await ops[op](clients[binding]);
      return { op, binding, ms: performance.now() - t0 };
    } catch (error) {
      return { op, binding, ms: performance.now() - t0, error };
    }
  }

  /** The number of tasks the agent holds for the anonymous owner (ListTasks totalSize). */
  async function taskCount() {
    return (await clients.jsonrpc.listTasks({ pageSize: 1 })).totalSize;
  }

  return { runOne, taskCount };
}
