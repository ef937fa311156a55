/**
 * The servers of bench/streams.mjs, one per child process (bundled by it with esbuild; IPC protocol of
 * bench/lib/children.mjs plus the commands below). JSON-RPC at /a2a/jsonrpc, HTTP+JSON at /a2a/rest.
 *
 * - ours: the generated JSON-RPC and HTTP+JSON servers (`createA2AServiceJsonRpcServer`, `createA2AServiceRestServer`,
 *   composed and served with `serveNode` as the example agent mounts them) over `createA2AServiceTaskHandler`
 *   (in-memory store, streaming on) with a bench executor. The example agent has no behaviour that keeps a task
 *   WORKING and emits updates on demand (tck-cancel keeps it WORKING but emits nothing), so this is a bench agent
 *   built from the same generated code, without the example's auth hook and card.
 * - sdk:  @a2a-js/sdk 1.3.0 (express 5, jsonRpcHandler + restHandler, DefaultRequestHandler, InMemoryTaskStore)
 *   with the equivalent executor, for the one-stream events/s comparison ("count N" only).
 *
 * Executor behaviours (text of the message's first part):
 * - "count N": N events on the stream: the Task (WORKING), N-2 updates, COMPLETED, back to back;
 * - "hold":    WORKING, then the task waits, registered as held, for the parent's commands (ours only).
 * Update i (0-based) is a WORKING status update for even i and an artifact update (artifact "a", replaced) for odd i,
 * both with metadata `{ seq: i, ts }`, `ts` = performance.timeOrigin + performance.now() when the executor emits it;
 * the terminal COMPLETED status update carries `{ seq: -1, ts }`. Nothing grows per update: no status message
 * (history), one artifact replaced.
 *
 * Commands (IPC, ours; each answered `{ re: cmd, ... }`):
 * - `{ cmd: "emit", count, intervalMs }`: every held task emits `count` updates (its own numbering goes on); with
 *   intervalMs 0 each task emits back to back (awaiting each emit), else one update on every held task per tick;
 *   answers `{ seconds }` once every emit returned (stored and published);
 * - `{ cmd: "complete" }`: every held task completes (seq -1) and is no longer held;
 * - `{ cmd: "heap-snapshot", file }`: a heap snapshot (after GC) written to `file`;
 * - `{ cmd: "profile-start" }` / `{ cmd: "profile-stop", file }`: a CPU profile (node:inspector) written to `file`;
 * - `{ cmd: "mem", gc }`: `{ rss, heapUsed, peakRss, peakHeap, held, live, sockets }` (live: the task handler's live task slots; sockets: open connections) (after 3 GCs when `gc`), peaks since the last
 *   `{ cmd: "peak-reset" }`; sampled every 50 ms.
 */
import { writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { Session } from "node:inspector";
import type { AddressInfo } from "node:net";
import { setFlagsFromString, writeHeapSnapshot } from "node:v8";
import { runInNewContext } from "node:vm";
import type { JsonObject } from "@bufbuild/protobuf";
import { TaskState as SdkTaskState } from "@a2a-js/sdk";
import {
  AgentEvent,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext,
} from "@a2a-js/sdk/server";
import { UserBuilder, jsonRpcHandler, restHandler } from "@a2a-js/sdk/server/express";
import { composeHandlers, serveNode } from "@protoc-gen-a2a/runtime/http";
import express from "express";
import { createA2AServiceJsonRpcServer } from "../../generated-example/gen/a2a_a2a_jsonrpc_server.js";
import { createA2AServiceRestServer } from "../../generated-example/gen/a2a_a2a_rest_server.js";
import {
  createA2AServiceTaskHandler,
  type A2AServiceExecutor,
  type A2AServiceTaskEmitter,
} from "../../generated-example/gen/a2a_a2a_task_handler.js";
import { TaskState } from "../../generated-example/gen/a2a_pb.js";
import {
  sdkAgentCard,
  sdkFirstText,
  sdkRequestHandler,
  sdkStatus,
  sdkText,
} from "../../test/support/sdk-agent.js";
import { firstText, runBenchServer } from "../lib/bench-server.js";

/** Upper bound of "count N", so a typo cannot make a server loop for ever. */
const MAX_COUNT = 1_000_000;

function countOf(text: string): number | undefined {
  const n = /^count (\d+)$/.exec(text)?.[1];
  return n === undefined ? undefined : Math.max(2, Math.min(Number(n), MAX_COUNT));
}

const now = (): number => performance.timeOrigin + performance.now();

// ---------------------------------------------------------------------------------------
// memory: peaks sampled every 50 ms, GC on demand (--expose-gc from inside: the server is forked without flags)
// ---------------------------------------------------------------------------------------

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
let peakRss = 0;
let peakHeap = 0;
function sample(): void {
  const m = process.memoryUsage();
  if (m.rss > peakRss) peakRss = m.rss;
  if (m.heapUsed > peakHeap) peakHeap = m.heapUsed;
}
setInterval(sample, 50).unref();

// ---------------------------------------------------------------------------------------
// ours: the task runtime with a bench executor
// ---------------------------------------------------------------------------------------

/** A task held WORKING: its emitter, the next update number, and how to let execute() return. */
interface Held {
  readonly emitter: A2AServiceTaskEmitter;
  seq: number;
  readonly release: () => void;
}
const held = new Set<Held>();
/** The task handler of "ours" (its live task slots: 0 once every stream and turn is over, else something leaked). */
let liveTasks: () => number = () => 0;

function emitUpdate(emitter: A2AServiceTaskEmitter, seq: number): Promise<void> {
  const metadata: JsonObject = { seq, ts: now() };
  if (seq % 2 === 0)
    return emitter.publish({
      case: "statusUpdate",
      value: { status: { state: TaskState.WORKING }, metadata },
    });
  return emitter.addArtifact(
    { artifactId: "a", name: "a", parts: [{ content: { case: "text", value: `update ${seq}` } }] },
    { metadata },
  );
}

const completeWith = (emitter: A2AServiceTaskEmitter) =>
  emitter.publish({
    case: "statusUpdate",
    value: { status: { state: TaskState.COMPLETED }, metadata: { seq: -1, ts: now() } },
  });

const benchExecutor: A2AServiceExecutor = {
  async execute(context, emitter) {
    const text = firstText(context.message);
    const n = countOf(text);
    if (n !== undefined) {
      // The first update (a WORKING status) creates the task: the stream starts with the Task.
      for (let i = 0; i < n - 2; i++) await emitUpdate(emitter, i);
      await completeWith(emitter);
      return;
    }
    if (text !== "hold") {
      await emitter.reply({ parts: [{ content: { case: "text", value: text } }] });
      return;
    }
    await emitter.working();
    await new Promise<void>((release) => held.add({ emitter, seq: 0, release }));
  },
};

async function emitAll(count: number, intervalMs: number): Promise<void> {
  const tasks = [...held];
  if (intervalMs <= 0) {
    await Promise.all(
      tasks.map(async (h) => {
        for (let i = 0; i < count; i++) await emitUpdate(h.emitter, h.seq++);
      }),
    );
    return;
  }
  for (let i = 0; i < count; i++) {
    const tick = performance.now();
    await Promise.all(tasks.map((h) => emitUpdate(h.emitter, h.seq++)));
    const wait = intervalMs - (performance.now() - tick);
    if (i < count - 1 && wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
}

async function completeAll(): Promise<void> {
  const tasks = [...held];
  held.clear();
  await Promise.all(
    tasks.map(async (h) => {
      await completeWith(h.emitter);
      h.release();
    }),
  );
}

function listenOurs(): Promise<number> {
  // BENCH_MAX_QUEUED_EVENTS (set by the parent for the one-stream scenario only): "count N" emits N events back to
  // back, never yielding to the event loop, so the stream's queue holds nearly all of them before the socket drains;
  // the default bound (1,000) would cut such a burst off, as documented. The many-stream scenarios keep the default.
  const maxQueued = Number(process.env["BENCH_MAX_QUEUED_EVENTS"] ?? "");
  const handler = createA2AServiceTaskHandler({
    executor: benchExecutor,
    capabilities: { streaming: true },
    ...(maxQueued > 0 ? { maxQueuedEvents: maxQueued } : {}),
    onError: (e, where) => console.error(`ours: ${where}`, e),
  });
  liveTasks = () => handler.liveTasks;
  const options = {
    versionWhenMissing: "1.0",
    logger: { error: (m: string, e?: unknown) => console.error(m, e) },
  };
  const jsonrpc = createA2AServiceJsonRpcServer(handler, options);
  const rest = createA2AServiceRestServer(handler, { ...options, basePath: "/a2a/rest" });
  const listener = serveNode(
    composeHandlers(
      { prefix: "/a2a/jsonrpc", handler: jsonrpc.handler },
      { prefix: "/a2a/rest", handler: rest.handler },
    ),
  );
  return listen(createServer(listener));
}

// ---------------------------------------------------------------------------------------
// @a2a-js/sdk 1.3.0
// ---------------------------------------------------------------------------------------

/** "count N": the Task (WORKING), N-2 updates as the bench executor numbers them, COMPLETED. */
class SdkStreamExecutor implements AgentExecutor {
  async execute(ctx: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const n = countOf(String(sdkFirstText(ctx.userMessage.parts) ?? "")) ?? 2;
    const { taskId, contextId } = ctx;
    bus.publish(
      AgentEvent.task({
        id: taskId,
        contextId,
        status: sdkStatus(SdkTaskState.TASK_STATE_WORKING),
        artifacts: [],
        history: [ctx.userMessage],
        metadata: undefined,
      }),
    );
    for (let seq = 0; seq < n - 2; seq++) {
      const metadata = { seq, ts: now() };
      if (seq % 2 === 0)
        bus.publish(
          AgentEvent.statusUpdate({
            taskId,
            contextId,
            status: sdkStatus(SdkTaskState.TASK_STATE_WORKING),
            metadata,
          }),
        );
      else {
        bus.publish(
          AgentEvent.artifactUpdate({
            taskId,
            contextId,
            artifact: {
              artifactId: "a",
              name: "a",
              description: "",
              parts: [sdkText(`update ${seq}`)],
              metadata: undefined,
              extensions: [],
            },
            append: false,
            lastChunk: false,
            metadata,
          }),
        );
      }
    }
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId,
        status: sdkStatus(SdkTaskState.TASK_STATE_COMPLETED),
        metadata: { seq: -1, ts: now() },
      }),
    );
  }
  cancelTask = async (): Promise<void> => {};
}

