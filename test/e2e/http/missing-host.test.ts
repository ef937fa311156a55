/**
 * HTTP/1.1 without Host (issue #25, point 6; RFC 9112 §3.2: a 400), from raw sockets on 127.0.0.1: the
 * servers of `createA2AHttpServer` / `applyHttpServerLimits` answer it with the same google.rpc.Status JSON
 * body as the other requests node:http refuses (INVALID_ARGUMENT, ErrorInfo INVALID_REQUEST), connection
 * closed, no listener called — also listeners added after creation (`server.on("request")`, as the example
 * agent mounts its routes) and requests with `Expect: 100-continue` (node:http sends its interim 100 Continue
 * before any listener runs). HTTP/1.0 needs no Host.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { applyHttpServerLimits, createA2AHttpServer } from "@protoc-gen-a2a/runtime/http";

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise<void>((r) => s.close(() => r()));
  }
});

async function start(server: Server): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

/** Sends `request` on a new connection; resolves with all it received once the server closed it. */
function exchange(port: number, request: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let text = "";
    socket.setEncoding("utf8");
    socket.on("data", (c: string) => (text += c));
    socket.on("error", () => {});
    socket.once("close", () => resolve(text));
    socket.write(request);
  });
}

/** The JSON body, status and headers of a raw answer. */
function parse(answer: string): {
  status: number;
  headers: string;
  body: { error: { code: number; status: string; message: string; details: { reason: string }[] } };
} {
  const end = answer.indexOf("\r\n\r\n");
  return {
    status: Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]),
    headers: answer.slice(0, end).toLowerCase(),
    body: JSON.parse(answer.slice(end + 4)),
  };
}

function expectJson400(answer: string): void {
  const { status, headers, body } = parse(answer);
  expect(status).toBe(400);
  expect(headers).toContain("content-type: application/json");
  expect(headers).toContain("connection: close");
  expect(body.error).toMatchObject({
    code: 400,
    status: "INVALID_ARGUMENT",
    details: [{ reason: "INVALID_REQUEST" }],
  });
  expect(body.error.message).toContain("Host");
}

describe("HTTP/1.1 without Host", () => {
  let calls = 0;
  const ok = (_req: IncomingMessage, res: ServerResponse): void => {
    calls++;
    res.setHeader("content-type", "text/plain");
    res.end("ok");
  };
  afterEach(() => {
    calls = 0;
  });

  it("createA2AHttpServer: 400 with the JSON body, connection closed, the listener not called", async () => {
    const port = await start(createA2AHttpServer({}, ok));
    expectJson400(await exchange(port, "GET / HTTP/1.1\r\n\r\n"));
    expect(calls).toBe(0);
  });

  it("a listener added after creation (server.on('request')) is not called either", async () => {
    const server = createA2AHttpServer();
    server.on("request", ok);
    const port = await start(server);
    expectJson400(await exchange(port, "POST / HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}"));
    expect(calls).toBe(0);
  });

  it("with Expect: 100-continue: the same 400 (after node:http's interim 100 Continue)", async () => {
    const port = await start(createA2AHttpServer({}, ok));
    const answer = await exchange(
      port,
      "POST / HTTP/1.1\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n",
    );
    expectJson400(answer.replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, ""));
    expect(calls).toBe(0);
  });

  it("applyHttpServerLimits on a server of one's own: the same", async () => {
    const port = await start(applyHttpServerLimits(createServer(ok)));
    expectJson400(await exchange(port, "GET / HTTP/1.1\r\n\r\n"));
    expect(calls).toBe(0);
  });

  it("with Host, and HTTP/1.0 without it, requests are served", async () => {
    const port = await start(createA2AHttpServer({}, ok));
    expect(await exchange(port, "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")).toMatch(
      /^HTTP\/1\.1 200 [\s\S]*ok$/,
    );
    expect(await exchange(port, "GET / HTTP/1.0\r\n\r\n")).toMatch(/^HTTP\/1\.1 200 [\s\S]*ok$/);
    expect(calls).toBe(2);
  });
});
