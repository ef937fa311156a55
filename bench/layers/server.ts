/**
 * The servers of bench/layers.mjs, one per child process: the JSON-RPC SendMessage path from bare node:http
 * to the example agent as shipped, one layer added at a time (every one answers POST /a2a/jsonrpc):
 * - bare:      node:http, the request parsed and answered by hand (bench/agent/server.ts's bare server);
 * - adapter:   the runtime's node adapter (`serveNode`: body limits, write budget, slow-reader watch) around the
 *              same hand-written answer as a UniversalHandler;
 * - pipeline:  + the generated JSON-RPC server over the generated task handler (the example executor, memory
 *              store): version negotiation, REQUIRED checks, ProtoJSON, the task runtime;
 * - limits:    + `createA2AHttpServer` (header, slowloris and keep-alive limits) instead of node's createServer;
 * - composed:  + what the example composes around it: `composeHandlers` with the card, CORS, the auth hook,
 *              Connect routes mounted on the same port, the 0.3 wire;
 * - example:   the example agent exactly as `npm run example` starts it.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import {
  composeHandlers,
  createA2AHttpServer,
  serveNode,
  withCors,
  type UniversalHandler,
} from "@protoc-gen-a2a/runtime/http";
import { mountConnectRoutes } from "@protoc-gen-a2a/runtime/grpc";
import {
  createExampleExecutor,
  startExampleAgent,
} from "../../generated-example/agent/echo-agent.js";
import { createA2AServiceJsonRpcServer } from "../../generated-example/gen/a2a_a2a_jsonrpc_server.js";
import { createA2AServiceGrpcRoutes } from "../../generated-example/gen/a2a_a2a_grpc_server.js";
import { createA2AServiceTaskHandler } from "../../generated-example/gen/a2a_a2a_task_handler.js";
import { createA2AServiceV03 } from "../../generated-example/gen/a2a_a2a_v03.js";
import { runBenchServer } from "../lib/bench-server.js";

interface RpcRequest {
  id?: unknown;
  method?: unknown;
  params?: { message?: { messageId?: unknown; contextId?: unknown; parts?: { text?: unknown }[] } };
}

/** The Message echo or a completed task, by hand (the answer bench/agent's bare server gives). */
function answer(text: string): string {
  let rpc: RpcRequest;
  try {
    rpc = JSON.parse(text) as RpcRequest;
  } catch {
    return JSON.stringify({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32700, message: "parse error" },
    });
  }
  const message = rpc.params?.message;
  const input = message?.parts?.[0]?.text;
  if (
    rpc.method !== "SendMessage" ||
    typeof message?.messageId !== "string" ||
    typeof input !== "string"
  ) {
    return JSON.stringify({
      jsonrpc: "2.0",
      id: rpc.id ?? null,
      error: { code: -32602, message: "invalid params" },
    });
  }
  const contextId = typeof message.contextId === "string" ? message.contextId : randomUUID();
  if (input.startsWith("tck-complete-task")) {
    const id = randomUUID();
    const now = new Date().toISOString();
    const task = {
      id,
      contextId,
      status: {
        state: "TASK_STATE_COMPLETED",
        timestamp: now,
        message: {
          messageId: randomUUID(),
          role: "ROLE_AGENT",
          parts: [{ text: "Task completed." }],
        },
      },
      artifacts: [
        { artifactId: "response", name: "response", parts: [{ text: `Completed: ${input}` }] },
      ],
      history: [{ ...message, taskId: id, contextId }],
    };
    return JSON.stringify({ jsonrpc: "2.0", id: rpc.id ?? null, result: { task } });
  }
  const reply = {
    messageId: randomUUID(),
    contextId,
    role: "ROLE_AGENT",
    parts: [{ text: input }],
  };
  return JSON.stringify({ jsonrpc: "2.0", id: rpc.id ?? null, result: { message: reply } });
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

async function bare(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = answer(await readBody(req));
  res.writeHead(200, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(body),
  });
  res.end(body);
}

const decoder = new TextDecoder();
const handAnswer: UniversalHandler = async (request) => {
  const bytes = await request.readBody(1024 * 1024);
  if (bytes === "too-large")
    return { status: 413, headers: [["content-type", "application/json"]], body: "{}" };
  const body = answer(decoder.decode(bytes));
  return { status: 200, headers: [["content-type", "application/json"]], body };
};

function listen(server: Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)),
  );
}

function taskHandler() {
  return createA2AServiceTaskHandler({
    executor: createExampleExecutor({
      longRunningMs: 1500,
      shutdown: new AbortController().signal,
    }),
    capabilities: { streaming: true, pushNotifications: false },
    clientContextIds: "known",
  });
}

/** The generated JSON-RPC server on the task handler, as a prefixed handler (the example's JSON-RPC path). */
function jsonRpc(options: { authenticate?: () => undefined; v03?: boolean } = {}) {
  const handler = taskHandler();
  const v03 = options.v03 === true ? createA2AServiceV03(handler) : undefined;
  const server = createA2AServiceJsonRpcServer(handler, {
    ...(options.authenticate === undefined
      ? { versionWhenMissing: "1.0" as const }
      : { authenticate: options.authenticate }),
    ...(v03 === undefined ? {} : { wires: [v03.jsonRpcWire] }),
  });
  return { handler, server };
}

runBenchServer("layers-server.mjs", {
  bare: () => listen(createServer((req, res) => void bare(req, res))),
  adapter: () =>
    listen(
      createServer(serveNode(composeHandlers({ prefix: "/a2a/jsonrpc", handler: handAnswer }))),
    ),
  pipeline: () =>
    listen(
      createServer(
        serveNode(composeHandlers({ prefix: "/a2a/jsonrpc", handler: jsonRpc().server.handler })),
      ),
    ),
  limits: () =>
    listen(
      createA2AHttpServer(
        undefined,
        serveNode(composeHandlers({ prefix: "/a2a/jsonrpc", handler: jsonRpc().server.handler })),
      ),
    ),
  composed: () => {
    const { handler, server } = jsonRpc({ authenticate: () => undefined, v03: true });
    const http = createA2AHttpServer();
    const bindings = serveNode(
      composeHandlers(
        { prefix: "/.well-known/agent-card.json", handler: handAnswer },
        { prefix: "/a2a/jsonrpc", handler: withCors(server.handler) },
      ),
    );
    const routes = createA2AServiceGrpcRoutes(handler, { authenticate: () => undefined });
    http.on("request", mountConnectRoutes(routes, bindings, { prefix: "/a2a/connect" }));
    return listen(http);
  },
  example: async () => {
    const agent = await startExampleAgent({ httpPort: 0, grpcPort: 0 });
    return Number(new URL(agent.endpoints.jsonrpc).port);
  },
});
