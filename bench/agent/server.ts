/**
 * The servers of bench/agent.mjs, one per child process, each serving JSON-RPC at /a2a/jsonrpc and
 * HTTP+JSON at /a2a/rest on one port:
 * - bare:           node:http doing the same JSON work by hand: parse the request, check the few fields
 *                   a server must, answer a Message echo or create + complete a task (kept in a Map with
 *                   its history, as a task store would), GetTask from the Map, ListTasks of a context
 *                   (newest first, artifacts left out as ListTasks does by default); the physical limit;
 * - example:        the example agent exactly as `npm run example` starts it (generated-example/agent:
 *                   auth hook, composed handlers, card, task runtime, in-memory store);
 * - example-sqlite: the same with `A2A_TASK_DB` (SQLite, WAL) on a temp file;
 * - sdk:            @a2a-js/sdk 1.3.0 (express 5, jsonRpcHandler + restHandler, DefaultRequestHandler,
 *                   InMemoryTaskStore) with an executor doing what the example agent's behaviours do.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { UserBuilder, jsonRpcHandler, restHandler } from "@a2a-js/sdk/server/express";
import express from "express";
import { startExampleAgent } from "../../generated-example/agent/echo-agent.js";
import { sdkAgentCard, sdkRequestHandler } from "../../test/support/sdk-agent.js";
import { runBenchServer } from "../lib/bench-server.js";
import { SdkAgentExecutor } from "../lib/sdk-agent-executor.js";

// ---------------------------------------------------------------------------------------
// bare node:http
// ---------------------------------------------------------------------------------------

interface BareMessage {
  messageId?: unknown;
  contextId?: unknown;
  role?: unknown;
  parts?: { text?: unknown }[];
}

/** Task id → its JSON, as GetTask answers it. */
const tasks = new Map<string, string>();
/** Context id → its tasks, oldest first. */
const contexts = new Map<string, object[]>();

/** ListTasks of a context: newest first, without artifacts, one page of at most 50. */
function bareList(contextId: unknown): string {
  const all = typeof contextId === "string" ? (contexts.get(contextId) ?? []) : [];
  const page = all
    .slice(-50)
    .reverse()
    .map((t) => ({ ...t, artifacts: undefined }));
  return JSON.stringify({ tasks: page, nextPageToken: "", pageSize: 50, totalSize: all.length });
}

/** The Message echo or the COMPLETED task (the JSON the agent answers), or an error text. */
function bareSend(message: BareMessage | undefined): { json: object } | { error: string } {
  if (
    typeof message?.messageId !== "string" ||
    message.messageId === "" ||
    message.role !== "ROLE_USER" ||
    !Array.isArray(message.parts) ||
    message.parts.length === 0
  ) {
    return { error: "invalid message" };
  }
  const text = typeof message.parts[0]?.text === "string" ? message.parts[0].text : "";
  const contextId =
    typeof message.contextId === "string" && message.contextId !== ""
      ? message.contextId
      : randomUUID();
  if (!text.startsWith("tck-complete-task")) {
    return {
      json: {
        message: { messageId: randomUUID(), contextId, role: "ROLE_AGENT", parts: [{ text }] },
      },
    };
  }
  const id = randomUUID();
  const done = {
    messageId: randomUUID(),
    contextId,
    taskId: id,
    role: "ROLE_AGENT",
    parts: [{ text: "Task completed." }],
  };
  const task = {
    id,
    contextId,
    status: { state: "TASK_STATE_COMPLETED", message: done, timestamp: new Date().toISOString() },
    artifacts: [
      { artifactId: "response", name: "response", parts: [{ text: `Completed: ${text}` }] },
    ],
    history: [{ ...message, contextId, taskId: id }, done],
  };
  tasks.set(id, JSON.stringify(task));
  let list = contexts.get(contextId);
  if (list === undefined) contexts.set(contextId, (list = []));
  list.push(task);
  return { json: { task } };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function send(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(body),
  });
  res.end(body);
}

const rpcError = (id: unknown, code: number, message: string) =>
  JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } });
const httpError = (code: number, status: string, message: string) =>
  JSON.stringify({ error: { code, status, message } });

