/**
 * Interop of the gRPC binding over real sockets (127.0.0.1, h2c):
 *
 *   a. a plain `@grpc/grpc-js` client, built at test time from proto/a2a.proto with
 *      `@grpc/proto-loader`, against OUR server; status details decoded here with
 *      protobufjs from third_party/googleapis/google/rpc/*.proto (independent of the
 *      protobuf-es code our server uses to write them);
 *   b. `@a2a-js/sdk` 1.3.0's gRPC client (ClientFactory + GrpcTransportFactory, card from
 *      /.well-known/agent-card.json) against OUR server;
 *   c. OUR generated gRPC client against the SDK's `grpcService` on a grpc-js Server.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import protobuf from "protobufjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Role as SdkRole, TaskState as SdkTaskState } from "@a2a-js/sdk";
import { ClientFactory, ClientFactoryOptions, type Client as SdkClient } from "@a2a-js/sdk/client";
import { GrpcTransportFactory } from "@a2a-js/sdk/client/grpc";
import {
  A2AError as SdkA2AError,
  TaskNotFoundError as SdkTaskNotFoundError,
} from "@a2a-js/sdk/errors";
import { isGrpcError } from "@a2a-js/sdk/errors/grpc";
import { A2AService as SdkA2AService, UserBuilder, grpcService } from "@a2a-js/sdk/server/grpc";
import { Role, TaskState } from "../../../generated-example/gen/a2a_pb.js";
import { A2AServiceGrpcClient } from "../../../generated-example/gen/a2a_a2a_grpc_client.js";
import { listenA2AServiceGrpc } from "../../../generated-example/gen/a2a_a2a_grpc_server.js";
import {
  TaskNotCancelableError,
  TaskNotFoundError,
  VersionNotSupportedError,
} from "../../../generated-example/gen/a2a_a2a_errors.js";
import type { GrpcEndpoint } from "@protoc-gen-a2a/runtime/grpc";
import { TestAgent } from "../../support/test-agent.js";
import { listen, type Listening } from "../../support/servers.js";
import {
  SDK_ECHO_SKILL,
  SdkEchoExecutor,
  agentCardListener,
  isSdkMessage,
  ourGrpcAgentCard,
  sdkAgentCard,
  sdkFirstText,
  sdkRequestHandler,
  sdkSend,
} from "../../support/sdk-agent.js";
import { repoRoot } from "../../support/repo-root.js";

const root = repoRoot;
const INCLUDE_DIRS = [
  join(root, "proto"),
  join(root, "third_party", "googleapis"),
  join(root, "node_modules", "google-proto-files"),
];

// ---------------------------------------------------------------------------------------
// google.rpc.Status decoding with protobufjs (not the protobuf-es code of our runtime)
// ---------------------------------------------------------------------------------------

/** As protobufjs decodes it with `keepCase` (proto field names). */
interface DecodedStatus {
  code: number;
  message: string;
  details: { type_url: string; value: Uint8Array }[];
}
interface DecodedErrorInfo {
  reason: string;
  domain: string;
  metadata: Record<string, string>;
}
interface DecodedBadRequest {
  field_violations: { field: string; description: string }[];
}

const rpcRoot = new protobuf.Root();
rpcRoot.resolvePath = (_origin, target) =>
  INCLUDE_DIRS.map((d) => join(d, target)).find((p) => existsSync(p)) ?? target;
rpcRoot.loadSync(["google/rpc/status.proto", "google/rpc/error_details.proto"], { keepCase: true });
const StatusType = rpcRoot.lookupType("google.rpc.Status");
const ErrorInfoType = rpcRoot.lookupType("google.rpc.ErrorInfo");
const BadRequestType = rpcRoot.lookupType("google.rpc.BadRequest");
const asObject = <T>(type: protobuf.Type, bytes: Uint8Array): T =>
  type.toObject(type.decode(bytes), {
    defaults: true,
    bytes: Buffer as unknown as typeof String,
  }) as T;

