/**
 * One write budget for a whole agent (issue #25, point 3): the JSON-RPC listener (serveNode, here on
 * h2c so that flow control holds its answers exactly), the Connect routes on HTTP/1.1
 * (mountConnectRoutes: they count in the budget of the serveNode listener they front), the gRPC
 * listeners (grpc-js and Connect) and the WebSocket binding (attachWsServer) all count what they hold
 * for peers that never read in one `WriteBudget`. Each stalled call below pushes the total over the
 * budget and the one that has waited longest, on another transport, is cut (stream reset, connection
 * or socket closed): what the agent holds for never-reading peers stays within the budget plus one
 * answer, however many there are and whatever transport they use. Every write timeout is off, so only
 * the budget can cut. Readers are served throughout. Real sockets on 127.0.0.1.
 */
import { createServer, type Server } from "node:http";
import {
  connect as connectHttp2,
  createServer as createHttp2Server,
  type ClientHttp2Session,
  type ClientHttp2Stream,
  type Http2Server,
} from "node:http2";
import { connect as connectTcp, type AddressInfo, type Socket } from "node:net";
import { create, toBinary } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { WriteBudget } from "@protoc-gen-a2a/runtime";
import { serveNode } from "@protoc-gen-a2a/runtime/http";
import { listenGrpc, mountConnectRoutes, type GrpcEndpoint } from "@protoc-gen-a2a/runtime/grpc";
import {
  ArtifactSchema,
  GetTaskRequestSchema,
  TaskState,
  type Task,
} from "../../../generated-example/gen/a2a_pb.js";
import {
  createA2AServiceGrpcRoutes,
  listenA2AServiceGrpc,
} from "../../../generated-example/gen/a2a_a2a_grpc_server.js";
import { createA2AServiceJsonRpcServer } from "../../../generated-example/gen/a2a_a2a_jsonrpc_server.js";
import {
  attachWsServer,
  type WsServerAttachment,
} from "../../../generated-example/bindings/ws/ws-server.js";
import type { CallContext } from "@protoc-gen-a2a/runtime";
import { TestAgent, task } from "../../support/test-agent.js";
import { eventually } from "../../support/servers.js";
import { frame } from "../../support/grpc-frames.js";

const MiB = 1024 * 1024;
/** The agent's budget: a little more than one "big" answer. */
const BUDGET = 3 * MiB;
/** GetTask "big": 2 MiB, held exactly by HTTP/2 flow control (the clients never open their windows). */
const BIG_TEXT = "b".repeat(2 * MiB);
/** GetTask "huge": 64 MiB, more than loopback's kernel buffers take (up to ~36 MiB here): an HTTP/1.1 or WebSocket peer that reads nothing leaves most of it in the server. */
const HUGE_TEXT = "h".repeat(64 * MiB);
const SERVICE = "/lf.a2a.v1.A2AService";
const NGHTTP2_CANCEL = 8;
const quiet = { error() {} };

class BigAgent extends TestAgent {
  override async getTask(
    request: { id: string; historyLength?: number },
    context: CallContext<{ user: string }>,
  ) {
    if (request.id === "big") return bigTask("big", BIG_TEXT);
    if (request.id === "huge") return bigTask("huge", HUGE_TEXT);
    return super.getTask(request, context);
  }
}

function bigTask(id: string, text: string): Task {
  const t = task(id, TaskState.COMPLETED);
  t.artifacts = [
    create(ArtifactSchema, {
      artifactId: "a",
      parts: [{ content: { case: "text", value: text } }],
    }),
  ];
  return t;
}

const budget = new WriteBudget(BUDGET);
const agent = new BigAgent();
let h2c: Http2Server;
let http1: Server;
let ws: WsServerAttachment;
let grpcJs: GrpcEndpoint;
let connectGrpc: GrpcEndpoint;
const cleanup: (() => void)[] = [];
const serverSockets = new Set<Socket>();

const portOf = (server: Server | Http2Server) => (server.address() as AddressInfo).port;

