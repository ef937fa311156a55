/**
 * Bad input and bad output on every gRPC path (issue #25, points 1 and 6), with real servers on
 * 127.0.0.1 and hand-made requests: gRPC on grpc-js (the generated listenA2AServiceGrpc) and on
 * Connect (listenGrpc: plain unary calls on its lean path, streams on Connect's), gRPC-web on
 * listenGrpc (HTTP/2) and on mountConnectRoutes (HTTP/1.1), the Connect protocol on
 * mountConnectRoutes (binary unary and stream, JSON):
 *   - a request message that does not decode, or nests deeper than protobuf's recursion limit (a
 *     Struct of 60 levels), is INVALID_ARGUMENT with ErrorInfo INVALID_REQUEST and a message without
 *     the decoder's text, the handler not called (it was INTERNAL with "parse binary: illegal tag …");
 *   - a JSON message (the Connect protocol) is judged as the HTTP+JSON binding judges a body, with
 *     ErrorInfo: deeper than maxJsonDepth INVALID_REQUEST, not JSON JSON_PARSE, not the message
 *     INVALID_PARAMS (Connect answered INVALID_ARGUMENT without ErrorInfo, or with the decoder's text);
 *   - a message flagged compressed in a call that names no compression is INVALID_ARGUMENT too (grpc-js
 *     served it as uncompressed); one really compressed (gzip, named) is served, and one whose
 *     inflated bytes do not decode is refused like any other;
 *   - a response the handler built that cannot be encoded (an int64 that is no number; a NaN in a
 *     Value, which JSON cannot express) is the generic INTERNAL with ErrorInfo INTERNAL, its text only
 *     logged (Connect sent "cannot encode …", grpc-js "Error serializing response" without details);
 *   - a NaN or +Infinity sent in binary in `message.metadata` or in `Part.data` is INVALID_ARGUMENT
 *     with ErrorInfo INVALID_PARAMS and a BadRequest naming the field, on both stacks, and afterwards
 *     GetTask and ListTasks still serve, on gRPC and on JSON-RPC (before, it was stored and broke
 *     every JSON answer of the task list).
 */
import { createServer, type Server } from "node:http";
import { connect, type ClientHttp2Session, type IncomingHttpHeaders } from "node:http2";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { create, fromBinary, toBinary, type JsonObject } from "@bufbuild/protobuf";
import { ValueSchema } from "@bufbuild/protobuf/wkt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  GetTaskRequestSchema,
  ListTasksRequestSchema,
  ListTasksResponseSchema,
  Role,
  SendMessageRequestSchema,
  SendMessageResponseSchema,
  StreamResponseSchema,
  TaskSchema,
  TaskState,
  type Message,
} from "../../../generated-example/gen/a2a_pb.js";
import {
  BadRequestSchema,
  ErrorInfoSchema,
} from "../../../generated-example/gen/google/rpc/error_details_pb.js";
import { StatusSchema } from "../../../generated-example/gen/google/rpc/status_pb.js";
import {
  createA2AServiceGrpcRoutes,
  listenA2AServiceGrpc,
} from "../../../generated-example/gen/a2a_a2a_grpc_server.js";
import { createA2AServiceJsonRpcServer } from "../../../generated-example/gen/a2a_a2a_jsonrpc_server.js";
import type { A2AServiceHandler } from "../../../generated-example/gen/a2a_a2a_handler.js";
import type { A2AServiceExecutor } from "../../../generated-example/gen/a2a_a2a_task_handler.js";
import { listenGrpc, mountConnectRoutes, type GrpcEndpoint } from "@protoc-gen-a2a/runtime/grpc";
import type { CallContext } from "@protoc-gen-a2a/runtime";
import { TestAgent, firstText, reply, task } from "../../support/test-agent.js";
import { createA2ATaskHandler } from "../../support/task-runtime-binding.js";
import { listen, type Listening } from "../../support/servers.js";
import { frame } from "../../support/grpc-frames.js";