/** The `grpc-status-details-bin` trailer of a grpc-js ServiceError, decoded. */
function statusDetails(err: grpc.ServiceError): {
  status: DecodedStatus;
  errorInfo: DecodedErrorInfo[];
  badRequest: DecodedBadRequest[];
} {
  const raw = err.metadata.get("grpc-status-details-bin");
  expect(raw, "grpc-status-details-bin trailer").toHaveLength(1);
  const bin = raw[0];
  if (!Buffer.isBuffer(bin))
    throw new Error(`grpc-status-details-bin is not binary: ${String(bin)}`);
  const status = asObject<DecodedStatus>(StatusType, bin);
  const errorInfo = status.details
    .filter((d) => d.type_url === "type.googleapis.com/google.rpc.ErrorInfo")
    .map((d) => asObject<DecodedErrorInfo>(ErrorInfoType, d.value));
  const badRequest = status.details
    .filter((d) => d.type_url === "type.googleapis.com/google.rpc.BadRequest")
    .map((d) => asObject<DecodedBadRequest>(BadRequestType, d.value));
  return { status, errorInfo, badRequest };
}

// ---------------------------------------------------------------------------------------
// a. grpc-js (proto-loader) client → our server
// ---------------------------------------------------------------------------------------

type UnaryFn = (
  req: object,
  md: grpc.Metadata,
  opts: grpc.CallOptions,
  cb: (err: grpc.ServiceError | null, res: unknown) => void,
) => grpc.ClientUnaryCall;
type StreamFn = (
  req: object,
  md: grpc.Metadata,
  opts?: grpc.CallOptions,
) => grpc.ClientReadableStream<unknown>;

/** The A2AService client class from a2a.proto, loaded at test time. */
function loadA2AServiceClient(): grpc.ServiceClientConstructor {
  const definition = protoLoader.loadSync("a2a.proto", {
    includeDirs: INCLUDE_DIRS,
    keepCase: false,
    longs: String,
    enums: String,
    defaults: true,
    oneofs: true,
  });
  const pkg = grpc.loadPackageDefinition(definition) as unknown as {
    lf: { a2a: { v1: { A2AService: grpc.ServiceClientConstructor } } };
  };
  return pkg.lf.a2a.v1.A2AService;
}

function metadata(entries: Record<string, string> = { "a2a-version": "1.0" }): grpc.Metadata {
  const md = new grpc.Metadata();
  for (const [k, v] of Object.entries(entries)) md.set(k, v);
  return md;
}

/** A unary call: resolves with the response (and the initial metadata), rejects with the ServiceError. */
function unary<T>(
  client: grpc.Client,
  method: string,
  request: object,
  md = metadata(),
): Promise<{ response: T; headers: grpc.Metadata }> {
  return new Promise((resolve, reject) => {
    let headers = new grpc.Metadata();
    const fn = (client as unknown as Record<string, UnaryFn>)[method];
    if (fn === undefined) throw new Error(`no method ${method}`);
    const call = fn.call(client, request, md, { deadline: Date.now() + 5000 }, (err, res) =>
      err ? reject(err) : resolve({ response: res as T, headers }),
    );
    call.on("metadata", (m) => (headers = m));
  });
}

async function serviceError(promise: Promise<unknown>): Promise<grpc.ServiceError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (err === undefined || typeof (err as { code?: unknown }).code !== "number")
    throw new Error(`expected a gRPC error, got ${String(err)}`);
  return err as grpc.ServiceError;
}

/** A SendMessageRequest as proto-loader plain objects (enum names as strings, oneof members by name). */
const plainSend = (text: string) => ({
  message: { messageId: `pl-${text}`, role: "ROLE_USER", parts: [{ text }] },
});

interface PlainPart {
  content?: string;
  text?: string;
}
interface PlainMessage {
  messageId: string;
  role: string;
  parts: PlainPart[];
}
interface PlainTask {
  id: string;
  contextId: string;
  status: { state: string; timestamp: { seconds: string; nanos: number } | null };
  history: PlainMessage[];
}
interface PlainSendMessageResponse {
  payload?: string;
  task?: PlainTask | null;
  message?: PlainMessage | null;
}
interface PlainStreamResponse {
  payload?: string;
  task?: PlainTask | null;
  statusUpdate?: { taskId: string; status: { state: string } } | null;
  artifactUpdate?: {
    taskId: string;
    lastChunk: boolean;
    artifact: { artifactId: string; parts: PlainPart[] };
  } | null;
}

