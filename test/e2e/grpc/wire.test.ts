/**
 * Bad input over the wire against OUR gRPC server, with `node:http2` directly (no gRPC
 * library on the client side): hand-made length-prefixed frames, raw metadata, RST_STREAM
 * and `grpc-timeout`. Every answer is checked on `:status`, `grpc-status`, `grpc-message`
 * (percent-decoded) and, where an A2A error is expected, `grpc-status-details-bin` decoded
 * into google.rpc.Status with the generated protobuf-es schemas.
 *
 * The server runs with `listen.adapter.readMaxBytes: 1024`.
 */
import { connect, constants, type ClientHttp2Session, type IncomingHttpHeaders } from "node:http2";
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { anyIs, anyUnpack } from "@bufbuild/protobuf/wkt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  GetTaskRequestSchema,
  Role,
  SendMessageRequestSchema,
  StreamResponseSchema,
  TaskSchema,
  TaskState,
  type Task,
} from "../../../generated-example/gen/a2a_pb.js";
import { createA2AServiceGrpcRoutes } from "../../../generated-example/gen/a2a_a2a_grpc_server.js";
import { listenGrpc } from "@protoc-gen-a2a/runtime/grpc";
import type { CallContext } from "@protoc-gen-a2a/runtime";
import type { GrpcEndpoint } from "@protoc-gen-a2a/runtime/grpc";
import { StatusSchema, type Status } from "../../../generated-example/gen/google/rpc/status_pb.js";
import {
  BadRequestSchema,
  ErrorInfoSchema,
} from "../../../generated-example/gen/google/rpc/error_details_pb.js";
import { TaskNotFoundError } from "../../../generated-example/gen/a2a_a2a_errors.js";
import { TestAgent, task } from "../../support/test-agent.js";
import { eventually } from "../../support/servers.js";
import { frame } from "../../support/grpc-frames.js";

const SERVICE = "/lf.a2a.v1.A2AService";
const READ_MAX_BYTES = 1024;

/** Splits a response body into its length-prefixed messages (throws on a malformed body). */
function unframe(body: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let at = 0;
  while (at < body.length) {
    if (body.length - at < 5) throw new Error(`truncated frame header at ${at}`);
    const flag = body[at];
    const length = body.readUInt32BE(at + 1);
    if (flag !== 0) throw new Error(`unexpected compressed flag ${flag}`);
    if (at + 5 + length > body.length) throw new Error(`truncated message at ${at}`);
    out.push(body.subarray(at + 5, at + 5 + length));
    at += 5 + length;
  }
  return out;
}

const getTask = (id: string) =>
  toBinary(GetTaskRequestSchema, create(GetTaskRequestSchema, { id }));
const sendMessage = (text: string) =>
  toBinary(
    SendMessageRequestSchema,
    create(SendMessageRequestSchema, {
      message: {
        messageId: `wire-${text.slice(0, 16)}`,
        role: Role.USER,
        parts: [{ content: { case: "text", value: text } }],
      },
    }),
  );

interface GrpcAnswer {
  readonly httpStatus: number;
  readonly headers: IncomingHttpHeaders;
  /** Trailers, or the headers of a trailers-only response. */
  readonly trailers: IncomingHttpHeaders;
  readonly grpcStatus: string | undefined;
  /** Percent-decoded. */
  readonly grpcMessage: string | undefined;
  readonly messages: Buffer[];
  /** `grpc-status-details-bin`, decoded. */
  readonly status: Status | undefined;
  readonly ms: number;
}

function header(h: IncomingHttpHeaders, name: string): string | undefined {
  const v = h[name];
  return Array.isArray(v) ? v.join(",") : v;
}

