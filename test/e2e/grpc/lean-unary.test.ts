/**
 * listenGrpc's lean path for plain gRPC unary calls (runtime/src/grpc/lean-unary.ts) answers exactly
 * as Connect's own gRPC handler does: the same requests, good and bad, sent over node:http2 to
 * listenGrpc (lean path on) and to listenGrpc with a no-op Connect interceptor (lean path off:
 * every call through Connect), and the answers compared: :status, response headers (but `date`),
 * trailers, and the messages (decompressed). Also: which calls take the lean path at all.
 */
import { gunzipSync } from "node:zlib";
import { connect, type ClientHttp2Session, type IncomingHttpHeaders } from "node:http2";
import { create, toBinary } from "@bufbuild/protobuf";
import type { Interceptor } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  GetTaskRequestSchema,
  Role,
  SendMessageRequestSchema,
} from "../../../generated-example/gen/a2a_pb.js";
import { createA2AServiceGrpcRoutes } from "../../../generated-example/gen/a2a_a2a_grpc_server.js";
import { listenGrpc, type GrpcEndpoint } from "@protoc-gen-a2a/runtime/grpc";
import { ECHO_EXTENSION, TestAgent } from "../../support/test-agent.js";
import { CALL_CANCELLATION } from "../../../runtime/src/pipeline/call-abort.js";
import { LeanCancellation } from "../../../runtime/src/grpc/lean-unary.js";
import { frame } from "../../support/grpc-frames.js";

/** Whether the handler's last call came through the lean path (its context's cancellation is the lean path's). */
const viaLeanPath = (agent: TestAgent) =>
  (agent.contexts.at(-1) as unknown as Record<symbol, unknown>)[CALL_CANCELLATION] instanceof
  LeanCancellation;

const SERVICE = "/lf.a2a.v1.A2AService";
const READ_MAX_BYTES = 1024;

const getTask = (id: string) =>
  toBinary(GetTaskRequestSchema, create(GetTaskRequestSchema, { id }));
const sendMessage = (text: string) =>
  toBinary(
    SendMessageRequestSchema,
    create(SendMessageRequestSchema, {
      message: {
        messageId: "lean-1",
        role: Role.USER,
        parts: [{ content: { case: "text", value: text } }],
      },
    }),
  );

interface Answer {
  readonly status: number | undefined;
  readonly headers: Record<string, unknown>;
  readonly trailers: Record<string, unknown>;
  readonly messages: string[];
}

/** One call; the answer with `date` dropped and the messages decompressed (hex). */
function call(
  session: ClientHttp2Session,
  method: string,
  body: Buffer,
  metadata: Record<string, string> = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = session.request({
      ":method": "POST",
      ":path": `${SERVICE}/${method}`,
      "content-type": "application/grpc",
      te: "trailers",
      "a2a-version": "1.0",
      ...metadata,
    });
    let headers: IncomingHttpHeaders = {};
    let trailers: IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    req.on("response", (h) => (headers = h));
    req.on("trailers", (t) => (trailers = t));
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("error", reject);
    req.on("close", () => {
      const { date: _date, ":status": status, ...rest } = headers;
      const bodyBytes = Buffer.concat(chunks);
      const messages: string[] = [];
      for (let at = 0; at + 5 <= bodyBytes.length; ) {
        const length = bodyBytes.readUInt32BE(at + 1);
        const data = bodyBytes.subarray(at + 5, at + 5 + length);
        messages.push(
          `${bodyBytes[at]}:${(bodyBytes[at] === 1 ? gunzipSync(data) : data).toString("hex")}`,
        );
        at += 5 + length;
      }
      resolve({
        status: status as number | undefined,
        headers: { ...rest },
        trailers: { ...trailers },
        messages,
      });
    });
    req.end(body);
  });
}