const SERVICE = "lf.a2a.v1.A2AService";
const CONNECT_CODES: Readonly<Record<string, number>> = {
  invalid_argument: 3,
  internal: 13,
  failed_precondition: 9,
};

/** TestAgent plus answers that cannot be encoded: "unencodable" (an int64 that is no number: no form at all), "nan" (a NaN in a Value: no JSON form). */
class BadOutputAgent extends TestAgent {
  readonly logged: unknown[] = [];
  readonly logger = { error: (_message: string, cause?: unknown) => void this.logged.push(cause) };

  override async sendMessage(
    request: { message?: Message },
    context: CallContext<{ user: string }>,
  ) {
    const text = firstText(request.message);
    if (text === "unencodable")
      return create(SendMessageResponseSchema, {
        payload: { case: "task", value: unencodableTask() },
      });
    if (text === "nan") {
      const message = reply("nan", "");
      message.metadata = { n: Number.NaN };
      return create(SendMessageResponseSchema, { payload: { case: "message", value: message } });
    }
    return super.sendMessage(request, context);
  }

  override async *sendStreamingMessage(
    request: { message?: Message },
    context: CallContext<{ user: string }>,
  ) {
    if (firstText(request.message) !== "unencodable") {
      yield* super.sendStreamingMessage(request, context);
      return;
    }
    yield create(StreamResponseSchema, {
      payload: { case: "task", value: task("t-ok", TaskState.WORKING) },
    });
    yield create(StreamResponseSchema, { payload: { case: "task", value: unencodableTask() } });
  }
}

function unencodableTask() {
  const t = task("t-bad", TaskState.COMPLETED);
  t.status!.timestamp!.seconds = "not a number" as never;
  return t;
}

const nested = (levels: number): JsonObject => {
  let v: JsonObject = { leaf: true };
  for (let i = 1; i < levels; i++) v = { n: v };
  return v;
};
const sendMessage = (text: string, extra: Record<string, unknown> = {}) =>
  toBinary(
    SendMessageRequestSchema,
    create(SendMessageRequestSchema, {
      message: {
        messageId: `m-${text.slice(0, 12)}`,
        role: Role.USER,
        parts: [{ content: { case: "text", value: text } }],
        ...extra,
      },
    } as never),
  );
const getTask = (id: string) =>
  toBinary(GetTaskRequestSchema, create(GetTaskRequestSchema, { id }));
