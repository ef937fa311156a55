/**
 * The example agent: one executor on the task runtime, served on all three bindings from
 * the generated code in generated-example/gen/. `npm run example` starts it on 127.0.0.1:
 * HTTP on A2A_HTTP_PORT (default 41241: Agent Card at /.well-known/agent-card.json,
 * JSON-RPC at /a2a/jsonrpc, HTTP+JSON at /a2a/rest), gRPC (h2c) on A2A_GRPC_PORT (41242).
 *
 * Behaviour (by the text of the first part): "tck-message-response…" or anything starting
 * with "hello" → a Message echo; "tck-input-required…" → a task waiting for input;
 * "tck-reject-task…" → a rejected task; "tck-fail-task…" → a failed task; anything else → a
 * task that works, adds an artifact echoing the text and completes.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { toJson } from "@bufbuild/protobuf";
import { create } from "@bufbuild/protobuf";
import { AgentCardSchema } from "../gen/a2a_pb.js";
import { createA2AServiceTaskHandler, type A2AServiceExecutor } from "../gen/a2a_a2a_task_handler.js";
import { createA2AServiceJsonRpcServer } from "../gen/a2a_a2a_jsonrpc_server.js";
import { createA2AServiceRestServer } from "../gen/a2a_a2a_rest_server.js";
import { listenA2AServiceGrpc } from "../gen/a2a_a2a_grpc_server.js";
import { buildSupportedInterfaces, checkAgentCard, composeHandlers, serveAgentCard } from "../gen/a2a-runtime/http/agent-card.js";
import { serveNode } from "../gen/a2a-runtime/http/node-adapter.js";
import type { GrpcEndpoint } from "../gen/a2a-runtime/grpc/listen.js";

const textPart = (value: string) => ({ content: { case: "text" as const, value } });

/** The agent's logic: the only code an author writes. */
export const echoExecutor: A2AServiceExecutor = {
  async execute(request, emitter) {
    const first = request.message.parts[0];
    const text = first?.content.case === "text" ? first.content.value : "";
    if (text.startsWith("hello") || text.startsWith("tck-message-response")) {
      await emitter.reply({ parts: [textPart(text)] });
      return;
    }
    if (text.startsWith("tck-input-required") && request.isNewTask) {
      await emitter.requireInput({ parts: [textPart("What else should I know?")] });
      return;
    }
    if (text.startsWith("tck-reject-task")) {
      await emitter.reject({ parts: [textPart("I will not do that.")] });
      return;
    }
    await emitter.working();
    if (text.startsWith("tck-fail-task")) {
      await emitter.fail({ parts: [textPart("That did not work.")] });
      return;
    }
    await emitter.addArtifact({ artifactId: "echo", name: "echo", parts: [textPart(text)] }, { lastChunk: true });
    await emitter.complete();
  },
};

/** A running example agent. */
export interface ExampleAgent {
  readonly cardUrl: string;
  readonly httpPort: number;
  readonly grpcAddress: string;
  close(): Promise<void>;
}

/** Starts the example agent (ports 0 pick free ones). */
export async function startExampleAgent(httpPort: number, grpcPort: number, host = "127.0.0.1"): Promise<ExampleAgent> {
  const handler = createA2AServiceTaskHandler({ executor: echoExecutor, capabilities: { streaming: true, pushNotifications: true } });
  const serverOptions = { versionWhenMissing: "1.0", logger: { error: (m: string, e?: unknown) => console.error(m, e) } };
  const grpc: GrpcEndpoint = await listenA2AServiceGrpc(handler, { ...serverOptions, listen: { host, port: grpcPort } });
  const http: Server = createServer();
  await new Promise<void>((resolve) => http.listen(httpPort, host, resolve));
  const port = (http.address() as AddressInfo).port;
  const mounted = { baseUrl: `http://${host}:${port}`, jsonRpcPath: "/a2a/jsonrpc", restPath: "/a2a/rest", grpcAddress: grpc.address };
  const card = toJson(
    AgentCardSchema,
    create(AgentCardSchema, {
      name: "protoc-gen-a2a example agent",
      description: "Echoes text as a Message or as a completed task with an artifact; built on the generated task runtime.",
      version: "0.1.0",
      capabilities: { streaming: true, pushNotifications: true },
      defaultInputModes: ["text/plain"],
      defaultOutputModes: ["text/plain"],
      skills: [{ id: "echo", name: "Echo", description: "Echoes the text it gets", tags: ["echo"] }],
    }),
  ) as Record<string, unknown>;
  card["supportedInterfaces"] = buildSupportedInterfaces(mounted) as unknown as never;
  const problems = checkAgentCard(card as never, mounted);
  if (problems.length > 0) throw new Error(`agent card does not match what is mounted: ${problems.map((p) => p.message).join("; ")}`);
  const jsonrpc = createA2AServiceJsonRpcServer(handler, serverOptions);
  const rest = createA2AServiceRestServer(handler, { ...serverOptions, basePath: "/a2a/rest" });
  http.on(
    "request",
    serveNode(
      composeHandlers(
        { prefix: "/.well-known/agent-card.json", handler: serveAgentCard(card as never) },
        { prefix: "/a2a/jsonrpc", handler: jsonrpc.handler },
        { prefix: "/a2a/rest", handler: rest.handler },
      ),
    ),
  );
  return {
    cardUrl: `${mounted.baseUrl}/.well-known/agent-card.json`,
    httpPort: port,
    grpcAddress: grpc.address,
    close: async () => {
      http.closeAllConnections();
      await Promise.all([new Promise<void>((resolve) => http.close(() => resolve())), grpc.close()]);
    },
  };
}
