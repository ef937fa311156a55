/**
 * One benchmark server per process, for bench/jsonrpc.mjs (bundled by it with esbuild into
 * node_modules/.cache/bench/). Usage: `node jsonrpc-server.mjs <kind>`, with an IPC channel:
 * the server listens on 127.0.0.1 (a free port), sends `{ ready: true, port }` to the parent,
 * and exits as soon as the parent goes away (IPC "disconnect"), however the parent ended.
 *
 * Kinds, all answering the same JSON-RPC `SendMessage` request with an echoed Message, and
 * `SendStreamingMessage` of the text "count N" with N events:
 * - bare:       node:http, JSON.parse + JSON.stringify of a fixed-shape result (the physical limit);
 * - ours-node:  our generated JSON-RPC server through its node adapter (`server.node`);
 * - ours-fetch: the same server through its fetch handler (`server.fetch`) behind a minimal
 *               node:http → Request/Response bridge, as fetch-style frameworks do on Node;
 * - bare-fetch: the bare handler as a fetch handler (Request → Response) behind the same bridge
 *               as ours-fetch, to separate the bridge's cost from ours;
 * - sdk:        @a2a-js/sdk 1.3.0, express 5 + `jsonRpcHandler` + DefaultRequestHandler.
 *
 * The parent may send `{ cmd: "cpu" }`; the answer is `{ cpu: <user+system µs so far> }`.
 */
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import { create } from "@bufbuild/protobuf";
import express from "express";
import { TaskState as SdkTaskState } from "@a2a-js/sdk";
import {
  AgentEvent,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext,
} from "@a2a-js/sdk/server";
import { UserBuilder, jsonRpcHandler } from "@a2a-js/sdk/server/express";
import { createA2AServiceJsonRpcServer } from "../../generated-example/gen/a2a_a2a_jsonrpc_server.js";
import type { A2AServiceHandler } from "../../generated-example/gen/a2a_a2a_handler.js";
import { firstText, listenHttp, notBenchmarked, runBenchServer } from "../lib/bench-server.js";
import {
  sdkAgentCard,
  sdkAgentMessage,
  sdkFirstText,
  sdkRequestHandler,
  sdkStatus,
} from "../../test/support/sdk-agent.js";
import {
  Role,
  SendMessageResponseSchema,
  StreamResponseSchema,
  type StreamResponse,
} from "../../generated-example/gen/a2a_pb.js";

/** Upper bound of "count N" streams, so a typo cannot make a server loop for ever. */
const MAX_STREAM_EVENTS = 1_000_000;

function streamCount(text: string): number | undefined {
  const n = /^count (\d+)$/.exec(text)?.[1];
  return n === undefined ? undefined : Math.min(Number(n), MAX_STREAM_EVENTS);
}

// ---------------------------------------------------------------------------------------
// bare node:http
// ---------------------------------------------------------------------------------------

interface BareRequest {
  id?: string | number | null;
  method?: string;
  params?: { message?: { contextId?: string; parts?: { text?: string }[] } };
}

function bareResult(body: BareRequest): string {
  const text = body.params?.message?.parts?.[0]?.text ?? "";
  const contextId = body.params?.message?.contextId ?? "";
  return JSON.stringify({
    jsonrpc: "2.0",
    id: body.id ?? null,
    result: {
      message: { messageId: randomUUID(), contextId, role: "ROLE_AGENT", parts: [{ text }] },
    },
  });
}

function bareListener(): RequestListener {
  return (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      let body: BareRequest;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as BareRequest;
      } catch {
        res.writeHead(400, { "content-type": "text/plain" }).end("bad json");
        return;
      }
      const n =
        body.method === "SendStreamingMessage"
          ? streamCount(body.params?.message?.parts?.[0]?.text ?? "")
          : undefined;
      if (n !== undefined) {
        void bareStream(res, body.id ?? null, n);
        return;
      }
      const out = bareResult(body);
      res
        .writeHead(200, {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(out),
        })
        .end(out);
    });
  };
}

async function bareStream(
  res: ServerResponse,
  id: string | number | null,
  n: number,
): Promise<void> {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  for (let i = 0; i < n && !res.destroyed; i++) {
    const event = {
      jsonrpc: "2.0",
      id,
      result: {
        message: { messageId: `event-${i}`, role: "ROLE_AGENT", parts: [{ text: `event ${i}` }] },
      },
    };
    if (!res.write(`data: ${JSON.stringify(event)}\n\n`)) await once(res, "drain");
  }
  res.end();
}

// ---------------------------------------------------------------------------------------
// ours: a minimal handler (echo + "count N" stream)
// ---------------------------------------------------------------------------------------

