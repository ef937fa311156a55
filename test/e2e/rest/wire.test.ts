/**
 * Raw-wire tests of the generated HTTP+JSON server (spec §11) with plain fetch and node:http requests against a real
 * server on 127.0.0.1: nothing of ours on the client side. Every error answer is checked against the §11.6 shape.
 */
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createA2AServiceRestServer } from "../../../generated-example/gen/a2a_a2a_rest_server.js";
import { UnauthenticatedError } from "../../../generated-example/gen/a2a_a2a_errors.js";
import { ECHO_EXTENSION, TestAgent } from "../../support/test-agent.js";
import { eventually, listen, type Listening } from "../../support/servers.js";

const agent = new TestAgent();
let server: Listening; // defaults, keep-alive every 20 ms
let small: Listening; // maxBodyBytes 1024
let plain: Listening; // responseContentType "application/json"
let guarded: Listening; // authenticate + a required extension
let hanging: Listening; // an agent whose calls wait for the client to go away
let base: string;

/** Waits for the abort signal before answering anything (stream: before the first event). */
class HangingAgent extends TestAgent {
  readonly seen = { streamAborted: false, streamFinally: false, unaryAborted: false };
  override async *sendStreamingMessage(
    _request: Parameters<TestAgent["sendStreamingMessage"]>[0],
    context: Parameters<TestAgent["sendStreamingMessage"]>[1],
  ) {
    this.contexts.push(context);
    try {
      await new Promise<void>((resolve) =>
        context.signal.addEventListener("abort", () => resolve(), { once: true }),
      );
      this.seen.streamAborted = true;
    } finally {
      this.seen.streamFinally = true;
    }
  }
  override async sendMessage(
    request: Parameters<TestAgent["sendMessage"]>[0],
    context: Parameters<TestAgent["sendMessage"]>[1],
  ) {
    this.contexts.push(context);
    await new Promise<void>((resolve) =>
      context.signal.addEventListener("abort", () => resolve(), { once: true }),
    );
    this.seen.unaryAborted = true;
    return super.sendMessage(request, context);
  }
}
const hangingAgent = new HangingAgent();

beforeAll(async () => {
  const quiet = { error() {} };
  server = await listen(createA2AServiceRestServer(agent, { keepAliveMs: 20, logger: quiet }).node);
  small = await listen(
    createA2AServiceRestServer(agent, { maxBodyBytes: 1024, logger: quiet }).node,
  );
  plain = await listen(
    createA2AServiceRestServer(agent, {
      responseContentType: "application/json",
      keepAliveMs: 0,
      logger: quiet,
    }).node,
  );
  guarded = await listen(
    createA2AServiceRestServer(agent, {
      logger: quiet,
      requiredExtensions: [ECHO_EXTENSION],
      authenticate: (req) => {
        const auth = req.serviceParameters.get("authorization");
        if (auth !== "Bearer good") throw new UnauthenticatedError("a bearer token is required");
        return { user: "u" };
      },
    }).node,
  );
  hanging = await listen(
    createA2AServiceRestServer(hangingAgent, { keepAliveMs: 20, logger: quiet }).node,
  );
  base = server.url.replace(/\/$/, "");
});
afterAll(async () => {
  await Promise.all([
    server.close(),
    small.close(),
    plain.close(),
    guarded.close(),
    hanging.close(),
  ]);
});

// ---------------------------------------------------------------------------------------
// helpers
// ---------------------------------------------------------------------------------------

interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly json: any;
}

const V = { "a2a-version": "1.0" };
const JSON_CT = { "content-type": "application/json" };