/** One call on `session`: sends `body` (already framed), half-closes, collects everything. */
function call(
  session: ClientHttp2Session,
  method: string,
  body: Buffer,
  metadata: Record<string, string> = {},
): Promise<GrpcAnswer> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = session.request({
      ":method": "POST",
      ":path": `${SERVICE}/${method}`,
      "content-type": "application/grpc",
      te: "trailers",
      "a2a-version": "1.0",
      ...metadata,
    });
    let headers: IncomingHttpHeaders = {};
    let trailers: IncomingHttpHeaders | undefined;
    const chunks: Buffer[] = [];
    req.on("response", (h) => (headers = h));
    req.on("trailers", (t) => (trailers = t));
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("error", reject);
    req.setTimeout(5000, () => req.close(constants.NGHTTP2_CANCEL));
    req.on("close", () => {
      const meta = trailers ?? headers;
      const rawMessage = header(meta, "grpc-message");
      const details = header(meta, "grpc-status-details-bin");
      resolve({
        httpStatus: Number(headers[":status"]),
        headers,
        trailers: meta,
        grpcStatus: header(meta, "grpc-status"),
        grpcMessage: rawMessage === undefined ? undefined : decodeURIComponent(rawMessage),
        messages: unframe(Buffer.concat(chunks)),
        status:
          details === undefined
            ? undefined
            : fromBinary(StatusSchema, Buffer.from(details, "base64")),
        ms: performance.now() - started,
      });
    });
    req.end(body);
  });
}

function errorInfo(status: Status | undefined) {
  const any = status?.details.find((d) => anyIs(d, ErrorInfoSchema));
  return any === undefined ? undefined : anyUnpack(any, ErrorInfoSchema);
}
function badRequest(status: Status | undefined) {
  const any = status?.details.find((d) => anyIs(d, BadRequestSchema));
  return any === undefined ? undefined : anyUnpack(any, BadRequestSchema);
}

/**
 * TestAgent plus: GetTask "sleepy" takes 300 ms (ignoring the abort signal); GetTask "abortable"
 * waits for the abort signal and then throws its reason (`signal.throwIfAborted()`, what an
 * abort-aware `fetch` or timer does too); GetTask "missing-…" → TaskNotFoundError naming the id.
 */
class WireAgent extends TestAgent {
  override async getTask(
    request: { id: string; historyLength?: number },
    context: CallContext<{ user: string }>,
  ): Promise<Task> {
    if (request.id === "sleepy") {
      await new Promise((r) => setTimeout(r, 300));
      return task("sleepy", TaskState.WORKING);
    }
    if (request.id === "abortable") {
      await new Promise<void>((resolve) =>
        context.signal.addEventListener("abort", () => resolve(), { once: true }),
      );
      context.signal.throwIfAborted();
    }
    if (request.id.startsWith("missing-"))
      throw new TaskNotFoundError(`Task ${request.id} not found`, {
        metadata: { taskId: request.id },
      });
    return super.getTask(request, context);
  }
}

