// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * For the security tests (test/e2e/security/*.test.ts): one handler served on every binding and
 * every server path the runtime has, with the same server options (the auth hook), on 127.0.0.1,
 * and a generated client of each:
 * - JSON-RPC and HTTP+JSON (node:http), gRPC-web and the Connect protocol (the Connect routes on
 *   the same HTTP/1.1 port), A2A over WebSocket (the custom binding of generated-example/bindings/ws,
 *   on the same port's upgrades);
 * - gRPC on grpc-js (the generated `listenA2AServiceGrpc`) and gRPC on Connect over node:http2
 *   (`listenGrpc`: its unary calls take the lean path of runtime/src/grpc/lean-unary.ts).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { CallContext, ServerOptions } from "@protoc-gen-a2a/runtime";
import { composeHandlers, serveNode } from "@protoc-gen-a2a/runtime/http";
import { listenGrpc, mountConnectRoutes } from "@protoc-gen-a2a/runtime/grpc";
import { createConnectTransport, createGrpcWebTransport } from "@connectrpc/connect-node";
import {
  A2AServiceOperations,
  type A2AServiceClient,
  type A2AServiceHandler,
} from "../../generated-example/gen/a2a_a2a_handler.js";
import { createA2AServiceJsonRpcServer } from "../../generated-example/gen/a2a_a2a_jsonrpc_server.js";
import { createA2AServiceRestServer } from "../../generated-example/gen/a2a_a2a_rest_server.js";
import {
  createA2AServiceGrpcRoutes,
  listenA2AServiceGrpc,
} from "../../generated-example/gen/a2a_a2a_grpc_server.js";
import { A2AServiceJsonRpcClient } from "../../generated-example/gen/a2a_a2a_jsonrpc_client.js";
import { A2AServiceRestClient } from "../../generated-example/gen/a2a_a2a_rest_client.js";
import { A2AServiceGrpcClient } from "../../generated-example/gen/a2a_a2a_grpc_client.js";
import { attachWsServer } from "../../generated-example/bindings/ws/ws-server.js";
import {
  A2AServiceWsClient,
  connectWs,
  type WsSocketConnection,
} from "../../generated-example/bindings/ws/ws-client.js";

/** Every server path a call can take, by the name the tests print. */
export const SERVER_PATHS = [
  "JSONRPC",
  "HTTP+JSON",
  "GRPC (grpc-js)",
  "GRPC (Connect h2, lean unary)",
  "GRPC-WEB",
  "CONNECT",
  "WS",
] as const;
/** One of {@link SERVER_PATHS}. */
export type ServerPath = (typeof SERVER_PATHS)[number];

/** The servers of {@link startAllBindings}: where they listen and a client of each. */
export interface AllBindings {
  readonly clients: Readonly<Record<ServerPath, A2AServiceClient>>;
  /** JSON-RPC endpoint URL. */
  readonly jsonrpc: string;
  /** HTTP+JSON base URL. */
  readonly rest: string;
  /** Base URL of the Connect routes (gRPC-web, Connect protocol). */
  readonly connect: string;
  /** ws:// URL of the WebSocket binding. */
  readonly ws: string;
  /** host:port of the grpc-js server. */
  readonly grpcJs: string;
  /** host:port of the Connect node:http2 server. */
  readonly grpcConnect: string;
  close(): Promise<void>;
}

/** Serves `handler` on every binding with `options` (the same auth hook, logger, … everywhere). */
export async function startAllBindings<P>(
  handler: A2AServiceHandler<P>,
  options: ServerOptions<P>,
): Promise<AllBindings> {
  const jsonrpc = createA2AServiceJsonRpcServer(handler, options);
  const rest = createA2AServiceRestServer(handler, { ...options, basePath: "/rest" });
  const http: Server = createServer();
  const sockets = new Set<Socket>();
  http.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  const fallback = serveNode(
    composeHandlers(
      { prefix: "/jsonrpc", handler: jsonrpc.handler },
      { prefix: "/rest", handler: rest.handler },
    ),
  );
  http.on(
    "request",
    mountConnectRoutes(createA2AServiceGrpcRoutes(handler, options), fallback, {
      prefix: "/connect",
    }),
  );
  const ws = attachWsServer(http, handler, { ...options, path: "/ws", pingIntervalMs: 0 });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const grpcJs = await listenA2AServiceGrpc(handler, {
    ...options,
    listen: { host: "127.0.0.1", port: 0 },
  });
  const grpcConnect = await listenGrpc(createA2AServiceGrpcRoutes(handler, options), {
    host: "127.0.0.1",
    port: 0,
  });
  const wsUrl = `ws://127.0.0.1:${(http.address() as AddressInfo).port}/ws`;
  const wsConnection: WsSocketConnection = connectWs(wsUrl);
  const connect = `${base}/connect`;
  const clients: Record<ServerPath, A2AServiceClient> = {
    JSONRPC: new A2AServiceJsonRpcClient({ url: `${base}/jsonrpc` }),
    "HTTP+JSON": new A2AServiceRestClient({ url: `${base}/rest` }),
    "GRPC (grpc-js)": new A2AServiceGrpcClient({ address: grpcJs.address }),
    "GRPC (Connect h2, lean unary)": new A2AServiceGrpcClient({ address: grpcConnect.address }),
    "GRPC-WEB": new A2AServiceGrpcClient({
      address: connect,
      transport: createGrpcWebTransport({ baseUrl: connect, httpVersion: "1.1" }),
    }),
    CONNECT: new A2AServiceGrpcClient({
      address: connect,
      transport: createConnectTransport({ baseUrl: connect, httpVersion: "1.1" }),
    }),
    WS: new A2AServiceWsClient({ url: wsUrl, connection: wsConnection }),
  };
  return {
    clients,
    jsonrpc: `${base}/jsonrpc`,
    rest: `${base}/rest`,
    connect,
    ws: wsUrl,
    grpcJs: grpcJs.address,
    grpcConnect: grpcConnect.address,
    close: async () => {
      await wsConnection.close();
      await ws.close();
      for (const s of sockets) s.destroy();
      await Promise.all([
        new Promise<void>((resolve) => http.close(() => resolve())),
        grpcJs.close(),
        grpcConnect.close(),
      ]);
    },
  };
}

/** What {@link spyHandler} records of a call: the RPC name, and the principal and tenant of its context. */
export interface SpiedCall {
  readonly operation: string;
  readonly principal: unknown;
  readonly tenant: string;
}

/**
 * A handler that records every call its methods get before passing it to `inner`: `calls` the RPC
 * names, `contexts` what the call's context said.
 */
export function spyHandler<P>(inner: A2AServiceHandler<P>): {
  handler: A2AServiceHandler<P>;
  calls: string[];
  contexts: SpiedCall[];
} {
  type Method = (request: unknown, context: CallContext<P>) => unknown;
  const methods = inner as unknown as Record<string, Method>;
  const calls: string[] = [];
  const contexts: SpiedCall[] = [];
  const out: Record<string, Method> = {};
  for (const op of Object.values(A2AServiceOperations)) {
    const method = methods[op.localName]!.bind(inner);
    out[op.localName] = (request, context) => {
      calls.push(op.name);
      contexts.push({ operation: op.name, principal: context.principal, tenant: context.tenant });
      return method(request, context);
    };
  }
  return { handler: out as unknown as A2AServiceHandler<P>, calls, contexts };
}