async function call(
  method: string,
  path: string,
  init: { body?: string | Uint8Array; headers?: Record<string, string>; url?: string } = {},
): Promise<Answer> {
  const res = await fetch((init.url ?? server.url).replace(/\/$/, "") + path, {
    method,
    headers: {
      ...V,
      ...(init.body !== undefined && typeof init.body === "string" ? JSON_CT : {}),
      ...init.headers,
    },
    body: init.body,
    signal: AbortSignal.timeout(5000),
  });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

const message = (text: string) => ({
  message: { messageId: `m-${text}`, role: "ROLE_USER", parts: [{ text }] },
});
const sendBody = (text: string) => JSON.stringify(message(text));

/** HTTP status → the gRPC status names an A2A error with that status may carry (spec §5.4). */
const GRPC_FOR_HTTP: Record<number, readonly string[]> = {
  400: ["INVALID_ARGUMENT", "FAILED_PRECONDITION"],
  401: ["UNAUTHENTICATED"],
  403: ["PERMISSION_DENIED"],
  404: ["NOT_FOUND"],
  405: ["UNIMPLEMENTED"],
  // A body over maxBodyBytes: HTTP's own status (RFC 9110 §15.5.14), the request invalid as sent.
  413: ["INVALID_ARGUMENT"],
  500: ["INTERNAL"],
  501: ["UNIMPLEMENTED"],
};

/** Asserts the exact §11.6 body: {"error": {code, status, message, details: [ErrorInfo, …]}} and returns `error`. */
function expectStatusBody(
  body: any,
  httpStatus: number,
  grpcStatus: string,
  reason: string,
  text = JSON.stringify(body),
) {
  expect(Object.keys(body)).toEqual(["error"]);
  const error = body.error;
  expect(Object.keys(error).sort()).toEqual(["code", "details", "message", "status"]);
  expect(error.code).toBe(httpStatus);
  expect(GRPC_FOR_HTTP[httpStatus]).toContain(error.status);
  expect(error.status).toBe(grpcStatus);
  expect(typeof error.message).toBe("string");
  expect(error.message.length).toBeGreaterThan(0);
  expect(Array.isArray(error.details)).toBe(true);
  const info = error.details[0];
  expect(info["@type"]).toBe("type.googleapis.com/google.rpc.ErrorInfo");
  expect(info.reason).toBe(reason);
  expect(info.domain).toBe("a2a-protocol.org");
  expect(
    Object.keys(info).every((k) => ["@type", "reason", "domain", "metadata"].includes(k)),
  ).toBe(true);
  if (info.metadata !== undefined)
    expect(Object.values(info.metadata).every((v) => typeof v === "string")).toBe(true);
  for (const d of error.details) expect(typeof d["@type"]).toBe("string");
  expect(
    error.details.filter((d: any) => d["@type"] === "type.googleapis.com/google.rpc.ErrorInfo"),
  ).toHaveLength(1);
  // no stack traces, no internals
  expect(text).not.toMatch(/\n\s+at |at [A-Za-z.<>]+ \(|node_modules|\.ts:\d+/);
  return error;
}

/** Asserts an error answer: status, §11.6 body, Content-Type, and that no handler ran. */
async function expectError(
  answer: Answer | Promise<Answer>,
  httpStatus: number,
  grpcStatus: string,
  reason: string,
  contentType = "application/a2a+json",
) {
  const before = agent.contexts.length;
  const res = await answer;
  expect(res.status, res.text).toBe(httpStatus);
  expect(res.headers.get("content-type")).toBe(contentType);
  const error = expectStatusBody(res.json, httpStatus, grpcStatus, reason, res.text);
  return { error, res, handled: agent.contexts.length - before };
}

/** The operations the agent ran during `f`. */
async function operationsDuring(f: () => Promise<unknown>): Promise<string[]> {
  const before = agent.contexts.length;
  await f();
  return agent.contexts.slice(before).map((c) => c.operation);
}

/** Reads an SSE body as text until `until` holds or it ends; cancels the rest. */
async function readSse(
  res: Response,
  until: (text: string) => boolean = () => false,
): Promise<string> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    if (until(text)) {
      await reader.cancel();
      break;
    }
  }
  return text;
}

interface SseEvent {
  readonly event: string | undefined;
  readonly data: string;
}

/** Splits SSE text into events (data lines joined), skipping comments. */
function sseEvents(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  for (const block of text.split("\n\n")) {
    const lines = block.split("\n").filter((l) => l !== "" && !l.startsWith(":"));
    if (lines.length === 0) continue;
    const event = lines
      .find((l) => l.startsWith("event:"))
      ?.slice(6)
      .trim();
    const data = lines
      .filter((l) => l.startsWith("data:"))
      .map((l) => l.slice(5).replace(/^ /, ""))
      .join("\n");
    events.push({ event, data });
  }
  return events;
}

const STREAM_KINDS = ["task", "message", "statusUpdate", "artifactUpdate"];

// ---------------------------------------------------------------------------------------
// routing
// ---------------------------------------------------------------------------------------

