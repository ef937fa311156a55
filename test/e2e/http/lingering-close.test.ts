/**
 * Lingering close (issue #25, point 5), real sockets on 127.0.0.1: a body over `maxBodyBytes` (10 MiB by
 * default) is answered at once (JSON-RPC -32600, HTTP+JSON 413, `Connection: close`), and the rest of the
 * body is read and discarded before the connection is closed, so that clients that keep sending before they
 * read — Node's fetch (undici), Python's urllib — read the answer instead of ECONNRESET/EPIPE. The discarding
 * is bounded: past `lingeringCloseBytes` or `lingeringCloseMs` the connection is cut (an endless upload, a
 * client that stops sending).
 */
import { execFile } from "node:child_process";
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createA2AHttpServer,
  serveNode,
  type UniversalHandler,
} from "@protoc-gen-a2a/runtime/http";
import { createA2AServiceJsonRpcServer } from "../../../generated-example/gen/a2a_a2a_jsonrpc_server.js";
import { createA2AServiceRestServer } from "../../../generated-example/gen/a2a_a2a_rest_server.js";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { TestAgent } from "../../support/test-agent.js";
import { eventually, listen, type Listening } from "../../support/servers.js";

const MiB = 1024 * 1024;
/** Over the default body limit (10 MiB), as in the issue. */
const OVERSIZED = 11 * 1024 * 1024;

/** A SendMessage request of about `bytes` bytes (a long text part), as JSON-RPC and as HTTP+JSON. */
function sendMessage(bytes: number): { rpc: string; rest: string } {
  const params = JSON.stringify({
    message: { messageId: "m", role: "ROLE_USER", parts: [{ text: "x".repeat(bytes) }] },
  });
  return {
    rpc: `{"jsonrpc":"2.0","id":7,"method":"SendMessage","params":${params}}`,
    rest: params,
  };
}

/** Python's urllib POSTs `body` (read from stdin); prints the status and the body it read, or the error. */
const PYTHON_POST = `
import sys, urllib.request, urllib.error
data = sys.stdin.buffer.read()
req = urllib.request.Request(sys.argv[1], data=data, method="POST", headers={"content-type": "application/json", "a2a-version": "1.0"})
try:
    r = urllib.request.urlopen(req, timeout=30)
    print(r.status); print(r.read().decode())
except urllib.error.HTTPError as e:
    print(e.code); print(e.read().decode())
except Exception as e:
    print("error"); print(repr(e))
`;

function pythonPost(url: string, body: string): Promise<{ status: string; body: string }> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      "python3",
      ["-c", PYTHON_POST, url],
      { maxBuffer: 4 * MiB, timeout: 60_000 },
      (error, stdout) => {
        if (error) return reject(error);
        const [status = "", ...rest] = stdout.split("\n");
        resolve({ status, body: rest.join("\n").trim() });
      },
    );
    child.stdin!.end(body);
  });
}

describe("the generated servers (default limits): the answer to an 11 MB body is read", () => {
  const agent = new TestAgent();
  const quiet = { error() {} };
  let jsonrpc: Listening;
  let rest: Listening;
  let body: { rpc: string; rest: string };
  beforeAll(async () => {
    jsonrpc = await listen(createA2AServiceJsonRpcServer(agent, { logger: quiet }).node);
    rest = await listen(createA2AServiceRestServer(agent, { logger: quiet }).node);
    body = sendMessage(OVERSIZED);
  });
  afterAll(async () => {
    await Promise.all([jsonrpc.close(), rest.close()]);
  });
  const headers = { "content-type": "application/json", "a2a-version": "1.0" };

  it("Node's fetch, JSON-RPC: -32600 with Connection: close", async () => {
    const res = await fetch(jsonrpc.url, {
      method: "POST",
      headers,
      body: body.rpc,
      signal: AbortSignal.timeout(30_000),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("connection")).toBe("close");
    const answer = (await res.json()) as { id: unknown; error: { code: number; message: string } };
    expect(answer.error.code).toBe(-32600);
    expect(answer.error.message).toContain("exceeds the limit");
  });

  it("Node's fetch, HTTP+JSON: 413 with a google.rpc.Status body", async () => {
    const res = await fetch(`${rest.url}message:send`, {
      method: "POST",
      headers,
      body: body.rest,
      signal: AbortSignal.timeout(30_000),
    });
    expect(res.status).toBe(413);
    expect(res.headers.get("connection")).toBe("close");
    const answer = (await res.json()) as { error: { code: number; details: { reason: string }[] } };
    expect(answer.error.code).toBe(413);
    expect(answer.error.details[0]?.reason).toBe("INVALID_REQUEST");
  });

  /** A 30 MB body streamed (chunked, no Content-Length): the limit trips while it is read, 20 MB still to come. */
  const streamed = (text: string): RequestInit => {
    const bytes = new TextEncoder().encode(text);
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < bytes.byteLength; i += 64 * 1024)
          c.enqueue(bytes.subarray(i, i + 64 * 1024));
        c.close();
      },
    });
    return {
      method: "POST",
      headers,
      body: stream,
      duplex: "half",
      signal: AbortSignal.timeout(30_000),
    } as RequestInit;
  };

  it("Node's fetch, a streamed 30 MB body: JSON-RPC -32600 and HTTP+JSON 413", async () => {
    const big = sendMessage(30 * MiB);
    const rpcAnswer = await fetch(jsonrpc.url, streamed(big.rpc));
    expect(((await rpcAnswer.json()) as { error: { code: number } }).error.code).toBe(-32600);
    const restAnswer = await fetch(`${rest.url}message:send`, streamed(big.rest));
    expect(restAnswer.status).toBe(413);
    expect(((await restAnswer.json()) as { error: { code: number } }).error.code).toBe(413);
  });

  it("Python's urllib, JSON-RPC: -32600", async () => {
    const answer = await pythonPost(jsonrpc.url, body.rpc);
    expect(answer.status).toBe("200");
    expect(JSON.parse(answer.body).error.code).toBe(-32600);
  });

  it("Python's urllib, HTTP+JSON: 413", async () => {
    const answer = await pythonPost(`${rest.url}message:send`, body.rest);
    expect(answer.status).toBe("413");
    expect(JSON.parse(answer.body).error.details[0].reason).toBe("INVALID_REQUEST");
  });

  it("the server keeps serving on new connections", async () => {
    const res = await fetch(jsonrpc.url, { method: "POST", headers, body: sendMessage(10).rpc });
    expect(((await res.json()) as { result?: unknown }).result).toBeDefined();
  });
});

