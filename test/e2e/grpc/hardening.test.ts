/**
 * The gRPC servers we start (grpc-js: the generated listenA2AServiceGrpc; Connect: listenGrpc) against
 * hostile HTTP/2 (issue #17), from raw sockets:
 *   - a connection that commits an HTTP/2 protocol error (DATA on stream 0, a frame header declaring
 *     16 MB, a HEADERS frame with a malformed HPACK block) gets GOAWAY and then loses its socket after
 *     the grace (`goawayGraceMs`), whether the client left or stays: the process's fds return to the
 *     baseline (server and test are one process: /proc/self/fd counts both sides);
 *   - healthy connections are not touched by that, and a normal call still works after it all;
 *   - the grpc-js port refuses gRPC-web (and other non-gRPC content types) before dispatch: 415 with
 *     INVALID_ARGUMENT, the handler not called; the Connect port serves gRPC-web, as it should.
 */
import { readdirSync } from "node:fs";
import {
  connect as connectHttp2,
  type ClientHttp2Session,
  type IncomingHttpHeaders,
} from "node:http2";
import { connect as connectTcp, type Socket } from "node:net";
import { create, toBinary } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GetTaskRequestSchema } from "../../../generated-example/gen/a2a_pb.js";
import {
  createA2AServiceGrpcRoutes,
  listenA2AServiceGrpc,
} from "../../../generated-example/gen/a2a_a2a_grpc_server.js";
import { listenGrpc, type GrpcEndpoint } from "@protoc-gen-a2a/runtime/grpc";
import { TestAgent } from "../../support/test-agent.js";
import { eventually } from "../../support/servers.js";

const GRACE_MS = 200;
const SERVICE = "/lf.a2a.v1.A2AService";
const fds = () => readdirSync("/proc/self/fd").length;

const PREFACE = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");
const EMPTY_SETTINGS = h2Frame(0x4, 0, 0, Buffer.alloc(0));

/** An HTTP/2 frame; `length` may lie about the payload. */
function h2Frame(
  type: number,
  flags: number,
  streamId: number,
  payload: Buffer,
  length = payload.length,
): Buffer {
  const header = Buffer.alloc(9);
  header.writeUIntBE(length, 0, 3);
  header[3] = type;
  header[4] = flags;
  header.writeUInt32BE(streamId, 5);
  return Buffer.concat([header, payload]);
}

const BAD_FRAMES: [string, Buffer][] = [
  ["DATA on stream 0", h2Frame(0x0, 0, 0, Buffer.from("hello"))],
  ["a frame header declaring 16 MB", h2Frame(0x0, 0, 1, Buffer.alloc(0), 0xffffff)],
  // HEADERS, END_STREAM | END_HEADERS, on stream 1: an indexed field with an index far past any table.
  [
    "a malformed HPACK block",
    h2Frame(0x1, 0x5, 1, Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0x0f])),
  ],
];

/** A raw connection that sends the preface, SETTINGS and `bad`; resolves with the socket once the server's GOAWAY arrived. */
function badConnection(
  port: number,
  bad: Buffer,
): Promise<{ socket: Socket; closed: Promise<void>; goawayCode: number }> {
  return new Promise((resolve, reject) => {
    const socket = connectTcp(port, "127.0.0.1");
    const closed = new Promise<void>((r) => socket.once("close", () => r()));
    let received = Buffer.alloc(0);
    let done = false;
    socket.on("error", (e) => {
      if (!done) reject(e);
    });
    socket.on("data", (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      for (let at = 0; !done && received.length - at >= 9; ) {
        const length = received.readUIntBE(at, 3);
        if (received.length - at - 9 < length) break;
        if (received[at + 3] === 0x7) {
          done = true;
          resolve({ socket, closed, goawayCode: received.readUInt32BE(at + 9 + 4) });
        }
        at += 9 + length;
      }
    });
    socket.once("close", () => {
      if (!done) reject(new Error("closed before GOAWAY"));
    });
    socket.write(Buffer.concat([PREFACE, EMPTY_SETTINGS, bad]));
  });
}

