/**
 * One HTTP+JSON benchmark server per process, for bench/rest.mjs (bundled by it with esbuild into
 * node_modules/.cache/bench/). Usage: `node rest-server.mjs <kind>`, with an IPC channel: the server listens on
 * 127.0.0.1 (a free port), sends `{ ready: true, port }` to the parent, and exits as soon as the parent goes away
 * (IPC "disconnect"), however the parent ended.
 *
 * Kinds, all answering the same two requests:
 *   POST /message:send  {"message": {…, "parts": [{"text": T}]}}
 *        → T = "task": {"task": Task(COMPLETED, history = [the user message])}; otherwise {"message": echo of T}
 *   GET  /tasks/{id}     → that Task (ids come from a "task" send, so every kind answers a stored-like task)
 * - bare:      node:http, JSON.parse + JSON.stringify of the same shapes (the physical limit);
 * - ours-node: our generated REST server through its node adapter (`server.node`) with an echo handler;
 * - sdk:       @a2a-js/sdk 1.3.0, express 5 + `restHandler` + DefaultRequestHandler with an equivalent executor
 *              (GET /tasks/{id} reads its InMemoryTaskStore).
 *
 * The parent may send `{ cmd: "cpu" }`; the answer is `{ cpu: <user+system µs so far> }`.
 */
import { randomUUID } from "node:crypto";
import type { RequestListener } from "node:http";
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import express from "express";
import { TaskState as SdkTaskState } from "@a2a-js/sdk";
import type { AgentExecutor, ExecutionEventBus, RequestContext } from "@a2a-js/sdk/server";
import { UserBuilder, restHandler } from "@a2a-js/sdk/server/express";
import { createA2AServiceRestServer } from "../../generated-example/gen/a2a_a2a_rest_server.js";
import type { A2AServiceHandler } from "../../generated-example/gen/a2a_a2a_handler.js";
import { TaskNotFoundError } from "../../generated-example/gen/a2a_a2a_errors.js";
import { firstText, listenHttp, notBenchmarked, runBenchServer } from "../lib/bench-server.js";
import {
  publishSdkTask,
  sdkAgentCard,
  sdkAgentMessage,
  sdkFirstText,
  sdkRequestHandler,
} from "../../test/support/sdk-agent.js";
import {
  Role,
  SendMessageResponseSchema,
  TaskSchema,
  TaskState,
  type Message,
  type Task,
} from "../../generated-example/gen/a2a_pb.js";

const CONTEXT_ID = "bench-context";

// ---------------------------------------------------------------------------------------
// bare node:http
// ---------------------------------------------------------------------------------------

interface BareMessage {
  messageId?: string;
  contextId?: string;
  role?: string;
  parts?: { text?: string }[];
}

function bareTask(id: string, userMessage: BareMessage): unknown {
  return {
    id,
    contextId: CONTEXT_ID,
    status: { state: "TASK_STATE_COMPLETED", timestamp: new Date().toISOString() },
    history: [userMessage],
  };
}

function bareListener(): RequestListener {
  const tasks = new Map<string, BareMessage>();
  const send = (res: Parameters<RequestListener>[1], status: number, body: string) =>
    res
      .writeHead(status, {
        "content-type": "application/a2a+json",
        "content-length": Buffer.byteLength(body),
      })
      .end(body);
  return (req, res) => {
    const url = req.url ?? "/";
    if (req.method === "GET") {
      const m = /^\/tasks\/([^/?:]+)(?:\?|$)/.exec(url);
      const id = m === null ? undefined : decodeURIComponent(m[1]!);
      const message = id === undefined ? undefined : tasks.get(id);
      if (id === undefined || message === undefined)
        return send(
          res,
          404,
          JSON.stringify({
            error: { code: 404, status: "NOT_FOUND", message: "not found", details: [] },
          }),
        );
      return send(res, 200, JSON.stringify(bareTask(id, message)));
    }
    if (req.method !== "POST" || url !== "/message:send")
      return send(
        res,
        404,
        '{"error":{"code":404,"status":"NOT_FOUND","message":"not found","details":[]}}',
      );
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      let body: { message?: BareMessage };
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { message?: BareMessage };
      } catch {
        return send(
          res,
          400,
          '{"error":{"code":400,"status":"INVALID_ARGUMENT","message":"bad json","details":[]}}',
        );
      }
      const message = body.message ?? {};
      const text = message.parts?.[0]?.text ?? "";
      if (text === "task") {
        const id = `bench-task-${randomUUID()}`;
        tasks.set(id, message);
        return send(res, 200, JSON.stringify({ task: bareTask(id, message) }));
      }
      send(
        res,
        200,
        JSON.stringify({
          message: {
            messageId: randomUUID(),
            contextId: message.contextId ?? "",
            role: "ROLE_AGENT",
            parts: [{ text }],
          },
        }),
      );
    });
  };
}