async function bare(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = req.url ?? "/";
  if (req.method === "POST" && url === "/a2a/jsonrpc") {
    let rpc: {
      id?: unknown;
      method?: unknown;
      params?: { message?: BareMessage; id?: unknown; contextId?: unknown };
    };
    try {
      rpc = JSON.parse(await readBody(req));
    } catch {
      return send(res, 200, rpcError(null, -32700, "parse error"));
    }
    const id = rpc.id ?? null;
    if (rpc.method === "SendMessage") {
      const out = bareSend(rpc.params?.message);
      return send(
        res,
        200,
        "json" in out
          ? JSON.stringify({ jsonrpc: "2.0", id, result: out.json })
          : rpcError(id, -32602, out.error),
      );
    }
    if (rpc.method === "GetTask") {
      const task = typeof rpc.params?.id === "string" ? tasks.get(rpc.params.id) : undefined;
      return send(
        res,
        200,
        task === undefined
          ? rpcError(id, -32001, "task not found")
          : `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${task}}`,
      );
    }
    if (rpc.method === "ListTasks")
      return send(
        res,
        200,
        `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${bareList(rpc.params?.contextId)}}`,
      );
    return send(res, 200, rpcError(id, -32601, "method not found"));
  }
  if (req.method === "POST" && url === "/a2a/rest/message:send") {
    let body: { message?: BareMessage };
    try {
      body = JSON.parse(await readBody(req));
    } catch {
      return send(res, 400, httpError(400, "INVALID_ARGUMENT", "parse error"));
    }
    const out = bareSend(body.message);
    return "json" in out
      ? send(res, 200, JSON.stringify(out.json))
      : send(res, 400, httpError(400, "INVALID_ARGUMENT", out.error));
  }
  if (req.method === "GET" && (url === "/a2a/rest/tasks" || url.startsWith("/a2a/rest/tasks?"))) {
    return send(
      res,
      200,
      bareList(new URLSearchParams(url.slice("/a2a/rest/tasks".length)).get("contextId")),
    );
  }
  if (req.method === "GET" && url.startsWith("/a2a/rest/tasks/")) {
    const task = tasks.get(decodeURIComponent(url.slice("/a2a/rest/tasks/".length).split("?")[0]!));
    return task === undefined
      ? send(res, 404, httpError(404, "NOT_FOUND", "task not found"))
      : send(res, 200, task);
  }
  send(res, 404, httpError(404, "NOT_FOUND", "no route"));
}

function listen(listener: Parameters<typeof createServer>[1]): Promise<number> {
  const server = createServer(listener);
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)),
  );
}

// ---------------------------------------------------------------------------------------
// the example agent, as shipped
// ---------------------------------------------------------------------------------------

async function listenExample(taskDatabase?: string): Promise<number> {
  const agent = await startExampleAgent({
    httpPort: 0,
    grpcPort: 0,
    ...(taskDatabase !== undefined ? { taskDatabase } : {}),
  });
  return Number(new URL(agent.endpoints.jsonrpc).port);
}

// ---------------------------------------------------------------------------------------
// @a2a-js/sdk 1.3.0
// ---------------------------------------------------------------------------------------

function listenSdk(): Promise<number> {
  const jsonrpc = sdkAgentCard({
    name: "SDK bench",
    description: "echo",
    url: "http://127.0.0.1/a2a/jsonrpc",
    protocolBinding: "JSONRPC",
  });
  const rest = sdkAgentCard({
    name: "SDK bench",
    description: "echo",
    url: "http://127.0.0.1/a2a/rest",
    protocolBinding: "HTTP+JSON",
  });
  // One handler (one task store) for both bindings, its card listing both interfaces.
  const card = {
    ...jsonrpc,
    supportedInterfaces: [...jsonrpc.supportedInterfaces, ...rest.supportedInterfaces],
  };
  const requestHandler = sdkRequestHandler(card, new SdkAgentExecutor());
  const app = express();
  app.use(
    "/a2a/jsonrpc",
    jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }),
  );
  app.use("/a2a/rest", restHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));
  return listen(app);
}

runBenchServer("agent-server.mjs", {
  bare: () => listen((req, res) => void bare(req, res)),
  example: () => listenExample(),
  "example-sqlite": () => listenExample(process.env["BENCH_AGENT_DB"]),
  sdk: listenSdk,
});
