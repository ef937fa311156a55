/**
 * Sources of a small task-runtime agent, written into the throwaway agent projects of
 * test/e2e/codegen/proto-shape-changes.test.ts next to their generated code (src/gen), then type-checked with
 * it under the strict tsconfig and imported by the test:
 *
 * - `src/serve.ts` (every project whose output has the task runtime): an executor, and the
 *   generated JSON-RPC, HTTP+JSON and gRPC servers of a handler on 127.0.0.1 with the generated
 *   client of each;
 * - `src/archive.ts` (the added-rpc project): the handler with and without an implementation of the
 *   added ArchiveTask through the generated `operations` option, the agent client, and type checks
 *   of that option (`@ts-expect-error`: an unused one is an error too).
 */

export const SERVE_SOURCE = `import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { A2AServiceGrpcClient } from "./gen/a2a_a2a_grpc_client.js";
import { listenA2AServiceGrpc } from "./gen/a2a_a2a_grpc_server.js";
import type { A2AServiceClient, A2AServiceHandler } from "./gen/a2a_a2a_handler.js";
import { A2AServiceJsonRpcClient } from "./gen/a2a_a2a_jsonrpc_client.js";
import { createA2AServiceJsonRpcServer } from "./gen/a2a_a2a_jsonrpc_server.js";
import { A2AServiceRestClient } from "./gen/a2a_a2a_rest_client.js";
import { createA2AServiceRestServer } from "./gen/a2a_a2a_rest_server.js";
import type { A2AServiceExecutor } from "./gen/a2a_a2a_task_handler.js";

/** "hi" → an artifact "echo hi" and COMPLETED; "ask" → INPUT_REQUIRED; "reply" → a stateless message. */
export const executor: A2AServiceExecutor = {
  async execute(context, emitter) {
    const content = context.message.parts[0]?.content;
    const text = content?.case === "text" ? content.value : "";
    if (text === "reply") return emitter.reply("pong");
    await emitter.working();
    if (text === "ask") return emitter.requireInput("more?");
    await emitter.addArtifact({ artifactId: "a1", parts: [{ content: { case: "text", value: "echo " + text } }] }, { lastChunk: true });
    await emitter.complete();
  },
};

export type Binding = "JSONRPC" | "HTTP+JSON" | "GRPC";

export interface Served {
  readonly clients: Readonly<Record<Binding, A2AServiceClient>>;
  /** The JSON-RPC and HTTP+JSON URLs, the gRPC host:port. */
  readonly urls: Readonly<Record<Binding, string>>;
  close(): Promise<void>;
}

function listen(node: Parameters<typeof createServer>[1]): Promise<Server> {
  return new Promise((resolve) => {
    const server = createServer(node);
    server.listen(0, "127.0.0.1", () => resolve(server));
  });
}

function stop(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** The handler on all three bindings (127.0.0.1, free ports), with the generated clients. */
export async function serve(handler: A2AServiceHandler): Promise<Served> {
  const jsonrpc = await listen(createA2AServiceJsonRpcServer(handler).node);
  const rest = await listen(createA2AServiceRestServer(handler).node);
  const grpc = await listenA2AServiceGrpc(handler, { listen: { host: "127.0.0.1", port: 0 } });
  const url = (server: Server) => "http://127.0.0.1:" + (server.address() as AddressInfo).port;
  return {
    urls: { JSONRPC: url(jsonrpc), "HTTP+JSON": url(rest), GRPC: grpc.address },
    clients: {
      JSONRPC: new A2AServiceJsonRpcClient({ url: url(jsonrpc) }),
      "HTTP+JSON": new A2AServiceRestClient({ url: url(rest) }),
      GRPC: new A2AServiceGrpcClient({ address: grpc.address }),
    },
    close: async () => {
      await Promise.all([stop(jsonrpc), stop(rest), grpc.close()]);
    },
  };
}
`;

export const ARCHIVE_SOURCE = `import { clone, create } from "@bufbuild/protobuf";
import { connectA2AService, type A2AServiceConnection } from "./gen/a2a_a2a_agent_client.js";
import { createA2AServiceTaskHandler, type A2AServiceExtraOperations } from "./gen/a2a_a2a_task_handler.js";
import { AgentCardSchema, GetTaskRequestSchema, TaskSchema, type ArchiveTaskRequest, type Task } from "./gen/a2a_pb.js";
import type { CallContext } from "@protoc-gen-a2a/runtime";
import type { A2AServiceHandler } from "./gen/a2a_a2a_handler.js";
import { executor } from "./serve.js";

/** The generated handler without an implementation of ArchiveTask: UnsupportedOperationError. */
export function unimplemented() {
  return createA2AServiceTaskHandler({ executor });
}

/** With one: ArchiveTask answers the task (through the handler's own GetTask, so in the caller's scope), marked archived. */
export function implemented() {
  const calls: { id: string; operation: string; tenant: string | undefined }[] = [];
  const handler = createA2AServiceTaskHandler({
    executor,
    operations: {
      async archiveTask(request, context, tasks) {
        calls.push({ id: request.id, operation: context.operation, tenant: context.tenant });
        const task = clone(TaskSchema, await tasks.getTask(create(GetTaskRequestSchema, { id: request.id }), context));
        task.metadata = { archived: true };
        return task;
      },
    },
  });
  return { handler, calls };
}

/** The agent client over a card with one JSON-RPC interface: it has archiveTask too. */
export function connect(url: string): Promise<A2AServiceConnection> {
  const card = create(AgentCardSchema, {
    name: "archiver",
    supportedInterfaces: [{ url, protocolBinding: "JSONRPC", protocolVersion: "1.0" }],
    capabilities: {},
  });
  return connectA2AService(card);
}

/** Type checks only (never called). */
export function typeChecks(): void {
  // The handler interface's own signature fits (the third argument is optional to take).
  const typed: A2AServiceExtraOperations["archiveTask"] = async (request: ArchiveTaskRequest, _context: CallContext): Promise<Task> => create(TaskSchema, { id: request.id });
  const handler: A2AServiceHandler = createA2AServiceTaskHandler({ executor, operations: { archiveTask: typed } });
  void handler.archiveTask;
  createA2AServiceTaskHandler({ executor, operations: {} });
  createA2AServiceTaskHandler({
    executor,
    // @ts-expect-error getTask is one of the eleven A2A operations: the runtime implements it
    operations: { getTask: async () => create(TaskSchema) },
  });
  createA2AServiceTaskHandler({
    executor,
    // @ts-expect-error ArchiveTask returns a Task
    operations: { archiveTask: async () => "archived" },
  });
}
`;
