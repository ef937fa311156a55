/**
 * One task-runtime benchmark server per process, for bench/task.mjs (bundled by it with esbuild into
 * node_modules/.cache/bench/). Usage: `node task-server.mjs <kind>`, with an IPC channel (bench/lib/children.mjs):
 * listens on 127.0.0.1 (a free port), sends `{ ready: true, port }`, exits with the parent.
 *
 * Kinds, all the generated JSON-RPC server (`createA2AServiceJsonRpcServer(handler).node`) answering SendMessage:
 * - stateless:   a plain handler answering a Message (no task runtime, no task) — the baseline;
 * - task-reply:  the generated task handler whose executor answers with `emitter.reply` (runtime, no task);
 * - task-memory: the generated task handler, in-memory store; the executor creates a task and completes it
 *                (working → artifact → complete);
 * - task-sqlite: the same with `createA2AServiceSqliteTaskStore(process.env.BENCH_TASK_DB)` (a temp file, WAL),
 *                created and removed by the parent.
 */
import { randomUUID } from "node:crypto";
import type { RequestListener } from "node:http";
import { create } from "@bufbuild/protobuf";
import { createA2AServiceJsonRpcServer } from "../../generated-example/gen/a2a_a2a_jsonrpc_server.js";
import type { A2AServiceHandler } from "../../generated-example/gen/a2a_a2a_handler.js";
import {
  createA2AServiceTaskHandler,
  type A2AServiceExecutor,
} from "../../generated-example/gen/a2a_a2a_task_handler.js";
import { createA2AServiceSqliteTaskStore } from "../../generated-example/gen/a2a_a2a_sqlite_task_store.js";
import { Role, SendMessageResponseSchema } from "../../generated-example/gen/a2a_pb.js";
import { firstText, listenHttp, notBenchmarked, runBenchServer } from "../lib/bench-server.js";

const statelessHandler: A2AServiceHandler = {
  ...notBenchmarked,
  async sendMessage(request) {
    return create(SendMessageResponseSchema, {
      payload: {
        case: "message",
        value: {
          messageId: randomUUID(),
          contextId: request.message?.contextId ?? "",
          role: Role.AGENT,
          parts: [{ content: { case: "text", value: firstText(request.message) } }],
        },
      },
    });
  },
};

/** Answers with one stateless Message through the task runtime. */
const replyExecutor: A2AServiceExecutor = {
  async execute(context, emitter) {
    await emitter.reply(firstText(context.message));
  },
};

/** Creates a task and completes it: WORKING, one artifact, COMPLETED. */
const taskExecutor: A2AServiceExecutor = {
  async execute(context, emitter) {
    const text = firstText(context.message);
    await emitter.working("working on it");
    await emitter.addArtifact({
      name: "echo",
      parts: [{ content: { case: "text", value: text } }],
    });
    await emitter.complete("done");
  },
};

function listenerOf(handler: A2AServiceHandler): RequestListener {
  return createA2AServiceJsonRpcServer(handler).node as RequestListener;
}

function sqliteListener(): RequestListener {
  const path = process.env.BENCH_TASK_DB;
  if (path === undefined || path === "") throw new Error("task-sqlite: BENCH_TASK_DB is not set");
  const store = createA2AServiceSqliteTaskStore(path);
  process.once("exit", () => store.close());
  return listenerOf(
    createA2AServiceTaskHandler({ executor: taskExecutor, store, capabilities: {} }),
  );
}

const listeners: Record<string, () => RequestListener> = {
  stateless: () => listenerOf(statelessHandler),
  "task-reply": () =>
    listenerOf(createA2AServiceTaskHandler({ executor: replyExecutor, capabilities: {} })),
  "task-memory": () =>
    listenerOf(createA2AServiceTaskHandler({ executor: taskExecutor, capabilities: {} })),
  "task-sqlite": sqliteListener,
};

runBenchServer(
  "task-server.mjs",
  Object.fromEntries(
    Object.entries(listeners).map(([kind, make]) => [kind, () => listenHttp(make())]),
  ),
);
