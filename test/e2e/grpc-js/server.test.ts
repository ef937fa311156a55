/**
 * The grpc-js server stack (runtime/src/grpc-js/server.ts, the default of the generated listen helper) with the definition the
 * generated Connect server uses (the object literal of `createA2AServiceGrpcRoutes`, plus
 * google.rpc.Status), against:
 *   - OUR generated gRPC client (Connect's gRPC transport), h2c and TLS;
 *   - raw `node:http2` (hand-made frames, RST_STREAM, grpc-timeout, a paused reader);
 *   - @a2a-js/sdk 1.3.0's gRPC client (GrpcTransportFactory, card over HTTP).
 *
 * The runtime file is imported from templates/ (generated-example has no copy of it yet), the
 * rest from generated-example: the two runtime copies are alike but TypeScript sees their
 * ServiceParameters (#private) as different classes, hence one cast in `dispatch`.
 */
import { connect, constants, type ClientHttp2Session, type IncomingHttpHeaders } from "node:http2";
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { anyIs, anyUnpack } from "@bufbuild/protobuf/wkt";
import * as grpc from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TaskState as SdkTaskState } from "@a2a-js/sdk";
import { ClientFactory, ClientFactoryOptions, type Client as SdkClient } from "@a2a-js/sdk/client";
import { GrpcTransportFactory } from "@a2a-js/sdk/client/grpc";
import {
  A2AError as SdkA2AError,
  TaskNotFoundError as SdkTaskNotFoundError,
} from "@a2a-js/sdk/errors";
import { isGrpcError } from "@a2a-js/sdk/errors/grpc";
import {
  GetTaskRequestSchema,
  Role,
  SendMessageRequestSchema,
  StreamResponseSchema,
  TaskSchema,
  TaskState,
  type Task,
} from "../../../generated-example/gen/a2a_pb.js";
import { A2AServiceGrpcClient } from "../../../generated-example/gen/a2a_a2a_grpc_client.js";
import type { A2AServiceHandler } from "../../../generated-example/gen/a2a_a2a_handler.js";
import {
  InternalError,
  InvalidParamsError,
  PermissionDeniedError,
  TaskNotFoundError,
  UnsupportedOperationError,
  VersionNotSupportedError,
} from "../../../generated-example/gen/a2a_a2a_errors.js";
import type { A2AError } from "@protoc-gen-a2a/runtime";
import type { CallContext } from "@protoc-gen-a2a/runtime";
import type { GrpcServerOptions } from "@protoc-gen-a2a/runtime/grpc";
import {
  createA2AServiceGrpcJsService,
  listenA2AServiceGrpc,
} from "../../../generated-example/gen/a2a_a2a_grpc_server.js";
import {
  BadRequestSchema,
  ErrorInfoSchema,
} from "../../../generated-example/gen/google/rpc/error_details_pb.js";
import { StatusSchema, type Status } from "../../../generated-example/gen/google/rpc/status_pb.js";
import type { GrpcJsEndpoint, GrpcJsListenOptions } from "@protoc-gen-a2a/runtime/grpc-js";
import { ECHO_EXTENSION, TestAgent, reply, task } from "../../support/test-agent.js";
import { eventually, listen, type Listening } from "../../support/servers.js";
import { selfSignedCertificate } from "../../support/tls.js";
import {
  agentCardListener,
  isSdkMessage,
  ourGrpcAgentCard,
  sdkSend,
} from "../../support/sdk-agent.js";
import { frame } from "../../support/grpc-frames.js";

type Principal = { user: string };

