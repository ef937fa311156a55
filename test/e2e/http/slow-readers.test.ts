/**
 * Clients that do not read (issue #25, point 3), against serveNode on real sockets (127.0.0.1), HTTP/1.1
 * (node:http) and HTTP/2 (h2c, node:http2 createServer):
 *   - the write timeout (`stalledWriteTimeoutMs`) applies to buffered answers as well as to streams: a
 *     response none of whose bytes the client takes is destroyed (HTTP/1.1: the connection closes; HTTP/2:
 *     the stream is reset), and the listener's accounting (`pendingWriteStats`) is back to zero;
 *   - the same through the generated JSON-RPC and HTTP+JSON servers (a large GetTask);
 *   - the listener's byte budget (`maxPendingWriteBytes`): over it, the response that has waited longest
 *     is destroyed, the others stay, and a client that reads is served;
 *   - a client that reads slowly but steadily is not cut, although every pause is shorter than the timeout
 *     only while it keeps reading;
 *   - invalid options are a RangeError.
 * Short option values; no assertion about speed.
 */
import { request as httpRequest, createServer as createHttpServer, type Server } from "node:http";
import {
  connect as connectHttp2,
  createServer as createHttp2Server,
  type ClientHttp2Session,
  type ClientHttp2Stream,
  type Http2Server,
} from "node:http2";
import { connect, type AddressInfo, type Socket } from "node:net";
import { create } from "@bufbuild/protobuf";
import { afterEach, describe, expect, it } from "vitest";
import {
  pendingWriteStats,
  serveNode,
  type NodeRequestListener,
  type UniversalHandler,
} from "@protoc-gen-a2a/runtime/http";
import { createA2AServiceJsonRpcServer } from "../../../generated-example/gen/a2a_a2a_jsonrpc_server.js";
import { createA2AServiceRestServer } from "../../../generated-example/gen/a2a_a2a_rest_server.js";
import type { A2AServiceHandler } from "../../../generated-example/gen/a2a_a2a_handler.js";
import { TaskSchema, TaskState } from "../../../generated-example/gen/a2a_pb.js";
import { eventually } from "../../support/servers.js";

const MiB = 1024 * 1024;

/** More than a loopback connection's socket buffers take from a client that reads nothing (HTTP/1.1). */
const LARGE = 24 * MiB;

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((o) => o.close()));
});