const benchHandler: A2AServiceHandler = {
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
  async *sendStreamingMessage(request): AsyncGenerator<StreamResponse> {
    const n = streamCount(firstText(request.message)) ?? 1;
    for (let i = 0; i < n; i++) {
      yield create(StreamResponseSchema, {
        payload: {
          case: "message",
          value: {
            messageId: `event-${i}`,
            role: Role.AGENT,
            parts: [{ content: { case: "text", value: `event ${i}` } }],
          },
        },
      });
    }
  },
};

function oursNodeListener(): RequestListener {
  return createA2AServiceJsonRpcServer(benchHandler).node as RequestListener;
}

/**
 * node:http → fetch bridge, the minimum a fetch-style framework does on Node: buffer the
 * body, build a Request (abort signal tied to the connection), await the handler's
 * Response, copy status and headers; a buffered body is written at once, an SSE body is
 * piped with back-pressure.
 */
function fetchListener(handle: (r: Request) => Promise<Response>): RequestListener {
  return (req, res) => {
    void bridge(handle, req, res).catch(() => res.destroy());
  };
}

/** The bare unary answer as a fetch handler (unary only). */
async function bareFetch(request: Request): Promise<Response> {
  let body: BareRequest;
  try {
    body = (await request.json()) as BareRequest;
  } catch {
    return new Response("bad json", { status: 400 });
  }
  return new Response(bareResult(body), {
    status: 200,
    headers: { "content-type": "application/json" },
  });
}

async function bridge(
  handle: (r: Request) => Promise<Response>,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const controller = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  const method = req.method ?? "GET";
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2)
    headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  let body: Buffer | undefined;
  if (method !== "GET" && method !== "HEAD") {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    body = Buffer.concat(chunks);
  }
  const request = new Request(`http://${req.headers.host ?? "127.0.0.1"}${req.url ?? "/"}`, {
    method,
    headers,
    body,
    signal: controller.signal,
  });
  const response = await handle(request);
  const out: Record<string, string> = {};
  response.headers.forEach((v, k) => {
    out[k] = v;
  });
  if (response.body === null) {
    res.writeHead(response.status, out).end();
    return;
  }
  if (!(out["content-type"] ?? "").startsWith("text/event-stream")) {
    // A buffered answer: one read, one write, with a content-length.
    const bytes = Buffer.from(await response.arrayBuffer());
    out["content-length"] = String(bytes.length);
    res.writeHead(response.status, out).end(bytes);
    return;
  }
  res.writeHead(response.status, out);
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await once(res, "drain");
    }
  } finally {
    reader.releaseLock();
  }
  res.end();
}

// ---------------------------------------------------------------------------------------
// @a2a-js/sdk 1.3.0
// ---------------------------------------------------------------------------------------

/** Echoes in a Message; "count N": a Task, N-2 WORKING status updates, one COMPLETED (N events). */
class SdkBenchExecutor implements AgentExecutor {
  async execute(ctx: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const text = String(sdkFirstText(ctx.userMessage.parts) ?? "");
    const n = streamCount(text);
    const { taskId, contextId } = ctx;
    if (n === undefined) {
      bus.publish(sdkAgentMessage(contextId, text, randomUUID()));
      return;
    }
    bus.publish(
      AgentEvent.task({
        id: taskId,
        contextId,
        status: sdkStatus(SdkTaskState.TASK_STATE_WORKING),
        artifacts: [],
        history: [],
        metadata: undefined,
      }),
    );
    for (let i = 0; i < n - 2; i++)
      bus.publish(
        AgentEvent.statusUpdate({
          taskId,
          contextId,
          status: sdkStatus(SdkTaskState.TASK_STATE_WORKING),
          metadata: undefined,
        }),
      );
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId,
        status: sdkStatus(SdkTaskState.TASK_STATE_COMPLETED),
        metadata: undefined,
      }),
    );
  }
  cancelTask = async (): Promise<void> => {};
}

function sdkListener(): RequestListener {
  const card = sdkAgentCard({
    name: "SDK bench",
    description: "echo",
    url: "http://127.0.0.1/",
    protocolBinding: "JSONRPC",
  });
  const requestHandler = sdkRequestHandler(card, new SdkBenchExecutor());
  const app = express();
  app.use("/", jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));
  return app as unknown as RequestListener;
}

// ---------------------------------------------------------------------------------------
// main
// ---------------------------------------------------------------------------------------

const listeners: Record<string, () => RequestListener> = {
  bare: bareListener,
  "ours-node": oursNodeListener,
  "ours-fetch": () => fetchListener(createA2AServiceJsonRpcServer(benchHandler).fetch),
  "bare-fetch": () => fetchListener(bareFetch),
  sdk: sdkListener,
};

runBenchServer(
  "server.mjs",
  Object.fromEntries(
    Object.entries(listeners).map(([kind, make]) => [kind, () => listenHttp(make())]),
  ),
);