describe("gRPC wire: bad input against our server (node:http2, h2c)", () => {
  const agent = new WireAgent();
  const errors: unknown[][] = [];
  let endpoint: GrpcEndpoint;
  let session: ClientHttp2Session;

  beforeAll(async () => {
    // The Connect stack (test/e2e/grpc-js/server.test.ts covers the grpc-js one on the wire).
    endpoint = await listenGrpc(
      createA2AServiceGrpcRoutes(agent, {
        logger: { error: (...args: unknown[]) => errors.push(args) },
      }),
      {
        adapter: { readMaxBytes: READ_MAX_BYTES },
      },
    );
    session = connect(`http://${endpoint.address}`);
    await new Promise<void>((resolve, reject) =>
      session.once("connect", () => resolve()).once("error", reject),
    );
  });
  afterAll(async () => {
    session?.close();
    await endpoint?.close();
  });

  /** The server still answers a good call, on the same session and on a fresh one. */
  async function expectAlive(): Promise<void> {
    const same = await call(session, "GetTask", frame(getTask("t-alive")));
    expect(same.grpcStatus).toBe("0");
    expect(same.messages).toHaveLength(1);
    expect(fromBinary(TaskSchema, same.messages[0]!).id).toBe("t-alive");
    const fresh = connect(`http://${endpoint.address}`);
    try {
      const other = await call(fresh, "GetTask", frame(getTask("t-fresh")));
      expect(other.grpcStatus).toBe("0");
      expect(fromBinary(TaskSchema, other.messages[0]!).id).toBe("t-fresh");
    } finally {
      fresh.close();
    }
  }

  it("a good unary call: HTTP 200, application/grpc content type, one message, grpc-status 0 in trailers", async () => {
    const res = await call(session, "GetTask", frame(getTask("t-1")));
    expect(res.httpStatus).toBe(200);
    expect(header(res.headers, "content-type")).toMatch(/^application\/grpc(\+proto)?$/);
    expect(res.grpcStatus).toBe("0");
    expect(res.messages).toHaveLength(1);
    const got = fromBinary(TaskSchema, res.messages[0]!);
    expect(got.id).toBe("t-1");
    expect(got.status?.state).toBe(TaskState.WORKING);
  });

  it("a malformed protobuf message (valid length prefix, garbage bytes) → INVALID_ARGUMENT, ErrorInfo INVALID_REQUEST, no decoder text, handler not called, server survives", async () => {
    const before = agent.contexts.length;
    // 0x0f = field 1 with wire type 7, which does not exist; then a run of varint continuation bytes.
    const garbage = Buffer.from([
      0x0f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    ]);
    const res = await call(session, "GetTask", frame(garbage));
    expect(res.httpStatus).toBe(200);
    // Not INTERNAL (grpc-go's and grpc-java's answer): the client's bad input (issue #25).
    expect(res.grpcStatus).toBe("3");
    expect(res.grpcMessage).toBe(
      "the request message is not a valid lf.a2a.v1.GetTaskRequest in protobuf binary",
    );
    expect(errorInfo(res.status)).toMatchObject({
      reason: "INVALID_REQUEST",
      domain: "a2a-protocol.org",
    });
    expect(res.messages).toEqual([]);
    // a length-delimited field (2 = id) claiming 80 bytes when 1 follows
    const short = await call(session, "GetTask", frame(Buffer.from([0x12, 0x50, 0x41])));
    expect(short.grpcStatus).toBe("3");
    expect(short.grpcMessage).not.toMatch(/premature EOF|parse binary/);
    expect(errorInfo(short.status)?.reason).toBe("INVALID_REQUEST");
    expect(agent.contexts.length).toBe(before);
    await expectAlive();
  });

  it("a truncated frame (prefix says 100 bytes, fewer arrive before END_STREAM) → INVALID_ARGUMENT", async () => {
    const payload = getTask("t-1");
    const res = await call(session, "GetTask", frame(payload, 100));
    expect(res.grpcStatus).toBe("3");
    expect(res.grpcMessage).toMatch(/incomplete envelope/);
    // and a frame header cut after 3 of its 5 bytes
    const cut = await call(session, "GetTask", Buffer.from([0, 0, 0]));
    expect(cut.grpcStatus).toBe("3");
    await expectAlive();
  });

  it("a message beyond readMaxBytes → RESOURCE_EXHAUSTED; a prefix claiming 2 GiB is refused without waiting for the bytes", async () => {
    const big = sendMessage("x".repeat(2 * READ_MAX_BYTES));
    expect(big.length).toBeGreaterThan(READ_MAX_BYTES);
    const res = await call(session, "SendMessage", frame(big));
    expect(res.grpcStatus).toBe("8");
    expect(res.grpcMessage).toContain(`readMaxBytes ${READ_MAX_BYTES}`);
    expect(res.messages).toEqual([]);
    const huge = await call(session, "SendMessage", frame(Buffer.from([1, 2, 3]), 0x7fffffff));
    expect(huge.grpcStatus).toBe("8");
    expect(huge.ms).toBeLessThan(2000);
    // just under the limit is fine
    const fits = await call(
      session,
      "SendMessage",
      frame(sendMessage("y".repeat(READ_MAX_BYTES - 100))),
    );
    expect(fits.grpcStatus).toBe("0");
    await expectAlive();
  });

  it("a compressed-flag message without grpc-encoding → INVALID_ARGUMENT, ErrorInfo INVALID_REQUEST", async () => {
    const res = await call(session, "GetTask", frame(getTask("t-1"), undefined, 1));
    expect(res.grpcStatus).toBe("3");
    expect(res.grpcMessage).toMatch(/compressed.*grpc-encoding/);
    expect(errorInfo(res.status)?.reason).toBe("INVALID_REQUEST");
  });

  it("an empty message (REQUIRED id missing) → INVALID_ARGUMENT, ErrorInfo INVALID_PARAMS + BadRequest{id}", async () => {
    const res = await call(session, "GetTask", frame(Buffer.alloc(0)));
    expect(res.grpcStatus).toBe("3");
    expect(res.grpcMessage).toBe("Invalid parameters: id is required");
    expect(res.status?.code).toBe(3);
    expect(res.status?.message).toBe(res.grpcMessage);
    expect(res.status?.details[0]?.typeUrl).toBe("type.googleapis.com/google.rpc.ErrorInfo");
    expect(errorInfo(res.status)).toMatchObject({
      reason: "INVALID_PARAMS",
      domain: "a2a-protocol.org",
    });
    expect(badRequest(res.status)?.fieldViolations.map((v) => [v.field, v.description])).toEqual([
      ["id", "id is required"],
    ]);
  });

  it("a2a-version 9.9 → FAILED_PRECONDITION with ErrorInfo VERSION_NOT_SUPPORTED", async () => {
    const before = agent.contexts.length;
    const res = await call(session, "GetTask", frame(getTask("t-1")), { "a2a-version": "9.9" });
    expect(res.grpcStatus).toBe("9");
    expect(res.grpcMessage).toBe(
      'A2A protocol version "9.9" is not supported; supported versions: 1.0',
    );
    expect(res.status?.code).toBe(9);
    expect(errorInfo(res.status)).toMatchObject({
      reason: "VERSION_NOT_SUPPORTED",
      domain: "a2a-protocol.org",
      metadata: { requestedVersion: "9.9", supportedVersions: "1.0" },
    });
    expect(agent.contexts.length).toBe(before);
  });

  it("no a2a-version metadata → version 0.3 assumed → FAILED_PRECONDITION VERSION_NOT_SUPPORTED", async () => {
    const req = session.request({
      ":method": "POST",
      ":path": `${SERVICE}/GetTask`,
      "content-type": "application/grpc",
      te: "trailers",
    });
    const trailers = await new Promise<IncomingHttpHeaders>((resolve, reject) => {
      let meta: IncomingHttpHeaders = {};
      req.on("response", (h) => (meta = h));
      req.on("trailers", (t) => (meta = t));
      req.on("error", reject);
      req.on("close", () => resolve(meta));
      req.resume();
      req.end(frame(getTask("t-1")));
    });
    expect(header(trailers, "grpc-status")).toBe("9");
    expect(decodeURIComponent(header(trailers, "grpc-message") ?? "")).toContain(
      "0.3 (no A2A-Version given)",
    );
  });

  it("a non-ASCII error message is percent-encoded in grpc-message and intact in the Status", async () => {
    const id = "missing-ünï cødé ✓ 100%";
    const res = await call(session, "GetTask", frame(getTask(id)));
    expect(res.grpcStatus).toBe("5");
    const raw = header(res.trailers, "grpc-message") ?? "";
    // gRPC: grpc-message is percent-encoded UTF-8; only 0x20–0x7E may appear, and '%' only as an escape
    expect(raw).toMatch(/^[\x20-\x7e]*$/);
    expect(raw).not.toMatch(/%(?![0-9A-Fa-f]{2})/);
    expect(res.grpcMessage).toBe(`Task ${id} not found`);
    expect(res.status?.message).toBe(`Task ${id} not found`);
    expect(errorInfo(res.status)).toMatchObject({
      reason: "TASK_NOT_FOUND",
      domain: "a2a-protocol.org",
      metadata: { taskId: id },
    });
  });

  it("an unknown method is not answered with grpc-status 0 (HTTP 404 → UNIMPLEMENTED for gRPC clients, or grpc-status 12)", async () => {
    const res = await call(session, "NoSuchMethod", frame(getTask("t-1")));
    expect(res.httpStatus === 404 || res.grpcStatus === "12").toBe(true);
    expect(res.messages).toEqual([]);
  });

  it("a client cancelling mid-stream (RST_STREAM CANCEL) aborts the handler; the session stays usable", async () => {
    agent.streamAborted = false;
    agent.streamFinally = false;
    const req = session.request({
      ":method": "POST",
      ":path": `${SERVICE}/SendStreamingMessage`,
      "content-type": "application/grpc",
      te: "trailers",
      "a2a-version": "1.0",
    });
    req.end(frame(sendMessage("slow")));
    const first = await new Promise<Buffer>((resolve, reject) => {
      req.once("data", resolve);
      req.once("error", reject);
      req.once("close", () => reject(new Error("closed before the first event")));
    });
    const [event] = unframe(first);
    expect(fromBinary(StreamResponseSchema, event!).payload.case).toBe("task");
    expect(agent.streamAborted).toBe(false);
    req.close(constants.NGHTTP2_CANCEL);
    await eventually(() => agent.streamAborted && agent.streamFinally);
    expect(session.closed || session.destroyed).toBe(false);
    await expectAlive();
  });

  describe("deadline: grpc-timeout 50m on the 'slow' stream", () => {
    let res: GrpcAnswer;
    beforeAll(async () => {
      agent.streamAborted = false;
      agent.streamFinally = false;
      res = await call(session, "SendStreamingMessage", frame(sendMessage("slow")), {
        "grpc-timeout": "50m",
      });
    });

    it("the handler sees the abort and the call ends near the deadline, after the first event", async () => {
      await eventually(() => agent.streamAborted && agent.streamFinally);
      expect(res.messages.map((m) => fromBinary(StreamResponseSchema, m).payload.case)).toEqual([
        "task",
      ]);
      expect(res.ms).toBeGreaterThanOrEqual(45);
      expect(res.ms).toBeLessThan(1500);
    });

    // Regression: a stream whose handler stops on the expired deadline must not end with OK but with
    // grpc-status 4 (DEADLINE_EXCEEDED), as grpc-go/grpc-java do.
    it("ends with grpc-status 4 DEADLINE_EXCEEDED", () => {
      expect(res.grpcStatus).toBe("4");
    });
  });

  // Regression: a unary handler that ignores its signal cannot hold the call past the deadline.
  it("deadline on a unary call whose handler outlives it → DEADLINE_EXCEEDED, not a late OK", async () => {
    const res = await call(session, "GetTask", frame(getTask("sleepy")), { "grpc-timeout": "50m" });
    expect({ grpcStatus: res.grpcStatus, messages: res.messages.length }).toEqual({
      grpcStatus: "4",
      messages: 0,
    });
    expect(res.ms).toBeLessThan(250);
  });

  // Regression: a handler that honours the deadline by throwing the signal's reason is answered with
  // DEADLINE_EXCEEDED, not INTERNAL, and nothing is logged as a handler failure.
  it("deadline on a unary call whose handler throws the abort reason → DEADLINE_EXCEEDED, nothing logged", async () => {
    const logged = errors.length;
    const res = await call(session, "GetTask", frame(getTask("abortable")), {
      "grpc-timeout": "50m",
    });
    expect(res.ms).toBeLessThan(1000);
    expect({ grpcStatus: res.grpcStatus, logged: errors.length - logged }).toEqual({
      grpcStatus: "4",
      logged: 0,
    });
  });

  it("an invalid grpc-timeout → INVALID_ARGUMENT", async () => {
    const res = await call(session, "GetTask", frame(getTask("t-1")), { "grpc-timeout": "soon" });
    expect(res.grpcStatus).toBe("3");
    expect(res.grpcMessage).toMatch(/grpc timeout/);
  });

  it("none of the bad inputs above reached the error logger as an internal failure", () => {
    expect(
      errors.filter(
        ([message]) =>
          !String(message).startsWith("GetTask:") || !String(message).includes("handler failed"),
      ),
    ).toEqual([]);
  });
});