/** Serves `listener` over node:http or node:http2 (h2c) on 127.0.0.1; closed after the test, connections included. */
async function serve(
  kind: "h1" | "h2",
  listener: NodeRequestListener,
): Promise<{ port: number; connections: () => number }> {
  const server: Server | Http2Server =
    kind === "h1" ? createHttpServer(listener) : createHttp2Server(listener);
  const sockets = new Set<Socket>();
  server.on("connection", (s: Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  open.push({
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  });
  return { port: (server.address() as AddressInfo).port, connections: () => sockets.size };
}

/** A buffered answer of `bytes` bytes of JSON, new text for each request (as an encoded task would be). */
function bigAnswer(bytes: number): UniversalHandler {
  return async () => ({
    status: 200,
    headers: [["content-type", "application/json"]],
    body: `{"x":"${"x".repeat(bytes - 8)}"}`,
  });
}

/**
 * An HTTP/1.1 client that sends `head` and does not read; `readRest()` then reads what reached it until the
 * connection ends (a paused socket sees the server's close only after reading what is buffered before it).
 */
function neverReading(
  port: number,
  head: string,
): { socket: Socket; readRest: () => Promise<number> } {
  const socket = connect(port, "127.0.0.1");
  socket.on("error", () => {});
  socket.pause(); // paused: Node reads no more than its buffer, then the kernel's window fills
  socket.write(head);
  open.push({ close: async () => void socket.destroy() });
  const readRest = () =>
    new Promise<number>((resolve) => {
      let n = 0;
      socket.on("data", (c: Buffer) => (n += c.byteLength));
      socket.once("close", () => resolve(n));
      socket.resume();
    });
  return { socket, readRest };
}

/** An h2c session; closed after the test. */
function h2session(port: number): ClientHttp2Session {
  const session = connectHttp2(`http://127.0.0.1:${port}`);
  session.on("error", () => {});
  open.push({ close: async () => void session.destroy() });
  return session;
}

/** An HTTP/2 request whose stream is never read (no WINDOW_UPDATE once the window is used); `closed` gives the stream's RST code. */
function h2neverReading(
  session: ClientHttp2Session,
  headers: Record<string, string>,
  body?: string,
): { stream: ClientHttp2Stream; closed: Promise<number> } {
  const stream = session.request(headers, { endStream: body === undefined });
  stream.on("error", () => {});
  stream.pause();
  if (body !== undefined) stream.end(body);
  const closed = new Promise<number>((resolve) =>
    stream.once("close", () => resolve(stream.rstCode ?? -1)),
  );
  return { stream, closed };
}

const stats = (listener: NodeRequestListener) => pendingWriteStats(listener)!;
const NGHTTP2_CANCEL = 8;

describe("the write timeout covers buffered answers", () => {
  it("HTTP/1.1: a client that never reads a large answer loses its connection; nothing stays accounted", async () => {
    const listener = serveNode(bigAnswer(LARGE), { stalledWriteTimeoutMs: 300 });
    const server = await serve("h1", listener);
    const client = neverReading(server.port, "GET / HTTP/1.1\r\nHost: x\r\n\r\n");
    await eventually(() => stats(listener).bytes > 0, 5_000); // the listener holds what the client did not take
    await eventually(() => server.connections() === 0, 10_000); // the server closed the connection
    expect(stats(listener)).toEqual({ bytes: 0, responses: 0 });
    expect(await client.readRest()).toBeLessThan(LARGE); // what was on the way, then the end: the answer was cut
  });

  it("HTTP/2: the stream of a client that never reads is reset; nothing stays accounted; the session still serves", async () => {
    const listener = serveNode(bigAnswer(MiB), { stalledWriteTimeoutMs: 300 });
    const session = h2session((await serve("h2", listener)).port);
    const stalled = h2neverReading(session, { ":path": "/" });
    await eventually(() => stats(listener).bytes > 0, 5_000);
    expect(await stalled.closed).toBe(NGHTTP2_CANCEL);
    await eventually(() => stats(listener).bytes === 0 && stats(listener).responses === 0, 5_000);
    // The connection is fine: a stream that reads gets the whole answer.
    const whole = await new Promise<number>((resolve, reject) => {
      const s = session.request({ ":path": "/" });
      let n = 0;
      s.on("data", (c: Buffer) => (n += c.byteLength));
      s.on("end", () => resolve(n));
      s.on("error", reject);
    });
    expect(whole).toBe(MiB);
  });

  it("HTTP/2: a stalled stream (SSE) is reset too and its iterator returned", async () => {
    let returned = false;
    const handler: UniversalHandler = async () => ({
      status: 200,
      headers: [["content-type", "text/event-stream"]],
      stream: {
        [Symbol.asyncIterator]: () => ({
          next: async () => ({ done: false, value: `data: ${"e".repeat(16 * 1024)}\n\n` }),
          return: async () => {
            returned = true;
            return { done: true, value: undefined };
          },
        }),
      },
    });
    const listener = serveNode(handler, { stalledWriteTimeoutMs: 300 });
    const stalled = h2neverReading(h2session((await serve("h2", listener)).port), { ":path": "/" });
    expect(await stalled.closed).toBe(NGHTTP2_CANCEL);
    await eventually(() => returned, 5_000);
    await eventually(() => stats(listener).responses === 0, 5_000);
  });

  it("with 0 the timeout is off: the stalled answer stays (bounded by the byte budget only)", async () => {
    const listener = serveNode(bigAnswer(MiB), { stalledWriteTimeoutMs: 0 });
    const witness = serveNode(bigAnswer(MiB), { stalledWriteTimeoutMs: 300 });
    const stalled = h2neverReading(h2session((await serve("h2", listener)).port), { ":path": "/" });
    await eventually(() => stats(listener).bytes > 0, 5_000);
    // Started later and given up on after 300 ms: by then the first one has stalled for longer.
    await h2neverReading(h2session((await serve("h2", witness)).port), { ":path": "/" }).closed;
    expect(stalled.stream.closed).toBe(false);
    expect(stats(listener).responses).toBe(1);
  });
});

describe("generated servers: a large GetTask that is never read", () => {
  const bigTask = create(TaskSchema, {
    id: "t-big",
    contextId: "c",
    status: { state: TaskState.COMPLETED },
    artifacts: [
      { artifactId: "a", parts: [{ content: { case: "text", value: "y".repeat(LARGE) } }] },
    ],
  });
  const handler = new Proxy({} as A2AServiceHandler, {
    get: (_, name) => (name === "getTask" ? async () => bigTask : undefined),
  });
  const options = { stalledWriteTimeoutMs: 300, logger: { error() {} } };

  it("JSON-RPC over HTTP/1.1: the connection is closed", async () => {
    const listener = createA2AServiceJsonRpcServer(handler, options).node;
    const server = await serve("h1", listener);
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "GetTask",
      params: { id: "t-big" },
    });
    const client = neverReading(
      server.port,
      `POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nA2A-Version: 1.0\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    await eventually(() => stats(listener).bytes > 0, 10_000);
    await eventually(() => server.connections() === 0, 10_000);
    expect(stats(listener)).toEqual({ bytes: 0, responses: 0 });
    expect(await client.readRest()).toBeLessThan(LARGE);
  });

  it("HTTP+JSON over HTTP/1.1: the connection is closed", async () => {
    const listener = createA2AServiceRestServer(handler, options).node;
    const server = await serve("h1", listener);
    const client = neverReading(
      server.port,
      "GET /tasks/t-big HTTP/1.1\r\nHost: x\r\nA2A-Version: 1.0\r\n\r\n",
    );
    await eventually(() => stats(listener).bytes > 0, 10_000);
    await eventually(() => server.connections() === 0, 10_000);
    expect(stats(listener)).toEqual({ bytes: 0, responses: 0 });
    expect(await client.readRest()).toBeLessThan(LARGE);
  });

  it("JSON-RPC and HTTP+JSON over HTTP/2: the streams are reset", async () => {
    const jsonrpc = createA2AServiceJsonRpcServer(handler, options).node;
    const rest = createA2AServiceRestServer(handler, options).node;
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "GetTask",
      params: { id: "t-big" },
    });
    const rpcCall = h2neverReading(
      h2session((await serve("h2", jsonrpc)).port),
      { ":method": "POST", ":path": "/", "content-type": "application/json", "a2a-version": "1.0" },
      body,
    );
    const restCall = h2neverReading(h2session((await serve("h2", rest)).port), {
      ":path": "/tasks/t-big",
      "a2a-version": "1.0",
    });
    expect(await rpcCall.closed).toBe(NGHTTP2_CANCEL);
    expect(await restCall.closed).toBe(NGHTTP2_CANCEL);
    await eventually(() => stats(jsonrpc).responses === 0 && stats(rest).responses === 0, 5_000);
  });
});

describe("the listener's byte budget (maxPendingWriteBytes)", () => {
  it("HTTP/2: over the budget the response that waited longest is destroyed; the rest stay; a reader is served", async () => {
    const listener = serveNode(bigAnswer(MiB), {
      stalledWriteTimeoutMs: 0,
      maxPendingWriteBytes: 2.5 * MiB,
    });
    const session = h2session((await serve("h2", listener)).port);
    const first = h2neverReading(session, { ":path": "/" });
    await eventually(
      () => stats(listener).responses === 1 && stats(listener).bytes > 0.5 * MiB,
      5_000,
    );
    const second = h2neverReading(session, { ":path": "/" });
    await eventually(
      () => stats(listener).responses === 2 && stats(listener).bytes > 1.5 * MiB,
      5_000,
    );
    const third = h2neverReading(session, { ":path": "/" });
    expect(await first.closed).toBe(NGHTTP2_CANCEL); // the oldest
    await eventually(() => stats(listener).responses === 2, 5_000);
    expect(second.stream.closed).toBe(false);
    expect(third.stream.closed).toBe(false);
    expect(stats(listener).bytes).toBeLessThanOrEqual(2.5 * MiB);
    // A client that reads is served meanwhile (its own answer going over the budget destroys the next oldest).
    const whole = await new Promise<number>((resolve, reject) => {
      const s = session.request({ ":path": "/" });
      let n = 0;
      s.on("data", (c: Buffer) => (n += c.byteLength));
      s.on("end", () => resolve(n));
      s.on("error", reject);
    });
    expect(whole).toBe(MiB);
    expect(await second.closed).toBe(NGHTTP2_CANCEL);
    expect(third.stream.closed).toBe(false);
    // The last one goes away (a reset: node:http2 does not always notice a client's FIN while a stream waits to write).
    third.stream.close(NGHTTP2_CANCEL);
    await eventually(() => stats(listener).bytes === 0 && stats(listener).responses === 0, 5_000);
  });

  it("a text answer counts what it takes in memory: ASCII 1 byte a character, any other text 2 (a V8 two-byte string)", async () => {
    const chars = MiB;
    const ascii = serveNode(
      async () => ({
        status: 200,
        headers: [["content-type", "application/json"]],
        body: `"${"a".repeat(chars - 2)}"`,
      }),
      { stalledWriteTimeoutMs: 0 },
    );
    const wide = serveNode(
      async () => ({
        status: 200,
        headers: [["content-type", "application/json"]],
        body: `"…${"a".repeat(chars - 3)}"`,
      }),
      { stalledWriteTimeoutMs: 0 },
    );
    const a = h2neverReading(h2session((await serve("h2", ascii)).port), { ":path": "/" });
    const w = h2neverReading(h2session((await serve("h2", wide)).port), { ":path": "/" });
    // Held by HTTP/2 flow control (65,535 bytes sent): the whole body counts until its last byte is taken.
    await eventually(() => stats(ascii).bytes === chars && stats(wide).bytes === 2 * chars, 5_000);
    a.stream.close(NGHTTP2_CANCEL);
    w.stream.close(NGHTTP2_CANCEL);
    await eventually(() => stats(ascii).bytes === 0 && stats(wide).bytes === 0, 5_000);
  });

  it("HTTP/1.1: over the budget the oldest never-reading connection is closed first", async () => {
    const listener = serveNode(bigAnswer(LARGE), {
      stalledWriteTimeoutMs: 0,
      maxPendingWriteBytes: 2 * LARGE,
    });
    const server = await serve("h1", listener);
    const head = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";
    const first = neverReading(server.port, head);
    await eventually(
      () => stats(listener).responses === 1 && stats(listener).bytes > LARGE / 2,
      10_000,
    );
    neverReading(server.port, head);
    await eventually(
      () => stats(listener).responses === 2 && stats(listener).bytes > LARGE,
      10_000,
    );
    neverReading(server.port, head);
    await eventually(() => server.connections() === 2, 10_000); // one of the three was closed…
    expect(await first.readRest()).toBeLessThan(LARGE); // …the oldest
    expect(stats(listener).responses).toBe(2);
    expect(stats(listener).bytes).toBeLessThanOrEqual(2 * LARGE);
  });
});

describe("a client that reads slowly but steadily", () => {
  it("HTTP/2: is served in full, though reading the whole answer takes many timeouts", async () => {
    const size = 2 * MiB;
    const listener = serveNode(bigAnswer(size), { stalledWriteTimeoutMs: 400 });
    const session = h2session((await serve("h2", listener)).port);
    // Pauses 150 ms after every 256 KiB: each pause is under the timeout, the whole is several timeouts.
    const received = await new Promise<number>((resolve, reject) => {
      const s = session.request({ ":path": "/" });
      let n = 0;
      s.on("data", (c: Buffer) => {
        n += c.byteLength;
        if (n % (256 * 1024) < c.byteLength) {
          s.pause();
          setTimeout(() => s.resume(), 150);
        }
      });
      s.on("end", () => resolve(n));
      s.on("error", reject);
      s.on("close", () => (s.rstCode ? reject(new Error(`reset ${s.rstCode}`)) : undefined));
    });
    expect(received).toBe(size);
  });

  it("HTTP/1.1: is served in full", async () => {
    const listener = serveNode(bigAnswer(LARGE), { stalledWriteTimeoutMs: 400 });
    const { port } = await serve("h1", listener);
    const received = await new Promise<number>((resolve, reject) => {
      const req = httpRequest({ host: "127.0.0.1", port, path: "/" }, (res) => {
        let n = 0;
        res.on("data", (c: Buffer) => {
          n += c.byteLength;
          if (n % (4 * MiB) < c.byteLength) {
            res.pause();
            setTimeout(() => res.resume(), 150);
          }
        });
        res.on("end", () => resolve(n));
        res.on("error", reject);
      });
      req.on("error", reject);
      req.end();
    });
    expect(received).toBe(LARGE);
  });
});

describe("large buffered answers are written in chunks", () => {
  it("a text with characters beyond the BMP and non-ASCII arrives intact, HTTP/1.1 and HTTP/2", async () => {
    // "a" first: every surrogate pair then starts at an odd index, so one straddles each 64 Ki-unit chunk boundary.
    const text = `a${"😀".repeat(100_000)}é${"ü".repeat(70_000)}`;
    const listener = serveNode(async () => ({
      status: 200,
      headers: [["content-type", "text/plain; charset=utf-8"]],
      body: text,
    }));
    const h1 = await serve("h1", listener);
    const viaHttp1 = await new Promise<{ length: string | undefined; body: string }>(
      (resolve, reject) => {
        httpRequest({ host: "127.0.0.1", port: h1.port, path: "/" }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () =>
            resolve({
              length: res.headers["content-length"],
              body: Buffer.concat(chunks).toString("utf8"),
            }),
          );
        })
          .on("error", reject)
          .end();
      },
    );
    expect(viaHttp1.length).toBe(String(Buffer.byteLength(text)));
    expect(viaHttp1.body === text).toBe(true);
    const session = h2session((await serve("h2", listener)).port);
    const viaHttp2 = await new Promise<string>((resolve, reject) => {
      const s = session.request({ ":path": "/" });
      const chunks: Buffer[] = [];
      s.on("data", (c: Buffer) => chunks.push(c));
      s.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
      s.on("error", reject);
    });
    expect(viaHttp2 === text).toBe(true);
    await eventually(() => stats(listener).responses === 0, 5_000);
  });
});

describe("options", () => {
  it("rejects negative and non-finite values", () => {
    const ok: UniversalHandler = async () => ({ status: 204, headers: [], body: "" });
    for (const name of [
      "stalledWriteTimeoutMs",
      "maxPendingWriteBytes",
      "lingeringCloseBytes",
      "lingeringCloseMs",
    ]) {
      expect(() => serveNode(ok, { [name]: -1 })).toThrow(RangeError);
      expect(() => serveNode(ok, { [name]: Number.NaN })).toThrow(RangeError);
      expect(() => serveNode(ok, { [name]: Number.POSITIVE_INFINITY })).toThrow(RangeError);
    }
  });

  it("pendingWriteStats knows only serveNode's listeners", () => {
    expect(pendingWriteStats(() => {})).toBeUndefined();
    expect(
      pendingWriteStats(serveNode(async () => ({ status: 204, headers: [], body: "" }))),
    ).toEqual({ bytes: 0, responses: 0 });
  });
});
