/**
 * gRPC peers that stop reading (issue #25, point 3), on both stacks (grpc-js: the generated
 * listenA2AServiceGrpc; Connect: listenGrpc), with node:http2 clients on 127.0.0.1 that announce a
 * small stream window and then never read a response, so that HTTP/2 flow control holds the
 * server's writes:
 *   - the stalled stream is reset (RST_STREAM CANCEL) once its response data has not moved for
 *     `stalledWriteTimeoutMs`: a large unary answer (GetTask) and a server stream (SubscribeToTask,
 *     whose handler is then stopped: its generator's `finally` runs);
 *   - while it is held, the same connection's other streams and other connections are served;
 *   - a reader that is slow but keeps taking data is not cut, though it takes longer than the timeout;
 *   - a bad `stalledWriteTimeoutMs` is refused at start.
 * And the Connect routes on an HTTP/1.1 server (mountConnectRoutes), with a raw socket that never
 * reads: the response is destroyed once a write has waited `stalledWriteTimeoutMs` for "drain", for a
 * large unary answer (Connect protocol) and a server stream (whose handler is then stopped).
 * What the reset releases (memory) is measured by bench/slow-readers-grpc.mjs, not here.
 */
import { createServer, type Server } from "node:http";
import { connect, constants, type ClientHttp2Session, type ClientHttp2Stream } from "node:http2";
import { connect as connectTcp } from "node:net";
import type { AddressInfo } from "node:net";
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  ArtifactSchema,
  GetTaskRequestSchema,
  StreamResponseSchema,
  SubscribeToTaskRequestSchema,
  TaskSchema,
  TaskState,
  type Task,
} from "../../../generated-example/gen/a2a_pb.js";
import {
  createA2AServiceGrpcRoutes,
  listenA2AServiceGrpc,
} from "../../../generated-example/gen/a2a_a2a_grpc_server.js";
import {
  listenGrpc,
  mountConnectRoutes,
  type GrpcEndpoint,
  type GrpcListenOptions,
} from "@protoc-gen-a2a/runtime/grpc";
import type { CallContext } from "@protoc-gen-a2a/runtime";
import { TestAgent, task } from "../../support/test-agent.js";
import { eventually } from "../../support/servers.js";
import { frame } from "../../support/grpc-frames.js";

const SERVICE = "/lf.a2a.v1.A2AService";
const quiet = { error() {} };
/** The answer of GetTask "big": about 2 MB, far beyond any window the clients below open. */
const BIG_TEXT = "x".repeat(2 * 1024 * 1024);
/** The answer of GetTask "huge": 32 MB, beyond what the kernel's socket buffers of an HTTP/1.1 connection take. */
const HUGE_TEXT = "z".repeat(32 * 1024 * 1024);
/** One event of SubscribeToTask "big-stream" / "paced". */
const EVENT_TEXT = "y".repeat(64 * 1024);

/** TestAgent plus a large task and streams of large events; records when a stream's generator ends. */
class BigAgent extends TestAgent {
  streamsEnded = 0;

  override async getTask(
    request: { id: string; historyLength?: number },
    context: CallContext<{ user: string }>,
  ) {
    if (request.id === "huge") return bigTask("huge", HUGE_TEXT);
    if (request.id !== "big") return super.getTask(request, context);
    return bigTask("big", BIG_TEXT);
  }

  override async *subscribeToTask(request: { id: string }, context: CallContext<{ user: string }>) {
    if (request.id !== "big-stream" && request.id !== "paced") {
      yield* super.subscribeToTask(request, context);
      return;
    }
    try {
      // "big-stream": events until the call ends; "paced": 12 events, then the end.
      for (let i = 0; request.id === "big-stream" || i < 12; i++) {
        yield create(StreamResponseSchema, {
          payload: {
            case: "artifactUpdate",
            value: {
              taskId: request.id,
              contextId: "c-1",
              artifact: {
                artifactId: `a-${i}`,
                parts: [{ content: { case: "text", value: EVENT_TEXT } }],
              },
            },
          },
        });
      }
    } finally {
      this.streamsEnded++;
    }
  }
}

function bigTask(id: string, text: string): Task {
  const t = task(id, TaskState.COMPLETED);
  t.artifacts = [
    create(ArtifactSchema, {
      artifactId: "big",
      parts: [{ content: { case: "text", value: text } }],
    }),
  ];
  return t;
}

const getTask = (id: string) =>
  frame(toBinary(GetTaskRequestSchema, create(GetTaskRequestSchema, { id })));
const subscribe = (id: string) =>
  frame(toBinary(SubscribeToTaskRequestSchema, create(SubscribeToTaskRequestSchema, { id })));