beforeAll(async () => {
  const jsonrpc = createA2AServiceJsonRpcServer(agent, { logger: quiet });
  // Every write timeout off: only the budget cuts.
  const listener = serveNode(jsonrpc.handler, { writeBudget: budget, stalledWriteTimeoutMs: 0 });
  h2c = createHttp2Server(listener);
  await new Promise<void>((resolve) => h2c.listen(0, "127.0.0.1", resolve));
  // HTTP/1.1: Connect routes in front of a serveNode listener of the same budget, and the WebSocket binding.
  http1 = createServer(
    mountConnectRoutes(createA2AServiceGrpcRoutes(agent, { logger: quiet }), listener, {
      prefix: "/c",
      stalledWriteTimeoutMs: 0,
    }),
  );
  http1.on("connection", (s: Socket) => {
    serverSockets.add(s);
    s.once("close", () => serverSockets.delete(s));
  });
  ws = attachWsServer(http1, agent, {
    logger: quiet,
    writeBudget: budget,
    stalledWriteTimeoutMs: 0,
  });
  await new Promise<void>((resolve) => http1.listen(0, "127.0.0.1", resolve));
  grpcJs = await listenA2AServiceGrpc(agent, {
    logger: quiet,
    listen: { writeBudget: budget, stalledWriteTimeoutMs: 0 },
  });
  connectGrpc = await listenGrpc(createA2AServiceGrpcRoutes(agent, { logger: quiet }), {
    writeBudget: budget,
    stalledWriteTimeoutMs: 0,
  });
});

afterAll(async () => {
  for (const c of cleanup) c();
  await ws.close();
  http1.closeAllConnections();
  await Promise.all([
    new Promise<void>((resolve) => http1.close(() => resolve())),
    new Promise<void>((resolve) => h2c.close(() => resolve())),
    grpcJs.close(),
    connectGrpc.close(),
  ]);
});

/** An HTTP/2 session whose streams get a 16 KiB window that is never opened: the server keeps what it cannot send. */
function neverOpeningSession(address: string): ClientHttp2Session {
  const session = connectHttp2(`http://${address}`, { settings: { initialWindowSize: 16 * 1024 } });
  session.on("error", () => {});
  cleanup.push(() => session.destroy());
  return session;
}

/** A request whose answer is never read; `closed` settles with the stream's RST_STREAM code. */
function neverReadH2(
  session: ClientHttp2Session,
  headers: Record<string, string>,
  body: string | Buffer,
): { closed: Promise<number>; stream: ClientHttp2Stream } {
  const stream = session.request({ ":method": "POST", ...headers });
  stream.on("error", () => {});
  stream.pause();
  const closed = new Promise<number>((resolve) =>
    stream.once("close", () => resolve(stream.rstCode ?? 0)),
  );
  stream.end(body);
  return { closed, stream };
}

const grpcGetTask = (session: ClientHttp2Session, id: string) =>
  neverReadH2(
    session,
    {
      ":path": `${SERVICE}/GetTask`,
      "content-type": "application/grpc",
      te: "trailers",
      "a2a-version": "1.0",
    },
    frame(toBinary(GetTaskRequestSchema, create(GetTaskRequestSchema, { id }))),
  );

const jsonRpcGetTask = (session: ClientHttp2Session, id: string) =>
  neverReadH2(
    session,
    { ":path": "/", "content-type": "application/json", "a2a-version": "1.0" },
    JSON.stringify({ jsonrpc: "2.0", id: 1, method: "GetTask", params: { id } }),
  );

/** A Connect GetTask on a raw HTTP/1.1 socket that never reads; `closed` settles when the server has closed its side. */
function connectHttp1NeverRead(id: string): { closed: Promise<void> } {
  const known = new Set(serverSockets);
  const socket = connectTcp(portOf(http1), "127.0.0.1");
  socket.on("error", () => {});
  socket.pause();
  cleanup.push(() => socket.destroy());
  const body = Buffer.from(toBinary(GetTaskRequestSchema, create(GetTaskRequestSchema, { id })));
  socket.write(
    Buffer.concat([
      Buffer.from(
        `POST /c/lf.a2a.v1.A2AService/GetTask HTTP/1.1\r\nhost: x\r\ncontent-type: application/proto\r\nconnect-protocol-version: 1\r\na2a-version: 1.0\r\ncontent-length: ${body.length}\r\n\r\n`,
      ),
      body,
    ]),
  );
  const closed = (async () => {
    let mine: Socket | undefined;
    await eventually(
      () => (mine = [...serverSockets].find((s) => !known.has(s))) !== undefined,
      5000,
    );
    if (!mine!.destroyed)
      await new Promise<void>((resolve) => mine!.once("close", () => resolve()));
  })();
  return { closed };
}

/** A WebSocket that sends GetTask and never reads; `closed` settles when the server's side of it has closed. */
async function wsNeverRead(id: string): Promise<{ closed: Promise<void> }> {
  const known = new Set(ws.sockets);
  const client = new WebSocket(`ws://127.0.0.1:${portOf(http1)}/a2a/ws`, {
    perMessageDeflate: false,
    headers: { "a2a-version": "1.0" },
  });
  client.on("error", () => {});
  cleanup.push(() => client.terminate());
  await new Promise<void>((resolve) => client.once("open", () => resolve()));
  client.pause();
  client.send(JSON.stringify({ id: 1, method: "GetTask", params: { id } }));
  let mine: WebSocket | undefined;
  await eventually(() => (mine = [...ws.sockets].find((s) => !known.has(s))) !== undefined, 5000);
  const serverSide = mine!;
  return {
    closed:
      serverSide.readyState === WebSocket.CLOSED
        ? Promise.resolve()
        : new Promise<void>((resolve) => serverSide.once("close", () => resolve())),
  };
}

