/**
 * One gRPC benchmark server per process, for bench/grpc.mjs (bundled by it with esbuild into
 * node_modules/.cache/bench/). Usage: `node grpc-server.mjs <kind>`, with an IPC channel:
 * the server listens on 127.0.0.1 (a free port), sends `{ ready: true, kind, port }` to the
 * parent, and exits as soon as the parent goes away (IPC "disconnect"), however it ended.
 *
 * The task path (issue #16), SendMessage "tck-message-response …" (a Message), "tck-complete-task …"
 * (WORKING → artifact "response" "Completed: <text>" → COMPLETED) and GetTask:
 * - example:         the example agent exactly as shipped (`startExampleAgent` of generated-example/agent:
 *                    auth hook, task runtime, in-memory store, push sender), its gRPC port: grpc-js, the
 *                    default `grpc_server=grpc-js`, with reflection;
 * - example-connect: the same task handler (the example's executor, in-memory store, push sender, auth
 *                    hook and server options, wired as echo-agent.ts does) on the Connect stack
 *                    (`createA2AServiceGrpcRoutes` on `listenGrpc`, node:http2, h2c);
 * - example-h2:      a reference: the same task handler and our pipeline's context behind a minimal unary gRPC
 *                    responder on the node:http2 core API (no gRPC library): what grpc-js's layers cost;
 * - sdk-agent:       @a2a-js/sdk 1.3.0 `grpcService` + DefaultRequestHandler + InMemoryTaskStore on a grpc-js
 *                    Server, with the executor of bench/agent/server.ts (the example's two behaviours).
 *
 * The stateless handler servers answer the same requests the same way:
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
 * The parent may send `{ cmd: "cpu" }`; the answer is `{ cpu: <user+system µs so far> }`; and
 * `{ cmd: "mem" }`, answered `{ mem: { rss, heapUsed } }` (bytes).
 */
import { randomUUID } from "node:crypto";
import { createServer } from "node:http2";
import type { AddressInfo } from "node:net";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { create, fromBinary, toBinary, type DescMessage, type Message } from "@bufbuild/protobuf";
import { errorSpecs } from "../../generated-example/gen/a2a_a2a_errors.js";
import {
  establishContext,
  resolveServerOptions,
} from "../../runtime/src/pipeline/server-pipeline.js";
import { ServiceParameters } from "../../runtime/src/pipeline/call-context.js";
import { timestampNow } from "@bufbuild/protobuf/wkt";
import * as grpc from "@grpc/grpc-js";
import type { AgentExecutor, ExecutionEventBus, RequestContext } from "@a2a-js/sdk/server";
import { A2AService as SdkA2AService, UserBuilder, grpcService } from "@a2a-js/sdk/server/grpc";
import {
  createA2AServiceGrpcRoutes,
  listenA2AServiceGrpc,
} from "../../generated-example/gen/a2a_a2a_grpc_server.js";
import type { A2AServiceHandler } from "../../generated-example/gen/a2a_a2a_handler.js";
import { TaskNotFoundError } from "../../generated-example/gen/a2a_a2a_errors.js";
import { listenGrpc } from "@protoc-gen-a2a/runtime/grpc";
import { firstText, notBenchmarked, runBenchServer } from "../lib/bench-server.js";
import { SdkAgentExecutor } from "../lib/sdk-agent-executor.js";
import {
  publishSdkCompletedTask,
  sdkAgentCard,
  sdkAgentMessage,
  sdkFirstText,
  sdkRequestHandler,
} from "../../test/support/sdk-agent.js";
import {
  A2AService,
  GetTaskRequestSchema,
  Role,
  SendMessageRequestSchema,
  SendMessageResponseSchema,
  StreamResponseSchema,
  TaskSchema,
  TaskState,
  type Task,
} from "../../generated-example/gen/a2a_pb.js";
import {
  createExampleExecutor,
  startExampleAgent,
  type ExamplePrincipal,
} from "../../generated-example/agent/echo-agent.js";
import { createA2AServiceTaskHandler } from "../../generated-example/gen/a2a_a2a_task_handler.js";
import { UnauthenticatedError } from "../../generated-example/gen/a2a_a2a_errors.js";
import { createPushNotificationSender, InMemoryTaskStore } from "@protoc-gen-a2a/runtime/task";
import type { AuthRequest } from "@protoc-gen-a2a/runtime";

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
          artifacts: [
            {
              artifactId: "bench-a-1",
              name: "echo",
              parts: [{ content: { case: "text", value: "artifact text" } }],
            },
          ],
        });
        if (tasks.size < MAX_TASKS) tasks.set(task.id, task);
        return create(SendMessageResponseSchema, { payload: { case: "task", value: task } });
      }
      return create(SendMessageResponseSchema, {
        payload: {
          case: "message",
          value: {
            messageId: randomUUID(),
            contextId,
            role: Role.AGENT,
            parts: [{ content: { case: "text", value: text } }],
          },
        },
      });
    },
    async getTask(request) {
      const task = tasks.get(request.id);
      if (task === undefined)
        throw new TaskNotFoundError(`Task ${request.id} not found`, {
          metadata: { taskId: request.id },
        });
      return task;
    },
  };
}

