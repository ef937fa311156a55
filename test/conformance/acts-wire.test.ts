/**
 * The ACTS runner's place on the wire (test/support/acts): the strict ProtoJSON and binary
 * checks (strict-proto.ts), the binding judges (wire-judge.ts), the spec error table
 * (spec-errors.ts) against the generated error classes, the recording/mutating proxy
 * (wire-tap.ts, against real node:http and node:http2 upstreams on 127.0.0.1) and the
 * runner's webhook. Table-driven; each row is a way an agent can be wrong (or right).
 */
import { connect, createServer as createH2Server, type ServerHttp2Stream } from "node:http2";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import {
  create,
  createRegistry,
  fromJson,
  toBinary,
  type DescMessage,
  type JsonValue as PbJson,
} from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AgentCardSchema,
  ListTasksResponseSchema,
  SendMessageResponseSchema,
  StreamResponseSchema,
  TaskSchema,
} from "../../generated-example/gen/a2a_pb.js";
import { StatusSchema } from "../../generated-example/gen/google/rpc/status_pb.js";
import { file_google_rpc_error_details } from "../../generated-example/gen/google/rpc/error_details_pb.js";
import { errorSpecs } from "../../generated-example/gen/a2a_a2a_errors.js";
import type { Binding, JsonObject, JsonValue } from "../support/acts/client.js";
import { GRPC_CODES, SPEC_ERRORS, specErrorByName } from "../support/acts/spec-errors.js";
import { binaryAsJson, checkProtoBinary, checkProtoJson } from "../support/acts/strict-proto.js";
import {
  judgeExchange,
  judgeRawResponse,
  parseSse,
  restRouteOf,
} from "../support/acts/wire-judge.js";
import {
  END_STREAM,
  EXCHANGE_HEADER,
  startWireTap,
  type WireExchange,
  type WireTap,
} from "../support/acts/wire-tap.js";
import { startRunnerWebhook } from "../support/acts/webhook.js";
import { listen, type Listening } from "../support/servers.js";

const S = (s: string) => `TASK_STATE_${s}`;
const TASK: JsonObject = {
  id: "t",
  contextId: "c",
  status: { state: S("COMPLETED"), timestamp: "2026-01-02T03:04:05.678Z" },
  artifacts: [{ artifactId: "a", parts: [{ text: "x" }] }],
};
const CARD: JsonObject = {
  name: "n",
  description: "d",
  supportedInterfaces: [
    { url: "http://127.0.0.1/a2a", protocolBinding: "JSONRPC", protocolVersion: "1.0" },
  ],
  version: "1",
  capabilities: {},
  defaultInputModes: ["text/plain"],
  defaultOutputModes: ["text/plain"],
  skills: [],
};
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}
const messages = (violations: readonly { path: string; message: string }[]) =>
  violations.map((v) => `${v.path}: ${v.message}`);

// ---------------------------------------------------------------------------------------------
// strict-proto.ts
// ---------------------------------------------------------------------------------------------