describe("a. @grpc/grpc-js + proto-loader client → our gRPC server (h2c)", () => {
  const agent = new TestAgent();
  let endpoint: GrpcEndpoint;
  let client: grpc.Client;

  beforeAll(async () => {
    endpoint = await listenA2AServiceGrpc(agent, { logger: { error() {} } });
    const A2AServiceClient = loadA2AServiceClient();
    client = new A2AServiceClient(endpoint.address, grpc.credentials.createInsecure());
  });
  afterAll(async () => {
    client?.close();
    await endpoint?.close();
  });

  it("SendMessage → Message (echo) and → Task, with a2a-version metadata seen by the handler", async () => {
    const { response, headers } = await unary<PlainSendMessageResponse>(
      client,
      "sendMessage",
      plainSend("hello"),
    );
    expect(response.payload).toBe("message");
    expect(response.message?.role).toBe("ROLE_AGENT");
    expect(response.message?.messageId).toBe("reply-hello");
    expect(response.message?.parts[0]).toMatchObject({ content: "text", text: "hello" });
    expect(String(headers.get("content-type")[0])).toMatch(/^application\/grpc(\+proto)?$/);
    const ctx = agent.contexts.at(-1)!;
    expect(ctx.binding).toBe("GRPC");
    expect(ctx.operation).toBe("SendMessage");
    expect(ctx.requestedVersion).toBe("1.0");

    const task = await unary<PlainSendMessageResponse>(client, "sendMessage", plainSend("task"));
    expect(task.response.payload).toBe("task");
    expect(task.response.task).toMatchObject({
      id: "t-1",
      contextId: "c-1",
      status: { state: "TASK_STATE_COMPLETED", timestamp: { seconds: "1700000000", nanos: 0 } },
    });
    expect(task.response.task?.history[0]).toMatchObject({
      role: "ROLE_USER",
      parts: [{ text: "hello" }],
    });
  });

  it("GetTask", async () => {
    const { response } = await unary<PlainTask>(client, "getTask", {
      id: "t-42",
      historyLength: 1,
    });
    expect(response.id).toBe("t-42");
    expect(response.status.state).toBe("TASK_STATE_WORKING");
    expect(agent.contexts.at(-1)?.operation).toBe("GetTask");
  });

  it("SendStreamingMessage streams task, statusUpdate, artifactUpdate, statusUpdate", async () => {
    const call = (client as unknown as Record<string, StreamFn>)["sendStreamingMessage"]!.call(
      client,
      plainSend("streamed"),
      metadata(),
      { deadline: Date.now() + 5000 },
    );
    const events: PlainStreamResponse[] = [];
    for await (const e of call) events.push(e as PlainStreamResponse);
    expect(events.map((e) => e.payload)).toEqual([
      "task",
      "statusUpdate",
      "artifactUpdate",
      "statusUpdate",
    ]);
    expect(events[0]?.task?.status.state).toBe("TASK_STATE_SUBMITTED");
    expect(events[1]?.statusUpdate).toMatchObject({
      taskId: "t-2",
      status: { state: "TASK_STATE_WORKING" },
    });
    expect(events[2]?.artifactUpdate).toMatchObject({
      taskId: "t-2",
      lastChunk: true,
      artifact: { artifactId: "a-1", parts: [{ text: "streamed" }] },
    });
    expect(events[3]?.statusUpdate?.status.state).toBe("TASK_STATE_COMPLETED");
  });

  it("GetTask of an unknown id → NOT_FOUND with a google.rpc.Status holding ErrorInfo TASK_NOT_FOUND", async () => {
    const err = await serviceError(unary(client, "getTask", { id: "missing" }));
    expect(err.code).toBe(grpc.status.NOT_FOUND);
    expect(err.details).toBe("Task missing not found");
    const { status, errorInfo, badRequest } = statusDetails(err);
    expect(status.code).toBe(5);
    expect(status.message).toBe("Task missing not found");
    expect(status.details[0]?.type_url).toBe("type.googleapis.com/google.rpc.ErrorInfo");
    expect(errorInfo).toEqual([
      { reason: "TASK_NOT_FOUND", domain: "a2a-protocol.org", metadata: { taskId: "missing" } },
    ]);
    expect(badRequest).toEqual([]);
  });

  it("a missing REQUIRED field → INVALID_ARGUMENT with ErrorInfo INVALID_PARAMS and a google.rpc.BadRequest", async () => {
    const before = agent.contexts.length;
    const err = await serviceError(unary(client, "getTask", { id: "" }));
    expect(err.code).toBe(grpc.status.INVALID_ARGUMENT);
    const { status, errorInfo, badRequest } = statusDetails(err);
    expect(status.code).toBe(3);
    expect(errorInfo[0]).toMatchObject({ reason: "INVALID_PARAMS", domain: "a2a-protocol.org" });
    expect(badRequest).toHaveLength(1);
    expect(
      badRequest[0]?.field_violations.map(({ field, description }) => ({ field, description })),
    ).toEqual([{ field: "id", description: "id is required" }]);

    // nested: a message without messageId, role and parts
    const nested = await serviceError(
      unary(client, "sendMessage", { message: { contextId: "c" } }),
    );
    expect(nested.code).toBe(grpc.status.INVALID_ARGUMENT);
    const fields = statusDetails(nested).badRequest[0]?.field_violations.map((v) => v.field);
    expect(fields).toEqual(
      expect.arrayContaining(["message.messageId", "message.role", "message.parts"]),
    );
    // the handler never ran for either call
    expect(agent.contexts.length).toBe(before);
  });

  it("an unknown method → UNIMPLEMENTED for a grpc-js client", async () => {
    const err = await serviceError(
      new Promise((resolve, reject) =>
        client.makeUnaryRequest(
          "/lf.a2a.v1.A2AService/NoSuchMethod",
          (b: Buffer) => b,
          (b: Buffer) => b,
          Buffer.alloc(0),
          metadata(),
          { deadline: Date.now() + 5000 },
          (e, r) => (e ? reject(e) : resolve(r)),
        ),
      ),
    );
    expect(err.code).toBe(grpc.status.UNIMPLEMENTED);
  });

  it("a2a-version 9.9 → FAILED_PRECONDITION with ErrorInfo VERSION_NOT_SUPPORTED", async () => {
    const before = agent.contexts.length;
    const err = await serviceError(
      unary(client, "getTask", { id: "t-1" }, metadata({ "a2a-version": "9.9" })),
    );
    expect(err.code).toBe(grpc.status.FAILED_PRECONDITION);
    expect(err.details).toContain("9.9");
    const { status, errorInfo } = statusDetails(err);
    expect(status.code).toBe(9);
    expect(errorInfo[0]).toMatchObject({
      reason: "VERSION_NOT_SUPPORTED",
      domain: "a2a-protocol.org",
      metadata: { requestedVersion: "9.9" },
    });
    expect(agent.contexts.length).toBe(before);
  });
});

