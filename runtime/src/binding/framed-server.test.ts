// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The framed binding server (framed-server.ts) over a scripted dispatcher: answers by call id,
 * activated extensions on a result and on a stream's first event only, error frames (before and
 * after the first event, an unreadable frame with and without a readable id), duplicate ids,
 * cancel and close reaching the handler's signal, ids per connection, and backpressure.
 */
import type { JsonValue } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import {
  A2AError,
  toJsonRpcError,
  type A2AErrorSpec,
  type JsonRpcErrorObject,
} from "../errors/a2a-error.js";
import type { CallContext } from "../pipeline/call-context.js";
import type { BindingCall, BindingDispatcher, BindingResult } from "./dispatcher.js";
import type { FramedCallId, FramedReplySink } from "./framed-call.js";
import { createFramedBindingServer, type FramedServerHooks } from "./framed-server.js";
import { decodeJsonCallFrame, peekJsonCallId } from "./json-call-frames.js";

const URI = "https://example.com/a2a/bindings/test/v1";
const spec = (name: string, reason: string, jsonRpcCode: number): A2AErrorSpec => ({
  name,
  reason,
  jsonRpcCode,
  grpcCode: 3,
  grpcStatus: "INVALID_ARGUMENT",
  httpStatus: 400,
  message: name,
});
const errors = {
  JsonParseError: spec("JsonParseError", "JSON_PARSE", -32700),
  InvalidRequestError: spec("InvalidRequestError", "INVALID_REQUEST", -32600),
  InternalError: spec("InternalError", "INTERNAL", -32603),
  TaskNotFoundError: spec("TaskNotFoundError", "TASK_NOT_FOUND", -32001),
};

/** A dispatcher whose operations are scripted here; it records the calls it got. */
function scripted(): {
  dispatcher: BindingDispatcher;
  calls: BindingCall[];
  produced: () => number;
} {
  const calls: BindingCall[] = [];
  let produced = 0;
  const context = (activated: string[]) =>
    ({ activatedExtensions: new Set(activated) }) as unknown as CallContext<unknown>;
  async function* events(
    count: number,
    failAt: number | undefined,
    signal: AbortSignal | undefined,
  ): AsyncGenerator<JsonValue> {
    for (let i = 0; i < count; i++) {
      if (i === failAt) throw new A2AError(errors.TaskNotFoundError, "gone");
      produced++;
      yield { n: i };
    }
    // Open-ended: waits until cancelled.
    if (count < 0 || failAt === -1)
      await new Promise<void>((resolve) =>
        signal?.addEventListener("abort", () => resolve(), { once: true }),
      );
  }
  const dispatcher: BindingDispatcher = {
    binding: URI,
    call: async (call): Promise<BindingResult> => {
      calls.push(call);
      const request = call.request as { count?: number; failAt?: number };
      switch (call.operation) {
        case "Echo":
          return {
            kind: "unary",
            response: call.request as JsonValue,
            activatedExtensions: ["urn:echo"],
          };
        case "Count":
          return {
            kind: "stream",
            events: events(request.count ?? 0, request.failAt, call.signal),
            context: context(["urn:count"]),
          };
        case "Fail":
          throw new A2AError(errors.TaskNotFoundError, "no such task");
        default:
          throw new A2AError(
            spec("MethodNotFoundError", "METHOD_NOT_FOUND", -32601),
            `Method not found: ${call.operation}`,
          );
      }
    },
  };
  return { dispatcher, calls, produced: () => produced };
}

type Frame = { id: FramedCallId | null } & Record<string, unknown>;

/** A sink that records frames as plain objects; `gate`, when set, holds `event` until released. */
function recorder() {
  const frames: Frame[] = [];
  let gate: Promise<void> | undefined;
  const sink: FramedReplySink<JsonRpcErrorObject> = {
    result: (id, result, activated) => void frames.push({ id, result, activated: [...activated] }),
    event: async (id, event, activated) => {
      frames.push({ id, event, activated: [...activated] });
      await gate;
    },
    end: (id) => void frames.push({ id, end: true }),
    error: (id, error) => void frames.push({ id, code: error.code, message: error.message }),
  };
  return { frames, sink, hold: (p: Promise<void> | undefined) => (gate = p) };
}