/** A raw HTTP/1.1 connection: what it received, whether the server closed it, and its upload. */
interface Raw {
  readonly socket: Socket;
  received(): string;
  readonly closed: Promise<void>;
}

function raw(port: number, head: string): Raw {
  const socket = connect(port, "127.0.0.1");
  let text = "";
  socket.setEncoding("utf8");
  socket.on("data", (c: string) => (text += c));
  socket.on("error", () => {});
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  socket.write(head);
  return { socket, received: () => text, closed };
}

/** Sends `chunk` as fast as the socket takes it until it closes; resolves with the bytes sent. */
function pump(socket: Socket, chunk: string): Promise<number> {
  let sent = 0;
  return new Promise((resolve) => {
    const more = (): void => {
      while (!socket.destroyed && socket.writable) {
        sent += chunk.length;
        if (!socket.write(chunk)) return void socket.once("drain", more);
      }
    };
    socket.once("close", () => resolve(sent));
    more();
  });
}

describe("the bounds of the lingering close (serveNode options)", () => {
  const tooLarge: UniversalHandler = async (request) => {
    const body = await request.readBody(64 * 1024);
    const text = body === "too-large" ? "too large" : "ok";
    return {
      status: body === "too-large" ? 413 : 200,
      headers: [["content-type", "text/plain"]],
      body: text,
    };
  };
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createA2AHttpServer(
      {},
      serveNode(tooLarge, { lingeringCloseBytes: 2 * MiB, lingeringCloseMs: 500 }),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("an endless upload (chunked) is cut after lingeringCloseBytes, its answer sent first", async () => {
    const c = raw(port, "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n");
    const chunk = `10000\r\n${"z".repeat(0x10000)}\r\n`;
    const sent = await pump(c.socket, chunk);
    await c.closed;
    expect(c.received()).toMatch(/^HTTP\/1\.1 413 [\s\S]*connection: close[\s\S]*too large$/i);
    expect(sent).toBeGreaterThan(2 * MiB); // it did linger: well past the 64 KiB limit
  });

  it("an upload that stops before its Content-Length is cut after lingeringCloseMs, its answer sent first", async () => {
    const c = raw(
      port,
      `POST / HTTP/1.1\r\nHost: x\r\nContent-Length: ${OVERSIZED}\r\n\r\n${"z".repeat(256 * 1024)}`,
    );
    await c.closed; // then nothing more is sent: only the time bound closes it
    expect(c.received()).toMatch(/^HTTP\/1\.1 413 [\s\S]*too large$/);
  });

  it("a body over the limit that does arrive in full ends the connection cleanly, the answer read", async () => {
    const c = raw(port, `POST / HTTP/1.1\r\nHost: x\r\nContent-Length: ${MiB}\r\n\r\n`);
    await eventually(() => c.received().includes("too large"), 10_000); // answered before the body was sent
    c.socket.write("z".repeat(MiB));
    await c.closed; // closed by the server once the body was in (Connection: close)
    expect(c.received()).toMatch(/^HTTP\/1\.1 413 [\s\S]*connection: close[\s\S]*too large$/i);
  });
});
