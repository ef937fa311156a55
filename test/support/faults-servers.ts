/**
 * Shared by the test/e2e/faults/*.test.ts files: the four servers the generated code starts (JSON-RPC and
 * HTTP+JSON on node:http, gRPC on grpc-js and on Connect), each over a given handler, on 127.0.0.1, with
 * the generated client that talks to it, a logger that records what the server logged, and the process's
 * open file descriptors (server and client are one process: /proc/self/fd counts both sides).
 */
import { readdirSync } from "node:fs";
import { listenGrpc } from "@protoc-gen-a2a/runtime/grpc";
import type { A2AServiceHandler } from "../../generated-example/gen/a2a_a2a_handler.js";
import { createA2AServiceJsonRpcServer } from "../../generated-example/gen/a2a_a2a_jsonrpc_server.js";
import { createA2AServiceRestServer } from "../../generated-example/gen/a2a_a2a_rest_server.js";
import {
  createA2AServiceGrpcRoutes,
  listenA2AServiceGrpc,
} from "../../generated-example/gen/a2a_a2a_grpc_server.js";
import { A2AServiceJsonRpcClient } from "../../generated-example/gen/a2a_a2a_jsonrpc_client.js";
import { A2AServiceRestClient } from "../../generated-example/gen/a2a_a2a_rest_client.js";
import { A2AServiceGrpcClient } from "../../generated-example/gen/a2a_a2a_grpc_client.js";
import { Role } from "../../generated-example/gen/a2a_pb.js";
import { listen } from "./servers.js";

/** Open file descriptors of this process. */
export const openFds = (): number => readdirSync("/proc/self/fd").length;

/** What the server logged: `[message, error]` pairs. */
export type Logged = [string, unknown][];

/** A server of one binding over a handler, and a client of it. */
export interface FaultServer {
  /** The binding's name, as the tests print it. */
  readonly name: string;
  /** `host:port` for gRPC, the URL otherwise. */
  readonly address: string;
  readonly port: number;
  /** The generated client of the binding (HTTP/2 for both gRPC stacks). */
  readonly client: A2AServiceJsonRpcClient | A2AServiceRestClient | A2AServiceGrpcClient;
  /** What the server's logger got. */
  readonly logged: Logged;
  close(): Promise<void>;
}

/** Starts one binding's server over `handler`. */
export type StartServer = (handler: A2AServiceHandler) => Promise<FaultServer>;

/** The four servers, by binding name. */
export const SERVERS: readonly {
  readonly name: string;
  readonly start: StartServer;
  readonly grpc: boolean;
}[] = [
  {
    name: "JSON-RPC",
    grpc: false,
    start: async (handler) => {
      const logged: Logged = [];
      const server = await listen(
        createA2AServiceJsonRpcServer(handler, { logger: { error: (m, e) => logged.push([m, e]) } })
          .node,
      );
      return {
        name: "JSON-RPC",
        address: server.url,
        port: server.port,
        client: new A2AServiceJsonRpcClient({ url: server.url }),
        logged,
        close: () => server.close(),
      };
    },
  },
  {
    name: "HTTP+JSON",
    grpc: false,
    start: async (handler) => {
      const logged: Logged = [];
      const server = await listen(
        createA2AServiceRestServer(handler, { logger: { error: (m, e) => logged.push([m, e]) } })
          .node,
      );
      const url = server.url.replace(/\/$/, "");
      return {
        name: "HTTP+JSON",
        address: url,
        port: server.port,
        client: new A2AServiceRestClient({ url }),
        logged,
        close: () => server.close(),
      };
    },
  },
  {
    name: "gRPC (grpc-js)",
    grpc: true,
    start: async (handler) => {
      const logged: Logged = [];
      const endpoint = await listenA2AServiceGrpc(handler, {
        logger: { error: (m, e) => logged.push([m, e]) },
      });
      return {
        name: "gRPC (grpc-js)",
        address: endpoint.address,
        port: endpoint.port,
        client: new A2AServiceGrpcClient({ address: endpoint.address }),
        logged,
        close: () => endpoint.close(),
      };
    },
  },
  {
    name: "gRPC (Connect)",
    grpc: true,
    start: async (handler) => {
      const logged: Logged = [];
      const endpoint = await listenGrpc(
        createA2AServiceGrpcRoutes(handler, { logger: { error: (m, e) => logged.push([m, e]) } }),
      );
      return {
        name: "gRPC (Connect)",
        address: endpoint.address,
        port: endpoint.port,
        client: new A2AServiceGrpcClient({ address: endpoint.address }),
        logged,
        close: () => endpoint.close(),
      };
    },
  },
];

/** The rejection of `promise` (fails when it resolves). */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (e) {
    return e;
  }
  throw new Error("expected the call to fail, it succeeded");
}

/** A one-part user text message init. */
export function message(text: string, ids: { taskId?: string } = {}) {
  return {
    message: {
      messageId: `m-${Math.random().toString(36).slice(2)}`,
      role: Role.USER,
      parts: [{ content: { case: "text" as const, value: text } }],
      ...ids,
    },
  };
}