/** Field 1 with wire type 7 (which does not exist), then varint continuation bytes. */
const GARBAGE = Uint8Array.from([0x0f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
/** What a decoder's or encoder's own text looks like. */
const INTERNAL_TEXT =
  /illegal tag|parse binary|premature EOF|recursion depth of|serialize|cannot encode|invalid int64|NaN|Error /;

/** How a call was answered, whatever the protocol. */
interface Outcome {
  readonly code: number;
  readonly message: string;
  readonly reason: string | undefined;
  readonly fields: string[];
  /** Messages of a successful answer (gRPC, gRPC-web, Connect streams); the body of a Connect unary answer. */
  readonly messages: Uint8Array[];
}

function outcomeOf(
  code: number,
  message: string,
  details: { typeUrl: string; value: Uint8Array }[],
  messages: Uint8Array[],
): Outcome {
  let reason: string | undefined;
  const fields: string[] = [];
  for (const any of details) {
    if (any.typeUrl.endsWith("google.rpc.ErrorInfo"))
      reason = fromBinary(ErrorInfoSchema, any.value).reason;
    if (any.typeUrl.endsWith("google.rpc.BadRequest"))
      fields.push(...fromBinary(BadRequestSchema, any.value).fieldViolations.map((v) => v.field));
  }
  return { code, message, reason, fields, messages };
}

/** The enveloped messages of a body; `trailer`: the payload of a gRPC-web trailer (0x80) or Connect end-stream (0x02) frame. */
function envelopes(body: Uint8Array): { messages: Uint8Array[]; trailer: Uint8Array | undefined } {
  const buffer = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const messages: Uint8Array[] = [];
  let trailer: Uint8Array | undefined;
  for (let at = 0; at + 5 <= buffer.length; ) {
    const length = buffer.readUInt32BE(at + 1);
    const payload = buffer.subarray(at + 5, at + 5 + length);
    if ((buffer[at]! & 0x82) !== 0) trailer = payload;
    else messages.push(payload);
    at += 5 + length;
  }
  return { messages, trailer };
}

/** gRPC status from headers/trailers (HTTP/2 trailers, or gRPC-web's trailer frame parsed into the same shape). */
function grpcOutcome(
  trailers: Record<string, string | string[] | undefined>,
  messages: Uint8Array[],
): Outcome {
  const details = trailers["grpc-status-details-bin"];
  const status =
    typeof details === "string"
      ? fromBinary(StatusSchema, Buffer.from(details, "base64"))
      : undefined;
  return outcomeOf(
    Number(trailers["grpc-status"]),
    decodeURIComponent(String(trailers["grpc-message"] ?? "")),
    status?.details ?? [],
    messages,
  );
}

function webTrailers(payload: Uint8Array | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of Buffer.from(payload ?? new Uint8Array())
    .toString("latin1")
    .split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) out[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return out;
}

/** A Connect error ({code, message, details: [{type, value}]}) as an outcome. */
function connectErrorOutcome(
  error: { code: string; message?: string; details?: { type: string; value: string }[] },
  messages: Uint8Array[] = [],
): Outcome {
  const details = (error.details ?? []).map((d) => ({
    typeUrl: d.type,
    value: Buffer.from(d.value, "base64"),
  }));
  return outcomeOf(CONNECT_CODES[error.code] ?? -1, error.message ?? "", details, messages);
}

/** One call over HTTP/2 (gRPC or gRPC-web), the body already framed. */
function h2Call(
  session: ClientHttp2Session,
  method: string,
  contentType: string,
  body: Buffer,
  headers: Record<string, string> = {},
): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const req = session.request({
      ":method": "POST",
      ":path": `/${SERVICE}/${method}`,
      "content-type": contentType,
      te: "trailers",
      "a2a-version": "1.0",
      ...headers,
    });
    let head: IncomingHttpHeaders = {};
    let tail: IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    req.on("response", (h) => (head = h));
    req.on("trailers", (t) => (tail = t));
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("error", reject);
    req.on("close", () => {
      const { messages, trailer } = envelopes(Buffer.concat(chunks));
      if (head["grpc-status"] !== undefined) return resolve(grpcOutcome(head, messages));
      resolve(
        grpcOutcome(
          contentType.startsWith("application/grpc-web") && tail["grpc-status"] === undefined
            ? webTrailers(trailer)
            : tail,
          messages,
        ),
      );
    });
    req.end(body);
  });
}

/** One call over HTTP/1.1 (gRPC-web or the Connect protocol). */
async function h1Call(
  base: string,
  method: string,
  contentType: string,
  body: Uint8Array,
  headers: Record<string, string> = {},
): Promise<Outcome> {
  const res = await fetch(`${base}/${SERVICE}/${method}`, {
    method: "POST",
    headers: {
      "content-type": contentType,
      "a2a-version": "1.0",
      "connect-protocol-version": "1",
      ...headers,
    },
    body,
  });
  const bytes = new Uint8Array(await res.arrayBuffer());
  if (contentType.startsWith("application/grpc-web")) {
    const { messages, trailer } = envelopes(bytes);
    return grpcOutcome(
      res.headers.get("grpc-status") !== null
        ? Object.fromEntries(res.headers)
        : webTrailers(trailer),
      messages,
    );
  }
  if (contentType.startsWith("application/connect+")) {
    const { messages, trailer } = envelopes(bytes);
    const end = JSON.parse(Buffer.from(trailer ?? new Uint8Array()).toString() || "{}") as {
      error?: Parameters<typeof connectErrorOutcome>[0];
    };
    return end.error === undefined
      ? outcomeOf(0, "", [], messages)
      : connectErrorOutcome(end.error, messages);
  }
  if (res.status !== 200)
    return connectErrorOutcome(
      JSON.parse(Buffer.from(bytes).toString()) as Parameters<typeof connectErrorOutcome>[0],
    );
  return outcomeOf(0, "", [], [bytes]);
}

