/**
 * Faults of a task-runtime executor (issue #17), served by the generated binder over every binding
 * (JSON-RPC, HTTP+JSON with SSE, gRPC on grpc-js and on Connect), through the generated clients:
 *   - execute() throws synchronously before emitting anything: the caller gets an opaque InternalError,
 *     no task is created, nothing stays live;
 *   - execute() rejects after WORKING: the task is FAILED with a generic status message (the thrown
 *     message is not leaked, it goes to onError), for a blocking SendMessage and for a stream (whose last
 *     event is the FAILED status);
 *   - execute() hangs forever: a blocking caller whose deadline passes gets a timeout error, the task stays
 *     WORKING and can be canceled; once canceled, a message to it is refused at once (not queued behind
 *     the hung turn); an executor that honours its signal ends, and nothing stays live;
 *   - a streaming caller that leaves a task that never ends: the task is untouched (it outlives the
 *     request), the server keeps serving;
 *   - a caller that disconnects while queued behind a task's running turn: its message is not processed
 *     (on the wire; test/runtime/task/concurrency.test.ts checks the engine's side).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { A2AError } from "@protoc-gen-a2a/runtime";
import type { TaskHandlerIntrospection } from "@protoc-gen-a2a/runtime/task";
import {
  TaskState,
  type Message,
  type StreamResponse,
  type Task,
} from "../../../generated-example/gen/a2a_pb.js";
import type { A2AServiceHandler } from "../../../generated-example/gen/a2a_a2a_handler.js";
import {
  createA2ATaskHandler,
  describeEvent,
  Gate,
  taskOf,
  type A2AExecutor,
} from "../../support/task-runtime-binding.js";
import { eventually } from "../../support/servers.js";
import {
  SERVERS,
  message,
  openFds,
  rejectionOf,
  type FaultServer,
} from "../../support/faults-servers.js";

const SECRET = "the database password is hunter2";

const textOf = (m: Message | undefined): string => {
  const content = m?.parts[0]?.content;
  return content?.case === "text" ? content.value : "";
};

/** What the executor went through. */
class Seen {
  /** Texts of every execute() call, in order. */
  readonly executed: string[] = [];
  /** Errors handed to the handler's onError. */
  readonly errors: unknown[] = [];
  /** Opened by the test to let a "hold" turn finish (as INPUT_REQUIRED). */
  hold = new Gate();
  /** execute() calls that honoured their signal and returned. */
  signalEnded = 0;
}

function faultyExecutor(seen: Seen): A2AExecutor {
  return {
    execute(request, emitter) {
      const text = textOf(request.message);
      seen.executed.push(text);
      if (text === "throw-sync") throw new Error(SECRET);
      return (async () => {
        if (text === "ok") return emitter.reply("ok");
        if (text === "answer") return emitter.complete("done");
        await emitter.working();
        if (text === "reject-working") throw new Error(SECRET);
        if (text === "stream-throw") {
          await emitter.addArtifact({ parts: [{ content: { case: "text", value: "half" } }] });
          throw new Error(SECRET);
        }
        if (text === "hang") return new Promise<void>(() => {}); // ignores its signal
        if (text === "hang-until-canceled") {
          await new Promise<void>((resolve) =>
            request.signal.addEventListener("abort", () => resolve(), { once: true }),
          );
          seen.signalEnded++;
          return;
        }
        if (text === "hold") {
          await seen.hold.promise;
          return emitter.requireInput("more, please");
        }
        return emitter.complete("done");
      })();
    },
  };
}

/** `handler` with every SendMessage call's context recorded (its signal read, so made, by the test only). */
function watched(handler: A2AServiceHandler): A2AServiceHandler {
  return {
    ...handler,
    sendMessage: (request, context) => {
      calls.push(context);
      return handler.sendMessage(request, context);
    },
  };
}
const calls: { readonly signal: AbortSignal }[] = [];

/** Asserts a spec-shaped InternalError that leaks nothing of what the executor threw. */
function expectOpaqueInternal(error: unknown): void {
  expect(error).toBeInstanceOf(A2AError);
  expect((error as A2AError).reason).toBe("INTERNAL");
  expect((error as A2AError).message).not.toContain("hunter2");
}