function listenAgent(
  agent: A2AServiceHandler<Principal>,
  options?: GrpcServerOptions<Principal>,
  listenOptions?: GrpcJsListenOptions,
): Promise<GrpcJsEndpoint> {
  return listenA2AServiceGrpc(agent, { ...options, listen: listenOptions });
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/**
 * TestAgent plus: GetTask "sleepy" holds its answer, ignoring its signal (which it records), until
 * the test calls `wakeSleepy()`; GetTask "abortable" waits for the abort and throws its reason
 * (`abortableWaiting` resolves once it waits); `handled` settles once the handler of the last of
 * those two has returned or thrown; SendStreamingMessage "flood" yields 2000 events of 16 KiB,
 * counting how many it produced.
 */
class GrpcJsAgent extends TestAgent {
  sleepySignal: AbortSignal | undefined;
  produced = 0;
  abortableReason: unknown;
  /** Resolves when the next "abortable" GetTask has started waiting for its abort. */
  abortableWaiting = deferred();
  /** The last "sleepy" or "abortable" GetTask: resolves once its handler has returned or thrown. */
  handled: Promise<void> = Promise.resolve();
  #wakeSleepy = (): void => {};

  /** Lets the pending "sleepy" GetTask return its (late) answer; resolves once its handler has returned. */
  wakeSleepy(): Promise<void> {
    this.#wakeSleepy();
    return this.handled;
  }

  override getTask(
    request: { id: string; historyLength?: number },
    context: CallContext<Principal>,
  ): Promise<Task> {
    const answer = this.#getTask(request, context);
    if (request.id === "sleepy" || request.id === "abortable") {
      this.handled = answer.then(
        () => undefined,
        () => undefined,
      );
    }
    return answer;
  }

  async #getTask(
    request: { id: string; historyLength?: number },
    context: CallContext<Principal>,
  ): Promise<Task> {
    if (request.id === "sleepy") {
      this.sleepySignal = context.signal;
      await new Promise<void>((resolve) => (this.#wakeSleepy = resolve));
      return task("sleepy", TaskState.WORKING);
    }
    if (request.id === "abortable") {
      this.abortableReason = undefined;
      const waiting = this.abortableWaiting;
      this.abortableWaiting = deferred();
      await new Promise<void>((resolve) => {
        if (context.signal.aborted) resolve();
        else context.signal.addEventListener("abort", () => resolve(), { once: true });
        waiting.resolve();
      });
      this.abortableReason = context.signal.reason;
      context.signal.throwIfAborted();
    }
    return super.getTask(request, context);
  }

  override async *sendStreamingMessage(
    request: Parameters<TestAgent["sendStreamingMessage"]>[0],
    context: CallContext<Principal>,
  ) {
    const part = request.message?.parts[0]?.content;
    if (part?.case === "text" && part.value === "flood") {
      this.produced = 0;
      const text = "z".repeat(16 * 1024);
      for (let i = 0; i < 2000 && !context.signal.aborted; i++) {
        this.produced++;
        yield create(StreamResponseSchema, {
          payload: { case: "message", value: reply(text, "") },
        });
      }
      return;
    }
    yield* super.sendStreamingMessage(request, context);
  }
}

/** Resolves after the server side of the next stream on `endpoint` has emitted 'close' (listened to after grpc-js's own listener). */
function serverStreamClosed(endpoint: GrpcJsEndpoint): Promise<void> {
  return new Promise<void>((resolve) =>
    endpoint.server.once("stream", (stream) => stream.once("close", () => resolve())),
  );
}

const userMessage = (text: string) => ({
  message: {
    messageId: `m-${text.slice(0, 32)}`,
    role: Role.USER,
    parts: [{ content: { case: "text" as const, value: text } }],
  },
});
const tls = selfSignedCertificate();

// ---------------------------------------------------------------------------------------
// our generated client → grpc-js server, h2c and TLS
// ---------------------------------------------------------------------------------------

describe.each([
  ["h2c", false],
  ["TLS", true],
])("generated gRPC client → listenGrpcJs over %s", (_name, secure) => {
  const agent = new GrpcJsAgent();
  const logged: unknown[][] = [];
  let endpoint: GrpcJsEndpoint;
  let client: A2AServiceGrpcClient;
  const clientFor = (extra: { headers?: Record<string, string>; version?: string } = {}) =>
    new A2AServiceGrpcClient({
      address: endpoint.address,
      tls: secure,
      ...extra,
      transportOptions: secure ? { nodeOptions: { ca: tls.cert } } : {},
    });

  beforeAll(async () => {
    endpoint = await listenAgent(
      agent,
      {
        authenticate: ({ serviceParameters }) => {
          if (serviceParameters.get("authorization") === "Bearer guest")
            throw new PermissionDeniedError();
          return { user: serviceParameters.get("authorization") ?? "anonymous" };
        },
        logger: { error: (...args: unknown[]) => logged.push(args) },
      },
      secure ? { tls } : {},
    );
    client = clientFor({ headers: { authorization: "Bearer alice" } });
  });
  afterAll(() => endpoint.close());

  it("listens on host:port, a real node:http2 server underneath", () => {
    expect(endpoint.address).toBe(`127.0.0.1:${endpoint.port}`);
    expect(endpoint.server.listening).toBe(true);
    expect(endpoint.grpcServer).toBeInstanceOf(grpc.Server);
  });

  it("SendMessage (Message and Task) with metadata service parameters", async () => {
    const res = await client.sendMessage(userMessage("hello"));
    expect(res.payload.case === "message" && res.payload.value.parts[0]?.content.value).toBe(
      "hello",
    );
    const ctx = agent.contexts.at(-1)!;
    expect(ctx.binding).toBe("GRPC");
    expect(ctx.operation).toBe("SendMessage");
    expect(ctx.requestedVersion).toBe("1.0");
    expect(ctx.principal).toEqual({ user: "Bearer alice" });
    expect(ctx.serviceParameters.get("a2a-version")).toBe("1.0");
    expect(ctx.serviceParameters.get("grpc-timeout")).toBeUndefined();
    const t = await client.sendMessage(userMessage("task"));
    expect(t.payload.case === "task" && t.payload.value.status?.state).toBe(TaskState.COMPLETED);
  });

  it("streams SendStreamingMessage and SubscribeToTask", async () => {
    const kinds = [];
    for await (const e of client.sendStreamingMessage(userMessage("s"))) kinds.push(e.payload.case);
    expect(kinds).toEqual(["task", "statusUpdate", "artifactUpdate", "statusUpdate"]);
    const sub = [];
    for await (const e of client.subscribeToTask({ id: "t-9" })) sub.push(e.payload.case);
    expect(sub).toEqual(["task", "statusUpdate"]);
    const many = [];
    for await (const e of client.sendStreamingMessage(userMessage("count 500")))
      many.push(e.payload.case === "message" ? e.payload.value.parts[0]?.content.value : "?");
    expect(many).toHaveLength(500);
    expect(many[499]).toBe("event 499");
  });

  it("every other RPC", async () => {
    expect((await client.getTask({ id: "t-1", historyLength: 1 })).id).toBe("t-1");
    expect((await client.listTasks({ pageSize: 5 })).pageSize).toBe(50);
    expect((await client.cancelTask({ id: "t-2" })).status?.state).toBe(TaskState.CANCELED);
    const cfg = await client.createTaskPushNotificationConfig({
      taskId: "t-1",
      url: "https://example.com/h",
    });
    expect((await client.getTaskPushNotificationConfig({ taskId: "t-1", id: cfg.id })).url).toBe(
      "https://example.com/h",
    );
    expect((await client.listTaskPushNotificationConfigs({ taskId: "t-1" })).configs).toHaveLength(
      1,
    );
    expect(
      (await client.deleteTaskPushNotificationConfig({ taskId: "t-1", id: cfg.id })).$typeName,
    ).toBe("google.protobuf.Empty");
    expect((await client.getExtendedAgentCard({})).name).toBe("Test agent");
  });

  it("maps errors through ErrorInfo status details to the typed classes, with metadata", async () => {
    const err = await client.getTask({ id: "missing" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TaskNotFoundError);
    expect((err as TaskNotFoundError).message).toBe("Task missing not found");
    expect((err as TaskNotFoundError).metadata).toEqual({ taskId: "missing" });
    const fail = await client.sendMessage(userMessage("fail")).catch((e: unknown) => e);
    expect(fail).toBeInstanceOf(TaskNotFoundError);
    expect((fail as TaskNotFoundError).metadata).toEqual({ taskId: "nope" });
    const before = logged.length;
    const crash = await client.sendMessage(userMessage("crash")).catch((e: unknown) => e);
    expect(crash).toBeInstanceOf(InternalError);
    expect((crash as Error).message).not.toContain("hunter2");
    expect(logged.length).toBe(before + 1);
    expect(String(logged.at(-1)?.[0])).toBe("SendMessage: handler failed");
    await expect(async () => {
      for await (const _ of client.sendStreamingMessage(userMessage("fail-early")));
    }).rejects.toBeInstanceOf(UnsupportedOperationError);
    // after two events: INTERNAL in the trailers, the events delivered first
    const events: string[] = [];
    const late = await (async () => {
      for await (const e of client.sendStreamingMessage(userMessage("fail-late")))
        events.push(e.payload.case ?? "");
    })().catch((e: unknown) => e);
    expect(events).toEqual(["task", "statusUpdate"]);
    expect(late).toBeInstanceOf(InternalError);
    await expect(
      clientFor({ headers: { authorization: "Bearer guest" } }).getTask({ id: "t" }),
    ).rejects.toBeInstanceOf(PermissionDeniedError);
  });

  it("a non-ASCII error message survives grpc-message encoding", async () => {
    const odd = "ünï cødé ✓ 100% #?";
    const mine = new GrpcJsAgent();
    mine.getTask = async () => {
      throw new TaskNotFoundError(`Task ${odd} not found`, { metadata: { taskId: odd } });
    };
    const ep = await listenAgent(mine, { logger: { error() {} } }, secure ? { tls } : {});
    try {
      const c = new A2AServiceGrpcClient({
        address: ep.address,
        tls: secure,
        transportOptions: secure ? { nodeOptions: { ca: tls.cert } } : {},
      });
      const e = await c.getTask({ id: "t" }).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(TaskNotFoundError);
      expect((e as TaskNotFoundError).message).toBe(`Task ${odd} not found`);
      expect((e as TaskNotFoundError).metadata).toEqual({ taskId: odd });
    } finally {
      await ep.close();
    }
  });

  it("validates REQUIRED fields (InvalidParams with fieldViolations) and the version from metadata", async () => {
    const before = agent.contexts.length;
    const missing = await client.getTask({}).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(InvalidParamsError);
    expect((missing as InvalidParamsError).message).toBe("Invalid parameters: id is required");
    expect((missing as InvalidParamsError).fieldViolations).toEqual([
      { field: "id", description: "id is required" },
    ]);
    const nested = await client
      .sendMessage({ message: { contextId: "c" } })
      .catch((e: unknown) => e);
    expect(nested).toBeInstanceOf(InvalidParamsError);
    expect((nested as InvalidParamsError).fieldViolations.map((v) => v.field)).toEqual(
      expect.arrayContaining(["message.messageId", "message.role", "message.parts"]),
    );
    const range = await client.listTasks({ pageSize: 500 }).catch((e: unknown) => e);
    expect(range).toBeInstanceOf(InvalidParamsError);
    expect((range as Error).message).toContain("pageSize must be between 1 and 100");
    const old = clientFor({ version: "0.3" });
    const v = await old.getTask({ id: "t" }).catch((e: unknown) => e);
    expect(v).toBeInstanceOf(VersionNotSupportedError);
    expect((v as VersionNotSupportedError).metadata).toEqual({
      requestedVersion: "0.3",
      supportedVersions: "1.0",
    });
    await expect(async () => {
      for await (const _ of old.sendStreamingMessage(userMessage("s")));
    }).rejects.toBeInstanceOf(VersionNotSupportedError);
    expect(agent.contexts.length).toBe(before);
  });

  it("echoes activated extensions in response metadata (unary and stream)", async () => {
    let echoed: string | null = null;
    await client.getTask(
      { id: "t" },
      { extensions: [ECHO_EXTENSION], onHeaders: (h) => (echoed = h.get("a2a-extensions")) },
    );
    expect(echoed).toBe(ECHO_EXTENSION);
    let streamed: string | null = null;
    for await (const _ of client.sendStreamingMessage(userMessage("s"), {
      extensions: [ECHO_EXTENSION],
      onHeaders: (h) => (streamed = h.get("a2a-extensions")),
    }));
    expect(streamed).toBe(ECHO_EXTENSION);
    let none: string | null = "unset";
    await client.getTask({ id: "t" }, { onHeaders: (h) => (none = h.get("a2a-extensions")) });
    expect(none).toBeNull();
  });

  it("a client cancelling mid-stream aborts the handler", async () => {
    agent.streamAborted = false;
    agent.streamFinally = false;
    const controller = new AbortController();
    for await (const e of client.sendStreamingMessage(userMessage("slow"), {
      signal: controller.signal,
    })) {
      expect(e.payload.case).toBe("task");
      controller.abort();
      break;
    }
    await eventually(() => agent.streamAborted && agent.streamFinally);
  });

  it("a deadline: DEADLINE_EXCEEDED on the wire, the client's TimeoutError (as on the HTTP bindings), the handler's signal aborted with a TimeoutError", async () => {
    const err = await client.getTask({ id: "sleepy" }, { timeoutMs: 50 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DOMException);
    expect([(err as DOMException).name, (err as DOMException).message]).toEqual([
      "TimeoutError",
      "the call timed out after 50 ms",
    ]);
    await eventually(() => agent.sleepySignal?.aborted === true);
    expect((agent.sleepySignal?.reason as Error | undefined)?.name).toBe("TimeoutError");
    // the handler's late answer is dropped harmlessly: let it answer now, then the next call is served
    await agent.wakeSleepy();
    expect((await client.getTask({ id: "after-sleepy" })).id).toBe("after-sleepy");
  });

  it("a client cancelling a unary call aborts the handler's signal (AbortError), nothing logged; a finished call's signal stays unaborted", async () => {
    const before = logged.length;
    const controller = new AbortController();
    const waiting = agent.abortableWaiting.promise;
    const call = client
      .getTask({ id: "abortable" }, { signal: controller.signal })
      .catch((e: unknown) => e);
    await waiting; // the handler is running: cancel mid-call
    controller.abort();
    expect(await call).toBeInstanceOf(Error);
    await eventually(() => agent.abortableReason !== undefined);
    expect((agent.abortableReason as Error).name).toBe("AbortError");
    await agent.handled; // the handler has thrown the abort's reason
    const streamClosed = serverStreamClosed(endpoint);
    await client.getTask({ id: "t-done" }); // served after the runtime has dealt with that throw (where it would log)
    const ctx = agent.contexts.at(-1)!;
    // grpc-js emits 'cancelled' (which would abort a finished call's signal) on a tick after the server
    // stream's 'close'; one event-loop turn after that close it has been emitted.
    await streamClosed;
    await new Promise((r) => setImmediate(r));
    expect(logged.length).toBe(before);
    expect(ctx.signal.aborted).toBe(false); // as on the HTTP bindings: the end of a call is not an abort
  });

  it("nothing unexpected reached the error logger", () => {
    expect(
      logged.filter(
        ([m]) =>
          m !== "SendMessage: handler failed" && m !== "SendStreamingMessage: handler failed",
      ),
    ).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------
// raw node:http2 against the grpc-js server
// ---------------------------------------------------------------------------------------

const SERVICE = "/lf.a2a.v1.A2AService";
const READ_MAX_BYTES = 1024;

function unframe(body: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let at = 0;
  while (at < body.length) {
    if (body.length - at < 5) throw new Error(`truncated frame header at ${at}`);
    const length = body.readUInt32BE(at + 1);
    if (at + 5 + length > body.length) throw new Error(`truncated message at ${at}`);
    out.push(body.subarray(at + 5, at + 5 + length));
    at += 5 + length;
  }
  return out;
}

const getTask = (id: string) =>
  toBinary(GetTaskRequestSchema, create(GetTaskRequestSchema, { id }));
const sendMessage = (text: string) =>
  toBinary(SendMessageRequestSchema, create(SendMessageRequestSchema, userMessage(text)));

interface GrpcAnswer {
  readonly httpStatus: number;
  readonly headers: IncomingHttpHeaders;
  readonly trailers: IncomingHttpHeaders;
  readonly grpcStatus: string | undefined;
  readonly grpcMessage: string | undefined;
  readonly messages: Buffer[];
  readonly status: Status | undefined;
  readonly ms: number;
}

function header(h: IncomingHttpHeaders, name: string): string | undefined {
  const v = h[name];
  return Array.isArray(v) ? v.join(",") : v;
}

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

/** A PING round trip on the session: the peer has processed everything sent before it. */
function ping(session: ClientHttp2Session): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    session.ping((error) => (error === null ? resolve() : reject(error)));
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

describe(`raw node:http2 → listenGrpcJs (h2c, adapter.readMaxBytes ${READ_MAX_BYTES})`, () => {
  const agent = new GrpcJsAgent();
  const logged: unknown[][] = [];
  let endpoint: GrpcJsEndpoint;
  let session: ClientHttp2Session;

  beforeAll(async () => {
    endpoint = await listenAgent(
      agent,
      { logger: { error: (...args: unknown[]) => logged.push(args) } },
      { adapter: { readMaxBytes: READ_MAX_BYTES } },
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

  async function expectAlive(): Promise<void> {
    const same = await call(session, "GetTask", frame(getTask("t-alive")));
    expect(same.grpcStatus).toBe("0");
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

  it("a good unary call: HTTP 200, application/grpc, one message, grpc-status 0", async () => {
    const res = await call(session, "GetTask", frame(getTask("t-1")));
    expect(res.httpStatus).toBe(200);
    expect(header(res.headers, "content-type")).toMatch(/^application\/grpc(\+proto)?$/);
    expect(res.grpcStatus).toBe("0");
    expect(res.messages).toHaveLength(1);
    expect(fromBinary(TaskSchema, res.messages[0]!).status?.state).toBe(TaskState.WORKING);
  });

  it("a malformed protobuf message → INVALID_ARGUMENT (ErrorInfo INVALID_REQUEST), handler not called, server survives", async () => {
    const before = agent.contexts.length;
    const garbage = Buffer.from([
      0x0f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    ]);
    const res = await call(session, "GetTask", frame(garbage));
    // Not grpc-js's INTERNAL "Error deserializing request" without details: the client's bad input (issue #25).
    expect(res.grpcStatus).toBe("3");
    expect(errorInfo(res.status)).toMatchObject({
      reason: "INVALID_REQUEST",
      domain: "a2a-protocol.org",
    });
    expect(res.messages).toEqual([]);
    const short = await call(session, "GetTask", frame(Buffer.from([0x12, 0x50, 0x41])));
    expect(short.grpcStatus).toBe("3");
    expect(agent.contexts.length).toBe(before);
    await expectAlive();
  });

  it("a truncated frame and a cut frame header are refused (not OK), server survives", async () => {
    const res = await call(session, "GetTask", frame(getTask("t-1"), 100));
    expect(res.grpcStatus).not.toBe("0");
    expect(res.messages).toEqual([]);
    const cut = await call(session, "GetTask", Buffer.from([0, 0, 0]));
    expect(cut.grpcStatus).not.toBe("0");
    await expectAlive();
  });

  it("a message beyond readMaxBytes → RESOURCE_EXHAUSTED; a prefix claiming 2 GiB is refused at once", async () => {
    const big = sendMessage("x".repeat(2 * READ_MAX_BYTES));
    const res = await call(session, "SendMessage", frame(big));
    expect(res.grpcStatus).toBe("8");
    expect(res.messages).toEqual([]);
    const huge = await call(session, "SendMessage", frame(Buffer.from([1, 2, 3]), 0x7fffffff));
    expect(huge.grpcStatus).toBe("8");
    expect(huge.ms).toBeLessThan(2000);
    const fits = await call(
      session,
      "SendMessage",
      frame(sendMessage("y".repeat(READ_MAX_BYTES - 100))),
    );
    expect(fits.grpcStatus).toBe("0");
    // and through our generated client
    const client = new A2AServiceGrpcClient({ address: endpoint.address });
    const err = await client
      .sendMessage(userMessage("x".repeat(2 * READ_MAX_BYTES)))
      .catch((e: unknown) => e);
    expect((err as A2AError).grpcCode).toBe(8);
    await expectAlive();
  });

  it("an empty message (REQUIRED id missing) → INVALID_ARGUMENT with google.rpc.Status {ErrorInfo, BadRequest}", async () => {
    const res = await call(session, "GetTask", frame(Buffer.alloc(0)));
    expect(res.grpcStatus).toBe("3");
    expect(res.grpcMessage).toBe("Invalid parameters: id is required");
    expect(res.status?.code).toBe(3);
    expect(res.status?.message).toBe(res.grpcMessage);
    expect(res.status?.details.map((d) => d.typeUrl)).toEqual([
      "type.googleapis.com/google.rpc.ErrorInfo",
      "type.googleapis.com/google.rpc.BadRequest",
    ]);
    expect(errorInfo(res.status)).toMatchObject({
      reason: "INVALID_PARAMS",
      domain: "a2a-protocol.org",
    });
    expect(badRequest(res.status)?.fieldViolations.map((v) => [v.field, v.description])).toEqual([
      ["id", "id is required"],
    ]);
  });

  it("a2a-version 9.9 → FAILED_PRECONDITION VERSION_NOT_SUPPORTED; no a2a-version → 0.3 assumed", async () => {
    const res = await call(session, "GetTask", frame(getTask("t-1")), { "a2a-version": "9.9" });
    expect(res.grpcStatus).toBe("9");
    expect(res.grpcMessage).toBe(
      'A2A protocol version "9.9" is not supported; supported versions: 1.0',
    );
    expect(errorInfo(res.status)).toMatchObject({
      reason: "VERSION_NOT_SUPPORTED",
      metadata: { requestedVersion: "9.9", supportedVersions: "1.0" },
    });
    const none = await call(session, "GetTask", frame(getTask("t-1")), { "a2a-version": "" });
    expect(none.grpcStatus).toBe("9");
    expect(none.grpcMessage).toContain("0.3 (no A2A-Version given)");
  });

  it("repeated metadata keys are joined; binary keys are not service parameters", async () => {
    const req = session.request({
      ":method": "POST",
      ":path": `${SERVICE}/GetTask`,
      "content-type": "application/grpc",
      te: "trailers",
      "a2a-version": "1.0",
      "x-multi": ["a", "b"],
      "x-blob-bin": Buffer.from([1, 2, 3]).toString("base64"),
    });
    await new Promise<void>((resolve, reject) => {
      req.on("error", reject);
      req.on("close", () => resolve());
      req.resume();
      req.end(frame(getTask("t-meta")));
    });
    const ctx = agent.contexts.at(-1)!;
    expect(ctx.serviceParameters.get("x-multi")).toBe("a, b");
    expect(ctx.serviceParameters.has("x-blob-bin")).toBe(false);
  });

  it("an unknown method → UNIMPLEMENTED", async () => {
    const res = await call(session, "NoSuchMethod", frame(getTask("t-1")));
    expect(res.grpcStatus).toBe("12");
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
    });
    expect(fromBinary(StreamResponseSchema, unframe(first)[0]!).payload.case).toBe("task");
    req.close(constants.NGHTTP2_CANCEL);
    await eventually(() => agent.streamAborted && agent.streamFinally);
    expect(session.closed || session.destroyed).toBe(false);
    await expectAlive();
  });

  it("deadline on the 'slow' stream: the handler sees the abort, the call ends with DEADLINE_EXCEEDED after the first event", async () => {
    agent.streamAborted = false;
    agent.streamFinally = false;
    const res = await call(session, "SendStreamingMessage", frame(sendMessage("slow")), {
      "grpc-timeout": "50m",
    });
    await eventually(() => agent.streamAborted && agent.streamFinally);
    expect(res.messages.map((m) => fromBinary(StreamResponseSchema, m).payload.case)).toEqual([
      "task",
    ]);
    expect(res.grpcStatus).toBe("4");
    expect(res.ms).toBeGreaterThanOrEqual(45);
    expect(res.ms).toBeLessThan(1500);
  });

  it("deadline on a unary call whose handler outlives it → DEADLINE_EXCEEDED at the deadline; the late answer is harmless", async () => {
    const res = await call(session, "GetTask", frame(getTask("sleepy")), { "grpc-timeout": "50m" });
    expect({ grpcStatus: res.grpcStatus, messages: res.messages.length }).toEqual({
      grpcStatus: "4",
      messages: 0,
    });
    expect(res.ms).toBeLessThan(250);
    expect(agent.sleepySignal?.aborted).toBe(true);
    await agent.wakeSleepy(); // the late answer, after the deadline's
    await expectAlive();
  });

  it("deadline on a unary call whose handler throws the abort reason → DEADLINE_EXCEEDED, nothing logged", async () => {
    const before = logged.length;
    const res = await call(session, "GetTask", frame(getTask("abortable")), {
      "grpc-timeout": "50m",
    });
    expect(res.ms).toBeLessThan(1000);
    await agent.handled; // the handler has thrown the abort's reason
    // A call on the same connection, served after the runtime has dealt with that throw.
    expect((await call(session, "GetTask", frame(getTask("t-after-abortable")))).grpcStatus).toBe(
      "0",
    );
    expect({ grpcStatus: res.grpcStatus, logged: logged.length - before }).toEqual({
      grpcStatus: "4",
      logged: 0,
    });
  });

  it("back-pressure: a reader that stops reading stops the handler (it does not buffer the whole stream)", async () => {
    const req = session.request({
      ":method": "POST",
      ":path": `${SERVICE}/SendStreamingMessage`,
      "content-type": "application/grpc",
      te: "trailers",
      "a2a-version": "1.0",
    });
    req.end(frame(sendMessage("flood")));
    await new Promise<void>((resolve, reject) => {
      req.once("data", () => resolve());
      req.once("error", reject);
    });
    req.pause();
    // The stream's HTTP/2 window is used up: the server can send nothing more on it until this reader
    // reads again (which is what would let the handler go on). A PING round trip after that: the server
    // has done all it could with the window it had.
    await eventually(() => req.state.localWindowSize === 0);
    await ping(session);
    const stalled = agent.produced;
    expect(stalled).toBeLessThan(400);
    await ping(session);
    expect(agent.produced).toBe(stalled);
    // reading again lets it run to the end
    let bytes = 0;
    req.on("data", (c: Buffer) => (bytes += c.length));
    req.resume();
    await new Promise<void>((resolve) => req.once("close", () => resolve()));
    expect(agent.produced).toBe(2000);
    expect(bytes).toBeGreaterThan(1900 * 16 * 1024);
  });

  it("none of the bad inputs above reached the error logger", () => {
    expect(logged).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------
// mounting, closing
// ---------------------------------------------------------------------------------------

describe("grpcJsService on an existing grpc-js Server, and close()", () => {
  it("mounts with server.addService and answers our client", async () => {
    const server = new grpc.Server();
    const { service, implementation } = createA2AServiceGrpcJsService(new TestAgent(), {
      logger: { error() {} },
    });
    expect(Object.keys(service)).toHaveLength(11);
    expect(service["SendStreamingMessage"]).toMatchObject({
      path: "/lf.a2a.v1.A2AService/SendStreamingMessage",
      requestStream: false,
      responseStream: true,
    });
    server.addService(service, implementation);
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, p) =>
        e ? reject(e) : resolve(p),
      ),
    );
    try {
      const client = new A2AServiceGrpcClient({ address: `127.0.0.1:${port}` });
      expect((await client.getTask({ id: "mounted" })).id).toBe("mounted");
      await expect(client.getTask({ id: "missing" })).rejects.toBeInstanceOf(TaskNotFoundError);
    } finally {
      server.forceShutdown();
    }
  });

  it("close() ends a stream still running (after the grace) and aborts its handler", async () => {
    const agent = new TestAgent();
    const endpoint = await listenAgent(agent, { logger: { error() {} } });
    const client = new A2AServiceGrpcClient({ address: endpoint.address });
    const events: string[] = [];
    const done = (async () => {
      for await (const e of client.sendStreamingMessage(userMessage("slow")))
        events.push(e.payload.case ?? "");
    })().catch((e: unknown) => e);
    await eventually(() => events.length === 1);
    const started = performance.now();
    await endpoint.close();
    expect(performance.now() - started).toBeLessThan(2500);
    await eventually(() => agent.streamAborted && agent.streamFinally);
    expect(await done).toBeInstanceOf(Error);
    expect(endpoint.server.listening).toBe(false);
    await endpoint.close(); // idempotent
  });

  it("refuses TLS options it cannot honour instead of serving plaintext", async () => {
    await expect(
      listenAgent(new TestAgent(), undefined, { tls: { cert: tls.cert } }),
    ).rejects.toThrow(/key and a cert/);
    await expect(
      listenAgent(new TestAgent(), undefined, { tls: { ...tls, passphrase: "x" } }),
    ).rejects.toThrow(/decrypt/);
  });
});

// ---------------------------------------------------------------------------------------
// @a2a-js/sdk gRPC client → grpc-js server
// ---------------------------------------------------------------------------------------

describe("@a2a-js/sdk GrpcTransportFactory client → listenGrpcJs", () => {
  const agent = new TestAgent();
  let endpoint: GrpcJsEndpoint;
  let cardServer: Listening;
  let client: SdkClient;

  beforeAll(async () => {
    endpoint = await listenAgent(agent, { logger: { error() {} } });
    const card = ourGrpcAgentCard(
      "Our grpc-js agent",
      "our grpc-js server, seen by the a2a-js gRPC client",
      endpoint.address,
    );
    cardServer = await listen(agentCardListener(() => card));
    const factory = new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        transports: [new GrpcTransportFactory()],
        preferredTransports: ["GRPC"],
      }),
    );
    client = await factory.createFromUrl(`http://127.0.0.1:${cardServer.port}`);
  });
  afterAll(async () => {
    (client?.transport as unknown as { grpcClient?: grpc.Client } | undefined)?.grpcClient?.close();
    await cardServer?.close();
    await endpoint?.close();
  });

  it("sendMessage → Message and → Task", async () => {
    const echo = await client.sendMessage(sdkSend("hello"));
    if (!isSdkMessage(echo)) throw new Error("expected a Message");
    expect(echo.messageId).toBe("reply-hello");
    expect(agent.contexts.at(-1)?.requestedVersion).toBe("1.0");
    const t = await client.sendMessage(sdkSend("task"));
    if (isSdkMessage(t)) throw new Error("expected a Task");
    expect(t.status?.state).toBe(SdkTaskState.TASK_STATE_COMPLETED);
  });

  it("sendMessageStream yields task, statusUpdate, artifactUpdate, statusUpdate", async () => {
    const events = [];
    for await (const e of client.sendMessageStream(sdkSend("stream me")))
      events.push(e.payload?.$case);
    expect(events).toEqual(["task", "statusUpdate", "artifactUpdate", "statusUpdate"]);
  });

  it("getTask of an unknown id → the SDK's TaskNotFoundError, rebuilt from our ErrorInfo", async () => {
    const err = await client
      .getTask({ tenant: "", id: "missing", historyLength: undefined })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SdkTaskNotFoundError);
    if (!(err instanceof SdkA2AError) || !isGrpcError(err))
      throw new Error(`not an SDK gRPC error: ${String(err)}`);
    expect(err.status).toBe(5);
    expect(err.message).toBe("Task missing not found");
    expect(err.metadata).toEqual({ taskId: "missing" });
  });
});