// ---------------------------------------------------------------------------------------
// ours: an echo handler with a task store of one map
// ---------------------------------------------------------------------------------------

function oursListener(): RequestListener {
  const tasks = new Map<string, Message | undefined>();
  const task = (id: string, message: Message | undefined): Task =>
    create(TaskSchema, {
      id,
      contextId: CONTEXT_ID,
      status: { state: TaskState.COMPLETED, timestamp: timestampFromDate(new Date()) },
      history: message === undefined ? [] : [message],
    });
  const handler: A2AServiceHandler = {
    ...notBenchmarked,
    async sendMessage(request) {
      const text = firstText(request.message);
      if (text === "task") {
        const id = `bench-task-${randomUUID()}`;
        tasks.set(id, request.message);
        return create(SendMessageResponseSchema, {
          payload: { case: "task", value: task(id, request.message) },
        });
      }
      return create(SendMessageResponseSchema, {
        payload: {
          case: "message",
          value: {
            messageId: randomUUID(),
            contextId: request.message?.contextId ?? "",
            role: Role.AGENT,
            parts: [{ content: { case: "text", value: text } }],
          },
        },
      });
    },
    async getTask(request) {
      if (!tasks.has(request.id)) throw new TaskNotFoundError(`Task ${request.id} not found`);
      return task(request.id, tasks.get(request.id));
    },
  };
  return createA2AServiceRestServer(handler, { logger: { error: (m, c) => console.error(m, c) } })
    .node as RequestListener;
}

// ---------------------------------------------------------------------------------------
// @a2a-js/sdk 1.3.0
// ---------------------------------------------------------------------------------------

/** "task": one Task, COMPLETED, with the user message as history; anything else: the echoed Message. */
class SdkBenchExecutor implements AgentExecutor {
  async execute(ctx: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const text = String(sdkFirstText(ctx.userMessage.parts) ?? "");
    if (text === "task") {
      publishSdkTask(ctx, bus, SdkTaskState.TASK_STATE_COMPLETED);
      return;
    }
    bus.publish(sdkAgentMessage(ctx.contextId, text, randomUUID()));
  }
  cancelTask = async (): Promise<void> => {};
}

function sdkListener(): RequestListener {
  const card = sdkAgentCard({
    name: "SDK bench",
    description: "echo",
    url: "http://127.0.0.1/",
    protocolBinding: "HTTP+JSON",
  });
  const requestHandler = sdkRequestHandler(card, new SdkBenchExecutor());
  const app = express();
  app.use("/", restHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));
  return app as unknown as RequestListener;
}

// ---------------------------------------------------------------------------------------
// main
// ---------------------------------------------------------------------------------------

const listeners: Record<string, () => RequestListener> = {
  bare: bareListener,
  "ours-node": oursListener,
  sdk: sdkListener,
};

runBenchServer(
  "rest-server.mjs",
  Object.fromEntries(
    Object.entries(listeners).map(([kind, make]) => [kind, () => listenHttp(make())]),
  ),
);
