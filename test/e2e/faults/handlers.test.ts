/**
 * Faults of the handler (issue #17), on every binding the generated code serves (JSON-RPC, HTTP+JSON with
 * SSE, gRPC on grpc-js and on Connect), through the generated clients over real sockets on 127.0.0.1:
 *   - a handler that throws synchronously, or rejects: the client gets a spec-shaped InternalError whose
 *     message leaks neither the thrown message nor a stack; the server logs the failure once;
 *   - a stream that throws after two events: the client gets the two events, then the same InternalError;
 *   - a handler that hangs forever, ignoring its signal: the call ends for the client with a clear timeout
 *     or abort error when its deadline passes or it aborts, and the server notices (the call's signal is
 *     aborted: nobody waits for the answer any more);
 *   - a stream that never ends (a pending `next()`, or a generator that yields forever without looking at
 *     its signal): once the client leaves, the server calls the iterator's `return()` (the generator's
 *     `finally` runs) and pulls no more events;
 *   - after all of it, the server serves a normal call and the process's fds are back to where they were.
 */
import { create } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { A2AError } from "@protoc-gen-a2a/runtime";
import type { A2AServiceHandler } from "../../../generated-example/gen/a2a_a2a_handler.js";
import {
  Role,
  SendMessageResponseSchema,
  StreamResponseSchema,
  TaskState,
  type Message,
  type StreamResponse,
} from "../../../generated-example/gen/a2a_pb.js";
import { UnsupportedOperationError } from "../../../generated-example/gen/a2a_a2a_errors.js";
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

const statusEvent = (i: number): StreamResponse =>
  create(StreamResponseSchema, {
    payload: {
      case: "statusUpdate",
      value: {
        taskId: "t-1",
        contextId: "c-1",
        status: {
          state: TaskState.WORKING,
          message: {
            messageId: `s-${i}`,
            role: Role.AGENT,
            parts: [{ content: { case: "text", value: `event ${i}` } }],
          },
        },
      },
    },
  });

/** What the faulty handler went through, for the assertions on the server's side. */
class Seen {
  /** Signals of the calls that hang. */
  readonly hung: AbortSignal[] = [];
  /** `return()` calls of the iterators whose `next()` never settles. */
  pendingReturned = 0;
  /** Generators that yield forever: how many have run their `finally`, and the events they yielded. */
  foreverFinished = 0;
  foreverYielded = 0;
}

/** A handler that misbehaves by the text of the first part; "ok" answers normally. */
function faultyHandler(seen: Seen): A2AServiceHandler {
  const unsupported = () => Promise.reject(new UnsupportedOperationError("not in this test"));
  const handler = {
    sendMessage(request: { message?: Message }, context: { signal: AbortSignal }) {
      const text = textOf(request.message);
      if (text === "throw-sync") throw new Error(SECRET);
      if (text === "reject") return Promise.reject(new Error(SECRET));
      if (text === "hang") {
        seen.hung.push(context.signal);
        return new Promise<never>(() => {});
      }
      return Promise.resolve(
        create(SendMessageResponseSchema, {
          payload: {
            case: "message",
            value: {
              messageId: "r-1",
              role: Role.AGENT,
              parts: [{ content: { case: "text", value: text } }],
            },
          },
        }),
      );
    },
    sendStreamingMessage(request: { message?: Message }): AsyncIterable<StreamResponse> {
      const text = textOf(request.message);
      if (text === "stream-sync-throw") throw new Error(SECRET);
      if (text === "stream-pending") {
        // Hand-written: the first next() gives an event, the second never settles; return() is recorded.
        let calls = 0;
        const iterator: AsyncIterator<StreamResponse> = {
          next: () =>
            calls++ === 0
              ? Promise.resolve({ done: false, value: statusEvent(0) })
              : new Promise(() => {}),
          return: () => {
            seen.pendingReturned++;
            return Promise.resolve({ done: true, value: undefined });
          },
        };
        return { [Symbol.asyncIterator]: () => iterator };
      }
      return (async function* () {
        if (text === "stream-throw") {
          yield statusEvent(0);
          yield statusEvent(1);
          throw new Error(SECRET);
        }
        // "stream-forever": an event every 20 ms, never looking at the call's signal.
        try {
          for (let i = 0; ; i++) {
            seen.foreverYielded++;
            yield statusEvent(i);
            await new Promise((r) => setTimeout(r, 20));
          }
        } finally {
          seen.foreverFinished++;
        }
      })();
    },
    getTask: unsupported,
    listTasks: unsupported,
    cancelTask: unsupported,
    subscribeToTask: () => ({ [Symbol.asyncIterator]: () => ({ next: unsupported }) }),
    createTaskPushNotificationConfig: unsupported,
    getTaskPushNotificationConfig: unsupported,
    listTaskPushNotificationConfigs: unsupported,
    getExtendedAgentCard: unsupported,
    deleteTaskPushNotificationConfig: unsupported,
  };
  return handler as unknown as A2AServiceHandler;
}

/** Asserts a spec-shaped InternalError that leaks nothing of what the handler threw. */
function expectOpaqueInternal(error: unknown): void {
  expect(error).toBeInstanceOf(A2AError);
  const e = error as A2AError;
  expect(e.reason).toBe("INTERNAL");
  expect(e.code).toBe(-32603);
  expect(e.message).not.toContain("hunter2");
  expect(e.message).not.toMatch(/\bat .*:\d+:\d+/); // no stack frame
}

