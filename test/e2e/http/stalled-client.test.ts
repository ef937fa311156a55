/**
 * A client that keeps a stream open but stops reading: once the socket buffers are full the
 * node listener waits for "drain"; after `stalledWriteTimeoutMs` it destroys the response and
 * ends the stream (iterator returned) instead of holding the connection forever. Real sockets.
 */
import { request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { serveNode } from "@protoc-gen-a2a/runtime/http";
import type { UniversalHandler } from "@protoc-gen-a2a/runtime/http";
import { createA2AServiceJsonRpcServer } from "../../../generated-example/gen/a2a_a2a_jsonrpc_server.js";
import type { A2AServiceHandler } from "../../../generated-example/gen/a2a_a2a_handler.js";
import { StreamResponseSchema, TaskState } from "../../../generated-example/gen/a2a_pb.js";
import { create } from "@bufbuild/protobuf";
import { eventually, listen, type Listening } from "../../support/servers.js";

const CHUNK = `data: ${"x".repeat(64 * 1024)}\n\n`;

/**
 * An endless stream; `state.returned` turns true when the listener gives up on it. With `blocked`
 * (the response waits for "drain"), `state.writtenWhileBlocked` counts the chunks pulled while it held.
 */
function endlessStream(
  state: { returned: boolean; written: number; writtenWhileBlocked?: number },
  blocked?: () => boolean,
): AsyncIterable<string> {
  return {
    [Symbol.asyncIterator]: () => ({
      next: async () => {
        state.written++;
        if (blocked?.() === true) state.writtenWhileBlocked = (state.writtenWhileBlocked ?? 0) + 1;
        return { done: false, value: CHUNK };
      },
      return: async () => {
        state.returned = true;
        return { done: true, value: undefined };
      },
    }),
  };
}

let server: Listening | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Opens the stream, reads the first chunk, then stops reading; `closed` resolves once the (resumed) response is over. */
function readThenStall(
  url: string,
  init: { method: string; body?: string },
): { response: Promise<IncomingMessage>; closed: Promise<void>; abort: () => void } {
  let abort = () => {};
  let onClosed = () => {};
  const closed = new Promise<void>((resolve) => (onClosed = resolve));
  const response = new Promise<IncomingMessage>((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: init.method,
        headers: { "content-type": "application/json", "a2a-version": "1.0" },
      },
      (res) => {
        res.once("data", () => res.pause());
        res.on("close", onClosed);
        res.on("error", () => onClosed());
        resolve(res);
      },
    );
    req.on("error", (e) => {
      onClosed();
      reject(e);
    });
    abort = () => req.destroy();
    req.end(init.body);
  });
  return { response, closed, abort };
}

describe("serveNode: a client that stops reading", () => {
  it("gets its response destroyed after stalledWriteTimeoutMs, and the stream is ended", async () => {
    const state = { returned: false, written: 0 };
    const handler: UniversalHandler = async () => ({
      status: 200,
      headers: [["content-type", "text/event-stream"]],
      stream: endlessStream(state),
    });
    server = await listen(serveNode(handler, { stalledWriteTimeoutMs: 300 }));
    const call = readThenStall(server.url, { method: "GET" });
    const res = await call.response;
    await eventually(() => state.returned, 5_000);
    res.resume(); // what was buffered drains, then the response ends: the server closed it
    await call.closed;
    expect(state.written).toBeGreaterThan(1); // it did write until the buffers were full
  });

  it("with 0 waits for the client (nothing is destroyed)", async () => {
    const state = { returned: false, written: 0, writtenWhileBlocked: 0 };
    let response: ServerResponse | undefined;
    const waitsForDrain = () => response?.writableNeedDrain === true;
    const handler: UniversalHandler = async () => ({
      status: 200,
      headers: [["content-type", "text/event-stream"]],
      stream: endlessStream(state, waitsForDrain),
    });
    // The same stall on /control, with a 1 s timeout: the witness that 1 s of stalling has passed.
    const control = { returned: false, written: 0 };
    const controlHandler: UniversalHandler = async () => ({
      status: 200,
      headers: [["content-type", "text/event-stream"]],
      stream: endlessStream(control),
    });
    const waiting = serveNode(handler, { stalledWriteTimeoutMs: 0 });
    const timed = serveNode(controlHandler, { stalledWriteTimeoutMs: 1_000 });
    server = await listen((req, res) => {
      if (req.url === "/control") return timed(req, res);
      response = res;
      waiting(req, res);
    });
    const call = readThenStall(server.url, { method: "GET" });
    await call.response;
    await eventually(waitsForDrain, 5_000); // the buffers are full: the listener waits for "drain"
    // Stalled after this one, the control is given up on after 1 s without "drain": by then this one has
    // been stalled for longer, and a timeout would have fired.
    const witness = readThenStall(`${server.url.replace(/\/$/, "")}/control`, { method: "GET" });
    const witnessResponse = await witness.response;
    await eventually(() => control.returned, 5_000);
    witnessResponse.resume(); // what was buffered drains, then the response ends: the server closed it
    await witness.closed;
    expect(state.returned).toBe(false);
    expect(waitsForDrain()).toBe(true);
    call.abort();
    await eventually(() => state.returned, 5_000); // the client going away still ends it
    // Over the whole stall (and until the stream ended), no chunk was pulled while the response waited for "drain".
    expect(state.writtenWhileBlocked).toBe(0); // blocked on "drain", not spinning
    expect(state.written).toBeGreaterThan(1);
  });

  it("rejects a negative timeout", () => {
    expect(() =>
      serveNode(async () => ({ status: 204, headers: [], body: "" }), {
        stalledWriteTimeoutMs: -1,
      }),
    ).toThrow(RangeError);
  });
});

describe("generated JSON-RPC server: stalledWriteTimeoutMs reaches the node listener", () => {
  it("a stalled SubscribeToTask stream is closed and the handler's stream is returned", async () => {
    const state = { returned: false };
    const event = create(StreamResponseSchema, {
      payload: {
        case: "statusUpdate",
        value: {
          taskId: "t",
          contextId: "c",
          status: {
            state: TaskState.WORKING,
            message: {
              messageId: "m",
              parts: [{ content: { case: "text", value: "x".repeat(64 * 1024) } }],
            },
          },
        },
      },
    });
    const handler = new Proxy({} as A2AServiceHandler, {
      get: (_, name) =>
        name === "subscribeToTask"
          ? () => ({
              [Symbol.asyncIterator]: () => ({
                next: async () => ({ done: false, value: event }),
                return: async () => {
                  state.returned = true;
                  return { done: true, value: undefined };
                },
              }),
            })
          : undefined,
    });
    server = await listen(
      createA2AServiceJsonRpcServer(handler, {
        stalledWriteTimeoutMs: 300,
        keepAliveMs: 0,
        logger: { error() {} },
      }).node,
    );
    const call = readThenStall(server.url, {
      method: "POST",
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "SubscribeToTask",
        params: { id: "t" },
      }),
    });
    const res = await call.response;
    expect(res.headers["content-type"]).toContain("text/event-stream");
    await eventually(() => state.returned, 5_000);
    res.resume();
    await call.closed;
  });
});