/** A client whose streams get a 16 KiB window (the connection a large one): only what it reads lets the server send more. */
function smallWindowClient(address: string): ClientHttp2Session {
  const session = connect(`http://${address}`, { settings: { initialWindowSize: 16 * 1024 } });
  session.on("error", () => {});
  session.on("connect", () => session.setLocalWindowSize(64 * 1024 * 1024));
  return session;
}

/** Starts a call and never reads its answer. `closed` settles with the stream's RST_STREAM code when it ends. */
function neverRead(
  session: ClientHttp2Session,
  method: string,
  body: Buffer,
): { stream: ClientHttp2Stream; closed: Promise<number> } {
  const stream = session.request({
    ":method": "POST",
    ":path": `${SERVICE}/${method}`,
    "content-type": "application/grpc",
    te: "trailers",
    "a2a-version": "1.0",
  });
  stream.on("error", () => {});
  stream.pause();
  const closed = new Promise<number>((resolve) =>
    stream.once("close", () => resolve(stream.rstCode ?? 0)),
  );
  stream.end(body);
  return { stream, closed };
}

interface Answer {
  readonly grpcStatus: string | undefined;
  readonly messages: Buffer[];
  readonly rstCode: number | undefined;
}

/** One call read to its end; `pauseMs` pauses the reading after every chunk (a slow reader). */
function readAll(
  session: ClientHttp2Session,
  method: string,
  body: Buffer,
  pauseMs = 0,
): Promise<Answer> {
  return new Promise((resolve) => {
    const stream = session.request({
      ":method": "POST",
      ":path": `${SERVICE}/${method}`,
      "content-type": "application/grpc",
      te: "trailers",
      "a2a-version": "1.0",
    });
    let trailers: Record<string, unknown> = {};
    let headers: Record<string, unknown> = {};
    const chunks: Buffer[] = [];
    stream.on("response", (h) => (headers = h));
    stream.on("trailers", (t) => (trailers = t));
    stream.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      if (pauseMs > 0) {
        stream.pause();
        setTimeout(() => stream.resume(), pauseMs);
      }
    });
    stream.on("error", () => {});
    stream.on("close", () =>
      resolve({
        grpcStatus: (trailers["grpc-status"] ?? headers["grpc-status"]) as string | undefined,
        messages: unframe(Buffer.concat(chunks)),
        rstCode: stream.rstCode,
      }),
    );
    stream.end(body);
  });
}

function unframe(body: Buffer): Buffer[] {
  const out: Buffer[] = [];
  for (let at = 0; at + 5 <= body.length; at += 5 + body.readUInt32BE(at + 1))
    out.push(body.subarray(at + 5, at + 5 + body.readUInt32BE(at + 1)));
  return out;
}

const STACKS: [string, (agent: TestAgent, listen: GrpcListenOptions) => Promise<GrpcEndpoint>][] = [
  [
    "grpc-js (listenA2AServiceGrpc)",
    (agent, listen) => listenA2AServiceGrpc(agent, { logger: quiet, listen }),
  ],
  [
    "Connect (listenGrpc)",
    (agent, listen) => listenGrpc(createA2AServiceGrpcRoutes(agent, { logger: quiet }), listen),
  ],
];