describe("routing: 405 with Allow, 404, bad paths", () => {
  it.each([
    ["PUT", "/tasks/x", "GET"],
    ["POST", "/tasks/x", "GET"],
    ["DELETE", "/message:send", "POST"],
    ["GET", "/message:send", "POST"],
    ["GET", "/message:stream", "POST"],
    ["PATCH", "/tasks", "GET"],
    ["GET", "/tasks/x:cancel", "POST"],
    ["DELETE", "/tasks/x:subscribe", "GET, POST"],
    ["PUT", "/acme/tasks/x:subscribe", "GET, POST"],
    ["POST", "/tasks/t/pushNotificationConfigs/c", "DELETE, GET"],
    ["PUT", "/acme/tasks/t/pushNotificationConfigs", "GET, POST"],
    ["DELETE", "/extendedAgentCard", "GET"],
    ["OPTIONS", "/tasks", "GET"],
    ["POST", "/tasks/x:frobnicate", "GET"], // no such verb: the segment "x:frobnicate" is a GetTask id
  ])("%s %s → 405, Allow: %s", async (method, path, allow) => {
    const { res, handled } = await expectError(
      call(method, path),
      405,
      "UNIMPLEMENTED",
      "METHOD_NOT_FOUND",
    );
    expect(res.headers.get("allow")).toBe(allow);
    expect(res.json.error.message).toContain(`allowed: ${allow}`);
    expect(handled).toBe(0);
  });

  it("HEAD is not bound: 405 with Allow: GET and no body", async () => {
    const res = await fetch(`${base}/tasks/x`, { method: "HEAD", headers: V });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET");
    expect(await res.text()).toBe("");
  });

  it.each([
    "/",
    "/nope",
    "/tasks/",
    "//tasks",
    "/message",
    "/message:frob",
    "/tasks/a/b",
    "/v1/tasks/x/y/z",
    "/acme/extendedAgentCard/x",
    "/acme/tasks/x/pushNotificationConfigs/c/d",
  ])("GET %s → 404 NOT_FOUND", async (path) => {
    const { error, handled } = await expectError(
      call("GET", path),
      404,
      "NOT_FOUND",
      "METHOD_NOT_FOUND",
    );
    expect(error.message).toContain(path);
    expect(handled).toBe(0);
  });

  it("an encoded slash in a one-segment variable is data: /tasks/a%2Fb is GetTask id a/b", async () => {
    const ops = await operationsDuring(async () => {
      const res = await call("GET", "/tasks/a%2Fb");
      expect(res.status).toBe(200);
      expect(res.json.id).toBe("a/b");
    });
    expect(ops).toEqual(["GetTask"]);
    const res = await call("GET", "/team%2Fa/tasks/x%2F%2Fy");
    expect(res.json.id).toBe("x//y");
    expect(agent.contexts.at(-1)?.tenant).toBe("team/a");
  });

  it.each([
    ["/tasks/%zz", "malformed percent-encoding"],
    ["/tasks/a%", "malformed percent-encoding"],
    ["/%E0%A4%A/tasks/x", "malformed percent-encoding"],
    ["/tasks/%C3%28", "malformed percent-encoding"], // invalid UTF-8
  ])("malformed escape in the path %s → 400 INVALID_REQUEST", async (path, why) => {
    const { error, handled } = await expectError(
      call("GET", path),
      400,
      "INVALID_ARGUMENT",
      "INVALID_REQUEST",
    );
    expect(error.message).toContain(why);
    expect(handled).toBe(0);
  });

  it("malformed escape in the query → 400 INVALID_PARAMS naming the parameter", async () => {
    const { error } = await expectError(
      call("GET", "/tasks?contextId=%zz"),
      400,
      "INVALID_ARGUMENT",
      "INVALID_PARAMS",
    );
    expect(error.message).toContain("contextId");
  });

  it("GET /tasks/abc:subscribe reaches SubscribeToTask (SSE), never GetTask", async () => {
    const ops = await operationsDuring(async () => {
      const res = await fetch(`${base}/tasks/abc:subscribe`, { headers: V });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/event-stream");
      const events = sseEvents(await res.text());
      expect(events.map((e) => Object.keys(JSON.parse(e.data)))).toEqual([
        ["task"],
        ["statusUpdate"],
      ]);
      expect(JSON.parse(events[0]!.data).task.id).toBe("abc");
    });
    expect(ops).toEqual(["SubscribeToTask"]);
  });

  it.each(["%3A", "%3a"])(
    "GET /tasks/abc%ssubscribe reaches GetTask with id abc:subscribe",
    async (colon) => {
      const ops = await operationsDuring(async () => {
        const res = await call("GET", `/tasks/abc${colon}subscribe`);
        expect(res.status).toBe(200);
        expect(res.headers.get("content-type")).toBe("application/a2a+json");
        expect(res.json.id).toBe("abc:subscribe");
      });
      expect(ops).toEqual(["GetTask"]);
    },
  );

  it("a path tenant of __proto__ is just a string", async () => {
    const res = await call("GET", "/__proto__/tasks/x");
    expect(res.status).toBe(200);
    expect(agent.contexts.at(-1)?.tenant).toBe("__proto__");
    expect(Object.prototype).not.toHaveProperty("tenant");
  });
});

// ---------------------------------------------------------------------------------------
// query parameters
// ---------------------------------------------------------------------------------------