/** Our Connect stack: the generated Connect routes on node:http2 (h2c). */
async function startOurs(): Promise<number> {
  const endpoint = await listenGrpc(createA2AServiceGrpcRoutes(benchHandler()), {
    host: "127.0.0.1",
    port: 0,
  });
  return endpoint.port;
}

/** Our grpc-js stack: the generated `listenA2AServiceGrpc` (grpc_server=grpc-js, the default). */
async function startOursGrpcJs(): Promise<number> {
  const endpoint = await listenA2AServiceGrpc(benchHandler(), {
    listen: { host: "127.0.0.1", port: 0 },
  });
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
  const card = sdkAgentCard({
    name: "SDK gRPC bench",
    description: "echo",
    url: "127.0.0.1:0",
    protocolBinding: "GRPC",
  });
  const requestHandler = sdkRequestHandler(card, new SdkBenchExecutor());
  const server = new grpc.Server();
  server.addService(
    SdkA2AService,
    grpcService({ requestHandler, userBuilder: UserBuilder.noAuthentication }),
  );
  return new Promise((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, port) =>
      e ? reject(e) : resolve(port),
    ),
  );
}

// ---------------------------------------------------------------------------------------
// the task path: the example agent, its handler on Connect, the SDK with an equivalent executor
// ---------------------------------------------------------------------------------------

/** The example agent as shipped; its gRPC port (grpc-js). */
async function startExample(): Promise<number> {
  const agent = await startExampleAgent({ httpPort: 0, grpcPort: 0 });
  return Number(agent.grpcAddress.slice(agent.grpcAddress.lastIndexOf(":") + 1));
}

/** The example agent's task handler and server options, wired as echo-agent.ts wires them (no tokens: everyone anonymous). */
function exampleHandler() {
  const store = new InMemoryTaskStore();
  const push = createPushNotificationSender({
    store,
    schemas: { StreamResponse: StreamResponseSchema },
    timeoutMs: 5_000,
    maxRetries: 1,
    closeTimeoutMs: 1_000,
  });
  const handler = createA2AServiceTaskHandler<ExamplePrincipal | undefined>({
    executor: createExampleExecutor({
      longRunningMs: 1500,
      shutdown: new AbortController().signal,
    }),
    store,
    capabilities: { streaming: true, pushNotifications: true, extendedAgentCard: true },
    clientContextIds: "known",
    ownerOf: (principal) => principal?.subject ?? "",
    extendedAgentCard: () => {
      throw new Error("not part of the benchmark");
    },
    onTaskEvent: push.onTaskEvent,
  });
  const tokens: Record<string, ExamplePrincipal> = {};
  const authenticate = ({ serviceParameters }: AuthRequest): ExamplePrincipal | undefined => {
    const header = serviceParameters.get("authorization")?.trim();
    if (header === undefined || header === "") return undefined;
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    const principal =
      match === null ? undefined : Object.hasOwn(tokens, match[1]!) ? tokens[match[1]!] : undefined;
    if (principal === undefined)
      throw new UnauthenticatedError("Unknown or malformed bearer token");
    return principal;
  };
  const serverOptions = {
    versionWhenMissing: "1.0",
    authenticate,
    logger: { error: (m: string, e?: unknown) => console.error(m, e) },
  };
  return { handler, serverOptions };
}

/** The example agent's task handler on the Connect stack. */
async function startExampleConnect(): Promise<number> {
  const { handler, serverOptions } = exampleHandler();
  const endpoint = await listenGrpc(createA2AServiceGrpcRoutes(handler, serverOptions), {
    host: "127.0.0.1",
    port: 0,
    reflection: true,
  });
  return endpoint.port;
}

