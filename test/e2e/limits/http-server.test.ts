/**
 * Connection limits of the node:http server (runtime/src/http/server-limits.ts, issue #17), from raw
 * sockets against real servers on 127.0.0.1:
 *   - request headers over `maxHeaderBytes` (default 16 KiB) are answered 431 with a google.rpc.Status
 *     JSON body (INVALID_ARGUMENT, ErrorInfo INVALID_REQUEST), and headers under it are served;
 *   - slowloris: a client that never finishes its headers, or never finishes its body, gets 408 (same
 *     body) and loses its connection after the configured timeouts (short ones here);
 *   - an idle kept-alive connection is closed after `keepAliveTimeoutMs`;
 *   - a response that takes longer than `requestTimeoutMs` (a stream) is not cut: the timeout is about
 *     receiving the request;
 *   - an upgraded connection (WebSocket) is not cut by them;
 *   - what is not HTTP is answered 400 with the same JSON body, nothing of the request echoed;
 *   - inconsistent limits are a RangeError at creation.
 */
import { connect, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createA2AHttpServer, DEFAULT_MAX_HEADER_BYTES } from "@protoc-gen-a2a/runtime/http";

/** A raw connection: everything it received, and a promise of its close. */
interface Raw {
  readonly socket: Socket;
  readonly closed: Promise<string>;
  received(): string;
}

function raw(port: number, first?: string): Raw {
  const socket = connect(port, "127.0.0.1");
  let text = "";
  socket.setEncoding("utf8");
  socket.on("data", (chunk: string) => (text += chunk));
  socket.on("error", () => {});
  const closed = new Promise<string>((resolve) => socket.once("close", () => resolve(text)));
  if (first !== undefined) socket.write(first);
  return { socket, closed, received: () => text };
}

/** Status code and JSON body of a raw HTTP/1.1 answer. */
function parse(answer: string): {
  status: number;
  body: { error: { code: number; status: string; message: string; details: { reason: string }[] } };
} {
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]);
  const body = answer.slice(answer.indexOf("\r\n\r\n") + 4);
  return { status, body: JSON.parse(body) };
}

function start(server: Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)),
  );
}

const ok = (_req: unknown, res: import("node:http").ServerResponse) => {
  res.setHeader("content-type", "text/plain");
  res.end("ok");
};