const getTask = (id: string) =>
  toBinary(GetTaskRequestSchema, create(GetTaskRequestSchema, { id }));

function envelope(payload: Uint8Array): Buffer {
  const out = Buffer.alloc(5 + payload.length);
  out.writeUInt32BE(payload.length, 1);
  out.set(payload, 5);
  return out;
}

interface Answer {
  readonly headers: IncomingHttpHeaders;
  readonly trailers: IncomingHttpHeaders;
  readonly body: Buffer;
}

/** One POST of `body` on `session`: the response headers, trailers and body. */
function post(
  session: ClientHttp2Session,
  path: string,
  contentType: string,
  body: Buffer,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = session.request({
      ":method": "POST",
      ":path": path,
      "content-type": contentType,
      te: "trailers",
      "a2a-version": "1.0",
    });
    let headers: IncomingHttpHeaders = {};
    let trailers: IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    req.on("response", (h) => (headers = h));
    req.on("trailers", (t) => (trailers = t));
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("error", reject);
    req.on("close", () => resolve({ headers, trailers, body: Buffer.concat(chunks) }));
    req.end(body);
  });
}

/** The grpc-status of an answer: trailers, or the headers of a trailers-only response. */
const grpcStatus = (a: Answer) => a.trailers["grpc-status"] ?? a.headers["grpc-status"];

const stacks: [string, (agent: TestAgent) => Promise<GrpcEndpoint>][] = [
  [
    "grpc-js (listenA2AServiceGrpc)",
    (agent) =>
      listenA2AServiceGrpc(agent, { logger: { error() {} }, listen: { goawayGraceMs: GRACE_MS } }),
  ],
  [
    "Connect (listenGrpc)",
    (agent) =>
      listenGrpc(createA2AServiceGrpcRoutes(agent, { logger: { error() {} } }), {
        goawayGraceMs: GRACE_MS,
      }),
  ],
];

for (const [name, start] of stacks) {
  describe(`${name}: connections after an HTTP/2 protocol error`, () => {
    const agent = new TestAgent();
    let endpoint: GrpcEndpoint;
    let healthy: ClientHttp2Session;

    beforeAll(async () => {
      endpoint = await start(agent);
      // A well-behaved client, connected all along and idle through the tests.
      healthy = connectHttp2(`http://${endpoint.address}`);
      expect(
        grpcStatus(
          await post(healthy, `${SERVICE}/GetTask`, "application/grpc", envelope(getTask("t-1"))),
        ),
      ).toBe("0");
    });
    afterAll(async () => {
      healthy.close();
      await endpoint.close();
    });

    for (const [what, bad] of BAD_FRAMES) {
      it(`${what}: GOAWAY, then the sockets of clients that left are closed (fds back to the baseline)`, async () => {
        const baseline = fds();
        const connections = await Promise.all(
          Array.from({ length: 20 }, () => badConnection(endpoint.port, bad)),
        );
        for (const c of connections) expect(c.goawayCode).not.toBe(0);
        const during = fds();
        expect(during).toBeGreaterThanOrEqual(baseline + 20); // at least the client ends
        for (const c of connections) c.socket.destroy();
        await eventually(() => fds() <= baseline, 10_000);
        console.log(
          `${name}, ${what}: fds ${baseline} before, ${during} with 20 bad connections, ${fds()} after`,
        );
      });
    }

    it("a client that stays connected after the GOAWAY has its socket closed by the server after the grace; healthy connections stay", async () => {
      const baseline = fds();
      const stay = await badConnection(endpoint.port, BAD_FRAMES[0]![1]);
      let closedByServer = false;
      void stay.closed.then(() => (closedByServer = true));
      await eventually(() => closedByServer, 10_000);
      await eventually(() => fds() <= baseline, 10_000);
      // The idle well-behaved connection, open all along (longer than the grace), still serves.
      expect(healthy.closed || healthy.destroyed).toBe(false);
      expect(
        grpcStatus(
          await post(healthy, `${SERVICE}/GetTask`, "application/grpc", envelope(getTask("t-1"))),
        ),
      ).toBe("0");
    });

    it("a normal call on a new connection still works after all of it", async () => {
      const session = connectHttp2(`http://${endpoint.address}`);
      try {
        const answer = await post(
          session,
          `${SERVICE}/GetTask`,
          "application/grpc+proto",
          envelope(getTask("t-2")),
        );
        expect(answer.headers[":status"]).toBe(200);
        expect(grpcStatus(answer)).toBe("0");
      } finally {
        session.close();
      }
    });
  });
}

