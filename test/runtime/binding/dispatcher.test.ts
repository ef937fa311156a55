/**
 * createBindingDispatcher (runtime/src/binding/dispatcher.ts): the pipeline a custom binding's
 * server runs every call through gives the standard servers' answers, in their order:
 * unknown operation, authentication, version, required extensions, ProtoJSON and REQUIRED
 * validation, the handler's typed errors passed through, anything else an InternalError that
 * leaks nothing; streams encoded event by event, cancellation reaching the handler.
 */
import { create } from "@bufbuild/protobuf";
import { A2AError, type JsonRpcErrorObject } from "@protoc-gen-a2a/runtime";
import { createBindingDispatcher, type BindingResult } from "@protoc-gen-a2a/runtime/binding";
import { describe, expect, it } from "vitest";
import { errorSpecs, UnauthenticatedError } from "../../../generated-example/gen/a2a_a2a_errors.js";
import {
  A2AServiceOperationsByName,
  A2AServiceRequiredFields,
  A2AServiceResponseFields,
  dispatchA2AService,
  type A2AServiceOperationName,
} from "../../../generated-example/gen/a2a_a2a_handler.js";
import { GetTaskRequestSchema } from "../../../generated-example/gen/a2a_pb.js";
import { ECHO_EXTENSION, TestAgent } from "../../support/test-agent.js";

const URI = "https://example.com/a2a/bindings/test/v1";
const V1 = { "A2A-Version": "1.0" };

function dispatcher(options: Parameters<typeof createBindingDispatcher<{ user: string }>>[2] = {}) {
  const agent = new TestAgent();
  const logged: string[] = [];
  const d = createBindingDispatcher<{ user: string }>(
    {
      operations: A2AServiceOperationsByName,
      requestFields: A2AServiceRequiredFields,
      responseFields: A2AServiceResponseFields,
      errors: errorSpecs,
      dispatch: (operation, request, context) =>
        dispatchA2AService(agent, operation as A2AServiceOperationName, request, context),
    },
    URI,
    { logger: { error: (m, cause) => logged.push(`${m}: ${String(cause)}`) }, ...options },
  );
  return { agent, logged, d };
}

async function failure(
  promise: Promise<unknown>,
): Promise<{ type: string; code: number; message: string }> {
  try {
    await promise;
  } catch (e) {
    expect(e).toBeInstanceOf(A2AError);
    const err = e as A2AError;
    return { type: err.spec.reason, code: err.spec.jsonRpcCode, message: err.message };
  }
  throw new Error("expected the call to fail");
}

const send = (text: string) => ({
  message: { messageId: "m-1", role: "ROLE_USER", parts: [{ text }] },
});

async function events(result: BindingResult): Promise<unknown[]> {
  if (result.kind !== "stream") throw new Error("not a stream");
  const out: unknown[] = [];
  for await (const e of result.events) out.push(e);
  return out;
}