for (const [name, start] of STACKS) {
  describe(`${name}: a peer that stops reading`, () => {
    const agent = new BigAgent();
    let endpoint: GrpcEndpoint;
    const sessions: ClientHttp2Session[] = [];
    const client = (address: string) => {
      const s = smallWindowClient(address);
      sessions.push(s);
      return s;
    };
    beforeAll(async () => {
      endpoint = await start(agent, { stalledWriteTimeoutMs: 1500 });
    });
    afterEach(() => {
      for (const s of sessions.splice(0)) s.destroy();
    });
    afterAll(() => endpoint.close());

    it("a large unary answer never read is reset (CANCEL); meanwhile the connection's other streams and other connections are served", async () => {
      const session = client(endpoint.address);
      const stalled = neverRead(session, "GetTask", getTask("big"));
      let reset = false;
      void stalled.closed.then(() => (reset = true));
      // While the stalled stream is held: another large answer on the same connection, read, and a call on another connection.
      const sameConnection = await readAll(session, "GetTask", getTask("big"));
      const other = await readAll(client(endpoint.address), "GetTask", getTask("t-1"));
      expect(reset).toBe(false);
      expect(sameConnection.grpcStatus).toBe("0");
      expect(
        fromBinary(TaskSchema, sameConnection.messages[0]!).artifacts[0]?.parts[0]?.content.value,
      ).toBe(BIG_TEXT);
      expect(other.grpcStatus).toBe("0");
      expect(await stalled.closed).toBe(constants.NGHTTP2_CANCEL);
      // The connection goes on serving after the reset.
      expect((await readAll(session, "GetTask", getTask("t-2"))).grpcStatus).toBe("0");
    });

    it("a server stream never read is reset and its handler stopped (the generator's finally runs)", async () => {
      const ended = agent.streamsEnded;
      const session = client(endpoint.address);
      const stalled = neverRead(session, "SubscribeToTask", subscribe("big-stream"));
      expect(await stalled.closed).toBe(constants.NGHTTP2_CANCEL);
      await eventually(() => agent.streamsEnded > ended, 10_000);
      expect((await readAll(session, "GetTask", getTask("t-3"))).grpcStatus).toBe("0");
    });

    it("a slow reader that keeps taking data is not cut, though the whole answer takes longer than the timeout", async () => {
      // 12 events of 64 KiB through a 16 KiB window, 100 ms after every chunk read: several seconds in all.
      const slow = await readAll(
        client(endpoint.address),
        "SubscribeToTask",
        subscribe("paced"),
        100,
      );
      expect(slow.rstCode).toBe(constants.NGHTTP2_NO_ERROR);
      expect(slow.grpcStatus).toBe("0");
      expect(slow.messages).toHaveLength(12);
    });
  });

  it(`${name}: stalledWriteTimeoutMs must be a non-negative number`, async () => {
    await expect(start(new TestAgent(), { stalledWriteTimeoutMs: -1 })).rejects.toThrow(RangeError);
  });
}

describe("mountConnectRoutes (HTTP/1.1): a client that stops reading", () => {
  const agent = new BigAgent();
  let server: Server;
  let port: number;
  const afterCleanup: (() => void)[] = [];
  afterEach(() => {
    for (const cleanup of afterCleanup.splice(0)) cleanup();
  });
  beforeAll(async () => {
    const routes = mountConnectRoutes(
      createA2AServiceGrpcRoutes(agent, { logger: quiet }),
      (_req, res) => res.writeHead(404).end(),
      { prefix: "/c", stalledWriteTimeoutMs: 1000 },
    );
    server = createServer(routes);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** Sends one HTTP/1.1 POST on a raw socket that never reads; resolves once the server has closed its side of the connection. */
  function neverReadHttp1(method: string, contentType: string, body: Buffer): Promise<void> {
    return new Promise((resolve) => {
      // The server's socket of this connection (the client, reading nothing, would not see the server's FIN behind the data).
      server.once("connection", (serverSide) => serverSide.once("close", () => resolve()));
      const socket = connectTcp(port, "127.0.0.1");
      socket.on("error", () => {});
      socket.pause();
      afterCleanup.push(() => socket.destroy());
      socket.write(
        Buffer.concat([
          Buffer.from(
            `POST /c/lf.a2a.v1.A2AService/${method} HTTP/1.1\r\nhost: x\r\ncontent-type: ${contentType}\r\nconnect-protocol-version: 1\r\na2a-version: 1.0\r\ncontent-length: ${body.length}\r\n\r\n`,
          ),
          body,
        ]),
      );
    });
  }

  it("a large unary answer (Connect protocol) never read: the response is destroyed; other calls are served meanwhile", async () => {
    const stalled = neverReadHttp1(
      "GetTask",
      "application/proto",
      Buffer.from(toBinary(GetTaskRequestSchema, create(GetTaskRequestSchema, { id: "huge" }))),
    );
    const other = await fetch(`http://127.0.0.1:${port}/c/lf.a2a.v1.A2AService/GetTask`, {
      method: "POST",
      headers: { "content-type": "application/json", "a2a-version": "1.0" },
      body: JSON.stringify({ id: "t-1" }),
    });
    expect(other.status).toBe(200);
    expect(((await other.json()) as { id: string }).id).toBe("t-1");
    await stalled;
  });

  it("a server stream never read: the response is destroyed and the handler stopped", async () => {
    const ended = agent.streamsEnded;
    const envelope = frame(
      toBinary(
        SubscribeToTaskRequestSchema,
        create(SubscribeToTaskRequestSchema, { id: "big-stream" }),
      ),
    );
    await neverReadHttp1("SubscribeToTask", "application/connect+proto", envelope);
    await eventually(() => agent.streamsEnded > ended, 10_000);
  });

  it("stalledWriteTimeoutMs must be a non-negative number", () => {
    expect(() =>
      mountConnectRoutes(createA2AServiceGrpcRoutes(agent), (_req, res) => res.end(), {
        prefix: "/c",
        stalledWriteTimeoutMs: -1,
      }),
    ).toThrow(RangeError);
  });
});