const hooks: FramedServerHooks = {
  operations: { Echo: { wire: "echo" }, Count: { wire: "count" } },
  decodeCall: (frame) => decodeJsonCallFrame(frame, errors),
  peekCallId: peekJsonCallId,
  encodeError: toJsonRpcError,
  errors,
};
const call = (
  id: FramedCallId,
  method: string,
  params: JsonValue = {},
  serviceParameters?: Record<string, string>,
) => JSON.stringify({ id, method, params, serviceParameters });
const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("createFramedBindingServer", () => {
  it("answers a unary call with its id and activated extensions; wire names map to RPC names, unknown ones pass as they are", async () => {
    const { dispatcher, calls } = scripted();
    const { frames, sink } = recorder();
    const connection = createFramedBindingServer(dispatcher, URI, hooks).connect(sink);
    await connection.receive(call(1, "echo", { a: 1 }));
    await connection.receive(call(2, "nope"));
    expect(frames).toEqual([
      { id: 1, result: { a: 1 }, activated: ["urn:echo"] },
      { id: 2, code: -32601, message: "Method not found: nope" },
    ]);
    expect(calls.map((c) => c.operation)).toEqual(["Echo", "nope"]);
  });

  it("streams events in order, the activated extensions on the first only, then the end", async () => {
    const { dispatcher } = scripted();
    const { frames, sink } = recorder();
    await createFramedBindingServer(dispatcher, URI, hooks)
      .connect(sink)
      .receive(call("s", "count", { count: 3 }));
    expect(frames).toEqual([
      { id: "s", event: { n: 0 }, activated: ["urn:count"] },
      { id: "s", event: { n: 1 }, activated: [] },
      { id: "s", event: { n: 2 }, activated: [] },
      { id: "s", end: true },
    ]);
  });

  it("a failure before the first event is the call's error frame; after it, the stream's last frame (no end)", async () => {
    const { dispatcher } = scripted();
    const { frames, sink } = recorder();
    const connection = createFramedBindingServer(dispatcher, URI, hooks).connect(sink);
    await connection.receive(call(1, "Fail"));
    await connection.receive(call(2, "count", { count: 3, failAt: 2 }));
    expect(frames).toEqual([
      { id: 1, code: -32001, message: "no such task" },
      { id: 2, event: { n: 0 }, activated: ["urn:count"] },
      { id: 2, event: { n: 1 }, activated: [] },
      { id: 2, code: -32001, message: "gone" },
    ]);
  });

  it("an unreadable frame: its id when one can be read (not one in use), else null; a non-A2A throw is InvalidRequestError", async () => {
    const { dispatcher } = scripted();
    const { frames, sink } = recorder();
    const connection = createFramedBindingServer(dispatcher, URI, hooks).connect(sink);
    await connection.receive("not json");
    await connection.receive(JSON.stringify({ id: 5, method: "" }));
    const running = connection.receive(call(6, "count", { count: 0, failAt: -1 }));
    await tick();
    await connection.receive(JSON.stringify({ id: 6, method: "" }));
    expect(frames.map((f) => [f.id, f.code])).toEqual([
      [null, -32700],
      [5, -32600],
      [null, -32600],
    ]);
    connection.cancel(6);
    await running;
    // Without peekCallId every refusal has id null; a decoder's own exception reads as InvalidRequestError.
    const bare = recorder();
    const throwing = createFramedBindingServer(dispatcher, URI, {
      ...hooks,
      peekCallId: undefined,
      decodeCall: () => {
        throw new TypeError("boom");
      },
    }).connect(bare.sink);
    await throwing.receive(JSON.stringify({ id: 9 }));
    expect(bare.frames).toEqual([{ id: null, code: -32600, message: "the frame is not a call" }]);
  });

  it("refuses an id in use with id null, without disturbing the running call; ids are per connection", async () => {
    const { dispatcher } = scripted();
    const server = createFramedBindingServer(dispatcher, URI, hooks);
    const a = recorder();
    const b = recorder();
    const first = server.connect(a.sink);
    const running = first.receive(call(1, "count", { count: 1, failAt: -1 }));
    await tick();
    await first.receive(call(1, "echo"));
    // Another connection may use the same id.
    await server.connect(b.sink).receive(call(1, "echo", { b: true }));
    first.cancel(1);
    await running;
    expect(a.frames).toEqual([
      { id: 1, event: { n: 0 }, activated: ["urn:count"] },
      { id: null, code: -32600, message: "call id 1 is already in use on this connection" },
    ]);
    expect(b.frames).toEqual([{ id: 1, result: { b: true }, activated: ["urn:echo"] }]);
    // The id is free again once its call ended.
    await first.receive(call(1, "echo"));
    expect(a.frames.at(-1)).toMatchObject({ id: 1, result: {} });
  });

  it("cancel aborts one call's signal and writes nothing more for it; close aborts them all; a cancel of an unknown id is ignored", async () => {
    const { dispatcher, calls } = scripted();
    const { frames, sink } = recorder();
    const connection = createFramedBindingServer(dispatcher, URI, hooks).connect(sink);
    const one = connection.receive(call(1, "count", { count: 1, failAt: -1 }));
    const two = connection.receive(call(2, "count", { count: 1, failAt: -1 }));
    const three = connection.receive(call(3, "count", { count: 1, failAt: -1 }));
    await tick();
    connection.cancel(99);
    connection.cancel(1);
    await one;
    expect(calls[0]?.signal?.aborted).toBe(true);
    expect(calls[1]?.signal?.aborted).toBe(false);
    connection.close();
    await Promise.all([two, three]);
    expect(calls.every((c) => c.signal?.aborted === true)).toBe(true);
    // Each stream's first event, then nothing: no end, no error for a cancelled call.
    expect(frames.map((f) => f.id)).toEqual([1, 2, 3]);
    expect(frames.every((f) => "event" in f)).toBe(true);
  });

  it("backpressure: the next event is taken only once the sink took the previous one", async () => {
    const { dispatcher, produced } = scripted();
    const { frames, sink, hold } = recorder();
    let release: () => void = () => undefined;
    hold(new Promise<void>((resolve) => (release = resolve)));
    const done = createFramedBindingServer(dispatcher, URI, hooks)
      .connect(sink)
      .receive(call(1, "count", { count: 100 }));
    for (let i = 0; i < 5; i++) await tick();
    expect(produced()).toBe(1);
    expect(frames).toHaveLength(1);
    hold(undefined);
    release();
    await done;
    expect(produced()).toBe(100);
    expect(frames.at(-1)).toEqual({ id: 1, end: true });
  });

  it("service parameters: the connection's, a call's own winning (default), or the hook's; the tenant is passed on", async () => {
    const { dispatcher, calls } = scripted();
    const { sink } = recorder();
    const server = createFramedBindingServer(dispatcher, URI, hooks);
    await server
      .connect(sink, { "a2a-version": "1.0", authorization: "conn" })
      .receive(call(1, "echo", { tenant: "acme" }, { authorization: "call" }));
    expect(calls[0]).toMatchObject({
      serviceParameters: { "a2a-version": "1.0", authorization: "call" },
      tenant: "acme",
    });
    const upper = createFramedBindingServer(dispatcher, URI, {
      ...hooks,
      serviceParameters: (c) => ({ ...c.serviceParameters, extra: "yes" }),
    });
    await upper.connect(sink, { ignored: "x" }).receive(call(2, "echo", {}, { a: "b" }));
    expect(calls[1]?.serviceParameters).toEqual({ a: "b", extra: "yes" });
  });

  it("a hook that throws something else than an A2AError is the call's InternalError frame", async () => {
    const { dispatcher } = scripted();
    const { frames, sink } = recorder();
    const server = createFramedBindingServer(dispatcher, URI, {
      ...hooks,
      serviceParameters: () => {
        throw new Error("secret detail");
      },
    });
    await server.connect(sink).receive(call(1, "echo"));
    expect(frames).toEqual([{ id: 1, code: -32603, message: "InternalError" }]);
  });

  it("needs the errors of its refusals with a dispatcher", () => {
    const { dispatcher } = scripted();
    expect(() =>
      createFramedBindingServer(dispatcher, URI, { ...hooks, errors: undefined }),
    ).toThrow(/hooks\.errors/);
  });
});