describe("createBindingDispatcher", () => {
  it("answers a unary call with the ProtoJSON response, REQUIRED zero values emitted, and reports the activated extensions", async () => {
    const { d, agent } = dispatcher();
    const reply = await d.call({
      operation: "SendMessage",
      request: send("hello"),
      serviceParameters: { ...V1, "a2a-extensions": ECHO_EXTENSION },
    });
    expect(reply).toMatchObject({
      kind: "unary",
      activatedExtensions: [ECHO_EXTENSION],
      response: { message: { role: "ROLE_AGENT", parts: [{ text: "hello" }] } },
    });
    expect(agent.contexts[0]).toMatchObject({
      binding: URI,
      operation: "SendMessage",
      requestedVersion: "1.0",
    });
    const list = await d.call({ operation: "ListTasks", request: {}, serviceParameters: V1 });
    expect(list).toMatchObject({
      kind: "unary",
      response: { tasks: [], nextPageToken: "", pageSize: 50, totalSize: 0 },
    });
  });

  it("takes a decoded message as the request too, and validates it like JSON", async () => {
    const { d } = dispatcher();
    expect(
      await d.call({
        operation: "GetTask",
        request: create(GetTaskRequestSchema, { id: "t-9" }),
        serviceParameters: V1,
      }),
    ).toMatchObject({ response: { id: "t-9" } });
    expect(
      await failure(
        d.call({
          operation: "GetTask",
          request: create(GetTaskRequestSchema, {}),
          serviceParameters: V1,
        }),
      ),
    ).toMatchObject({ type: "INVALID_PARAMS", code: -32602 });
  });

  it.each([
    ["an unknown operation", { operation: "Nope", request: {} }, "METHOD_NOT_FOUND", -32601],
    [
      "an unsupported version",
      { operation: "GetTask", request: { id: "t" }, serviceParameters: { "a2a-version": "9.9" } },
      "VERSION_NOT_SUPPORTED",
      -32009,
    ],
    [
      "no version: 0.3, unsupported (§3.6.2)",
      { operation: "GetTask", request: { id: "t" } },
      "VERSION_NOT_SUPPORTED",
      -32009,
    ],
    [
      "a REQUIRED field missing",
      { operation: "GetTask", request: {}, serviceParameters: V1 },
      "INVALID_PARAMS",
      -32602,
    ],
    [
      "a wrong type",
      { operation: "GetTask", request: { id: 5 }, serviceParameters: V1 },
      "INVALID_PARAMS",
      -32602,
    ],
    [
      "a Part without content",
      {
        operation: "SendMessage",
        request: { message: { messageId: "m", role: "ROLE_USER", parts: [{}] } },
        serviceParameters: V1,
      },
      "INVALID_PARAMS",
      -32602,
    ],
    [
      "the handler's typed error",
      { operation: "GetTask", request: { id: "missing" }, serviceParameters: V1 },
      "TASK_NOT_FOUND",
      -32001,
    ],
  ])("fails %s with the standard error", async (_name, call, type, code) => {
    const { d } = dispatcher();
    expect(await failure(d.call(call))).toMatchObject({ type, code });
  });

  it("turns a handler's own throw into InternalError, logged, its message not sent", async () => {
    const { d, logged } = dispatcher();
    const err = await failure(
      d.call({ operation: "SendMessage", request: send("crash"), serviceParameters: V1 }),
    );
    expect(err).toMatchObject({ type: "INTERNAL", code: -32603 });
    expect(err.message).not.toContain("hunter2");
    expect(logged.join("\n")).toContain("hunter2");
  });

  it("authenticates first, with the service parameters and the binding's URI, then checks version and extensions", async () => {
    const seen: unknown[] = [];
    const { d } = dispatcher({
      authenticate: (req) => {
        seen.push({
          binding: req.binding,
          operation: req.operation,
          authorization: req.serviceParameters.get("authorization"),
        });
        if (req.serviceParameters.get("authorization") !== "Bearer ok")
          throw new UnauthenticatedError("Unknown token");
        return { user: "u" };
      },
      requiredExtensions: [ECHO_EXTENSION],
    });
    // A bad token is refused before the (also unsupported) version is looked at.
    expect(
      await failure(
        d.call({
          operation: "GetTask",
          request: { id: "t" },
          serviceParameters: { authorization: "Bearer bad", "a2a-version": "9.9" },
        }),
      ),
    ).toMatchObject({ type: "UNAUTHENTICATED" });
    expect(
      await failure(
        d.call({
          operation: "GetTask",
          request: { id: "t" },
          serviceParameters: [
            ["Authorization", "Bearer ok"],
            ["A2A-Version", "1.0"],
          ],
        }),
      ),
    ).toMatchObject({ type: "EXTENSION_SUPPORT_REQUIRED" });
    expect(
      await d.call({
        operation: "GetTask",
        request: { id: "t" },
        serviceParameters: { authorization: "Bearer ok", ...V1, "A2A-Extensions": ECHO_EXTENSION },
      }),
    ).toMatchObject({ kind: "unary" });
    expect(seen[0]).toEqual({ binding: URI, operation: "GetTask", authorization: "Bearer bad" });
  });

  it("streams every event in order; an error before the first event rejects the call, one after it ends the iteration", async () => {
    const { d, logged } = dispatcher();
    const stream = await d.call({
      operation: "SendStreamingMessage",
      request: send("go"),
      serviceParameters: V1,
    });
    expect((await events(stream)).map((e) => Object.keys(e as object)[0])).toEqual([
      "task",
      "statusUpdate",
      "artifactUpdate",
      "statusUpdate",
    ]);
    expect(
      await failure(
        d.call({
          operation: "SendStreamingMessage",
          request: send("fail-early"),
          serviceParameters: V1,
        }),
      ),
    ).toMatchObject({ type: "UNSUPPORTED_OPERATION" });
    const late = await d.call({
      operation: "SendStreamingMessage",
      request: send("fail-late"),
      serviceParameters: V1,
    });
    const seen: unknown[] = [];
    let thrown: unknown;
    try {
      if (late.kind !== "stream") throw new Error("not a stream");
      for await (const e of late.events) seen.push(e);
    } catch (e) {
      thrown = e;
    }
    expect(seen).toHaveLength(2);
    expect(thrown).toBeInstanceOf(A2AError);
    const wire: JsonRpcErrorObject = {
      code: (thrown as A2AError).spec.jsonRpcCode,
      message: (thrown as A2AError).message,
      data: [],
    };
    expect(wire).toMatchObject({ code: -32603 });
    expect(wire.message).not.toContain("secret");
    expect(logged.join("\n")).toContain("secret details");
  });

  it("aborts the handler when the binding's signal aborts, and closes its generator", async () => {
    const { d, agent } = dispatcher();
    const abort = new AbortController();
    const stream = await d.call({
      operation: "SendStreamingMessage",
      request: send("slow"),
      serviceParameters: V1,
      signal: abort.signal,
    });
    if (stream.kind !== "stream") throw new Error("not a stream");
    const it = stream.events[Symbol.asyncIterator]();
    expect(Object.keys((await it.next()).value as object)).toEqual(["task"]);
    const pending = it.next();
    abort.abort();
    expect((await pending).done).toBe(true);
    expect(agent.streamAborted).toBe(true);
    expect(agent.streamFinally).toBe(true);
  });
});
