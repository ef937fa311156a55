/**
 * In-process fan-out benchmark of the task runtime, for bench/task.mjs (bundled by it with esbuild; forked with
 * `--expose-gc` and an IPC channel). Usage: `node task-fanout.mjs <subscribers> <updates>`.
 *
 * One task (generated binder, in-memory store, streaming on) held WORKING by its executor; `<subscribers>`
 * SubscribeToTask streams are opened on it by calling the handler directly (no network), each read to its first
 * event (the Task); heapUsed is measured before and after (after `global.gc()` when exposed). Then the executor
 * emits `<updates>` events (alternately a WORKING status update and an artifact update, each numbered) and
 * completes the task. Measured: delivered events/s over all subscribers (subscribers × (updates + 1 terminal))
 * from the first emit to the last subscriber's end. Every subscriber must get every event, in order, and end.
 *
 * A warm-up run (100 × 100) precedes the measured run. The result goes to the parent as one IPC message
 * `{ result: {...} }` (or `{ error }`); the process exits with the parent.
 */
import { create } from "@bufbuild/protobuf";
import { createCallContext } from "@protoc-gen-a2a/runtime";
import {
  createA2AServiceTaskHandler,
  type A2AServiceExecutor,
} from "../../generated-example/gen/a2a_a2a_task_handler.js";
import {
  MessageSchema,
  Role,
  SendMessageRequestSchema,
  SubscribeToTaskRequestSchema,
  TaskState,
  type StreamResponse,
} from "../../generated-example/gen/a2a_pb.js";

const gc = (globalThis as { gc?: () => void }).gc;

function collectGarbage(): void {
  if (gc === undefined) return;
  for (let i = 0; i < 3; i++) gc();
}

function heapUsed(): number {
  collectGarbage();
  return process.memoryUsage().heapUsed;
}

/** A promise with its resolver. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** The sequence number of an update event (status message "u<i>" or artifact id "a<i>"), -1 for the terminal status, NaN otherwise. */
function sequenceOf(event: StreamResponse): number {
  const p = event.payload;
  if (p.case === "statusUpdate") {
    if (p.value.status?.state === TaskState.COMPLETED) return -1;
    const content = p.value.status?.message?.parts[0]?.content;
    return content?.case === "text" && content.value.startsWith("u")
      ? Number(content.value.slice(1))
      : NaN;
  }
  if (p.case === "artifactUpdate") {
    const id = p.value.artifact?.artifactId ?? "";
    return id.startsWith("a") ? Number(id.slice(1)) : NaN;
  }
  return NaN;
}

interface RunResult {
  subscribers: number;
  updates: number;
  delivered: number;
  seconds: number;
  eventsPerSec: number;
  subscribeSeconds: number;
  bytesPerSubscriber: number;
  gc: boolean;
  ok: boolean;
  problems: string[];
}

async function run(subscribers: number, updates: number): Promise<RunResult> {
  const gate = deferred();
  let emitStart = 0;
  const executor: A2AServiceExecutor = {
    async execute(_context, emitter) {
      await emitter.working("started");
      await gate.promise;
      emitStart = performance.now();
      for (let i = 0; i < updates; i++) {
        if (i % 2 === 0) await emitter.working(`u${i}`);
        else
          await emitter.addArtifact({
            artifactId: `a${i}`,
            parts: [{ content: { case: "text", value: `chunk ${i}` } }],
          });
      }
      await emitter.complete("done");
    },
  };
  const errors: string[] = [];
  const handler = createA2AServiceTaskHandler({
    executor,
    capabilities: { streaming: true },
    onError: (e, where) => errors.push(`${where}: ${String(e)}`),
  });
  const call = (operation: string) => createCallContext({ operation, binding: "JSONRPC" });

  const message = create(MessageSchema, {
    messageId: "fanout-1",
    role: Role.USER,
    parts: [{ content: { case: "text", value: "fan out" } }],
  });
  const response = await handler.sendMessage(
    create(SendMessageRequestSchema, { message, configuration: { returnImmediately: true } }),
    call("SendMessage"),
  );
  if (response.payload.case !== "task")
    throw new Error(`expected a task, got ${response.payload.case}`);
  const taskId = response.payload.value.id;

  const before = heapUsed();
  const subscribeStart = performance.now();
  let ready = 0;
  const allReady = deferred();
  const problems: string[] = [];
  let delivered = 0;
  let lastEnd = 0;

  async function subscriber(index: number): Promise<void> {
    const stream = handler.subscribeToTask(
      create(SubscribeToTaskRequestSchema, { id: taskId }),
      call("SubscribeToTask"),
    );
    let first = true;
    let next = 0; // the next expected update
    let terminal = false;
    for await (const event of stream) {
      if (first) {
        first = false;
        if (event.payload.case !== "task")
          problems.push(`subscriber ${index}: first event is ${event.payload.case}`);
        if (++ready === subscribers) allReady.resolve();
        continue;
      }
      const seq = sequenceOf(event);
      if (seq === -1) {
        if (next !== updates)
          problems.push(`subscriber ${index}: COMPLETED after ${next} of ${updates} updates`);
        terminal = true;
      } else if (seq !== next) {
        problems.push(
          `subscriber ${index}: expected update ${next}, got ${seq} (${event.payload.case})`,
        );
        next = seq + 1;
      } else {
        next++;
      }
      delivered++;
    }
    if (!terminal)
      problems.push(`subscriber ${index}: ended without COMPLETED (after ${next} updates)`);
    lastEnd = performance.now();
  }

  const done = Promise.all(Array.from({ length: subscribers }, (_, i) => subscriber(i)));
  await allReady.promise;
  const subscribeSeconds = (performance.now() - subscribeStart) / 1000;
  const after = heapUsed();

  gate.resolve();
  await done;
  const seconds = (lastEnd - emitStart) / 1000;
  const expected = subscribers * (updates + 1);
  if (delivered !== expected) problems.push(`delivered ${delivered} events, expected ${expected}`);
  for (let i = 0; i < 1000 && handler.liveTasks > 0; i++) await new Promise((r) => setImmediate(r));
  if (handler.liveTasks !== 0)
    problems.push(`${handler.liveTasks} task(s) still live after the run`);
  problems.push(...errors);
  return {
    subscribers,
    updates,
    delivered,
    seconds,
    eventsPerSec: delivered / seconds,
    subscribeSeconds,
    bytesPerSubscriber: (after - before) / subscribers,
    gc: gc !== undefined,
    ok: problems.length === 0,
    problems: problems.slice(0, 10),
  };
}

async function main(): Promise<void> {
  const subscribers = Number(process.argv[2]);
  const updates = Number(process.argv[3]);
  if (
    !Number.isInteger(subscribers) ||
    subscribers < 1 ||
    !Number.isInteger(updates) ||
    updates < 1 ||
    process.send === undefined
  ) {
    console.error(
      "usage: node task-fanout.mjs <subscribers> <updates> (forked with an IPC channel)",
    );
    process.exit(2);
  }
  process.on("disconnect", () => process.exit(0));
  await run(Math.min(100, subscribers), Math.min(100, updates)); // warm-up
  const result = await run(subscribers, updates);
  process.send({ result }, () => process.exit(0));
}

main().catch((e: unknown) => {
  process.send?.({ error: e instanceof Error ? (e.stack ?? e.message) : String(e) }, () =>
    process.exit(1),
  );
});