/** A path a call can take: how to send one message (`flag`, `encoding`: the message's compressed flag and the call's compression). */
interface CallPath {
  readonly name: string;
  /** Whether the message goes in an envelope (with a compressed flag): all but the Connect protocol's unary calls. */
  readonly enveloped: boolean;
  send(
    method: string,
    message: Uint8Array,
    options?: { flag?: number; encoding?: string },
  ): Promise<Outcome>;
}

describe("bad input and unencodable answers on every gRPC path", () => {
  const agent = new BadOutputAgent();
  let grpcJs: GrpcEndpoint;
  let connectGrpc: GrpcEndpoint;
  let http: Server;
  let base: string;
  const sessions: ClientHttp2Session[] = [];
  const paths: CallPath[] = [];

  beforeAll(async () => {
    grpcJs = await listenA2AServiceGrpc(agent, { logger: agent.logger });
    connectGrpc = await listenGrpc(createA2AServiceGrpcRoutes(agent, { logger: agent.logger }));
    http = createServer(
      mountConnectRoutes(
        createA2AServiceGrpcRoutes(agent, { logger: agent.logger }),
        (_req, res) => res.writeHead(404).end(),
        { prefix: "/c" },
      ),
    );
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(http.address() as AddressInfo).port}/c`;
    const h2 = (endpoint: GrpcEndpoint, contentType: string) => {
      const session = connect(`http://${endpoint.address}`);
      sessions.push(session);
      return (method: string, message: Uint8Array, o: { flag?: number; encoding?: string } = {}) =>
        h2Call(
          session,
          method,
          contentType,
          frame(message, undefined, o.flag ?? 0),
          o.encoding === undefined ? {} : { "grpc-encoding": o.encoding },
        );
    };
    paths.push(
      { name: "gRPC on grpc-js", enveloped: true, send: h2(grpcJs, "application/grpc") },
      {
        name: "gRPC on Connect (listenGrpc)",
        enveloped: true,
        send: h2(connectGrpc, "application/grpc"),
      },
      {
        name: "gRPC-web on listenGrpc (HTTP/2)",
        enveloped: true,
        send: h2(connectGrpc, "application/grpc-web+proto"),
      },
      {
        name: "gRPC-web on mountConnectRoutes (HTTP/1.1)",
        enveloped: true,
        send: (method, message, o = {}) =>
          h1Call(
            base,
            method,
            "application/grpc-web+proto",
            frame(message, undefined, o.flag ?? 0),
            o.encoding === undefined ? {} : { "grpc-encoding": o.encoding },
          ),
      },
      {
        name: "Connect protocol, binary (mountConnectRoutes)",
        enveloped: false,
        send: (method, message, o = {}) =>
          method === "SendStreamingMessage"
            ? h1Call(
                base,
                method,
                "application/connect+proto",
                frame(message, undefined, o.flag ?? 0),
                o.encoding === undefined ? {} : { "connect-content-encoding": o.encoding },
              )
            : h1Call(
                base,
                method,
                "application/proto",
                message,
                o.encoding === undefined ? {} : { "content-encoding": o.encoding },
              ),
      },
    );
  });
  afterAll(async () => {
    for (const s of sessions) s.close();
    await Promise.all([
      grpcJs.close(),
      connectGrpc.close(),
      new Promise<void>((resolve) => http.close(() => resolve())),
    ]);
  });

  const forEachPath = async (check: (path: CallPath) => Promise<void>) => {
    for (const path of paths) {
      try {
        await check(path);
      } catch (e) {
        throw new Error(`${path.name}: ${e instanceof Error ? e.message : String(e)}`, {
          cause: e,
        });
      }
    }
  };

  it("a message that does not decode: INVALID_ARGUMENT, ErrorInfo INVALID_REQUEST, no decoder text, handler not called (unary and stream)", async () => {
    await forEachPath(async (path) => {
      const calls = agent.contexts.length;
      for (const [method, type] of [
        ["GetTask", "GetTaskRequest"],
        ["SendStreamingMessage", "SendMessageRequest"],
      ] as const) {
        const answer = await path.send(method, GARBAGE);
        expect(answer).toMatchObject({
          code: 3,
          reason: "INVALID_REQUEST",
          message: `the request message is not a valid lf.a2a.v1.${type} in protobuf binary`,
        });
        expect(answer.message).not.toMatch(INTERNAL_TEXT);
      }
      expect(agent.contexts.length).toBe(calls);
    });
  });

  it("a Struct deeper than protobuf's recursion limit: INVALID_ARGUMENT, ErrorInfo INVALID_REQUEST (not INTERNAL)", async () => {
    await forEachPath(async (path) => {
      for (const method of ["SendMessage", "SendStreamingMessage"]) {
        const answer = await path.send(method, sendMessage("deep", { metadata: nested(60) }));
        expect(answer).toMatchObject({ code: 3, reason: "INVALID_REQUEST" });
        expect(answer.message).toMatch(/^the request message nests deeper than 100 message levels/);
      }
      // Within the limit (and within maxJsonDepth) it is served.
      expect(
        (await path.send("SendMessage", sendMessage("shallow", { metadata: nested(40) }))).code,
      ).toBe(0);
    });
  });

  it("a message flagged compressed in a call naming no compression: INVALID_ARGUMENT, ErrorInfo INVALID_REQUEST (unary and stream)", async () => {
    await forEachPath(async (path) => {
      if (!path.enveloped) return;
      const calls = agent.contexts.length;
      for (const [method, message] of [
        ["GetTask", getTask("t-1")],
        ["SendStreamingMessage", sendMessage("hi")],
      ] as const) {
        for (const encoding of [undefined, "identity"]) {
          const answer = await path.send(method, message, { flag: 1, encoding });
          expect(answer).toMatchObject({ code: 3, reason: "INVALID_REQUEST" });
          expect(answer.message).toMatch(/flagged compressed/);
        }
      }
      expect(agent.contexts.length).toBe(calls);
    });
  });

  it("many refused compressed-flag calls on one connection leave it serving (each refused stream is released, not left counted against maxConcurrentStreams)", async () => {
    // More than the 100 streams a connection may hold open (and node:http2's 100 rejected ones, after which it fails the session).
    await forEachPath(async (path) => {
      if (!path.enveloped) return;
      for (let i = 0; i < 250; i++)
        expect((await path.send("GetTask", getTask("t-1"), { flag: 1 })).code).toBe(3);
      expect((await path.send("SendMessage", sendMessage("still served"))).code).toBe(0);
    });
  });

  it("a message really compressed (gzip, named) is served; one whose inflated bytes do not decode is INVALID_REQUEST", async () => {
    await forEachPath(async (path) => {
      const flag = path.enveloped ? 1 : 0;
      const served = await path.send("GetTask", gzipSync(getTask("t-7")), {
        flag,
        encoding: "gzip",
      });
      expect(served.code).toBe(0);
      expect(fromBinary(TaskSchema, served.messages[0]!).id).toBe("t-7");
      const bad = await path.send("GetTask", gzipSync(GARBAGE), { flag, encoding: "gzip" });
      expect(bad).toMatchObject({ code: 3, reason: "INVALID_REQUEST" });
    });
  });

  it("an answer that cannot be encoded: the generic INTERNAL with ErrorInfo INTERNAL, its text only logged (unary and stream)", async () => {
    await forEachPath(async (path) => {
      const logged = agent.logged.length;
      const unary = await path.send("SendMessage", sendMessage("unencodable"));
      expect(unary).toMatchObject({ code: 13, reason: "INTERNAL", message: "Internal error" });
      const stream = await path.send("SendStreamingMessage", sendMessage("unencodable"));
      // The event before it was delivered; then the stream ends with the same error.
      expect(stream).toMatchObject({ code: 13, reason: "INTERNAL", message: "Internal error" });
      expect(stream.messages).toHaveLength(1);
      expect(agent.logged.length).toBe(logged + 2);
      expect(String(agent.logged.at(-1))).toMatch(/cannot encode/);
    });
  });

  it("the Connect protocol's JSON is judged as the HTTP+JSON binding judges a body, with ErrorInfo: too deep, not JSON, not the message", async () => {
    const json = (method: string, body: string) =>
      h1Call(base, method, "application/json", Buffer.from(body));
    const deep = await json(
      "SendMessage",
      `{"message":{"messageId":"m-1","role":"ROLE_USER","parts":[{"text":"x"}],"metadata":${'{"n":'.repeat(100)}1${"}".repeat(100)}}}`,
    );
    expect(deep).toMatchObject({
      code: 3,
      reason: "INVALID_REQUEST",
      message: "the request body nests deeper than 64 levels (maxJsonDepth)",
    });
    expect(await json("GetTask", "{not json")).toMatchObject({ code: 3, reason: "JSON_PARSE" });
    const wrong = await json("GetTask", `{"id": 5}`);
    expect(wrong).toMatchObject({ code: 3, reason: "INVALID_PARAMS" });
    expect(wrong.message).toMatch(/^Invalid parameters: .*GetTaskRequest\.id/);
    // At the limit (the whole body 62 levels deep) it is served; so is JSON with a charset.
    const atLimit = JSON.stringify({
      message: {
        messageId: "m-2",
        role: "ROLE_USER",
        parts: [{ text: "x" }],
        metadata: nested(60),
      },
    });
    expect((await json("SendMessage", atLimit)).code).toBe(0);
    expect(
      (
        await h1Call(
          base,
          "GetTask",
          "application/json; charset=utf-8",
          Buffer.from(`{"id":"t-9"}`),
        )
      ).code,
    ).toBe(0);
  });

  it("a NaN in an answer: no ProtoJSON form, so the Connect protocol's JSON gets the generic INTERNAL (text logged); binary carries it", async () => {
    const logged = agent.logged.length;
    const json = await h1Call(
      base,
      "SendMessage",
      "application/json",
      Buffer.from(
        JSON.stringify({
          message: { messageId: "m-1", role: "ROLE_USER", parts: [{ text: "nan" }] },
        }),
      ),
    );
    expect(json).toMatchObject({ code: 13, reason: "INTERNAL", message: "Internal error" });
    expect(json.message).not.toMatch(INTERNAL_TEXT);
    expect(agent.logged.length).toBe(logged + 1);
    await forEachPath(async (path) => {
      const binary = await path.send("SendMessage", sendMessage("nan"));
      expect(binary.code).toBe(0);
      const answer = fromBinary(SendMessageResponseSchema, binary.messages[0]!);
      expect(
        answer.payload.case === "message" && Number.isNaN(answer.payload.value.metadata?.["n"]),
      ).toBe(true);
    });
  });
});