const settled = (p: Promise<unknown>) =>
  Promise.race([p.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 50))]);

describe("one WriteBudget shared by HTTP, Connect, gRPC (grpc-js and Connect) and WebSocket", () => {
  it("each stalled answer that takes the agent over the budget cuts the one that waited longest, on whatever transport", async () => {
    const h2 = neverOpeningSession(`127.0.0.1:${portOf(h2c)}`);
    const js = neverOpeningSession(grpcJs.address);
    const cg = neverOpeningSession(connectGrpc.address);

    // 1. JSON-RPC on h2c: 2 MiB held, under the budget.
    const first = jsonRpcGetTask(h2, "big");
    await eventually(() => budget.stats.bytes > MiB, 5000);
    // 2. grpc-js: 2 MiB more, over: the JSON-RPC stream (waiting longest) is reset.
    const second = grpcGetTask(js, "big");
    expect(await first.closed).toBe(NGHTTP2_CANCEL);
    await eventually(() => budget.stats.bytes > MiB && budget.stats.bytes <= BUDGET, 5000);
    // 3. Connect's gRPC listener: the grpc-js stream goes.
    const third = grpcGetTask(cg, "big");
    expect(await second.closed).toBe(NGHTTP2_CANCEL);
    // 4. WebSocket, 64 MiB: the Connect gRPC stream goes (one answer alone may exceed the budget).
    const fourth = await wsNeverRead("huge");
    expect(await third.closed).toBe(NGHTTP2_CANCEL);
    expect(await settled(fourth.closed)).toBe(false);
    // 5. Connect protocol on HTTP/1.1 (counted in the serveNode listener's budget it fronts): the WebSocket goes.
    const fifth = connectHttp1NeverRead("huge");
    await fourth.closed;
    // 6. JSON-RPC again: the HTTP/1.1 Connect response goes, its connection closed.
    const sixth = jsonRpcGetTask(h2, "big");
    await fifth.closed;
    await eventually(() => budget.stats.bytes <= BUDGET, 5000);
    expect(await settled(sixth.closed)).toBe(false);
    sixth.stream.close(NGHTTP2_CANCEL);
    await sixth.closed;
    await eventually(() => budget.stats.bytes === 0, 5000);
  });

  it("readers are served on every transport, a large answer included, and leave nothing counted", async () => {
    // gRPC over Connect's listener, read to the end.
    const session = connectHttp2(`http://${connectGrpc.address}`);
    session.on("error", () => {});
    cleanup.push(() => session.destroy());
    const body = await new Promise<Buffer>((resolve) => {
      const stream = session.request({
        ":method": "POST",
        ":path": `${SERVICE}/GetTask`,
        "content-type": "application/grpc",
        te: "trailers",
        "a2a-version": "1.0",
      });
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("close", () => resolve(Buffer.concat(chunks)));
      stream.end(
        frame(toBinary(GetTaskRequestSchema, create(GetTaskRequestSchema, { id: "big" }))),
      );
    });
    expect(body.length).toBeGreaterThan(2 * MiB);
    // The Connect protocol on HTTP/1.1, and the WebSocket binding.
    const res = await fetch(`http://127.0.0.1:${portOf(http1)}/c/lf.a2a.v1.A2AService/GetTask`, {
      method: "POST",
      headers: { "content-type": "application/json", "a2a-version": "1.0" },
      body: JSON.stringify({ id: "t-1" }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { id: string }).id).toBe("t-1");
    const client = new WebSocket(`ws://127.0.0.1:${portOf(http1)}/a2a/ws`, {
      perMessageDeflate: false,
      headers: { "a2a-version": "1.0" },
    });
    cleanup.push(() => client.terminate());
    const answer = await new Promise<{ id: number; result?: { id: string } }>((resolve, reject) => {
      client.once("error", reject);
      client.once("open", () =>
        client.send(JSON.stringify({ id: 7, method: "GetTask", params: { id: "big" } })),
      );
      client.once("message", (data) =>
        resolve(JSON.parse(String(data)) as { id: number; result?: { id: string } }),
      );
    });
    expect(answer.id).toBe(7);
    expect(answer.result?.id).toBe("big");
    await eventually(() => budget.stats.bytes === 0, 5000);
  });
});