describe("listenGrpc: the lean unary path answers as Connect's gRPC handler", () => {
  const agent = new TestAgent();
  const passThrough: Interceptor = (next) => (req) => next(req);
  let lean: GrpcEndpoint;
  let viaConnect: GrpcEndpoint;
  let leanSession: ClientHttp2Session;
  let connectSession: ClientHttp2Session;

  beforeAll(async () => {
    const routes = createA2AServiceGrpcRoutes(agent, { logger: { error() {} } });
    lean = await listenGrpc(routes, { adapter: { readMaxBytes: READ_MAX_BYTES } });
    viaConnect = await listenGrpc(routes, {
      adapter: { readMaxBytes: READ_MAX_BYTES, interceptors: [passThrough] },
    });
    leanSession = connect(`http://${lean.address}`);
    connectSession = connect(`http://${viaConnect.address}`);
  });
  afterAll(async () => {
    leanSession.close();
    connectSession.close();
    await Promise.all([lean.close(), viaConnect.close()]);
  });

  const cases: [string, string, () => Buffer, Record<string, string>?][] = [
    ["a Message reply", "SendMessage", () => frame(sendMessage("hello"))],
    ["a Task", "GetTask", () => frame(getTask("t-1"))],
    ["an A2A error with details", "GetTask", () => frame(getTask("missing"))],
    [
      "a handler's plain Error (INTERNAL, no secret)",
      "SendMessage",
      () => frame(sendMessage("crash")),
    ],
    ["a REQUIRED field missing", "GetTask", () => frame(new Uint8Array())],
    ["an unsupported version", "GetTask", () => frame(getTask("t-1")), { "a2a-version": "9.9" }],
    [
      "an activated extension echoed",
      "GetTask",
      () => frame(getTask("t-1")),
      { "a2a-extensions": ECHO_EXTENSION },
    ],
    [
      "a response compressed when the client accepts gzip (≥ compressMinBytes)",
      "SendMessage",
      () => frame(sendMessage("x".repeat(900))),
      { "grpc-accept-encoding": "gzip" },
    ],
    [
      "a small response with gzip negotiated",
      "SendMessage",
      () => frame(sendMessage("hello")),
      { "grpc-accept-encoding": "identity,deflate,gzip" },
    ],
    ["garbage protobuf", "GetTask", () => frame(Buffer.from([0xff, 0xff, 0xff, 0xff]))],
    ["a truncated envelope", "GetTask", () => frame(getTask("t-1"), 100)],
    ["a prefix shorter than 5 bytes", "GetTask", () => Buffer.from([0, 0])],
    ["no message at all", "GetTask", () => Buffer.alloc(0)],
    [
      "two messages for a unary method",
      "GetTask",
      () => Buffer.concat([frame(getTask("t-1")), frame(getTask("t-2"))]),
    ],
    [
      "a message over readMaxBytes",
      "SendMessage",
      () => frame(sendMessage("y".repeat(READ_MAX_BYTES + 10))),
    ],
    [
      "the compressed flag without grpc-encoding",
      "GetTask",
      () => frame(getTask("t-1"), undefined, 1),
    ],
    ["an invalid grpc-timeout", "GetTask", () => frame(getTask("t-1")), { "grpc-timeout": "soon" }],
    [
      "a grpc-timeout above nothing (accepted)",
      "GetTask",
      () => frame(getTask("t-1")),
      { "grpc-timeout": "10S" },
    ],
  ];

  for (const [name, method, body, metadata] of cases) {
    it(name, async () => {
      const viaLean = await call(leanSession, method, body(), metadata);
      const expected = await call(connectSession, method, body(), metadata);
      expect(viaLean).toEqual(expected);
      if (viaLean.trailers["grpc-status"] === "0") expect(viaLeanPath(agent)).toBe(false); // the Connect server's call was last
    });
  }

  it("the calls above did take the lean path", async () => {
    await call(leanSession, "GetTask", frame(getTask("t-1")));
    expect(viaLeanPath(agent)).toBe(true);
    await call(connectSession, "GetTask", frame(getTask("t-1")));
    expect(viaLeanPath(agent)).toBe(false);
  });

  it("leaves server streaming to Connect, on the same server; gRPC +json is refused (415, INVALID_ARGUMENT) before either", async () => {
    const stream = await call(leanSession, "SendStreamingMessage", frame(sendMessage("hello")));
    expect(stream.trailers["grpc-status"]).toBe("0");
    expect(stream.messages.length).toBeGreaterThan(1);
    expect(viaLeanPath(agent)).toBe(false);
    const json = await call(
      leanSession,
      "GetTask",
      frame(Buffer.from(JSON.stringify({ id: "t-1" }))),
      { "content-type": "application/grpc+json" },
    );
    expect([json.status, json.trailers["grpc-status"] ?? json.headers["grpc-status"]]).toEqual([
      415,
      "3",
    ]);
  });
});
