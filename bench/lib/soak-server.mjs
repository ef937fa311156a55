// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
// The server child of bench/aborted-streams.mjs and bench/soak.mjs (bundled with esbuild by
// bench/lib/soak-child.mjs, run with --expose-gc, an IPC channel to the parent). `node soak-server.mjs <mode>`:
// - streams: the generated servers of every binding over one task handler (in-memory store, retention
//   --max-tasks, default 200, so that the finished tasks of the aborted streams do not count as growth):
//   JSON-RPC and HTTP+JSON on node:http, gRPC on grpc-js and on Connect; its executor keeps a task WORKING
//   until the streaming caller leaves (then completes it), and one task ("hold") WORKING until canceled,
//   for SubscribeToTask;
// - agent [--sqlite <file>]: the example agent (generated-example/agent/echo-agent.ts startExampleAgent),
//   push webhooks to private addresses allowed (the soak's receiver is on 127.0.0.1).
// Sends { ready: true, ... } once listening; answers { cmd: "stats", gc } with the process's heap, RSS and open
// fds (after a full GC when asked) and, in streams mode, the task handler's live tasks; exits with the parent.
import { readdirSync } from "node:fs";
import { createServer } from "node:http";
import { create } from "@bufbuild/protobuf";
import { createCallContext } from "@protoc-gen-a2a/runtime";
import { listenGrpc } from "@protoc-gen-a2a/runtime/grpc";
import { InMemoryTaskStore } from "@protoc-gen-a2a/runtime/task";
import { startExampleAgent } from "../../generated-example/agent/echo-agent.js";
import {
  createA2AServiceGrpcRoutes,
  listenA2AServiceGrpc,
} from "../../generated-example/gen/a2a_a2a_grpc_server.js";
import { createA2AServiceJsonRpcServer } from "../../generated-example/gen/a2a_a2a_jsonrpc_server.js";
import { createA2AServiceRestServer } from "../../generated-example/gen/a2a_a2a_rest_server.js";
import { createA2AServiceTaskHandler } from "../../generated-example/gen/a2a_a2a_task_handler.js";
import { Role, SendMessageRequestSchema } from "../../generated-example/gen/a2a_pb.js";

const mode = process.argv[2];
if (process.send === undefined || (mode !== "streams" && mode !== "agent")) {
  console.error(
    "usage: node soak-server.mjs streams [--max-tasks N] | agent [--sqlite <file>]  (spawned with an IPC channel)",
  );
  process.exit(2);
}
const flag = (name) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};

const fds = () => readdirSync("/proc/self/fd").length;
const textOf = (message) =>
  message?.parts[0]?.content.case === "text" ? message.parts[0].content.value : "";

/** Resolves once `signal` aborts. */
const aborted = (signal) =>
  new Promise((resolve) =>
    signal.aborted ? resolve() : signal.addEventListener("abort", () => resolve(), { once: true }),
  );

function listenHttp(listener) {
  const server = createServer(listener);
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve(server.address().port)),
  );
}

async function startStreams() {
  const store = new InMemoryTaskStore({ maxTasks: Number(flag("--max-tasks") ?? 200) });
  const handler = createA2AServiceTaskHandler({
    store,
    capabilities: { streaming: true },
    executor: {
      async execute(request, emitter) {
        await emitter.working();
        if (textOf(request.message) === "hold") await aborted(request.signal);
        else {
          // A streaming caller: the task lives while its caller reads; once it left, the task completes.
          await Promise.race([aborted(request.call.signal), aborted(request.signal)]);
          if (!request.signal.aborted) await emitter.complete("the caller left");
        }
      },
    },
    onError: () => {},
  });
  const logger = { error: () => {} };
  const held = await handler.sendMessage(
    create(SendMessageRequestSchema, {
      message: {
        messageId: "hold",
        role: Role.USER,
        parts: [{ content: { case: "text", value: "hold" } }],
      },
      configuration: { returnImmediately: true },
    }),
    createCallContext({ operation: "SendMessage", binding: "JSONRPC" }),
  );
  const jsonrpc = await listenHttp(createA2AServiceJsonRpcServer(handler, { logger }).node);
  const rest = await listenHttp(createA2AServiceRestServer(handler, { logger }).node);
  const grpcJs = await listenA2AServiceGrpc(handler, { logger });
  const connect = await listenGrpc(createA2AServiceGrpcRoutes(handler, { logger }));
  return {
    info: {
      jsonrpc,
      rest,
      grpcJs: grpcJs.port,
      connect: connect.port,
      holdTaskId: held.payload.value.id,
    },
    live: () => handler.liveTasks,
  };
}

async function startAgent() {
  const sqlite = flag("--sqlite");
  const agent = await startExampleAgent({
    allowPrivateWebhooks: true,
    ...(sqlite === undefined ? {} : { taskDatabase: sqlite }),
  });
  return {
    info: { jsonrpc: agent.endpoints.jsonrpc, rest: agent.endpoints.rest, grpc: agent.grpcAddress },
    live: () => undefined,
  };
}

const started = mode === "streams" ? await startStreams() : await startAgent();
process.on("disconnect", () => process.exit(0));
process.on("message", async (m) => {
  if (m?.cmd !== "stats") return;
  if (m.gc === true && typeof globalThis.gc === "function") {
    // Twice, with a turn between: finalizers and weak callbacks of the first pass free more in the second.
    globalThis.gc();
    await new Promise((r) => setImmediate(r));
    globalThis.gc();
  }
  const mem = process.memoryUsage();
  process.send({
    stats: {
      heapUsed: mem.heapUsed,
      rss: mem.rss,
      external: mem.external,
      fds: fds(),
      live: started.live(),
      cpu: process.cpuUsage(),
    },
  });
});
process.send({ ready: true, ...started.info });
