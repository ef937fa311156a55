/**
 * The calls of bench/inprocess.mjs (bundled by it): the example agent's own work per request, without
 * sockets. `node inprocess-calls.mjs <scenario> <calls>` prints one JSON line: µs per call, GC pauses.
 *
 * Scenarios (the example agent's executor and task handler, in-memory store, as startExampleAgent builds them):
 * - jsonrpc-message / jsonrpc-task / jsonrpc-get: the generated JSON-RPC server's fetch-free handler
 *   (`createA2AServiceJsonRpcServer(handler).handler`) called with a request object, as the node adapter
 *   would: body bytes in, JSON text out (version negotiation, auth hook, REQUIRED checks, ProtoJSON);
 * - handler-message / handler-task: the task handler's sendMessage alone, with a decoded request.
 */
import { create } from "@bufbuild/protobuf";
import { PerformanceObserver } from "node:perf_hooks";
import { createExampleExecutor } from "../../generated-example/agent/echo-agent.js";
import { createA2AServiceJsonRpcServer } from "../../generated-example/gen/a2a_a2a_jsonrpc_server.js";
import { createA2AServiceTaskHandler } from "../../generated-example/gen/a2a_a2a_task_handler.js";
import { Role, SendMessageRequestSchema } from "../../generated-example/gen/a2a_pb.js";
import { createCallContext } from "@protoc-gen-a2a/runtime";

const [scenario = "jsonrpc-message", callsArg = "100000"] = process.argv.slice(2);
const calls = Number(callsArg);
const text = scenario.endsWith("-message")
  ? "tck-message-response bench"
  : "tck-complete-task bench";
const shutdown = new AbortController();
const handler = createA2AServiceTaskHandler({
  executor: createExampleExecutor({ longRunningMs: 1500, shutdown: shutdown.signal }),
  capabilities: { streaming: true, pushNotifications: true },
  clientContextIds: "known",
});
const server = createA2AServiceJsonRpcServer(handler, {
  versionWhenMissing: "1.0",
  authenticate: () => undefined,
});

/** A UniversalRequest as the node adapter makes it: headers asked on demand, the body already read, no abort. */
function request(body: string) {
  const bytes = new TextEncoder().encode(body);
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "a2a-version": "1.0",
  };
  const never = () => () => {};
  return {
    method: "POST",
    path: "/",
    query: "",
    header: (name: string) => headers[name.toLowerCase()],
    headers: () => Object.entries(headers),
    readBody: () => Promise.resolve(bytes),
    get signal(): AbortSignal {
      return new AbortController().signal;
    },
    aborted: false,
    onAbort: never,
  };
}

const rpc = (method: string, params: object) =>
  request(JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }));
const send = rpc("SendMessage", {
  message: { messageId: "m-1", role: "ROLE_USER", parts: [{ text }] },
});
let taskId = "";
if (scenario === "jsonrpc-get") {
  const created = (await server.handler(
    rpc("SendMessage", { message: { messageId: "m-0", role: "ROLE_USER", parts: [{ text }] } }),
  )) as { body: string };
  taskId = (JSON.parse(created.body) as { result: { task: { id: string } } }).result.task.id;
}
const get = rpc("GetTask", { id: taskId });
const decoded = create(SendMessageRequestSchema, {
  message: {
    messageId: "m-1",
    role: Role.USER,
    parts: [{ content: { case: "text", value: text } }],
  },
});
const context = createCallContext<undefined>({ operation: "SendMessage", binding: "JSONRPC" });

async function once(): Promise<void> {
  switch (scenario) {
    case "jsonrpc-message":
    case "jsonrpc-task": {
      const r = (await server.handler(send)) as { status: number };
      if (r.status !== 200) throw new Error(`status ${r.status}`);
      return;
    }
    case "jsonrpc-get": {
      const r = (await server.handler(get)) as { status: number };
      if (r.status !== 200) throw new Error(`status ${r.status}`);
      return;
    }
    case "handler-message":
    case "handler-task":
      await handler.sendMessage(decoded, context);
      return;
    default:
      throw new Error(`unknown scenario ${scenario}`);
  }
}

// The answer of one call, checked once.
const check = (await server.handler(scenario === "jsonrpc-get" ? get : send)) as { body: string };
if (
  !check.body.includes(
    scenario === "jsonrpc-get"
      ? taskId
      : scenario.endsWith("-message")
        ? `"text":"${text}"`
        : "TASK_STATE_COMPLETED",
  )
)
  throw new Error(`unexpected answer ${check.body}`);
for (let i = 0; i < Math.min(20_000, calls); i++) await once();
let gcMs = 0;
let gcCount = 0;
const observer = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    gcMs += entry.duration;
    gcCount++;
  }
});
observer.observe({ entryTypes: ["gc"] });
const start = performance.now();
for (let i = 0; i < calls; i++) await once();
const elapsed = performance.now() - start;
await new Promise((resolve) => setTimeout(resolve, 10)); // the observer's last entries
observer.disconnect();
console.log(
  JSON.stringify({
    scenario,
    calls,
    usPerCall: (elapsed * 1000) / calls,
    gcShare: gcMs / elapsed,
    gcPer1000: (gcCount * 1000) / calls,
  }),
);
shutdown.abort();
