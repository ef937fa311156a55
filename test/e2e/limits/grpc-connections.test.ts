/**
 * Connection limits of the gRPC servers we start (issue #17), on both stacks (grpc-js: the generated
 * listenA2AServiceGrpc; Connect: listenGrpc), from raw sockets and node:http2 against 127.0.0.1, with
 * short configured timeouts:
 *   - a TCP connection that never sends the HTTP/2 preface is closed after `handshakeTimeoutMs`;
 *   - a connection that sends its preface and SETTINGS and then nothing gets GOAWAY (NO_ERROR) after
 *     `idleTimeoutMs` and loses its socket; one with an open server stream is not idle and stays;
 *   - a call whose request message never arrives is answered INVALID_ARGUMENT (ErrorInfo
 *     INVALID_REQUEST) after `requestMessageTimeoutMs`, the handler not called, and the connection
 *     goes on serving;
 *   - SETTINGS_MAX_CONCURRENT_STREAMS is announced (default 100), and a stream beyond it is reset.
 */
import {
  connect as connectHttp2,
  type ClientHttp2Session,
  type ClientHttp2Stream,
  type IncomingHttpHeaders,
} from "node:http2";
import { connect as connectTcp, type Socket } from "node:net";
import { create, createRegistry, fromBinary, toBinary } from "@bufbuild/protobuf";
import { anyUnpack } from "@bufbuild/protobuf/wkt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  GetTaskRequestSchema,
  SendMessageRequestSchema,
} from "../../../generated-example/gen/a2a_pb.js";
import { ErrorInfoSchema } from "../../../generated-example/gen/google/rpc/error_details_pb.js";
import { StatusSchema } from "../../../generated-example/gen/google/rpc/status_pb.js";
import {
  createA2AServiceGrpcRoutes,
  listenA2AServiceGrpc,
} from "../../../generated-example/gen/a2a_a2a_grpc_server.js";
import {
  DEFAULT_MAX_CONCURRENT_STREAMS,
  listenGrpc,
  type GrpcEndpoint,
  type GrpcListenOptions,
} from "@protoc-gen-a2a/runtime/grpc";
import { TestAgent } from "../../support/test-agent.js";
import { eventually } from "../../support/servers.js";
import { frame } from "../../support/grpc-frames.js";

const SERVICE = "/lf.a2a.v1.A2AService";
const quiet = { error() {} };
const LIMITS: GrpcListenOptions = {
  handshakeTimeoutMs: 300,
  idleTimeoutMs: 400,
  requestMessageTimeoutMs: 300,
  maxConcurrentStreams: 2,
  goawayGraceMs: 200,
};

const PREFACE = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");

function h2Frame(type: number, flags: number, streamId: number, payload: Buffer): Buffer {
  const header = Buffer.alloc(9);
  header.writeUIntBE(payload.length, 0, 3);
  header[3] = type;
  header[4] = flags;
  header.writeUInt32BE(streamId, 5);
  return Buffer.concat([header, payload]);
}

/** An HPACK block of literal fields (never indexed, no Huffman): enough for a request. */
function hpack(headers: [string, string][]): Buffer {
  const parts: Buffer[] = [];
  for (const [name, value] of headers)
    parts.push(
      Buffer.from([0x10, name.length]),
      Buffer.from(name),
      Buffer.from([value.length]),
      Buffer.from(value),
    );
  return Buffer.concat(parts);
}

const requestHeaders = (path: string) =>
  hpack([
    [":method", "POST"],
    [":scheme", "http"],
    [":path", path],
    [":authority", "x"],
    ["content-type", "application/grpc"],
    ["te", "trailers"],
    ["a2a-version", "1.0"],
  ]);

interface Frame {
  readonly type: number;
  readonly flags: number;
  readonly stream: number;
  readonly payload: Buffer;
}

/** A raw HTTP/2 client connection: the frames received, and its close. */
class RawH2 {
  readonly socket: Socket;
  readonly frames: Frame[] = [];
  readonly closed: Promise<void>;
  #buffer = Buffer.alloc(0);
  #started = false;