describe("defaults", () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createA2AHttpServer({}, ok);
    port = await start(server);
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it(`headers over ${DEFAULT_MAX_HEADER_BYTES} bytes: 431 with a google.rpc.Status body, connection closed`, async () => {
    const c = raw(
      port,
      `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(DEFAULT_MAX_HEADER_BYTES + 1000)}\r\n\r\n`,
    );
    const answer = parse(await c.closed);
    expect(answer.status).toBe(431);
    expect(answer.body.error).toMatchObject({
      code: 431,
      status: "INVALID_ARGUMENT",
      details: [{ reason: "INVALID_REQUEST" }],
    });
  });

  it("headers under the limit are served", async () => {
    const res = await fetch(`http://127.0.0.1:${port}/`, {
      headers: { "x-big": "a".repeat(8000) },
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("ok");
  });

  it("what is not HTTP: 400 with the JSON body, nothing echoed", async () => {
    const c = raw(port, "HELLO <script>secret</script>\r\n\r\n");
    const text = await c.closed;
    const answer = parse(text);
    expect(answer.status).toBe(400);
    expect(answer.body.error.details[0]?.reason).toBe("INVALID_REQUEST");
    expect(text).not.toContain("secret");
  });
});

describe("configured limits", () => {
  let server: Server;
  let port: number;
  const limits = {
    maxHeaderBytes: 4096,
    headersTimeoutMs: 300,
    requestTimeoutMs: 600,
    keepAliveTimeoutMs: 300,
    connectionsCheckingIntervalMs: 50,
  };
  beforeAll(async () => {
    server = createA2AHttpServer(limits, (req, res) => {
      if (req.url === "/stream") {
        // A response that lasts well past requestTimeoutMs: 12 chunks, 100 ms apart.
        res.writeHead(200, { "content-type": "text/event-stream" });
        let n = 0;
        const timer = setInterval(() => {
          res.write(`data: ${n}\n\n`);
          if (++n === 12) {
            clearInterval(timer);
            res.end();
          }
        }, 100);
        return;
      }
      req.resume();
      req.on("end", () => ok(req, res));
    });
    port = await start(server);
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("maxHeaderBytes: 5 KB of headers are 431, 3 KB are served", async () => {
    const c = raw(port, `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(5000)}\r\n\r\n`);
    expect(parse(await c.closed).status).toBe(431);
    const res = await fetch(`http://127.0.0.1:${port}/`, {
      headers: { "x-big": "a".repeat(3000) },
    });
    expect(res.status).toBe(200);
  });

  it("slowloris, headers never finished: 408 and the connection closed after headersTimeoutMs", async () => {
    const c = raw(port, "POST / HTTP/1.1\r\nHost: x\r\nX-Slow: 1\r\n");
    const started = Date.now();
    // Keep dribbling header bytes, as slowloris does: the timeout counts from the start of the headers.
    const dribble = setInterval(() => c.socket.writable && c.socket.write("X-More: 1\r\n"), 50);
    const text = await c.closed;
    clearInterval(dribble);
    expect(parse(text).status).toBe(408);
    expect(parse(text).body.error).toMatchObject({
      code: 408,
      status: "INVALID_ARGUMENT",
      details: [{ reason: "INVALID_REQUEST" }],
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(limits.headersTimeoutMs - 50);
  });

  it("slowloris, body never finished: 408 and the connection closed after requestTimeoutMs", async () => {
    const c = raw(
      port,
      'POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"a":',
    );
    const started = Date.now();
    const dribble = setInterval(() => c.socket.writable && c.socket.write(" "), 50);
    const text = await c.closed;
    clearInterval(dribble);
    expect(parse(text).status).toBe(408);
    expect(Date.now() - started).toBeGreaterThanOrEqual(limits.requestTimeoutMs - 100);
  });

  it("an idle kept-alive connection is closed after keepAliveTimeoutMs", async () => {
    const c = raw(port, "GET / HTTP/1.1\r\nHost: x\r\n\r\n");
    const text = await c.closed;
    expect(text).toMatch(/^HTTP\/1\.1 200/);
    expect(text).toContain("Keep-Alive: timeout=");
  });

  it("a response that outlasts requestTimeoutMs is not cut", async () => {
    const res = await fetch(`http://127.0.0.1:${port}/stream`);
    const text = await res.text();
    expect(text.match(/^data: /gm)?.length).toBe(12);
  });

  it("an upgraded connection (WebSocket) is not cut by the request timeouts", async () => {
    const upgraded = new Promise<import("node:stream").Duplex>((resolve) =>
      server.once("upgrade", (_req, socket: import("node:stream").Duplex) => {
        socket.write(
          "HTTP/1.1 101 Switching Protocols\r\nUpgrade: test\r\nConnection: Upgrade\r\n\r\n",
        );
        socket.on("data", (d: Buffer) => socket.write(d)); // echo
        resolve(socket);
      }),
    );
    const c = raw(
      port,
      "GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: test\r\nConnection: Upgrade\r\n\r\n",
    );
    const serverSide = await upgraded;
    await new Promise((r) => setTimeout(r, 3 * limits.requestTimeoutMs));
    c.socket.write("ping");
    await new Promise((r) => setTimeout(r, 200));
    expect(c.received()).toMatch(/^HTTP\/1\.1 101[\s\S]*ping$/);
    c.socket.destroy();
    serverSide.destroy();
  });

  it("limits that do not fit together are a RangeError", () => {
    expect(() => createA2AHttpServer({ headersTimeoutMs: 2000, requestTimeoutMs: 1000 })).toThrow(
      RangeError,
    );
    expect(() => createA2AHttpServer({ maxHeaderBytes: 0 })).toThrow(RangeError);
  });
});