/**
 * A reference, not a contender: the example agent's task handler behind a minimal gRPC unary responder on the
 * node:http2 core API (no gRPC library): the body read, the request decoded, our pipeline's context
 * (auth hook, version, extensions), the handler, the answer in one DATA frame and the trailers. No deadlines,
 * no cancellation, no compression, errors as a bare grpc-status: what grpc-js's own layers cost, by difference.
 */
async function startExampleH2(): Promise<number> {
  const { handler, serverOptions } = exampleHandler();
  const settings = resolveServerOptions(serverOptions, errorSpecs);
  const never = new AbortController().signal;
  const methods: Record<
    string,
    {
      input: DescMessage;
      output: DescMessage;
      operation: string;
      call: (request: never, context: never) => Promise<Message>;
    }
  > = {
    "/lf.a2a.v1.A2AService/SendMessage": {
      input: SendMessageRequestSchema,
      output: SendMessageResponseSchema,
      operation: "SendMessage",
      call: handler.sendMessage.bind(handler) as never,
    },
    "/lf.a2a.v1.A2AService/GetTask": {
      input: GetTaskRequestSchema,
      output: TaskSchema,
      operation: "GetTask",
      call: handler.getTask.bind(handler) as never,
    },
  };
  const server = createServer();
  server.on("stream", (stream, headers) => {
    const method = methods[String(headers[":path"])];
    if (method === undefined) {
      stream.respond(
        { ":status": 200, "content-type": "application/grpc", "grpc-status": "12" },
        { endStream: true },
      );
      return;
    }
    const chunks: Buffer[] = [];
    stream.on("data", (c: Buffer) => chunks.push(c));
    stream.on("end", () => {
      void (async () => {
        try {
          const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
          const request = fromBinary(method.input, body.subarray(5, 5 + body.readUInt32BE(1)));
          const context = await establishContext(settings, {
            binding: "GRPC",
            operation: method.operation,
            serviceParameters: ServiceParameters.fromHeaders({
              header: (name) => {
                const v = headers[name.toLowerCase()];
                return Array.isArray(v) ? v.join(", ") : v;
              },
              headers: () => [],
            }),
            tenant: "",
            signal: never,
          });
          const bytes = toBinary(
            method.output,
            await method.call(request as never, context as never),
          );
          const out = Buffer.allocUnsafe(5 + bytes.length);
          out[0] = 0;
          out.writeUInt32BE(bytes.length, 1);
          out.set(bytes, 5);
          stream.respond(
            { ":status": 200, "content-type": "application/grpc" },
            { waitForTrailers: true },
          );
          stream.once("wantTrailers", () => stream.sendTrailers({ "grpc-status": "0" }));
          stream.end(out);
        } catch (e) {
          if (!stream.destroyed)
            stream.respond(
              {
                ":status": 200,
                "content-type": "application/grpc",
                "grpc-status": "2",
                "grpc-message": encodeURIComponent(String(e)),
              },
              { endStream: true },
            );
        }
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

async function startSdkAgent(): Promise<number> {
  const card = sdkAgentCard({
    name: "SDK gRPC agent bench",
    description: "echo",
    url: "127.0.0.1:0",
    protocolBinding: "GRPC",
  });
  const requestHandler = sdkRequestHandler(card, new SdkAgentExecutor());
  const server = new grpc.Server();
  server.addService(
    SdkA2AService,
    grpcService({ requestHandler, userBuilder: UserBuilder.noAuthentication }),
  );
  return new Promise((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, port) =>
      e ? reject(e) : resolve(port),
    ),
  );
}

// ---------------------------------------------------------------------------------------
// main
// ---------------------------------------------------------------------------------------

process.on("message", (m: { cmd?: string } | null) => {
  if (m?.cmd === "mem") {
    const { rss, heapUsed } = process.memoryUsage();
    process.send?.({ mem: { rss, heapUsed } });
  }
});
const starters: Record<string, () => Promise<number>> = {
  ours: startOurs,
  grpcjs: startOursGrpcJs,
  sdk: startSdk,
  connect: startConnectBare,
  example: startExample,
  "example-connect": startExampleConnect,
  "sdk-agent": startSdkAgent,
  "example-h2": startExampleH2,
};
runBenchServer("grpc-server.mjs", starters);
