/**
 * One gRPC benchmark server per process, for bench/grpc.mjs (bundled by it with esbuild into
 * node_modules/.cache/bench/). Usage: `node grpc-server.mjs <ours|grpcjs|sdk|connect>`, with an IPC channel:
 * the server listens on 127.0.0.1 (a free port), sends `{ ready: true, kind, port }` to the
 * parent, and exits as soon as the parent goes away (IPC "disconnect"), however it ended.
 *
 * Both servers answer the same requests the same way:
 * - SendMessage of any text but "task": the text echoed in a Message (new messageId, contextId);
 * - SendMessage "task": a Task (history = the user message, one artifact) run to COMPLETED and
 *   stored; GetTask of its id returns it.
 *
 * Kinds:
 * - ours: our generated Connect routes (`createA2AServiceGrpcRoutes` on `listenGrpc`: Connect for Node on node:http2, h2c)
 *         with a minimal handler (a Map for the tasks);
 * - grpcjs: the same handler and the same A2A pipeline on our grpc-js stack (the generated
 *         `listenA2AServiceGrpc`, grpc_server=grpc-js), h2c;
 * - connect: a reference, not a contender: the same two methods as bare Connect routes
 *         (`connectNodeAdapter` on node:http2, no A2A pipeline: no version/extension checks, no
 *         REQUIRED-field validation, no error mapping), to separate Connect's cost from ours;
 * - sdk:  @a2a-js/sdk 1.3.0 `grpcService` + DefaultRequestHandler + InMemoryTaskStore on a
 *         @grpc/grpc-js Server (`ServerCredentials.createInsecure()`).
 *
 * The parent may send `{ cmd: "cpu" }`; the answer is `{ cpu: <user+system µs so far> }`.
 */
import { randomUUID } from "node:crypto";
import { createServer } from "node:http2";
import type { AddressInfo } from "node:net";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { create } from "@bufbuild/protobuf";
import { timestampNow } from "@bufbuild/protobuf/wkt";
import * as grpc from "@grpc/grpc-js";
import type { AgentExecutor, ExecutionEventBus, RequestContext } from "@a2a-js/sdk/server";
import { A2AService as SdkA2AService, UserBuilder, grpcService } from "@a2a-js/sdk/server/grpc";
import { createA2AServiceGrpcRoutes, listenA2AServiceGrpc } from "../../generated-example/gen/a2a_a2a_grpc_server.js";
import type { A2AServiceHandler } from "../../generated-example/gen/a2a_a2a_handler.js";
import { TaskNotFoundError } from "../../generated-example/gen/a2a_a2a_errors.js";
import { listenGrpc } from "@protoc-gen-a2a/runtime/grpc";
import { firstText, notBenchmarked, runBenchServer } from "../lib/bench-server.js";
import { publishSdkCompletedTask, sdkAgentCard, sdkAgentMessage, sdkFirstText, sdkRequestHandler } from "../../test/support/sdk-agent.js";
import { A2AService, Role, SendMessageResponseSchema, TaskSchema, TaskState, type Task } from "../../generated-example/gen/a2a_pb.js";

// ---------------------------------------------------------------------------------------
// ours
// ---------------------------------------------------------------------------------------

/** At most this many stored tasks (only "task" creates one; the benchmark sends it once per server). */
const MAX_TASKS = 1000;

function benchHandler(): A2AServiceHandler {
  const tasks = new Map<string, Task>();
  return {
    ...notBenchmarked,
    async sendMessage(request) {
      const text = firstText(request.message);
      const contextId = request.message?.contextId || randomUUID();
      if (text === "task" && request.message !== undefined) {
        const task = create(TaskSchema, {
          id: randomUUID(),
          contextId,
          status: { state: TaskState.COMPLETED, timestamp: timestampNow() },
          history: [{ ...request.message, contextId }],
          artifacts: [{ artifactId: "bench-a-1", name: "echo", parts: [{ content: { case: "text", value: "artifact text" } }] }],
        });
        if (tasks.size < MAX_TASKS) tasks.set(task.id, task);
        return create(SendMessageResponseSchema, { payload: { case: "task", value: task } });
      }
      return create(SendMessageResponseSchema, {
        payload: { case: "message", value: { messageId: randomUUID(), contextId, role: Role.AGENT, parts: [{ content: { case: "text", value: text } }] } },
      });
    },
    async getTask(request) {
      const task = tasks.get(request.id);
      if (task === undefined) throw new TaskNotFoundError(`Task ${request.id} not found`, { metadata: { taskId: request.id } });
      return task;
    },
  };
}

/** Our Connect stack: the generated Connect routes on node:http2 (h2c). */
async function startOurs(): Promise<number> {
  const endpoint = await listenGrpc(createA2AServiceGrpcRoutes(benchHandler()), { host: "127.0.0.1", port: 0 });
  return endpoint.port;
}

/** Our grpc-js stack: the generated `listenA2AServiceGrpc` (grpc_server=grpc-js, the default). */
async function startOursGrpcJs(): Promise<number> {
  const endpoint = await listenA2AServiceGrpc(benchHandler(), { listen: { host: "127.0.0.1", port: 0 } });
  return endpoint.port;
}

/** The reference: our bench handler's two methods as plain Connect routes on node:http2. */
async function startConnectBare(): Promise<number> {
  const handler = benchHandler();
  const context = undefined as never; // the bench handler never reads its call context
  const adapter = connectNodeAdapter({
    readMaxBytes: 4 * 1024 * 1024,
    routes: (router) =>
      router.service(A2AService, {
        sendMessage: (request) => handler.sendMessage(request, context),
        getTask: (request) => handler.getTask(request, context),
      }),
  });
  const server = createServer(adapter);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

// ---------------------------------------------------------------------------------------
// @a2a-js/sdk 1.3.0
// ---------------------------------------------------------------------------------------

/** Echoes in a Message; "task": a Task SUBMITTED → WORKING → artifact → COMPLETED. */
class SdkBenchExecutor implements AgentExecutor {
  async execute(ctx: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const text = String(sdkFirstText(ctx.userMessage.parts) ?? "");
    if (text !== "task") {
      bus.publish(sdkAgentMessage(ctx.contextId, text, randomUUID()));
      return;
    }
    publishSdkCompletedTask(ctx, bus, "bench-a-1");
  }
  cancelTask = async (): Promise<void> => {};
}

async function startSdk(): Promise<number> {
  const card = sdkAgentCard({ name: "SDK gRPC bench", description: "echo", url: "127.0.0.1:0", protocolBinding: "GRPC" });
  const requestHandler = sdkRequestHandler(card, new SdkBenchExecutor());
  const server = new grpc.Server();
  server.addService(SdkA2AService, grpcService({ requestHandler, userBuilder: UserBuilder.noAuthentication }));
  return new Promise((resolve, reject) => server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, port) => (e ? reject(e) : resolve(port))));
}

// ---------------------------------------------------------------------------------------
// main
// ---------------------------------------------------------------------------------------

const starters: Record<string, () => Promise<number>> = { ours: startOurs, grpcjs: startOursGrpcJs, sdk: startSdk, connect: startConnectBare };
runBenchServer("grpc-server.mjs", starters);