describe("checkProtoJson", () => {
  const rows: readonly [string, DescMessage, JsonValue, readonly (string | RegExp)[]][] = [
    ["a valid task", TaskSchema, TASK, []],
    ["a valid card with no skills (K11)", AgentCardSchema, CARD, []],
    [
      "the last page: nextPageToken empty but present, no tasks",
      ListTasksResponseSchema,
      { tasks: [], nextPageToken: "", pageSize: 50, totalSize: 0 },
      [],
    ],
    [
      "nextPageToken left out",
      ListTasksResponseSchema,
      { tasks: [], pageSize: 50, totalSize: 0 },
      ["nextPageToken: REQUIRED field nextPageToken is missing (§5.7)"],
    ],
    [
      "an unknown field",
      TaskSchema,
      { ...TASK, unexpected_field: 1 },
      ['unexpected_field: unknown field "unexpected_field" (lf.a2a.v1.Task has no such field)'],
    ],
    [
      "a proto (snake_case) name",
      TaskSchema,
      { id: "t", context_id: "c", status: { state: S("WORKING") } },
      ['context_id: proto field name "context_id"; JSON uses "contextId" (§5.5)'],
    ],
    [
      "an enum as a number",
      TaskSchema,
      { id: "t", status: { state: 3 } },
      [
        "status.state: enum lf.a2a.v1.TaskState as the number 3; ProtoJSON writes the value name (§5.5)",
      ],
    ],
    [
      "a lowercase enum",
      TaskSchema,
      { id: "t", status: { state: "task_state_completed" } },
      [
        /^status\.state: "task_state_completed" is not a value of enum lf\.a2a\.v1\.TaskState \(TASK_STATE_UNSPECIFIED, TASK_STATE_SUBMITTED, /,
      ],
    ],
    [
      "a REQUIRED enum at its UNSPECIFIED zero",
      TaskSchema,
      { id: "t", status: { state: "TASK_STATE_UNSPECIFIED" } },
      ["status.state: REQUIRED enum state is TASK_STATE_UNSPECIFIED (§5.7)"],
    ],
    [
      "a REQUIRED message missing",
      TaskSchema,
      { id: "t" },
      ["status: REQUIRED field status is missing (§5.7)"],
    ],
    [
      "a REQUIRED string empty",
      TaskSchema,
      { id: "", status: { state: S("WORKING") } },
      ["id: REQUIRED field id is an empty string (§5.7)"],
    ],
    [
      "a REQUIRED list empty",
      TaskSchema,
      { ...TASK, artifacts: [{ artifactId: "a", parts: [] }] },
      ["artifacts[0].parts: REQUIRED list parts is empty (§5.7: at least one element)"],
    ],
    [
      "a part with two contents",
      TaskSchema,
      { ...TASK, artifacts: [{ artifactId: "a", parts: [{ text: "x", url: "http://x" }] }] },
      [
        "artifacts[0].parts[0]: lf.a2a.v1.Part.content needs exactly one of text, raw, url, data; has text, url",
      ],
    ],
    [
      "a part with no content",
      TaskSchema,
      { ...TASK, artifacts: [{ artifactId: "a", parts: [{ mediaType: "text/plain" }] }] },
      [
        "artifacts[0].parts[0]: lf.a2a.v1.Part.content needs exactly one of text, raw, url, data; has none",
      ],
    ],
    [
      "a SendMessageResponse with both payloads",
      SendMessageResponseSchema,
      { task: TASK, message: { messageId: "m", role: "ROLE_AGENT", parts: [{ text: "x" }] } },
      [
        "(root): lf.a2a.v1.SendMessageResponse.payload needs exactly one of task, message; has task, message",
      ],
    ],
    [
      "a null where printers omit",
      TaskSchema,
      { ...TASK, contextId: null },
      ["contextId: null; a ProtoJSON printer omits an unset field"],
    ],
    [
      "data: null is a Value (valid)",
      TaskSchema,
      { ...TASK, artifacts: [{ artifactId: "a", parts: [{ data: null }] }] },
      [],
    ],
    [
      "a timestamp with an offset",
      TaskSchema,
      { ...TASK, status: { state: S("WORKING"), timestamp: "2026-01-02T03:04:05+01:00" } },
      [
        'status.timestamp: expected an RFC 3339 timestamp in UTC ("Z", §5.6.1), got "2026-01-02T03:04:05+01:00"',
      ],
    ],
    [
      "raw bytes that are not base64",
      TaskSchema,
      { ...TASK, artifacts: [{ artifactId: "a", parts: [{ raw: "not base64!" }] }] },
      ['artifacts[0].parts[0].raw: expected base64 bytes, got "not base64!"'],
    ],
    [
      "a string where an int32 goes",
      ListTasksResponseSchema,
      { tasks: [], nextPageToken: "", pageSize: "50", totalSize: 0 },
      ['pageSize: expected a 32-bit integer (JSON number), got "50"'],
    ],
    [
      "metadata that is not an object",
      TaskSchema,
      { ...TASK, metadata: [1] },
      ["metadata: expected a JSON object (google.protobuf.Struct), got [1]"],
    ],
    [
      "no body at all",
      TaskSchema,
      undefined as unknown as JsonValue,
      ["(root): no body; expected lf.a2a.v1.Task"],
    ],
  ];
  it.each(rows)("%s", (_, schema, json, expected) => {
    const got = messages(checkProtoJson(schema, json));
    expect(got).toHaveLength(expected.length);
    expected.forEach((e, i) => {
      if (typeof e === "string") expect(got[i]).toBe(e);
      else expect(got[i]).toMatch(e);
    });
  });

  it("checks StreamResponse events: exactly one payload, REQUIRED fields of the update", () => {
    expect(
      messages(
        checkProtoJson(StreamResponseSchema, {
          statusUpdate: { taskId: "t", contextId: "c", status: { state: S("WORKING") } },
        }),
      ),
    ).toEqual([]);
    expect(
      messages(
        checkProtoJson(StreamResponseSchema, {
          statusUpdate: { taskId: "t", status: { state: S("WORKING") } },
        }),
      ),
    ).toEqual(["statusUpdate.contextId: REQUIRED field contextId is missing (§5.7)"]);
    expect(messages(checkProtoJson(StreamResponseSchema, {}))).toEqual([
      "(root): lf.a2a.v1.StreamResponse.payload needs exactly one of task, message, statusUpdate, artifactUpdate; has none",
    ]);
  });
});

describe("checkProtoBinary / binaryAsJson", () => {
  const task = (json: JsonObject) => toBinary(TaskSchema, fromJson(TaskSchema, json as PbJson));
  it("a valid message decodes without violations", () => {
    const { message, violations } = checkProtoBinary(TaskSchema, task(TASK));
    expect(violations).toEqual([]);
    expect(binaryAsJson(TaskSchema, message!)).toEqual(TASK);
  });
  it("an unknown field is a violation", () => {
    const bytes = new Uint8Array([...task(TASK), 0xb8, 0x3e, 0x01]);
    expect(messages(checkProtoBinary(TaskSchema, bytes).violations)).toEqual([
      "(root): unknown field number 999 (lf.a2a.v1.Task has no such field)",
    ]);
  });
  it("an enum number the enum does not define is a violation", () => {
    const bytes = task({ id: "t", status: { state: 99 as unknown as string } });
    expect(messages(checkProtoBinary(TaskSchema, bytes).violations)).toEqual([
      "status.state: 99 is not a value of enum lf.a2a.v1.TaskState",
    ]);
  });
  it("missing REQUIRED fields and an empty oneof are violations", () => {
    const bytes = task({ id: "t", artifacts: [{ artifactId: "a", parts: [{}] }] });
    expect(messages(checkProtoBinary(TaskSchema, bytes).violations)).toEqual([
      "artifacts[0].parts[0]: lf.a2a.v1.Part.content needs exactly one of text, raw, url, data; has none",
      "status: REQUIRED field status is missing (§5.7)",
    ]);
  });
  it("bytes that are no protobuf are a violation", () => {
    expect(
      messages(checkProtoBinary(TaskSchema, new Uint8Array([0xff, 0xff, 0xff])).violations)[0],
    ).toMatch(/^\(root\): not a valid lf\.a2a\.v1\.Task in protobuf binary/);
  });
  it("the JSON view adds the REQUIRED scalars binary cannot show at zero (an empty last page)", () => {
    const { message } = checkProtoBinary(
      ListTasksResponseSchema,
      toBinary(ListTasksResponseSchema, create(ListTasksResponseSchema, { pageSize: 50 })),
    );
    expect(binaryAsJson(ListTasksResponseSchema, message!)).toEqual({
      tasks: [],
      nextPageToken: "",
      pageSize: 50,
      totalSize: 0,
    });
  });
});

// ---------------------------------------------------------------------------------------------
// spec-errors.ts
// ---------------------------------------------------------------------------------------------

describe("the spec error table", () => {
  it("matches the generated error classes entry for entry (name, reason, codes, statuses)", () => {
    const generated = Object.values(errorSpecs).map((s) => [
      s.name,
      s.reason,
      s.jsonRpcCode,
      s.grpcCode,
      s.httpStatus,
    ]);
    expect(generated).toEqual(
      SPEC_ERRORS.map((e) => [
        e.name,
        e.reason,
        e.jsonRpcCode,
        GRPC_CODES[e.grpcStatus],
        e.httpStatus,
      ]),
    );
  });
  it("knows the ACTS spellings", () => {
    expect(specErrorByName("JSONParseError")?.jsonRpcCode).toBe(-32700);
    expect(specErrorByName("ExtendedCardNotSupportedError")?.name).toBe(
      "ExtendedAgentCardNotConfiguredError",
    );
    expect(specErrorByName("StreamingNotSupportedError")?.name).toBe("UnsupportedOperationError");
  });
});

// ---------------------------------------------------------------------------------------------
// wire-judge.ts
// ---------------------------------------------------------------------------------------------

const ERROR_INFO = (reason: string, domain = "a2a-protocol.org"): JsonObject => ({
  "@type": "type.googleapis.com/google.rpc.ErrorInfo",
  reason,
  domain,
});

function exchange(
  binding: Binding,
  request: JsonValue | Buffer,
  status: number,
  headers: Record<string, string>,
  body: string | Buffer,
  trailers?: Record<string, string>,
  complete = true,
): WireExchange {
  return {
    id: "x",
    binding,
    request: {
      method: "POST",
      path: "/",
      headers: {},
      body: Buffer.isBuffer(request) ? request : Buffer.from(JSON.stringify(request)),
    },
    response: {
      status,
      headers,
      body: Buffer.isBuffer(body) ? body : Buffer.from(body),
      complete,
      ...(trailers !== undefined ? { trailers } : {}),
    },
  };
}
const JSON_CT = { "content-type": "application/json" };
const A2A_CT = { "content-type": "application/a2a+json" };
const REQ = { jsonrpc: "2.0", id: 7, method: "GetTask", params: { id: "t" } };
const rpc = (body: JsonObject, status = 200, headers: Record<string, string> = JSON_CT) =>
  judgeExchange(
    "jsonrpc",
    "GetTask",
    exchange("jsonrpc", REQ, status, headers, JSON.stringify(body)),
    false,
  );

describe("judgeExchange: JSON-RPC", () => {
  it("a result is the root; a conforming error names its type", () => {
    expect(rpc({ jsonrpc: "2.0", id: 7, result: TASK })).toEqual({
      kind: "result",
      root: TASK,
      violations: [],
    });
    const error = rpc({
      jsonrpc: "2.0",
      id: 7,
      error: { code: -32001, message: "gone", data: [ERROR_INFO("TASK_NOT_FOUND")] },
    });
    expect(error).toMatchObject({
      kind: "error",
      violations: [],
      error: {
        type: "TaskNotFoundError",
        jsonRpcCode: -32001,
        httpStatus: 200,
        reason: "TASK_NOT_FOUND",
        domain: "a2a-protocol.org",
      },
    });
  });
  const wrong: readonly [string, JsonObject, number, Record<string, string>, string][] = [
    [
      "a code that is not the reason's",
      {
        jsonrpc: "2.0",
        id: 7,
        error: { code: -32603, message: "x", data: [ERROR_INFO("TASK_NOT_FOUND")] },
      },
      200,
      JSON_CT,
      "error.data[ErrorInfo].reason: code -32603 is InternalError, but ErrorInfo.reason TASK_NOT_FOUND is TaskNotFoundError (code -32001)",
    ],
    [
      "a code no table has",
      { jsonrpc: "2.0", id: 7, error: { code: -32050, message: "x" } },
      200,
      JSON_CT,
      "error.code: -32050 is no A2A or JSON-RPC error code (§5.4, §9.5)",
    ],
    [
      "an error answered HTTP 500",
      {
        jsonrpc: "2.0",
        id: 7,
        error: { code: -32001, message: "x", data: [ERROR_INFO("TASK_NOT_FOUND")] },
      },
      500,
      JSON_CT,
      "(http status): a JSON-RPC TaskNotFoundError answered HTTP 500, expected 200",
    ],
    [
      "Unauthenticated answered 200",
      {
        jsonrpc: "2.0",
        id: 7,
        error: { code: -32098, message: "x", data: [ERROR_INFO("UNAUTHENTICATED")] },
      },
      200,
      JSON_CT,
      "(http status): a JSON-RPC UnauthenticatedError answered HTTP 200, expected 401",
    ],
    [
      "data that is not an array",
      {
        jsonrpc: "2.0",
        id: 7,
        error: { code: -32001, message: "x", data: ERROR_INFO("TASK_NOT_FOUND") },
      },
      200,
      JSON_CT,
      "error.data: error details must be an array of Any objects (§9.5, §11.6), got",
    ],
    [
      "a detail without @type",
      {
        jsonrpc: "2.0",
        id: 7,
        error: { code: -32001, message: "x", data: [{ reason: "TASK_NOT_FOUND" }] },
      },
      200,
      JSON_CT,
      'error.data[0]: an error detail needs "@type" (§9.5, §11.6)',
    ],
    [
      "another domain",
      {
        jsonrpc: "2.0",
        id: 7,
        error: { code: -32001, message: "x", data: [ERROR_INFO("TASK_NOT_FOUND", "example.com")] },
      },
      200,
      JSON_CT,
      'error.data[ErrorInfo].domain: ErrorInfo.domain is "example.com", not "a2a-protocol.org" (§10.6, §11.6)',
    ],
    [
      "another request's id",
      { jsonrpc: "2.0", id: 8, result: TASK },
      200,
      JSON_CT,
      "id: response id 8 is not the request's id 7",
    ],
    [
      "jsonrpc 1.0",
      { jsonrpc: "1.0", id: 7, result: TASK },
      200,
      JSON_CT,
      'jsonrpc: expected "2.0", got "1.0"',
    ],
    [
      "an extra member",
      { jsonrpc: "2.0", id: 7, result: TASK, extra: 1 },
      200,
      JSON_CT,
      'extra: unknown member "extra" of a JSON-RPC response',
    ],
    [
      "neither result nor error",
      { jsonrpc: "2.0", id: 7 },
      200,
      JSON_CT,
      "(envelope): a JSON-RPC response has exactly one of result and error (has neither)",
    ],
    [
      "a result that is no Task",
      { jsonrpc: "2.0", id: 7, result: { id: "t" } },
      200,
      JSON_CT,
      "result.status: REQUIRED field status is missing (§5.7)",
    ],
    [
      "a result answered HTTP 201",
      { jsonrpc: "2.0", id: 7, result: TASK },
      201,
      JSON_CT,
      "(http status): a JSON-RPC result answered HTTP 201",
    ],
    [
      "text/html",
      { jsonrpc: "2.0", id: 7, result: TASK },
      200,
      { "content-type": "text/html" },
      '(content-type): JSON-RPC answered Content-Type "text/html", expected application/json',
    ],
  ];
  it.each(wrong)("%s is a violation", (_, body, status, headers, message) => {
    expect(messages(rpc(body, status, headers).violations).join("\n")).toContain(message);
  });
  it("a body that is not JSON has no answer", () => {
    expect(
      judgeExchange("jsonrpc", "GetTask", exchange("jsonrpc", REQ, 200, JSON_CT, "<html>"), false),
    ).toMatchObject({ kind: "none", violations: [{ path: "(body)" }] });
  });
  it("streams: each data is an envelope around a StreamResponse; an error ends it", () => {
    const ev = (result: JsonValue) =>
      `data: ${JSON.stringify({ jsonrpc: "2.0", id: 7, result })}\n\n`;
    const sse = { "content-type": "text/event-stream" };
    const good = judgeExchange(
      "jsonrpc",
      "SendStreamingMessage",
      exchange(
        "jsonrpc",
        REQ,
        200,
        sse,
        ev({ task: TASK }) +
          ": keep-alive\n\n" +
          ev({ statusUpdate: { taskId: "t", contextId: "c", status: { state: S("COMPLETED") } } }),
      ),
      true,
    );
    expect(good).toMatchObject({ kind: "stream", violations: [], complete: true });
    expect((good as { events: unknown[] }).events).toHaveLength(2);
    const err = `data: ${JSON.stringify({ jsonrpc: "2.0", id: 7, error: { code: -32603, message: "x", data: [ERROR_INFO("INTERNAL")] } })}\n\n`;
    const late = judgeExchange(
      "jsonrpc",
      "SendStreamingMessage",
      exchange("jsonrpc", REQ, 200, sse, ev({ task: TASK }) + err + ev({ task: TASK })),
      true,
    );
    expect(late).toMatchObject({ kind: "stream", error: { type: "InternalError" } });
    expect(messages(late.violations)).toEqual([
      "events[2].(order): an event after the error that ended the stream",
    ]);
    const bad = judgeExchange(
      "jsonrpc",
      "SendStreamingMessage",
      exchange(
        "jsonrpc",
        REQ,
        200,
        sse,
        ev({ statusUpdate: { taskId: "t", status: { state: "working" } } }),
      ),
      true,
    );
    expect(messages(bad.violations)).toEqual([
      'events[0].result.statusUpdate.status.state: "working" is not a value of enum lf.a2a.v1.TaskState (TASK_STATE_UNSPECIFIED, TASK_STATE_SUBMITTED, TASK_STATE_WORKING, TASK_STATE_COMPLETED, TASK_STATE_FAILED, TASK_STATE_CANCELED, TASK_STATE_INPUT_REQUIRED, TASK_STATE_REJECTED, TASK_STATE_AUTH_REQUIRED)',
      "events[0].result.statusUpdate.contextId: REQUIRED field contextId is missing (§5.7)",
    ]);
  });
});

describe("judgeExchange: HTTP+JSON", () => {
  const rest = (status: number, body: JsonValue, headers: Record<string, string> = A2A_CT) =>
    judgeExchange(
      "rest",
      "GetTask",
      exchange("rest", Buffer.alloc(0), status, headers, JSON.stringify(body)),
      false,
    );
  const notFound = (over: JsonObject = {}) => ({
    error: {
      code: 404,
      status: "NOT_FOUND",
      message: "gone",
      details: [ERROR_INFO("TASK_NOT_FOUND")],
      ...over,
    },
  });
  it("a 200 body is the root; a §11.6 error names its type by the ErrorInfo", () => {
    expect(rest(200, TASK)).toEqual({ kind: "result", root: TASK, violations: [] });
    expect(rest(404, notFound())).toMatchObject({
      kind: "error",
      violations: [],
      error: { type: "TaskNotFoundError", httpStatus: 404, reason: "TASK_NOT_FOUND" },
    });
    expect(rest(200, TASK, JSON_CT).violations).toEqual([]);
  });
  const wrong: readonly [string, number, JsonValue, string][] = [
    [
      "error.code not the HTTP status",
      404,
      notFound({ code: 400 }),
      "error.code: error.code 400 differs from the HTTP status 404 (§11.6)",
    ],
    [
      "a status name that is not the type's",
      404,
      notFound({ status: "FAILED_PRECONDITION" }),
      'error.status: TaskNotFoundError has status NOT_FOUND, got "FAILED_PRECONDITION"',
    ],
    [
      "an HTTP status that is not the type's",
      500,
      notFound({ code: 500 }),
      "(http status): TaskNotFoundError answered HTTP 500, expected 404 (§5.4)",
    ],
    [
      "no ErrorInfo",
      404,
      notFound({ details: [] }),
      "error.details[ErrorInfo]: no google.rpc.ErrorInfo: the error type cannot be told apart from others with the same status (§10.6, §11.6 MUST)",
    ],
    [
      "a member beside error",
      404,
      { ...notFound(), title: "Not Found" },
      'title: unknown member "title" beside "error" (§11.6)',
    ],
    [
      "an RFC 9457 body",
      404,
      { type: "about:blank", title: "Not Found", status: 404 },
      'error: expected the §11.6 body {"error": {code, status, message, details}}',
    ],
  ];
  it.each(wrong)("%s is a violation", (_, status, body, message) => {
    expect(messages(rest(status, body).violations).join("\n")).toContain(message);
  });
  it("a wrong content type is a violation", () => {
    expect(messages(rest(200, TASK, { "content-type": "text/plain" }).violations)).toEqual([
      '(content-type): HTTP+JSON answered Content-Type "text/plain", expected application/a2a+json',
    ]);
  });
  it("streams: bare StreamResponses; event: error carries the §11.6 body", () => {
    const body = `data: ${JSON.stringify({ task: TASK })}\n\nevent: error\ndata: ${JSON.stringify({ error: { code: 500, status: "INTERNAL", message: "x", details: [ERROR_INFO("INTERNAL")] } })}\n\n`;
    const judged = judgeExchange(
      "rest",
      "SendStreamingMessage",
      exchange("rest", Buffer.alloc(0), 200, { "content-type": "text/event-stream" }, body),
      true,
    );
    expect(judged).toMatchObject({
      kind: "stream",
      violations: [],
      error: { type: "InternalError", httpStatus: 500 },
    });
  });
  it("raw responses: routes by method and path, errors checked whatever the route", () => {
    expect(restRouteOf("GET", "/tasks/abc")).toBe("GetTask");
    expect(restRouteOf("POST", "/tasks/abc:cancel")).toBe("CancelTask");
    expect(restRouteOf("DELETE", "/tasks/abc/pushNotificationConfigs/c")).toBe(
      "DeleteTaskPushNotificationConfig",
    );
    expect(restRouteOf("GET", "/nowhere")).toBeUndefined();
    const raw = judgeRawResponse(
      "rest",
      { method: "GET", path: "/tasks/abc" },
      { status: 200, headers: A2A_CT, body: Buffer.from(JSON.stringify({ id: "abc" })) },
    );
    expect(messages(raw.violations)).toEqual(["status: REQUIRED field status is missing (§5.7)"]);
    const unrouted = judgeRawResponse(
      "rest",
      { method: "GET", path: "/nowhere" },
      {
        status: 404,
        headers: A2A_CT,
        body: Buffer.from(
          JSON.stringify({
            error: {
              code: 404,
              status: "NOT_FOUND",
              message: "no route",
              details: [ERROR_INFO("METHOD_NOT_FOUND")],
            },
          }),
        ),
      },
    );
    expect(unrouted).toMatchObject({ violations: [], error: { type: "MethodNotFoundError" } });
    const rpcRaw = judgeRawResponse(
      "jsonrpc",
      { method: "POST", path: "/", body: "{oops" },
      {
        status: 200,
        headers: JSON_CT,
        body: Buffer.from(JSON.stringify({ jsonrpc: "2.0", id: null, result: {} })),
      },
    );
    expect(messages(rpcRaw.violations)).toEqual([
      "result: a result for a request that names no A2A method (undefined)",
    ]);
  });
});

describe("judgeExchange: gRPC", () => {
  const registry = createRegistry(file_google_rpc_error_details);
  const frame = (bytes: Uint8Array, compressed = 0) =>
    Buffer.concat([
      Buffer.from([compressed, ...[24, 16, 8, 0].map((s) => (bytes.length >>> s) & 0xff)]),
      Buffer.from(bytes),
    ]);
  const taskBytes = toBinary(TaskSchema, fromJson(TaskSchema, TASK as PbJson));
  const details = (code: number, message: string, infos: JsonObject[]) =>
    Buffer.from(
      toBinary(
        StatusSchema,
        fromJson(StatusSchema, { code, message, details: infos } as PbJson, { registry }),
      ),
    ).toString("base64");
  const grpc = (
    body: Buffer,
    trailers: Record<string, string> | undefined,
    stream = false,
    headers: Record<string, string> = { "content-type": "application/grpc" },
  ) =>
    judgeExchange(
      "grpc",
      stream ? "SubscribeToTask" : "GetTask",
      exchange("grpc", Buffer.alloc(0), 200, headers, body, trailers),
      stream,
    );
  it("one message and grpc-status 0 is the result", () => {
    expect(grpc(frame(taskBytes), { "grpc-status": "0" })).toEqual({
      kind: "result",
      root: TASK,
      violations: [],
    });
    expect(
      grpc(frame(gzipSync(taskBytes), 1), { "grpc-status": "0" }, false, {
        "content-type": "application/grpc",
        "grpc-encoding": "gzip",
      }),
    ).toMatchObject({ kind: "result", violations: [] });
  });
  it("an error: grpc-status, grpc-message and the Status with its ErrorInfo", () => {
    const trailers = {
      "grpc-status": "5",
      "grpc-message": "task%20gone",
      "grpc-status-details-bin": details(5, "task gone", [ERROR_INFO("TASK_NOT_FOUND")]),
    };
    expect(grpc(Buffer.alloc(0), trailers)).toMatchObject({
      kind: "error",
      violations: [],
      error: {
        type: "TaskNotFoundError",
        grpcCode: 5,
        message: "task gone",
        reason: "TASK_NOT_FOUND",
      },
    });
  });
  const wrong: readonly [string, Buffer, Record<string, string> | undefined, string][] = [
    [
      "a status that is not the type's",
      Buffer.alloc(0),
      {
        "grpc-status": "13",
        "grpc-message": "x",
        "grpc-status-details-bin": details(13, "x", [ERROR_INFO("TASK_NOT_FOUND")]),
      },
      "(grpc-status): TaskNotFoundError answered gRPC INTERNAL, expected NOT_FOUND (§5.4)",
    ],
    [
      "a Status code that differs from grpc-status",
      Buffer.alloc(0),
      {
        "grpc-status": "5",
        "grpc-message": "x",
        "grpc-status-details-bin": details(13, "x", [ERROR_INFO("TASK_NOT_FOUND")]),
      },
      "(grpc-status-details-bin).code: google.rpc.Status.code 13 differs from grpc-status 5",
    ],
    [
      "no status details",
      Buffer.alloc(0),
      { "grpc-status": "5", "grpc-message": "x" },
      "(grpc-status-details-bin): no grpc-status-details-bin: the google.rpc.Status with the ErrorInfo is missing (§10.6)",
    ],
    [
      "no trailers at the end",
      frame(taskBytes),
      undefined,
      "(grpc-status): the response ended without trailers",
    ],
    [
      "two messages for a unary call",
      Buffer.concat([frame(taskBytes), frame(taskBytes)]),
      { "grpc-status": "0" },
      "(frames): a unary response has 2 messages, expected 1",
    ],
    [
      "a cut-off message",
      frame(taskBytes).subarray(0, 10),
      { "grpc-status": "0" },
      "(frames): a message of",
    ],
    [
      "a message with an unknown field",
      frame(new Uint8Array([...taskBytes, 0xb8, 0x3e, 0x01])),
      { "grpc-status": "0" },
      "(root): unknown field number 999 (lf.a2a.v1.Task has no such field)",
    ],
  ];
  it.each(wrong)("%s is a violation", (_, body, trailers, message) => {
    expect(messages(grpc(body, trailers).violations).join("\n")).toContain(message);
  });
  it("streams: each message a strict StreamResponse", () => {
    const event = (json: JsonObject) =>
      frame(toBinary(StreamResponseSchema, fromJson(StreamResponseSchema, json as PbJson)));
    const judged = grpc(
      Buffer.concat([
        event({ task: TASK }),
        event({ statusUpdate: { taskId: "t", contextId: "c", status: { state: S("COMPLETED") } } }),
      ]),
      { "grpc-status": "0" },
      true,
    );
    expect(judged).toMatchObject({ kind: "stream", violations: [], complete: true });
    expect((judged as { events: unknown[] }).events).toHaveLength(2);
  });
});

describe("parseSse", () => {
  it.each([
    ["two events", "data: a\n\ndata: b\n\n", [{ data: "a" }, { data: "b" }]],
    [
      "multi-line data, CRLF, a comment, an event name",
      ": hi\r\nevent: error\r\ndata: x\r\ndata: y\r\n\r\n",
      [{ event: "error", data: "x\ny" }],
    ],
    ["no space after the colon", "data:{}\n\n", [{ data: "{}" }]],
    ["an unterminated last event is not dispatched", "data: a\n\ndata: b", [{ data: "a" }]],
  ] as const)("%s", (_, text, events) => {
    expect(parseSse(text)).toEqual(events);
  });
});

// ---------------------------------------------------------------------------------------------
// wire-tap.ts, against real upstreams
// ---------------------------------------------------------------------------------------------

describe("the wire tap", () => {
  let http: Listening;
  let h2: ReturnType<typeof createH2Server>;
  let h2Address: string;
  let tap: WireTap;
  const seen: {
    headers: Record<string, string | string[] | undefined>;
    closed: Promise<boolean>;
  }[] = [];
  /** The open /stream request upstream: it sent its first event and waits for `release`. */
  let streaming: { release(): void } | undefined;
  let streamOpened = deferred();

  beforeAll(async () => {
    http = await listen((req, res) => {
      // Resolves true when the client went away before the response was complete.
      const closed = new Promise<boolean>((resolve) =>
        res.on("close", () => resolve(!res.writableFinished)),
      );
      seen.push({ headers: req.headers, closed });
      if (req.url?.endsWith("/stream")) {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.write(`data: ${JSON.stringify({ n: 1 })}\n\n`);
        // The second event only once the test says so: the first must reach the client before.
        streaming = {
          release: () =>
            res.end(`data: ${JSON.stringify({ n: 2 })}\n\ndata: ${JSON.stringify({ n: 3 })}\n\n`),
        };
        streamOpened.resolve();
        return;
      }
      req.resume();
      req.on("end", () =>
        res
          .writeHead(201, { "content-type": "application/json", "x-upstream": "yes" })
          .end(JSON.stringify({ ok: true, path: req.url })),
      );
    }, "");
    h2 = createH2Server();
    h2.on("stream", (stream: ServerHttp2Stream, headers) => {
      stream.resume();
      stream.on("end", () => {
        if (headers[":path"] === "/svc/Fail") {
          stream.respond(
            {
              ":status": 200,
              "content-type": "application/grpc",
              "grpc-status": "5",
              "grpc-message": "nope",
            },
            { endStream: true },
          );
          return;
        }
        stream.respond(
          { ":status": 200, "content-type": "application/grpc" },
          { waitForTrailers: true },
        );
        stream.on("wantTrailers", () =>
          stream.sendTrailers({
            "grpc-status": "0",
            "x-seen-exchange": String(headers[EXCHANGE_HEADER] ?? "none"),
          }),
        );
        for (const b of [1, 2, 3]) stream.write(Buffer.from([0, 0, 0, 0, 1, b]));
        stream.end();
      });
    });
    await new Promise<void>((r) => h2.listen(0, "127.0.0.1", r));
    h2Address = `127.0.0.1:${(h2.address() as AddressInfo).port}`;
    const base = http.url.replace(/\/$/, "");
    tap = await startWireTap({
      cardUrl: `${base}/.well-known/agent-card.json`,
      jsonrpc: `${base}/rpc`,
      rest: `${base}/rest`,
      grpc: h2Address,
    });
  });
  afterAll(async () => {
    await tap.close();
    await http.close();
    await new Promise<void>((r) => h2.close(() => r()));
  });

  const grpcCall = (path: string, id: string) =>
    new Promise<{
      headers: Record<string, unknown>;
      data: Buffer;
      trailers: Record<string, unknown>;
    }>((resolve, reject) => {
      const session = connect(`http://${tap.endpoints.grpc}`);
      const req = session.request({
        ":method": "POST",
        ":path": path,
        "content-type": "application/grpc",
        [EXCHANGE_HEADER]: id,
      });
      let headers: Record<string, unknown> = {};
      let trailers: Record<string, unknown> = {};
      const chunks: Buffer[] = [];
      req.on("response", (h) => (headers = h));
      req.on("trailers", (t) => (trailers = t));
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        session.close();
        resolve({ headers, data: Buffer.concat(chunks), trailers });
      });
      req.on("error", reject);
      req.end(Buffer.from([0, 0, 0, 0, 0]));
    });

  it("records a named exchange as it crossed, forwards it faithfully and hides the header from the upstream", async () => {
    tap.mutate(undefined);
    const res = await fetch(`${tap.endpoints.rest}/tasks/1`, {
      method: "POST",
      headers: { [EXCHANGE_HEADER]: "ex-1", "content-type": "application/json" },
      body: '{"a":1}',
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("x-upstream")).toBe("yes");
    expect(await res.json()).toEqual({ ok: true, path: "/rest/tasks/1" });
    expect(seen.at(-1)?.headers[EXCHANGE_HEADER]).toBeUndefined();
    const [recorded, ...more] = await tap.take("ex-1");
    expect(more).toEqual([]);
    expect(recorded).toMatchObject({
      id: "ex-1",
      binding: "rest",
      request: { method: "POST", path: "/rest/tasks/1" },
      response: { status: 201, complete: true },
    });
    expect(recorded!.request.body.toString()).toBe('{"a":1}');
    expect(JSON.parse(recorded!.response!.body.toString())).toEqual({
      ok: true,
      path: "/rest/tasks/1",
    });
    expect(await tap.take("ex-1")).toEqual([]);
    expect(await tap.take("never-sent", 10)).toEqual([]);
  });

  it("streams SSE as it comes (the first event arrives before the server sends the next) and records it", async () => {
    tap.mutate(undefined);
    const res = await fetch(`${tap.endpoints.jsonrpc.replace(/\/rpc$/, "")}/rpc/stream`, {
      headers: { [EXCHANGE_HEADER]: "ex-2" },
    });
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toBe('data: {"n":1}\n\n');
    streaming!.release();
    let rest = "";
    for (let r = await reader.read(); !r.done; r = await reader.read())
      rest += new TextDecoder().decode(r.value);
    expect(rest).toBe('data: {"n":2}\n\ndata: {"n":3}\n\n');
    const [recorded] = await tap.take("ex-2");
    expect(recorded!.response!.body.toString()).toBe(first + rest);
    expect(recorded!.response!.complete).toBe(true);
  });

  it("a client that goes away closes the upstream request, and the exchange settles incomplete", async () => {
    tap.mutate(undefined);
    const controller = new AbortController();
    const res = await fetch(`${tap.endpoints.rest}/stream`, {
      headers: { [EXCHANGE_HEADER]: "ex-3" },
      signal: controller.signal,
    });
    await res.body!.getReader().read();
    controller.abort();
    const [recorded] = await tap.take("ex-3");
    expect(recorded!.response).toMatchObject({ status: 200, complete: false });
    expect(await seen.at(-1)!.closed).toBe(true);
  });

  it("gRPC: messages, trailers and trailers-only errors recorded; the header hidden from the upstream", async () => {
    tap.mutate(undefined);
    const ok = await grpcCall("/svc/Ok", "ex-4");
    expect(ok.data).toEqual(Buffer.from([0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 1, 3]));
    expect(ok.trailers).toMatchObject({ "grpc-status": "0", "x-seen-exchange": "none" });
    const [recorded] = await tap.take("ex-4");
    expect(recorded).toMatchObject({
      binding: "grpc",
      request: { path: "/svc/Ok" },
      response: { status: 200, trailers: { "grpc-status": "0" }, complete: true },
    });
    expect(recorded!.response!.body).toEqual(ok.data);
    const failed = await grpcCall("/svc/Fail", "ex-5");
    expect(failed.headers).toMatchObject({ "grpc-status": "5" });
    expect((await tap.take("ex-5"))[0]!.response).toMatchObject({
      trailers: { "grpc-status": "5", "grpc-message": "nope" },
      complete: true,
    });
  });

  it("mutations rewrite what passes, and the record shows what the client got", async () => {
    tap.mutate({
      name: "t",
      json: (body) => ({ body: { ...(body as JsonObject), ok: false }, status: 500 }),
    });
    const res = await fetch(`${tap.endpoints.rest}/x`, { headers: { [EXCHANGE_HEADER]: "ex-6" } });
    expect([res.status, await res.json()]).toEqual([500, { ok: false, path: "/rest/x" }]);
    expect(JSON.parse((await tap.take("ex-6"))[0]!.response!.body.toString())).toEqual({
      ok: false,
      path: "/rest/x",
    });

    tap.mutate({
      name: "t",
      sseEvent: (data, index) =>
        index >= 1 ? END_STREAM : { ...(data as JsonObject), mutated: true },
    });
    streamOpened = deferred();
    const stream = fetch(`${tap.endpoints.rest}/stream`, {
      headers: { [EXCHANGE_HEADER]: "ex-7" },
    }).then((r) => r.text());
    await streamOpened.promise;
    streaming!.release();
    // The second event ends the stream (the mutation stops it there): nothing after the first reaches the client.
    expect(await stream).toBe('data: {"n":1,"mutated":true}\n\n');
    expect((await tap.take("ex-7"))[0]!.response).toMatchObject({ complete: true });

    tap.mutate({
      name: "t",
      grpcMessage: (bytes, index) => (index >= 2 ? END_STREAM : new Uint8Array([...bytes, 9])),
      grpcTrailers: (t) => ({ ...t, "grpc-status": "13" }),
    });
    const grpcOut = await grpcCall("/svc/Ok", "ex-8");
    expect(grpcOut.data).toEqual(Buffer.from([0, 0, 0, 0, 2, 1, 9, 0, 0, 0, 0, 2, 2, 9]));
    expect(grpcOut.trailers).toMatchObject({ "grpc-status": "0" });
    tap.mutate({ name: "t", grpcTrailers: (t) => ({ ...t, "grpc-status": "13" }) });
    expect((await grpcCall("/svc/Fail", "ex-9")).headers).toMatchObject({ "grpc-status": "13" });
    tap.mutate(undefined);
    await tap.take("ex-8");
    await tap.take("ex-9");
  });
});

describe("the runner's webhook", () => {
  it("records deliveries with their answer, refuses the first of each body on a flaky URL, wakes waiters", async () => {
    const webhook = await startRunnerWebhook((h) => ({ ...h, authorization: "rewritten" }));
    try {
      const waiting = webhook.waitFor((d) => (d.length >= 3 ? d.length : undefined), 5_000);
      const flaky = webhook.flakyUrl();
      const post = (url: string, body: string) =>
        fetch(url, { method: "POST", headers: { authorization: "Bearer x" }, body }).then(
          (r) => r.status,
        );
      expect(await post(flaky, '{"a":1}')).toBe(503);
      expect(await post(flaky, '{"a":1}')).toBe(200);
      expect(await post(webhook.url, "not json")).toBe(200);
      expect(await waiting).toBe(3);
      expect(
        webhook.deliveries.map((d) => [d.answered, d.body, d.headers["authorization"]]),
      ).toEqual([
        [503, { a: 1 }, "rewritten"],
        [200, { a: 1 }, "rewritten"],
        [200, "not json", "rewritten"],
      ]);
      expect(await webhook.waitFor(() => undefined, 20)).toBeUndefined();
    } finally {
      await webhook.close();
    }
  });
});