describe("content types other than gRPC with protobuf", () => {
  const agent = new TestAgent();
  let grpcJs: GrpcEndpoint;
  let connect: GrpcEndpoint;
  let grpcJsSession: ClientHttp2Session;
  let connectSession: ClientHttp2Session;

  beforeAll(async () => {
    grpcJs = await listenA2AServiceGrpc(agent, { logger: { error() {} } });
    connect = await listenGrpc(createA2AServiceGrpcRoutes(agent, { logger: { error() {} } }));
    grpcJsSession = connectHttp2(`http://${grpcJs.address}`);
    connectSession = connectHttp2(`http://${connect.address}`);
  });
  afterAll(async () => {
    grpcJsSession.close();
    connectSession.close();
    await Promise.all([grpcJs.close(), connect.close()]);
  });

  for (const type of [
    "application/grpc-web+proto",
    "application/grpc-web",
    "application/grpc+json",
    "application/grpc-web-text",
    "application/json",
    "application/grpcx",
  ]) {
    it(`grpc-js: ${type} is refused before dispatch with 415 and INVALID_ARGUMENT`, async () => {
      const calls = agent.contexts.length;
      const answer = await post(
        grpcJsSession,
        `${SERVICE}/GetTask`,
        type,
        envelope(getTask("t-1")),
      );
      expect(answer.headers[":status"]).toBe(415);
      expect(answer.headers["grpc-status"]).toBe("3");
      expect(answer.body.length).toBe(0);
      expect(agent.contexts.length).toBe(calls);
    });
  }

  for (const type of [
    "application/grpc",
    "application/grpc+proto",
    "application/grpc+proto; charset=utf-8",
    "Application/GRPC",
  ]) {
    it(`grpc-js: ${type} is served`, async () => {
      const calls = agent.contexts.length;
      const answer = await post(
        grpcJsSession,
        `${SERVICE}/GetTask`,
        type,
        envelope(getTask("t-1")),
      );
      expect(answer.headers[":status"]).toBe(200);
      expect(grpcStatus(answer)).toBe("0");
      expect(agent.contexts.length).toBe(calls + 1);
    });
  }

  it("Connect (listenGrpc) serves gRPC-web on its port, answered as gRPC-web", async () => {
    const calls = agent.contexts.length;
    const answer = await post(
      connectSession,
      `${SERVICE}/GetTask`,
      "application/grpc-web+proto",
      envelope(getTask("t-1")),
    );
    expect(answer.headers[":status"]).toBe(200);
    expect(answer.headers["content-type"]).toBe("application/grpc-web+proto");
    // gRPC-web: the status is in a trailer frame (flag 0x80) of the body, not in HTTP/2 trailers.
    expect(answer.body.toString("latin1")).toMatch(/\x80[\s\S]{4}grpc-status: ?0\r\n/);
    expect(agent.contexts.length).toBe(calls + 1);
  });

  it("a normal call still works on both ports afterwards", async () => {
    for (const session of [grpcJsSession, connectSession]) {
      expect(
        grpcStatus(
          await post(session, `${SERVICE}/GetTask`, "application/grpc", envelope(getTask("t-3"))),
        ),
      ).toBe("0");
    }
  });
});