/** Closes the grpc-js channel inside an SDK client (the SDK exposes no close()). */
function closeSdkClient(client: SdkClient | undefined): void {
  (client?.transport as unknown as { grpcClient?: grpc.Client } | undefined)?.grpcClient?.close();
}

// ---------------------------------------------------------------------------------------
// b. @a2a-js/sdk gRPC client → our server
// ---------------------------------------------------------------------------------------

describe("b. @a2a-js/sdk GrpcTransportFactory client → our gRPC server", () => {
  const agent = new TestAgent();
  let endpoint: GrpcEndpoint;
  let cardServer: Listening;
  let client: SdkClient;
  const cardRequests: string[] = [];

  beforeAll(async () => {
    endpoint = await listenA2AServiceGrpc(agent, { logger: { error() {} } });
    const card = ourGrpcAgentCard(
      "Our gRPC agent",
      "our server, seen by the a2a-js gRPC client",
      endpoint.address,
    );
    const serveCard = agentCardListener(() => card);
    cardServer = await listen((req, res) => {
      cardRequests.push(`${req.method} ${req.url}`);
      serveCard(req, res);
    });
    const factory = new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        transports: [new GrpcTransportFactory()],
        preferredTransports: ["GRPC"],
      }),
    );
    client = await factory.createFromUrl(`http://127.0.0.1:${cardServer.port}`);
  });
  afterAll(async () => {
    closeSdkClient(client);
    await cardServer?.close();
    await endpoint?.close();
  });

  it("reads the card and selects our GRPC 1.0 interface", () => {
    expect(cardRequests).toEqual(["GET /.well-known/agent-card.json"]);
    expect(client.transport.protocolName).toBe("GRPC");
    expect(client.protocolVersion).toBe("1.0");
  });

  it("sendMessage → Message (echo), a2a-version 1.0 reaches our handler", async () => {
    const result = await client.sendMessage(sdkSend("hello"));
    if (!isSdkMessage(result)) throw new Error(`expected a Message, got ${JSON.stringify(result)}`);
    expect(result.messageId).toBe("reply-hello");
    expect(result.role).toBe(SdkRole.ROLE_AGENT);
    expect(sdkFirstText(result.parts)).toBe("hello");
    const ctx = agent.contexts.at(-1)!;
    expect(ctx.binding).toBe("GRPC");
    expect(ctx.requestedVersion).toBe("1.0");
  });

  it("sendMessage → Task", async () => {
    const result = await client.sendMessage(sdkSend("task"));
    if (isSdkMessage(result)) throw new Error(`expected a Task, got ${JSON.stringify(result)}`);
    expect(result.id).toBe("t-1");
    expect(result.contextId).toBe("c-1");
    expect(result.status?.state).toBe(SdkTaskState.TASK_STATE_COMPLETED);
    // ts-proto over gRPC: Timestamp as an ISO string
    expect(Date.parse(String(result.status?.timestamp))).toBe(1_700_000_000_000);
    expect(sdkFirstText(result.history[0]?.parts)).toBe("hello");
  });

  it("sendMessageStream yields task, statusUpdate, artifactUpdate, statusUpdate", async () => {
    const events = [];
    for await (const e of client.sendMessageStream(sdkSend("stream me"))) events.push(e.payload);
    expect(events.map((p) => p?.$case)).toEqual([
      "task",
      "statusUpdate",
      "artifactUpdate",
      "statusUpdate",
    ]);
    const artifact = events[2];
    if (artifact?.$case !== "artifactUpdate")
      throw new Error("third event is not an artifactUpdate");
    expect(artifact.value.artifact?.artifactId).toBe("a-1");
    expect(artifact.value.lastChunk).toBe(true);
    expect(sdkFirstText(artifact.value.artifact?.parts)).toBe("stream me");
    const last = events[3];
    expect(last?.$case === "statusUpdate" && last.value.status?.state).toBe(
      SdkTaskState.TASK_STATE_COMPLETED,
    );
  });

  it("getTask and cancelTask", async () => {
    const task = await client.getTask({ tenant: "", id: "t-7", historyLength: 1 });
    expect(task.id).toBe("t-7");
    expect(task.status?.state).toBe(SdkTaskState.TASK_STATE_WORKING);
    expect(agent.contexts.at(-1)?.operation).toBe("GetTask");
    const canceled = await client.cancelTask({ tenant: "", id: "t-8", metadata: undefined });
    expect(canceled.id).toBe("t-8");
    expect(canceled.status?.state).toBe(SdkTaskState.TASK_STATE_CANCELED);
    expect(agent.contexts.at(-1)?.operation).toBe("CancelTask");
  });

  it("getTask of an unknown id → the SDK's TaskNotFoundError (rebuilt from our ErrorInfo)", async () => {
    const err = await client
      .getTask({ tenant: "", id: "missing", historyLength: undefined })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SdkTaskNotFoundError);
    if (!(err instanceof SdkA2AError) || !isGrpcError(err))
      throw new Error(`not an SDK gRPC error: ${String(err)}`);
    expect(err.status).toBe(5);
    expect(err.reason).toBe("TASK_NOT_FOUND");
    expect(err.message).toBe("Task missing not found");
    expect(err.metadata).toEqual({ taskId: "missing" });
  });
});