/** Reads `count` events of the stream, then leaves it (the for-await's break calls the client's return()). */
async function readThenLeave(
  stream: AsyncIterable<StreamResponse>,
  count: number,
): Promise<number> {
  let got = 0;
  for await (const _ of stream) {
    if (++got >= count) break;
  }
  return got;
}

describe.each(SERVERS)("$name: a handler that fails or hangs", ({ start }) => {
  const seen = new Seen();
  let server: FaultServer;
  let baseline = 0;

  beforeAll(async () => {
    server = await start(faultyHandler(seen));
    // The client's connection is up (and reused by every call below) before the fds are counted.
    expect(textOf((await server.client.sendMessage(message("ok"))).payload.value as Message)).toBe(
      "ok",
    );
    baseline = openFds();
  });
  afterAll(() => server.close());

  it("throws synchronously: InternalError without the message or a stack, logged once", async () => {
    const before = server.logged.length;
    expectOpaqueInternal(await rejectionOf(server.client.sendMessage(message("throw-sync"))));
    await eventually(() => server.logged.length > before, 5_000);
    expect(server.logged.slice(before).map(([m]) => m)).toEqual(["SendMessage: handler failed"]);
    expect((server.logged[before]![1] as Error).message).toBe(SECRET);
  });

  it("rejects: InternalError without the message, logged once", async () => {
    const before = server.logged.length;
    expectOpaqueInternal(await rejectionOf(server.client.sendMessage(message("reject"))));
    await eventually(() => server.logged.length > before, 5_000);
    expect(server.logged.slice(before).map(([m]) => m)).toEqual(["SendMessage: handler failed"]);
  });

  it("a stream that throws when called: InternalError", async () => {
    expectOpaqueInternal(
      await rejectionOf(
        readThenLeave(server.client.sendStreamingMessage(message("stream-sync-throw")), 100),
      ),
    );
  });

  it("a stream that throws after two events: the two events, then InternalError", async () => {
    const events: StreamResponse[] = [];
    const error = await rejectionOf(
      (async () => {
        for await (const event of server.client.sendStreamingMessage(message("stream-throw")))
          events.push(event);
      })(),
    );
    expect(events.map((e) => e.payload.case)).toEqual(["statusUpdate", "statusUpdate"]);
    expectOpaqueInternal(error);
  });

  it("hangs forever, the client's deadline passes: a timeout error for the client; the server's call is aborted", async () => {
    const started = Date.now();
    const error = await rejectionOf(server.client.sendMessage(message("hang"), { timeoutMs: 300 }));
    expect(Date.now() - started).toBeLessThan(20_000); // ended by the deadline, not by a test timeout
    expect(String((error as Error).name) + String((error as Error).message)).toMatch(
      /time|deadline/i,
    );
    const signal = seen.hung.at(-1)!;
    await eventually(() => signal.aborted, 10_000);
  });

  it("hangs forever, the client aborts: an abort error for the client; the server's call is aborted", async () => {
    const controller = new AbortController();
    const call = server.client.sendMessage(message("hang"), { signal: controller.signal });
    const hung = seen.hung.length;
    await eventually(() => seen.hung.length > hung, 10_000);
    controller.abort();
    const error = await rejectionOf(call);
    expect(String((error as Error).name) + String((error as Error).message)).toMatch(
      /abort|cancel/i,
    );
    await eventually(() => seen.hung.at(-1)!.aborted, 10_000);
  });

  it("a stream whose next() never settles: the client leaves after an event, the server calls return()", async () => {
    expect(
      await readThenLeave(server.client.sendStreamingMessage(message("stream-pending")), 1),
    ).toBe(1);
    await eventually(() => seen.pendingReturned === 1, 10_000);
  });

  it("a stream that never ends: the client leaves, the generator's finally runs and no more events are pulled", async () => {
    expect(
      await readThenLeave(server.client.sendStreamingMessage(message("stream-forever")), 3),
    ).toBe(3);
    await eventually(() => seen.foreverFinished === 1, 10_000);
    const yielded = seen.foreverYielded;
    await new Promise((r) => setTimeout(r, 200));
    expect(seen.foreverYielded).toBe(yielded);
  });

  it("a stream that never ends, the client's deadline passes: a timeout error; the generator's finally runs", async () => {
    const error = await rejectionOf(
      readThenLeave(
        server.client.sendStreamingMessage(message("stream-forever"), { timeoutMs: 300 }),
        1_000_000,
      ),
    );
    expect(String((error as Error).name) + String((error as Error).message)).toMatch(
      /time|deadline/i,
    );
    await eventually(() => seen.foreverFinished === 2, 10_000);
  });

  it("after all of it: a normal call is served and the fds are back to the baseline", async () => {
    expect(textOf((await server.client.sendMessage(message("ok"))).payload.value as Message)).toBe(
      "ok",
    );
    // The HTTP clients may have opened a second keep-alive connection meanwhile: a little slack.
    await eventually(() => openFds() <= baseline + 2, 10_000);
  });
});