function listenSdk(): Promise<number> {
  const jsonrpc = sdkAgentCard({
    name: "SDK bench",
    description: "streams",
    url: "http://127.0.0.1/a2a/jsonrpc",
    protocolBinding: "JSONRPC",
  });
  const rest = sdkAgentCard({
    name: "SDK bench",
    description: "streams",
    url: "http://127.0.0.1/a2a/rest",
    protocolBinding: "HTTP+JSON",
  });
  const card = {
    ...jsonrpc,
    supportedInterfaces: [...jsonrpc.supportedInterfaces, ...rest.supportedInterfaces],
  };
  const requestHandler = sdkRequestHandler(card, new SdkStreamExecutor());
  const app = express();
  app.use(
    "/a2a/jsonrpc",
    jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }),
  );
  app.use("/a2a/rest", restHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));
  return listen(createServer(app));
}

// ---------------------------------------------------------------------------------------
// main
// ---------------------------------------------------------------------------------------

/** Open client sockets of the listening server. */
let sockets = 0;

function listen(server: ReturnType<typeof createServer>): Promise<number> {
  server.on("connection", (socket) => {
    sockets++;
    socket.once("close", () => sockets--);
  });
  // Thousands of connections arrive at once: a deep accept queue (the kernel caps it at somaxconn).
  return new Promise((resolve) =>
    server.listen({ port: 0, host: "127.0.0.1", backlog: 4096 }, () =>
      resolve((server.address() as AddressInfo).port),
    ),
  );
}

type Command = { cmd?: string; count?: number; intervalMs?: number; gc?: boolean; file?: string };

let session: Session | undefined;
function profiler(method: string, params?: object): Promise<unknown> {
  session ??= (() => {
    const s = new Session();
    s.connect();
    return s;
  })();
  return new Promise((resolve, reject) =>
    session!.post(method, params ?? {}, (e, r) => (e ? reject(e) : resolve(r))),
  );
}

process.on("message", (m: Command | null) => {
  const reply = (body: object) => process.send?.({ re: m?.cmd, ...body });
  const fail = (e: unknown) =>
    reply({ error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
  switch (m?.cmd) {
    case "emit": {
      const started = performance.now();
      emitAll(m.count ?? 1, m.intervalMs ?? 0).then(
        () => reply({ seconds: (performance.now() - started) / 1000 }),
        fail,
      );
      break;
    }
    case "complete":
      completeAll().then(() => reply({}), fail);
      break;
    case "mem": {
      if (m.gc === true) for (let i = 0; i < 3; i++) gc();
      sample();
      const { rss, heapUsed } = process.memoryUsage();
      reply({ rss, heapUsed, peakRss, peakHeap, held: held.size, live: liveTasks(), sockets });
      break;
    }
    case "heap-snapshot":
      for (let i = 0; i < 3; i++) gc();
      writeHeapSnapshot(m.file);
      reply({});
      break;
    case "profile-start":
      profiler("Profiler.enable")
        .then(() => profiler("Profiler.start"))
        .then(() => reply({}), fail);
      break;
    case "profile-stop":
      profiler("Profiler.stop")
        .then((r) =>
          writeFileSync(
            m.file ?? "profile.cpuprofile",
            JSON.stringify((r as { profile: unknown }).profile),
          ),
        )
        .then(() => reply({}), fail);
      break;
    case "peak-reset": {
      const { rss, heapUsed } = process.memoryUsage();
      peakRss = rss;
      peakHeap = heapUsed;
      reply({});
      break;
    }
  }
});

runBenchServer("streams-server.mjs", { ours: listenOurs, sdk: listenSdk });