  constructor(port: number) {
    this.socket = connectTcp(port, "127.0.0.1");
    this.socket.on("error", () => {});
    this.closed = new Promise((resolve) => this.socket.once("close", () => resolve()));
    this.socket.on("data", (chunk: Buffer) => {
      this.#buffer = Buffer.concat([this.#buffer, chunk]);
      while (this.#buffer.length >= 9) {
        const length = this.#buffer.readUIntBE(0, 3);
        if (this.#buffer.length < 9 + length) break;
        const f = {
          type: this.#buffer[3]!,
          flags: this.#buffer[4]!,
          stream: this.#buffer.readUInt32BE(5) & 0x7fffffff,
          payload: this.#buffer.subarray(9, 9 + length),
        };
        this.#buffer = this.#buffer.subarray(9 + length);
        this.frames.push(f);
        // ACK the server's SETTINGS, as a client must.
        if (this.#started && f.type === 0x4 && (f.flags & 0x1) === 0)
          this.socket.write(h2Frame(0x4, 0x1, 0, Buffer.alloc(0)));
      }
    });
  }

  /** Preface and an empty SETTINGS. */
  handshake(): void {
    this.#started = true;
    this.socket.write(Buffer.concat([PREFACE, h2Frame(0x4, 0, 0, Buffer.alloc(0))]));
  }

  /** The server's SETTINGS (not the ACK), as id → value. */
  serverSettings(): Map<number, number> | undefined {
    const f = this.frames.find((x) => x.type === 0x4 && (x.flags & 0x1) === 0);
    if (f === undefined) return undefined;
    const out = new Map<number, number>();
    for (let at = 0; at + 6 <= f.payload.length; at += 6)
      out.set(f.payload.readUInt16BE(at), f.payload.readUInt32BE(at + 2));
    return out;
  }
}

interface Answer {
  readonly headers: IncomingHttpHeaders;
  readonly trailers: IncomingHttpHeaders;
}

/** A call on `session`; `body` undefined: headers only, the request never sent. */
function call(
  session: ClientHttp2Session,
  path: string,
  body: Buffer | undefined,
): { stream: ClientHttp2Stream; answer: Promise<Answer> } {
  const stream = session.request({
    ":method": "POST",
    ":path": path,
    "content-type": "application/grpc",
    te: "trailers",
    "a2a-version": "1.0",
  });
  const answer = new Promise<Answer>((resolve) => {
    let headers: IncomingHttpHeaders = {};
    let trailers: IncomingHttpHeaders = {};
    stream.on("response", (h) => (headers = h));
    stream.on("trailers", (t) => (trailers = t));
    stream.on("data", () => {});
    stream.on("error", () => {});
    stream.on("close", () => resolve({ headers, trailers }));
  });
  if (body !== undefined) stream.end(body);
  return { stream, answer };
}

const grpcStatus = (a: Answer) => a.trailers["grpc-status"] ?? a.headers["grpc-status"];
const getTask = frame(toBinary(GetTaskRequestSchema, create(GetTaskRequestSchema, { id: "t-1" })));
const slowStream = frame(
  toBinary(
    SendMessageRequestSchema,
    create(SendMessageRequestSchema, {
      message: { messageId: "m", role: 1, parts: [{ content: { case: "text", value: "slow" } }] },
    } as never),
  ),
);

const stacks: [string, (agent: TestAgent, listen?: GrpcListenOptions) => Promise<GrpcEndpoint>][] =
  [
    ["grpc-js", (agent, listen) => listenA2AServiceGrpc(agent, { logger: quiet, listen })],
    [
      "Connect",
      (agent, listen) => listenGrpc(createA2AServiceGrpcRoutes(agent, { logger: quiet }), listen),
    ],
  ];

for (const [name, start] of stacks) {
  describe(`${name}: connection limits`, () => {
    const agent = new TestAgent();
    let endpoint: GrpcEndpoint;
    let defaults: GrpcEndpoint;
    beforeAll(async () => {
      endpoint = await start(agent, LIMITS);
      defaults = await start(agent);
    });
    afterAll(async () => {
      await Promise.all([endpoint.close(), defaults.close()]);
    });

    it("a connection that never sends the preface is closed after handshakeTimeoutMs", async () => {
      const silent = new RawH2(endpoint.port);
      const half = new RawH2(endpoint.port);
      half.socket.write(PREFACE.subarray(0, 10)); // half a preface, then nothing
      await Promise.all([silent.closed, half.closed]);
    });

    it("a connection with no stream gets GOAWAY NO_ERROR after idleTimeoutMs, then loses its socket", async () => {
      const idle = new RawH2(endpoint.port);
      idle.handshake();
      await idle.closed;
      const goaway = idle.frames.find((f) => f.type === 0x7);
      expect(goaway).toBeDefined();
      expect(goaway!.payload.readUInt32BE(4)).toBe(0);
    });

    it("a connection with an open server stream is not idle: it outlives idleTimeoutMs several times", async () => {
      const session = connectHttp2(`http://${endpoint.address}`);
      session.on("error", () => {});
      try {
        const slow = call(session, `${SERVICE}/SendStreamingMessage`, slowStream);
        await new Promise<void>((resolve) => slow.stream.once("response", () => resolve()));
        await new Promise((r) => setTimeout(r, 4 * LIMITS.idleTimeoutMs!));
        expect(session.closed || session.destroyed).toBe(false);
        slow.stream.close();
        await slow.answer;
        // A unary call on the same connection still works.
        expect(grpcStatus(await call(session, `${SERVICE}/GetTask`, getTask).answer)).toBe("0");
      } finally {
        session.destroy();
      }
    });

    for (const method of ["SendMessage", "SendStreamingMessage"]) {
      it(`${method}: a call whose request never arrives: INVALID_ARGUMENT (INVALID_REQUEST) after requestMessageTimeoutMs, handler not called`, async () => {
        const session = connectHttp2(`http://${endpoint.address}`);
        session.on("error", () => {});
        try {
          const calls = agent.contexts.length;
          const stuck = call(session, `${SERVICE}/${method}`, undefined);
          stuck.stream.write(getTask.subarray(0, 3)); // part of the length prefix, never the rest
          const answer = await stuck.answer;
          expect(grpcStatus(answer)).toBe("3");
          expect(
            decodeURIComponent(
              String(answer.headers["grpc-message"] ?? answer.trailers["grpc-message"]),
            ),
          ).toContain("did not arrive within 300 ms");
          const bin =
            answer.headers["grpc-status-details-bin"] ?? answer.trailers["grpc-status-details-bin"];
          const status = fromBinary(StatusSchema, Buffer.from(String(bin), "base64"));
          expect(status.code).toBe(3);
          const info = anyUnpack(status.details[0]!, createRegistry(ErrorInfoSchema));
          expect(info).toMatchObject({ reason: "INVALID_REQUEST", domain: "a2a-protocol.org" });
          expect(agent.contexts.length).toBe(calls);
          expect(grpcStatus(await call(session, `${SERVICE}/GetTask`, getTask).answer)).toBe("0");
        } finally {
          session.destroy();
        }
      });
    }

    it("SETTINGS_MAX_CONCURRENT_STREAMS is announced; a client that opens more streams loses the connection (GOAWAY)", async () => {
      const c = new RawH2(endpoint.port);
      c.handshake();
      await eventually(
        () =>
          c.serverSettings() !== undefined &&
          c.frames.some((f) => f.type === 0x4 && (f.flags & 0x1) === 1),
        5000,
      );
      expect(c.serverSettings()!.get(0x3)).toBe(2);
      // Three open requests (END_HEADERS, no END_STREAM: their messages are still to come) where two are allowed.
      for (const id of [1, 3, 5])
        c.socket.write(h2Frame(0x1, 0x4, id, requestHeaders(`${SERVICE}/GetTask`)));
      await c.closed;
      // Node's http2 takes the excess stream for a connection error (RFC 9113 §5.1.2 allows a stream error):
      // GOAWAY with an error code, the third stream not processed (last stream id 3), then the socket closed.
      const goaway = c.frames.find((f) => f.type === 0x7);
      expect(goaway).toBeDefined();
      expect(goaway!.payload.readUInt32BE(0)).toBe(3);
      expect(goaway!.payload.readUInt32BE(4)).not.toBe(0);
    });

    it(`the default: SETTINGS_MAX_CONCURRENT_STREAMS ${DEFAULT_MAX_CONCURRENT_STREAMS}; a normal call works`, async () => {
      const c = new RawH2(defaults.port);
      c.handshake();
      await eventually(() => c.serverSettings() !== undefined, 5000);
      expect(c.serverSettings()!.get(0x3)).toBe(DEFAULT_MAX_CONCURRENT_STREAMS);
      c.socket.destroy();
      const session = connectHttp2(`http://${defaults.address}`);
      try {
        expect(grpcStatus(await call(session, `${SERVICE}/GetTask`, getTask).answer)).toBe("0");
      } finally {
        session.close();
      }
    });
  });
}