describe.each(SERVERS)("$name: an executor that fails or hangs", ({ start }) => {
  const seen = new Seen();
  let handler: A2AServiceHandler & TaskHandlerIntrospection;
  let server: FaultServer;
  let baseline = 0;

  beforeAll(async () => {
    handler = createA2ATaskHandler({
      executor: faultyExecutor(seen),
      capabilities: { streaming: true },
      onError: (e) => seen.errors.push(e),
    });
    server = await start(watched(handler));
    expect((await server.client.sendMessage(message("ok"))).payload.case).toBe("message");
    baseline = openFds();
  });
  afterAll(() => server.close());

  const getTask = async (id: string): Promise<Task> => server.client.getTask({ id });

  it("throws synchronously before any event: InternalError, no task, nothing live", async () => {
    expectOpaqueInternal(await rejectionOf(server.client.sendMessage(message("throw-sync"))));
    expect(
      (await server.client.listTasks({})).tasks.filter(
        (t) => textOf(t.history[0]) === "throw-sync",
      ),
    ).toEqual([]);
    await eventually(() => handler.liveTasks === 0, 10_000);
  });

  it("rejects after WORKING (blocking SendMessage): the task FAILED with a generic message, the error to onError", async () => {
    const errors = seen.errors.length;
    const task = taskOf(await server.client.sendMessage(message("reject-working")));
    expect(task.status?.state).toBe(TaskState.FAILED);
    expect(textOf(task.status?.message)).toBe("The agent failed while processing the task.");
    expect(textOf((await getTask(task.id)).status?.message)).toBe(
      "The agent failed while processing the task.",
    );
    await eventually(() => seen.errors.length > errors, 5_000);
    expect((seen.errors[errors] as Error).message).toBe(SECRET);
    await eventually(() => handler.liveTasks === 0, 10_000);
  });

  it("rejects mid-stream: the stream ends normally, its last event the FAILED status, nothing leaked", async () => {
    const events: StreamResponse[] = [];
    for await (const event of server.client.sendStreamingMessage(message("stream-throw")))
      events.push(event);
    expect(events.map(describeEvent)).toEqual([
      "task:SUBMITTED",
      "status:WORKING:",
      "artifact:" +
        (events[2]?.payload.case === "artifactUpdate"
          ? events[2].payload.value.artifact?.artifactId
          : "?"),
      "status:FAILED:The agent failed while processing the task.",
    ]);
    expect(JSON.stringify(events.map(describeEvent))).not.toContain("hunter2");
    await eventually(() => handler.liveTasks === 0, 10_000);
  });

  it("hangs forever ignoring its signal: the blocking caller times out; the task can be canceled and then refuses messages at once", async () => {
    const error = await rejectionOf(server.client.sendMessage(message("hang"), { timeoutMs: 300 }));
    expect(String((error as Error).name) + String((error as Error).message)).toMatch(
      /time|deadline/i,
    );
    const hung = (await server.client.listTasks({})).tasks.find(
      (t) => textOf(t.history[0]) === "hang",
    )!;
    expect(hung.status?.state).toBe(TaskState.WORKING);
    expect((await server.client.cancelTask({ id: hung.id })).status?.state).toBe(
      TaskState.CANCELED,
    );
    // Not queued behind the hung turn (which still holds its slot): refused as for any terminal task.
    const refused = await rejectionOf(
      server.client.sendMessage(message("more", { taskId: hung.id }), { timeoutMs: 10_000 }),
    );
    expect((refused as A2AError).reason).toBe("UNSUPPORTED_OPERATION");
  });

  it("hangs until canceled: the caller times out, CancelTask ends the turn, nothing stays live", async () => {
    const live = handler.liveTasks;
    const error = await rejectionOf(
      server.client.sendMessage(message("hang-until-canceled"), { timeoutMs: 300 }),
    );
    expect(String((error as Error).name) + String((error as Error).message)).toMatch(
      /time|deadline/i,
    );
    const task = (await server.client.listTasks({})).tasks.find(
      (t) => textOf(t.history[0]) === "hang-until-canceled",
    )!;
    const ended = seen.signalEnded;
    expect((await server.client.cancelTask({ id: task.id })).status?.state).toBe(
      TaskState.CANCELED,
    );
    await eventually(() => seen.signalEnded === ended + 1, 10_000);
    await eventually(() => handler.liveTasks === live, 10_000);
  });

  it("a streaming caller leaves a task that never ends: the task stays WORKING, the server serves on", async () => {
    let taskId = "";
    for await (const event of server.client.sendStreamingMessage(message("hang-until-canceled"))) {
      if (event.payload.case === "task") taskId = event.payload.value.id;
      if (event.payload.case === "statusUpdate") break; // WORKING: leave
    }
    expect((await getTask(taskId)).status?.state).toBe(TaskState.WORKING);
    // A SubscribeToTask caller that leaves too.
    for await (const event of server.client.subscribeToTask({ id: taskId })) {
      expect(event.payload.case).toBe("task");
      break;
    }
    expect((await server.client.cancelTask({ id: taskId })).status?.state).toBe(TaskState.CANCELED);
    expect((await server.client.sendMessage(message("ok"))).payload.case).toBe("message");
  });

  it("a caller that leaves while queued behind the task's running turn: its message is not processed", async () => {
    seen.hold = new Gate();
    const first = taskOf(
      await server.client.sendMessage({
        ...message("hold"),
        configuration: { returnImmediately: true },
      }),
    );
    await eventually(() => seen.executed.at(-1) === "hold", 10_000);
    const gone = new AbortController();
    const reached = calls.length;
    const queued = rejectionOf(
      server.client.sendMessage(message("queued, then gone", { taskId: first.id }), {
        signal: gone.signal,
      }),
    );
    // The request reaches the handler, which goes on to wait for the task's lock.
    await eventually(() => calls.length === reached + 1, 10_000);
    await new Promise((r) => setTimeout(r, 50));
    gone.abort();
    await queued;
    // The server learns of the disconnect from its own socket events: wait until it has (else the
    // turn could end, and the queued message go through, before the server read the close).
    await eventually(() => calls.at(-1)?.signal.aborted === true, 10_000);
    seen.hold.open();
    let task = await getTask(first.id);
    for (
      const end = Date.now() + 10_000;
      task.status?.state !== TaskState.INPUT_REQUIRED && Date.now() < end;
    ) {
      await new Promise((r) => setTimeout(r, 20));
      task = await getTask(first.id);
    }
    expect(task.status?.state).toBe(TaskState.INPUT_REQUIRED);
    expect(task.history.map(textOf)).not.toContain("queued, then gone");
    expect(seen.executed).not.toContain("queued, then gone");
    // The task still takes a message from a caller who stays.
    expect(
      taskOf(await server.client.sendMessage(message("answer", { taskId: first.id }))).status
        ?.state,
    ).toBe(TaskState.COMPLETED);
  });

  it("after all of it: fds back to the baseline", async () => {
    expect((await server.client.sendMessage(message("ok"))).payload.case).toBe("message");
    await eventually(() => openFds() <= baseline + 2, 10_000);
  });
});