// ---------------------------------------------------------------------------------------
// c. our client → @a2a-js/sdk grpcService on grpc-js
// ---------------------------------------------------------------------------------------

describe("c. our generated gRPC client → @a2a-js/sdk grpcService on @grpc/grpc-js", () => {
  let server: grpc.Server;
  let client: A2AServiceGrpcClient;
  let address = "";
  let completedTaskId = "";

  beforeAll(async () => {
    const card = sdkAgentCard({
      name: "SDK gRPC echo",
      description: "the a2a-js reference gRPC server",
      url: "127.0.0.1:0",
      protocolBinding: "GRPC",
      skills: [SDK_ECHO_SKILL],
    });
    const requestHandler = sdkRequestHandler(card, new SdkEchoExecutor());
    server = new grpc.Server();
    server.addService(
      SdkA2AService,
      grpcService({ requestHandler, userBuilder: UserBuilder.noAuthentication }),
    );
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, p) =>
        e ? reject(e) : resolve(p),
      ),
    );
    address = `127.0.0.1:${port}`;
    client = new A2AServiceGrpcClient({ address, timeoutMs: 5000 });
  });
  afterAll(() => server?.forceShutdown());

  const ours = (text: string) => ({
    message: {
      messageId: `ours-${text}`,
      role: Role.USER,
      parts: [{ content: { case: "text" as const, value: text } }],
    },
  });

  it("sendMessage → Message (echo)", async () => {
    const res = await client.sendMessage(ours("hello"));
    if (res.payload.case !== "message")
      throw new Error(`expected a message, got ${res.payload.case}`);
    expect(res.payload.value.role).toBe(Role.AGENT);
    expect(res.payload.value.messageId).toBe("sdk-reply-ours-hello");
    expect(res.payload.value.parts[0]?.content).toEqual({ case: "text", value: "hello" });
    expect(res.payload.value.contextId).not.toBe("");
  });

  it("sendMessage → Task run to COMPLETED, then getTask returns it", async () => {
    const res = await client.sendMessage(ours("task"));
    if (res.payload.case !== "task") throw new Error(`expected a task, got ${res.payload.case}`);
    const task = res.payload.value;
    expect(task.id).not.toBe("");
    expect(task.status?.state).toBe(TaskState.COMPLETED);
    expect(task.status?.timestamp?.seconds).toBeGreaterThan(1_700_000_000n);
    completedTaskId = task.id;
    const fetched = await client.getTask({ id: task.id });
    expect(fetched.id).toBe(task.id);
    expect(fetched.status?.state).toBe(TaskState.COMPLETED);
    expect(fetched.history[0]?.parts[0]?.content).toEqual({ case: "text", value: "task" });
    expect(fetched.artifacts.map((a) => a.artifactId)).toEqual(["sdk-a-1"]);
  });

  it("sendStreamingMessage yields task, statusUpdate, artifactUpdate, statusUpdate", async () => {
    const events = [];
    for await (const e of client.sendStreamingMessage(ours("task"))) events.push(e.payload);
    expect(events.map((p) => p.case)).toEqual([
      "task",
      "statusUpdate",
      "artifactUpdate",
      "statusUpdate",
    ]);
    const [task, working, artifact, completed] = events;
    expect(task?.case === "task" && task.value.status?.state).toBe(TaskState.SUBMITTED);
    expect(working?.case === "statusUpdate" && working.value.status?.state).toBe(TaskState.WORKING);
    expect(
      artifact?.case === "artifactUpdate" && artifact.value.artifact?.parts[0]?.content,
    ).toEqual({ case: "text", value: "artifact text" });
    expect(completed?.case === "statusUpdate" && completed.value.status?.state).toBe(
      TaskState.COMPLETED,
    );
  });

  it("cancelTask of a WORKING task → CANCELED; of a COMPLETED task → TaskNotCancelableError", async () => {
    const held = await client.sendMessage(ours("hold"));
    if (held.payload.case !== "task") throw new Error(`expected a task, got ${held.payload.case}`);
    expect(held.payload.value.status?.state).toBe(TaskState.WORKING);
    const canceled = await client.cancelTask({ id: held.payload.value.id });
    expect(canceled.id).toBe(held.payload.value.id);
    expect(canceled.status?.state).toBe(TaskState.CANCELED);
    expect(completedTaskId).not.toBe("");
    await expect(client.cancelTask({ id: completedTaskId })).rejects.toBeInstanceOf(
      TaskNotCancelableError,
    );
  });

  it("getTask of an unknown id → our TaskNotFoundError; the SDK's trailer carries ErrorInfo TASK_NOT_FOUND", async () => {
    const err = await client.getTask({ id: "no-such-task" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TaskNotFoundError);
    expect((err as TaskNotFoundError).message).toContain("no-such-task");
    // What the SDK put on the wire, read with plain grpc-js: ErrorInfo with the reason, so our class
    // comes from the reason (NOT_FOUND alone would give the same class; the reason path is what
    // TaskNotCancelableError above proves, FAILED_PRECONDITION being shared by several errors).
    const raw = new (loadA2AServiceClient())(address, grpc.credentials.createInsecure());
    try {
      const wire = await serviceError(unary(raw, "getTask", { id: "no-such-task" }));
      expect(wire.code).toBe(grpc.status.NOT_FOUND);
      const { status, errorInfo } = statusDetails(wire);
      expect(status.code).toBe(5);
      // SDK deviation: its ErrorInfo has no metadata (ours carries {taskId}); message "Task not found: <id>".
      expect(errorInfo).toEqual([
        { reason: "TASK_NOT_FOUND", domain: "a2a-protocol.org", metadata: {} },
      ]);
    } finally {
      raw.close();
    }
    expect((err as TaskNotFoundError).metadata).toEqual({});
  });

  it("a2a-version 0.3 (not in the SDK's card) → our VersionNotSupportedError", async () => {
    const old = new A2AServiceGrpcClient({ address, version: "0.3", timeoutMs: 5000 });
    await expect(old.getTask({ id: completedTaskId })).rejects.toBeInstanceOf(
      VersionNotSupportedError,
    );
  });
});
