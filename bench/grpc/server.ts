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
import { A2A_PROTOCOL_VERSION, Role as SdkRole, TaskState as SdkTaskState, type AgentCard as SdkAgentCard } from "@a2a-js/sdk";
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore, type AgentExecutor, type ExecutionEventBus, type RequestContext } from "@a2a-js/sdk/server";
import { A2AService as SdkA2AService, UserBuilder, grpcService } from "@a2a-js/sdk/server/grpc";
import { createA2AServiceGrpcRoutes, listenA2AServiceGrpc } from "../../generated-example/a2a_a2a_grpc_server.js";
import type { A2AServiceHandler } from "../../generated-example/a2a_a2a_handler.js";
import { TaskNotFoundError, UnsupportedOperationError } from "../../generated-example/a2a_a2a_errors.js";
import { listenGrpc } from "../../generated-example/a2a-runtime/grpc/listen.js";
import { A2AService, Role, SendMessageResponseSchema, TaskSchema, TaskState, type Message, type StreamResponse, type Task } from "../../generated-example/a2a_pb.js";

// ---------------------------------------------------------------------------------------
// ours
// ---------------------------------------------------------------------------------------

function firstText(message: Message | undefined): string {
  const content = message?.parts[0]?.content;
  return content?.case === "text" ? content.value : "";
}

const unsupported = async (): Promise<never> => {
  throw new UnsupportedOperationError("not part of the benchmark");
};

/** At most this many stored tasks (only "task" creates one; the benchmark sends it once per server). */
const MAX_TASKS = 1000;

function benchHandler(): A2AServiceHandler {
  const tasks = new Map<string, Task>();
  return {
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
    async *sendStreamingMessage(): AsyncGenerator<StreamResponse> {
      throw new UnsupportedOperationError("not part of the benchmark");
    },
    async getTask(request) {
      const task = tasks.get(request.id);
      if (task === undefined) throw new TaskNotFoundError(`Task ${request.id} not found`, { metadata: { taskId: request.id } });
      return task;
    },
    listTasks: unsupported,
    cancelTask: unsupported,
    async *subscribeToTask(): AsyncGenerator<StreamResponse> {
      throw new UnsupportedOperationError("not part of the benchmark");
    },
    createTaskPushNotificationConfig: unsupported,
    getTaskPushNotificationConfig: unsupported,
    listTaskPushNotificationConfigs: unsupported,
    getExtendedAgentCard: unsupported,
    deleteTaskPushNotificationConfig: unsupported,
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

const sdkText = (text: string) => ({ content: { $case: "text" as const, value: text }, metadata: undefined, filename: "", mediaType: "" });

/** Echoes in a Message; "task": a Task SUBMITTED → WORKING → artifact → COMPLETED. */
class SdkBenchExecutor implements AgentExecutor {
  async execute(ctx: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const part = ctx.userMessage.parts[0]?.content;
    const text = part?.$case === "text" ? part.value : "";
    const { taskId, contextId } = ctx;
    if (text !== "task") {
      bus.publish(
        AgentEvent.message({ messageId: randomUUID(), contextId, taskId: "", role: SdkRole.ROLE_AGENT, parts: [sdkText(text)], metadata: undefined, extensions: [], referenceTaskIds: [] }),
      );
      return;
    }
    const status = (state: SdkTaskState) => ({ state, message: undefined, timestamp: new Date().toISOString() });
    bus.publish(AgentEvent.task({ id: taskId, contextId, status: status(SdkTaskState.TASK_STATE_SUBMITTED), artifacts: [], history: [ctx.userMessage], metadata: undefined }));
    bus.publish(AgentEvent.statusUpdate({ taskId, contextId, status: status(SdkTaskState.TASK_STATE_WORKING), metadata: undefined }));
    bus.publish(
      AgentEvent.artifactUpdate({
        taskId,
        contextId,
        artifact: { artifactId: "bench-a-1", name: "echo", description: "", parts: [sdkText("artifact text")], metadata: undefined, extensions: [] },
        append: false,
        lastChunk: true,
        metadata: undefined,
      }),
    );
    bus.publish(AgentEvent.statusUpdate({ taskId, contextId, status: status(SdkTaskState.TASK_STATE_COMPLETED), metadata: undefined }));
  }
  cancelTask = async (): Promise<void> => {};
}

async function startSdk(): Promise<number> {
  const card: SdkAgentCard = {
    name: "SDK gRPC bench",
    description: "echo",
    supportedInterfaces: [{ url: "127.0.0.1:0", protocolBinding: "GRPC", tenant: "", protocolVersion: A2A_PROTOCOL_VERSION }],
    provider: undefined,
    version: "1.0.0",
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [],
    signatures: [],
  };
  const requestHandler = new DefaultRequestHandler(card, new InMemoryTaskStore(), new SdkBenchExecutor());
  const server = new grpc.Server();
  server.addService(SdkA2AService, grpcService({ requestHandler, userBuilder: UserBuilder.noAuthentication }));
  return new Promise((resolve, reject) => server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, port) => (e ? reject(e) : resolve(port))));
}

// ---------------------------------------------------------------------------------------
// main
// ---------------------------------------------------------------------------------------

const starters: Record<string, () => Promise<number>> = { ours: startOurs, grpcjs: startOursGrpcJs, sdk: startSdk, connect: startConnectBare };
const kind = process.argv[2] ?? "";
const start = starters[kind];
if (start === undefined || process.send === undefined) {
  console.error(`usage: node grpc-server.mjs <${Object.keys(starters).join("|")}> (spawned with an IPC channel)`);
  process.exit(2);
}
// Exit with the parent, whatever way it ended (the IPC channel closes even on SIGKILL).
process.on("disconnect", () => process.exit(0));
process.on("message", (m: { cmd?: string } | null) => {
  if (m?.cmd === "cpu") {
    const { user, system } = process.cpuUsage();
    process.send?.({ cpu: user + system });
  }
});
start().then(
  (port) => process.send?.({ ready: true, kind, port }),
  (e: unknown) => {
    console.error(`${kind}: failed to start`, e);
    process.exit(1);
  },
);