describe("query parameters (§11.5)", () => {
  it.each([
    ["/tasks?pageSize=abc", "pageSize", undefined],
    ["/tasks?pageSize=150", "pageSize", "pageSize must be between 1 and 100, got 150"],
    ["/tasks?pageSize=0", "pageSize", "pageSize must be between 1 and 100, got 0"],
    ["/tasks?historyLength=-5", "historyLength", "historyLength must be at least 0, got -5"],
    ["/tasks/t-1?historyLength=-5", "historyLength", "historyLength must be at least 0, got -5"],
    [
      "/tasks/t-1/pushNotificationConfigs?pageSize=-1",
      "pageSize",
      "pageSize must be at least 0, got -1",
    ],
    ["/tasks?status=DONE", "DONE", undefined],
    ["/tasks?includeArtifacts=yes", "includeArtifacts", undefined],
    ["/tasks?statusTimestampAfter=yesterday", "Timestamp", undefined],
    ["/tasks?statusTimestampAfter=2025-11-09", "Timestamp", undefined],
    ["/tasks?pageSize=99999999999", "pageSize", undefined],
    ["/tasks?pageSize=1&pageSize=2", "pageSize is given more than once", undefined],
    [
      "/tasks?historyLength=1&history_length=1",
      "history_length is given more than once",
      undefined,
    ],
    [
      "/tasks/t-1?historyLength=1&historyLength=1",
      "historyLength is given more than once",
      undefined,
    ],
    ["/tasks?colour=red", "unknown query parameter colour", undefined],
    ["/tasks/t-1?id=t-2", "disagrees with", undefined],
    ["/acme/tasks?tenant=other", "disagrees with", undefined],
    ["/tasks?__proto__=x", "unknown query parameter __proto__", undefined],
    ["/tasks?constructor=x&hasOwnProperty=y", "unknown query parameter constructor", undefined],
  ])("GET %s → 400 INVALID_PARAMS naming %s", async (path, named, violation) => {
    const { error, handled } = await expectError(
      call("GET", path),
      400,
      "INVALID_ARGUMENT",
      "INVALID_PARAMS",
    );
    expect(error.message).toContain(named);
    expect(handled).toBe(0);
    if (violation !== undefined) {
      // range violations come with a google.rpc.BadRequest naming the field
      expect(error.details[1]).toEqual({
        "@type": "type.googleapis.com/google.rpc.BadRequest",
        fieldViolations: [{ field: named, description: violation }],
      });
    }
  });

  it("a query on a POST route → 400 (fields travel in the body); only A2A-Version is allowed there", async () => {
    const { error } = await expectError(
      call("POST", "/message:send?tenant=x", { body: sendBody("q") }),
      400,
      "INVALID_ARGUMENT",
      "INVALID_PARAMS",
    );
    expect(error.message).toContain("query parameter tenant is not allowed");
    const ok = await call("POST", "/message:send?A2A-Version=1.0", { body: sendBody("q") });
    expect(ok.status).toBe(200);
  });

  it("valid conversions reach the handler: bool, int, enum name, timestamp, proto names", async () => {
    const res = await call(
      "GET",
      "/tasks?contextId=c+1&status=TASK_STATE_WORKING&page_size=10&historyLength=0&statusTimestampAfter=2025-11-09T10:30:00Z&include_artifacts=true",
    );
    expect(res.status, res.text).toBe(200);
    expect(agent.contexts.at(-1)?.operation).toBe("ListTasks");
    const byNumber = await call("GET", "/tasks?status=3&pageSize=100");
    expect(byNumber.status).toBe(200);
    // TaskState is an open (proto3) enum: ProtoJSON keeps unknown numbers, so ?status=99 is not a decoding error
    expect((await call("GET", "/tasks?status=99")).status).toBe(200);
    const history = await call("GET", "/tasks/t-1?historyLength=0");
    expect(history.status).toBe(200);
  });

  it('ListTasks always sends the REQUIRED fields, nextPageToken "" included (§3.1.4)', async () => {
    const res = await call("GET", "/tasks");
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ tasks: [], nextPageToken: "", pageSize: 50, totalSize: 0 });
    expect(res.text).toContain('"nextPageToken":""');
  });

  it("DELETE answers google.protobuf.Empty as {} with 200", async () => {
    const res = await call("DELETE", "/tasks/t/pushNotificationConfigs/c");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/a2a+json");
    expect(res.text).toBe("{}");
    expect(agent.contexts.at(-1)?.operation).toBe("DeleteTaskPushNotificationConfig");
  });
});

// ---------------------------------------------------------------------------------------
// bodies and content types
// ---------------------------------------------------------------------------------------