describe("a NaN or +Infinity sent in binary over gRPC is refused and the task list keeps serving (both stacks, then JSON-RPC)", () => {
  const executor: A2AServiceExecutor = {
    async execute(_context, emitter) {
      await emitter.complete();
    },
  };
  const handler: A2AServiceHandler<unknown> = createA2ATaskHandler({ executor });
  const quiet = { error() {} };
  let grpcJs: GrpcEndpoint;
  let connectGrpc: GrpcEndpoint;
  let jsonrpc: Listening;
  beforeAll(async () => {
    grpcJs = await listenA2AServiceGrpc(handler, { logger: quiet });
    connectGrpc = await listenGrpc(createA2AServiceGrpcRoutes(handler, { logger: quiet }));
    jsonrpc = await listen(createA2AServiceJsonRpcServer(handler, { logger: quiet }).node);
  });
  afterAll(async () => {
    await Promise.all([grpcJs.close(), connectGrpc.close(), jsonrpc.close()]);
  });

  const rpc = async (method: string, params: unknown) => {
    const res = await fetch(jsonrpc.url, {
      method: "POST",
      headers: { "content-type": "application/json", "a2a-version": "1.0" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });
    return (await res.json()) as {
      result?: { id?: string; tasks?: { id: string }[] };
      error?: { code: number; message: string };
    };
  };

  const poisons: [string, Record<string, unknown>, string][] = [
    ["NaN in message.metadata", { metadata: { n: Number.NaN } }, "message.metadata.n"],
    [
      "+Infinity in message.metadata",
      { metadata: { deep: { list: [1, Number.POSITIVE_INFINITY] } } },
      "message.metadata.deep.list[1]",
    ],
    [
      "NaN in Part.data",
      {
        parts: [
          {
            content: {
              case: "data",
              value: create(ValueSchema, { kind: { case: "numberValue", value: Number.NaN } }),
            },
          },
        ],
      },
      "message.parts[0].data",
    ],
    [
      "+Infinity in Part.data",
      {
        parts: [
          {
            content: {
              case: "data",
              value: create(ValueSchema, {
                kind: { case: "numberValue", value: Number.POSITIVE_INFINITY },
              }),
            },
          },
        ],
      },
      "message.parts[0].data",
    ],
  ];

  for (const stack of ["grpc-js", "Connect"] as const) {
    it(`${stack}: each is INVALID_ARGUMENT, ErrorInfo INVALID_PARAMS, a BadRequest naming the field; nothing stored; GetTask and ListTasks serve on gRPC and JSON-RPC`, async () => {
      const session = connect(`http://${(stack === "grpc-js" ? grpcJs : connectGrpc).address}`);
      try {
        for (const [what, extra, field] of poisons) {
          const answer = await h2Call(
            session,
            "SendMessage",
            "application/grpc",
            frame(sendMessage(`poison ${what}`, extra)),
          );
          expect(answer, what).toMatchObject({
            code: 3,
            reason: "INVALID_PARAMS",
            fields: [field],
          });
          expect(answer.message, what).toMatch(/not a finite number|NaN|Infinity|finite/i);
        }
        // A good task, then the reads a poisoned store broke.
        const sent = await h2Call(
          session,
          "SendMessage",
          "application/grpc",
          frame(sendMessage(`fine on ${stack}`)),
        );
        expect(sent.code).toBe(0);
        const response = fromBinary(SendMessageResponseSchema, sent.messages[0]!);
        const id = response.payload.case === "task" ? response.payload.value.id : "";
        expect(id).not.toBe("");
        const got = await h2Call(session, "GetTask", "application/grpc", frame(getTask(id)));
        expect(got.code).toBe(0);
        const listed = await h2Call(
          session,
          "ListTasks",
          "application/grpc",
          frame(toBinary(ListTasksRequestSchema, create(ListTasksRequestSchema))),
        );
        expect(listed.code).toBe(0);
        const tasks = fromBinary(ListTasksResponseSchema, listed.messages[0]!).tasks;
        expect(tasks.map((t) => t.id)).toContain(id);
        // No task holds a poisoned message: every one of them is JSON-encodable on the JSON bindings.
        expect(tasks.every((t) => t.history.every((m) => !firstText(m).startsWith("poison")))).toBe(
          true,
        );
        expect((await rpc("GetTask", { id })).result?.id).toBe(id);
        const list = await rpc("ListTasks", {});
        expect(list.error).toBeUndefined();
        expect(list.result?.tasks?.map((t) => t.id)).toContain(id);
      } finally {
        session.close();
      }
    });
  }

  it("the refused requests never reached the executor: no task was created for them", async () => {
    const list = await rpc("ListTasks", {});
    expect(list.result?.tasks).toHaveLength(2);
  });
});