describe("request bodies and Content-Type", () => {
  it.each([
    "application/json",
    "application/json; charset=utf-8",
    "application/a2a+json",
    'Application/A2A+JSON; charset="UTF-8"',
    "application/json;charset=UTF-8",
  ])("accepts Content-Type %s", async (type) => {
    const res = await call("POST", "/message:send", {
      body: sendBody("ct"),
      headers: { "content-type": type },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.message.parts[0].text).toBe("ct");
  });

  it.each([
    "text/plain",
    "text/plain;charset=UTF-8",
    "application/json; charset=latin1",
    "application/jsonx",
    "application/problem+json",
    "multipart/form-data; boundary=x",
    "application/x-www-form-urlencoded",
  ])("rejects Content-Type %s with 400 CONTENT_TYPE_NOT_SUPPORTED", async (type) => {
    const { error, handled } = await expectError(
      call("POST", "/message:send", { body: sendBody("ct"), headers: { "content-type": type } }),
      400,
      "INVALID_ARGUMENT",
      "CONTENT_TYPE_NOT_SUPPORTED",
    );
    expect(error.message).toContain(type);
    expect(handled).toBe(0);
  });

  it("rejects a body without Content-Type", async () => {
    await expectError(
      call("POST", "/message:send", { body: new TextEncoder().encode(sendBody("none")) }),
      400,
      "INVALID_ARGUMENT",
      "CONTENT_TYPE_NOT_SUPPORTED",
    );
  });

  // The v1.0.0-style answer to a wrong content type (spec K3/K6: RFC 9457 problem+json / other status codes) is not
  // what this server implements (§11.6 is), so there is nothing to test for it here.

  it("an empty body on POST /tasks/x:cancel is a valid CancelTask (no Content-Type needed)", async () => {
    const ops = await operationsDuring(async () => {
      const res = await fetch(`${base}/tasks/x:cancel`, { method: "POST", headers: V });
      expect(res.status).toBe(200);
      expect(((await res.json()) as any).status.state).toBe("TASK_STATE_CANCELED");
      const typed = await call("POST", "/tasks/y:cancel", {
        body: "",
        headers: { "content-type": "text/plain" },
      });
      expect(typed.json.id).toBe("y");
    });
    expect(ops).toEqual(["CancelTask", "CancelTask"]);
  });

  it("an empty body on POST /tasks/x:subscribe is a valid SubscribeToTask (SSE)", async () => {
    const ops = await operationsDuring(async () => {
      const res = await fetch(`${base}/tasks/x:subscribe`, {
        method: "POST",
        headers: { ...V, accept: "text/event-stream" },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/event-stream");
      const events = sseEvents(await res.text());
      expect(
        events.map((e) => JSON.parse(e.data).task?.id ?? JSON.parse(e.data).statusUpdate?.taskId),
      ).toEqual(["x", "x"]);
    });
    expect(ops).toEqual(["SubscribeToTask"]);
  });

  it.each([
    ["truncated JSON", '{"message":', "JSON_PARSE"],
    ["not JSON", "hello", "JSON_PARSE"],
    ["a JSON array", "[]", "INVALID_PARAMS"],
    ["JSON null", "null", "INVALID_PARAMS"],
    [
      "a missing required field",
      JSON.stringify({ message: { role: "ROLE_USER", parts: [{ text: "x" }] } }),
      "INVALID_PARAMS",
    ],
    [
      "an unknown enum name",
      JSON.stringify({ message: { messageId: "m", role: "ROLE_GOD", parts: [{ text: "x" }] } }),
      "INVALID_PARAMS",
    ],
    [
      "a tenant disagreeing with the path",
      JSON.stringify({ tenant: "other", ...message("x") }),
      "INVALID_PARAMS",
    ],
  ])("a body with %s → 400 %s", async (name, body, reason) => {
    const path = name.includes("tenant") ? "/acme/message:send" : "/message:send";
    const { handled } = await expectError(
      call("POST", path, { body }),
      400,
      "INVALID_ARGUMENT",
      reason,
    );
    expect(handled).toBe(0);
  });

  it("a body that is not UTF-8 → 400 JSON_PARSE", async () => {
    const bytes = new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]);
    await expectError(
      call("POST", "/message:send", { body: bytes, headers: JSON_CT }),
      400,
      "INVALID_ARGUMENT",
      "JSON_PARSE",
    );
  });

  it("maxBodyBytes: exactly the limit is read, one byte more is 413 (reason INVALID_REQUEST) with Connection: close", async () => {
    const body = sendBody("size");
    const exact = body + " ".repeat(1024 - body.length);
    expect(new TextEncoder().encode(exact).length).toBe(1024);
    const ok = await call("POST", "/message:send", { body: exact, url: small.url });
    expect(ok.status, ok.text).toBe(200);
    const { error, res, handled } = await expectError(
      call("POST", "/message:send", { body: exact + " ", url: small.url }),
      413,
      "INVALID_ARGUMENT",
      "INVALID_REQUEST",
    );
    expect(error.message).toBe("the request body exceeds the limit of 1024 bytes");
    expect(res.headers.get("connection")).toBe("close");
    expect(handled).toBe(0);
  });

  it("a huge body (4 MiB) over the limit is refused without breaking the server", async () => {
    const huge = JSON.stringify({
      message: {
        messageId: "m",
        role: "ROLE_USER",
        parts: [{ text: "x".repeat(4 * 1024 * 1024) }],
      },
    });
    const res: Answer | Error = await call("POST", "/message:send", {
      body: huge,
      url: small.url,
    }).catch((e: unknown) => (e instanceof Error ? e : new Error(String(e))));
    // the server may close the connection before the upload ends; if the answer arrives it is the §11.6 error
    if (!(res instanceof Error)) {
      expect(res.status).toBe(413);
      expectStatusBody(res.json, 413, "INVALID_ARGUMENT", "INVALID_REQUEST");
    }
    const after = await call("POST", "/message:send", { body: sendBody("after"), url: small.url });
    expect(after.json.message.parts[0].text).toBe("after");
  });

  it("deeply nested JSON (100 000 levels in metadata) is a 400 INVALID_REQUEST (maxJsonDepth, before parsing), not a 500 or a crash", async () => {
    const depth = 100_000;
    const body = `{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"x"}],"metadata":{"a":${"[".repeat(depth)}${"]".repeat(depth)}}}}`;
    const { error, handled } = await expectError(
      call("POST", "/message:send", { body }),
      400,
      "INVALID_ARGUMENT",
      "INVALID_REQUEST",
    );
    expect(error.message).toContain("deeper than 64 levels");
    expect(handled).toBe(0);
  });

  it("__proto__ keys in the body neither pollute prototypes nor set the tenant", async () => {
    const body = `{"__proto__":{"tenant":"evil","polluted":1},"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"p"}],"metadata":{"__proto__":{"polluted":2}}},"constructor":{"prototype":{"polluted":3}}}`;
    const res = await call("POST", "/message:send", { body });
    expect(res.status, res.text).toBe(200);
    expect(res.json.message.parts[0].text).toBe("p");
    expect(agent.contexts.at(-1)?.tenant).toBe("");
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty("polluted");
    expect(Object.prototype).not.toHaveProperty("tenant");
  });
});

// ---------------------------------------------------------------------------------------
// responses
// ---------------------------------------------------------------------------------------

describe("response Content-Type", () => {
  it("is application/a2a+json by default, for results and errors", async () => {
    expect((await call("GET", "/tasks/t")).headers.get("content-type")).toBe(
      "application/a2a+json",
    );
    expect(
      (await call("POST", "/message:send", { body: sendBody("x") })).headers.get("content-type"),
    ).toBe("application/a2a+json");
    expect((await call("GET", "/tasks/missing")).headers.get("content-type")).toBe(
      "application/a2a+json",
    );
  });

  it('is application/json with responseContentType: "application/json", errors included; streams stay text/event-stream', async () => {
    const ok = await call("GET", "/tasks/t", { url: plain.url });
    expect(ok.headers.get("content-type")).toBe("application/json");
    expect(ok.json.id).toBe("t");
    await expectError(
      call("GET", "/tasks/missing", { url: plain.url }),
      404,
      "NOT_FOUND",
      "TASK_NOT_FOUND",
      "application/json",
    );
    await expectError(
      call("PUT", "/tasks/t", { url: plain.url }),
      405,
      "UNIMPLEMENTED",
      "METHOD_NOT_FOUND",
      "application/json",
    );
    await expectError(
      call("GET", "/nope", { url: plain.url }),
      404,
      "NOT_FOUND",
      "METHOD_NOT_FOUND",
      "application/json",
    );
    const stream = await fetch(`${plain.url}message:stream`, {
      method: "POST",
      headers: { ...V, ...JSON_CT },
      body: sendBody("s"),
    });
    expect(stream.headers.get("content-type")).toBe("text/event-stream");
    expect(sseEvents(await stream.text())).toHaveLength(4);
  });
});

describe("version negotiation (§3.6)", () => {
  it.each([
    [{}, ""],
    [{ "a2a-version": "" }, ""],
    [{ "a2a-version": "0.3" }, ""],
    [{ "a2a-version": "2.0" }, ""],
    [{ "a2a-version": "1.0" }, "?a2a-version=2.0"],
  ])(
    "headers %j query %j → 400 FAILED_PRECONDITION VERSION_NOT_SUPPORTED",
    async (headers, query) => {
      const res = await fetch(`${base}/tasks/t${query}`, { headers });
      const text = await res.text();
      expect(res.status).toBe(400);
      const error = expectStatusBody(
        JSON.parse(text),
        400,
        "FAILED_PRECONDITION",
        "VERSION_NOT_SUPPORTED",
        text,
      );
      expect(error.message).toMatch(/supported versions: 1\.0$/);
      expect(error.details[0].metadata.supportedVersions).toBe("1.0");
      if (!("a2a-version" in headers) || headers["a2a-version"] === "")
        expect(error.details[0].metadata.requestedVersion).toBe("0.3");
    },
  );

  it.each([
    [{ "a2a-version": "1.0" }, ""],
    [{ "a2a-version": "1.0.3" }, ""],
    [{}, "?A2A-Version=1.0"],
    [{}, "?a2a-version=1.0"],
    [{ "a2a-version": "0.3" }, "?A2A-Version=1.0"],
  ])("headers %j query %j → 200", async (headers, query) => {
    const get = await fetch(`${base}/tasks/t${query}`, { headers });
    expect(get.status).toBe(200);
    const post = await fetch(`${base}/message:send${query}`, {
      method: "POST",
      headers: { ...headers, ...JSON_CT },
      body: sendBody("v"),
    });
    expect(post.status).toBe(200);
    expect(agent.contexts.at(-1)?.requestedVersion).toBe("1.0");
  });
});

// ---------------------------------------------------------------------------------------
// the §11.6 shape of every error
// ---------------------------------------------------------------------------------------

describe("every error body has the exact §11.6 shape", () => {
  it.each([
    [
      "TaskNotFoundError from the handler",
      404,
      "NOT_FOUND",
      "TASK_NOT_FOUND",
      () => call("GET", "/tasks/missing"),
    ],
    [
      "TaskNotFoundError from SendMessage",
      404,
      "NOT_FOUND",
      "TASK_NOT_FOUND",
      () => call("POST", "/message:send", { body: sendBody("fail") }),
    ],
    [
      "a plain Error from the handler",
      500,
      "INTERNAL",
      "INTERNAL",
      () => call("POST", "/message:send", { body: sendBody("crash") }),
    ],
    [
      "an error before the first stream event",
      400,
      "FAILED_PRECONDITION",
      "UNSUPPORTED_OPERATION",
      () => call("POST", "/message:stream", { body: sendBody("fail-early") }),
    ],
    [
      "no credentials",
      401,
      "UNAUTHENTICATED",
      "UNAUTHENTICATED",
      () => call("GET", "/tasks/t", { url: guarded.url }),
    ],
    [
      "a missing required extension",
      400,
      "FAILED_PRECONDITION",
      "EXTENSION_SUPPORT_REQUIRED",
      () =>
        call("GET", "/tasks/t", { url: guarded.url, headers: { authorization: "Bearer good" } }),
    ],
    [
      "a missing REQUIRED field",
      400,
      "INVALID_ARGUMENT",
      "INVALID_PARAMS",
      () => call("POST", "/message:send", { body: "{}" }),
    ],
  ] as const)("%s → %i %s %s", async (name, status, grpc, reason, request) => {
    const { error } = await expectError(request(), status, grpc, reason);
    if (name === "TaskNotFoundError from the handler")
      expect(error.details[0].metadata).toEqual({ taskId: "missing" });
    if (reason === "INVALID_PARAMS")
      expect(error.details[1]["@type"]).toBe("type.googleapis.com/google.rpc.BadRequest");
  });

  it("an internal error hides the thrown message and stack", async () => {
    const res = await call("POST", "/message:send", { body: sendBody("crash") });
    expect(res.json.error.message).toBe("Internal error");
    expect(res.text).not.toContain("hunter2");
  });

  it("with credentials and the extension the guarded server answers, and echoes the activated extension", async () => {
    const res = await call("GET", "/tasks/t", {
      url: guarded.url,
      headers: { authorization: "Bearer good", "a2a-extensions": ECHO_EXTENSION },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("a2a-extensions")).toBe(ECHO_EXTENSION);
    expect(agent.contexts.at(-1)?.principal).toEqual({ user: "u" });
  });
});

// ---------------------------------------------------------------------------------------
// streams (§11.7)
// ---------------------------------------------------------------------------------------

describe("SSE streams", () => {
  it("each data: line is a bare StreamResponse (no envelope), in order", async () => {
    const res = await fetch(`${base}/message:stream`, {
      method: "POST",
      headers: { ...V, ...JSON_CT, accept: "text/event-stream" },
      body: sendBody("hello"),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    expect(res.headers.get("cache-control")).toBe("no-cache");
    const text = await res.text();
    const events = sseEvents(text);
    expect(events.every((e) => e.event === undefined)).toBe(true);
    const payloads = events.map((e) => JSON.parse(e.data) as Record<string, any>);
    for (const p of payloads) {
      expect(Object.keys(p)).toHaveLength(1);
      expect(STREAM_KINDS).toContain(Object.keys(p)[0]);
    }
    expect(payloads.map((p) => Object.keys(p)[0])).toEqual([
      "task",
      "statusUpdate",
      "artifactUpdate",
      "statusUpdate",
    ]);
    expect(payloads[2]!.artifactUpdate.artifact.parts[0].text).toBe("hello");
    expect(payloads[3]!.statusUpdate.status.state).toBe("TASK_STATE_COMPLETED");
    // one event per data line: every event is exactly "data: <json>\n\n"
    expect(
      text
        .split("\n\n")
        .filter((b) => b !== "")
        .every((b) => /^data: \{.*\}$/.test(b) || b.startsWith(":")),
    ).toBe(true);
  });

  it("sends keep-alive comments while idle", async () => {
    const res = await fetch(`${base}/message:stream`, {
      method: "POST",
      headers: { ...V, ...JSON_CT },
      body: sendBody("slow"),
    });
    const text = await readSse(res, (t) => (t.match(/: keep-alive\n\n/g) ?? []).length >= 2);
    expect(JSON.parse(sseEvents(text)[0]!.data).task.id).toBe("t-slow");
    expect(text).toMatch(/^data: .*\n\n(: keep-alive\n\n){2}/);
  });

  it("an error after the first event is a final `event: error` with the §11.6 body", async () => {
    const res = await fetch(`${base}/message:stream`, {
      method: "POST",
      headers: { ...V, ...JSON_CT },
      body: sendBody("fail-late"),
    });
    expect(res.status).toBe(200);
    const text = await res.text();
    const events = sseEvents(text);
    expect(events.map((e) => e.event)).toEqual([undefined, undefined, "error"]);
    expect(Object.keys(JSON.parse(events[0]!.data))).toEqual(["task"]);
    expectStatusBody(JSON.parse(events[2]!.data), 500, "INTERNAL", "INTERNAL", events[2]!.data);
    expect(text).not.toContain("exploded");
    expect(text.endsWith("\n\n")).toBe(true);
  });

  it("an error before the first event is a plain §11.6 answer, not a stream", async () => {
    const { res } = await expectError(
      call("POST", "/message:stream", { body: sendBody("fail-early") }),
      400,
      "FAILED_PRECONDITION",
      "UNSUPPORTED_OPERATION",
    );
    expect(res.headers.get("content-type")).not.toContain("event-stream");
  });

  it("a client that disconnects mid-stream aborts the handler and leaves no timers behind", async () => {
    const timersBefore = process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;
    agent.streamAborted = false;
    agent.streamFinally = false;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("no event")), 3000);
      const req = httpRequest(
        `${base}/message:stream`,
        { method: "POST", headers: { ...V, ...JSON_CT } },
        (res) => {
          res.once("data", () => {
            clearTimeout(timer);
            req.destroy();
            resolve();
          });
        },
      );
      req.on("error", () => {});
      req.end(sendBody("slow"));
    });
    await eventually(() => agent.streamAborted && agent.streamFinally);
    await eventually(
      () => process.getActiveResourcesInfo().filter((r) => r === "Timeout").length <= timersBefore,
    );
  });

  it("a client that disconnects before the first event (or during a unary call) aborts the handler", async () => {
    for (const path of ["message:stream", "message:send"]) {
      const req = httpRequest(`${hanging.url}${path}`, {
        method: "POST",
        headers: { ...V, ...JSON_CT },
      });
      req.on("error", () => {});
      req.end(sendBody("hang"));
      await eventually(
        () =>
          hangingAgent.contexts.length > 0 &&
          hangingAgent.contexts.at(-1)!.operation ===
            (path === "message:send" ? "SendMessage" : "SendStreamingMessage"),
      );
      req.destroy();
    }
    await eventually(
      () =>
        hangingAgent.seen.streamAborted &&
        hangingAgent.seen.streamFinally &&
        hangingAgent.seen.unaryAborted,
    );
  });

  it("streams 5 000 events in order", async () => {
    const res = await fetch(`${base}/message:stream`, {
      method: "POST",
      headers: { ...V, ...JSON_CT },
      body: sendBody("count 5000"),
    });
    const events = sseEvents(await res.text()).map((e) => JSON.parse(e.data).message.parts[0].text);
    expect(events).toHaveLength(5000);
    expect(events[0]).toBe("event 0");
    expect(events[4999]).toBe("event 4999");
  });
});
