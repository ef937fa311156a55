import { create, fromJson, type JsonValue } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import {
  GetTaskPushNotificationConfigRequestSchema,
  PartSchema,
  Role,
  SendMessageRequestSchema,
  TaskPushNotificationConfigSchema,
} from "../../generated-example/gen/a2a_pb.js";
import {
  A2AServiceOperations,
  A2AServiceRequiredFields,
  serviceParameters,
} from "../../generated-example/gen/a2a_a2a_handler.js";
import {
  InternalError,
  TaskNotFoundError,
  UnauthenticatedError,
  VersionNotSupportedError,
  asA2AError,
  errorRegistry,
  errorSpecs,
} from "../../generated-example/gen/a2a_a2a_errors.js";
import {
  A2AServiceJsonRpcMethods,
  findA2AServiceJsonRpcMethod,
} from "../../generated-example/gen/a2a_a2a_jsonrpc_methods.js";
import { A2AServiceRoutes } from "../../generated-example/gen/a2a_a2a_rest_routes.js";
import { matchRoute } from "@protoc-gen-a2a/runtime/rest";
import { findMissingFields } from "@protoc-gen-a2a/runtime";
import { A2AError, toGrpcStatus, toHttpError, toJsonRpcError } from "@protoc-gen-a2a/runtime";

/** The checked-in output, used the way an agent project would use it. */
describe("generated errors", () => {
  it.each(Object.keys(errorSpecs))(
    "%s survives every binding's wire form as the same class",
    (name) => {
      const spec = errorSpecs[name as keyof typeof errorSpecs];
      const registered = errorRegistry.specs.find((s) => s.name === name);
      expect(registered).toBe(spec);
      const err = asA2AError(new A2AError(spec, "boom", { metadata: { taskId: "t-1" } }));
      const json = JSON.parse(JSON.stringify(toJsonRpcError(err)));
      const http = toHttpError(err);
      const grpc = toGrpcStatus(err);
      for (const back of [
        errorRegistry.fromJsonRpcError(json),
        errorRegistry.fromHttpError(http.status, JSON.parse(JSON.stringify(http.body))),
        errorRegistry.fromGrpcStatus(grpc.code, grpc.message, grpc.details),
      ]) {
        expect(back.name).toBe(name);
        expect(back.constructor.name).toBe(name);
        expect(back.message).toBe("boom");
        expect(back.metadata).toEqual({ taskId: "t-1" });
      }
    },
  );

  it("reconstructs the typed class, so clients can catch it with instanceof", () => {
    const wire = toJsonRpcError(
      new TaskNotFoundError("Task t-9 not found", { metadata: { taskId: "t-9" } }),
    );
    expect(wire).toEqual({
      code: -32001,
      message: "Task t-9 not found",
      data: [
        {
          "@type": "type.googleapis.com/google.rpc.ErrorInfo",
          reason: "TASK_NOT_FOUND",
          domain: "a2a-protocol.org",
          metadata: { taskId: "t-9" },
        },
      ],
    });
    expect(errorRegistry.fromJsonRpcError(wire)).toBeInstanceOf(TaskNotFoundError);
    const http = toHttpError(
      new VersionNotSupportedError("A2A version 9.9 is not supported; supported: 1.0"),
    );
    expect(http.status).toBe(400);
    expect(http.body.error.status).toBe("FAILED_PRECONDITION");
    expect(errorRegistry.fromHttpError(http.status, http.body)).toBeInstanceOf(
      VersionNotSupportedError,
    );
    expect(toHttpError(new UnauthenticatedError()).status).toBe(401);
  });

  it("never leaks what a handler threw", () => {
    const err = asA2AError(new Error("db password is hunter2"));
    expect(err).toBeInstanceOf(InternalError);
    expect(JSON.stringify(toJsonRpcError(err))).not.toContain("hunter2");
    expect(JSON.stringify(toHttpError(err).body)).not.toContain("hunter2");
    expect(toGrpcStatus(err).message).not.toContain("hunter2");
    expect(asA2AError("a string")).toBeInstanceOf(InternalError);
  });
});

describe("generated REQUIRED-field table", () => {
  const table = A2AServiceRequiredFields;

  it("accepts a complete SendMessageRequest", () => {
    const req = fromJson(SendMessageRequestSchema, {
      message: { messageId: "m-1", role: "ROLE_USER", parts: [{ text: "hi" }] },
    });
    expect(findMissingFields(table, req.$typeName, req)).toEqual([]);
  });

  it.each([
    [{}, ["message"]],
    [{ message: {} }, ["message.messageId", "message.role", "message.parts"]],
    [{ message: { messageId: "m", role: "ROLE_USER", parts: [] } }, ["message.parts"]],
    [
      { message: { messageId: "m", role: "ROLE_UNSPECIFIED", parts: [{ text: "x" }] } },
      ["message.role"],
    ],
    [
      {
        message: {
          messageId: "m",
          role: "ROLE_USER",
          parts: [{ text: "x" }, { mediaType: "text/plain" }],
        },
      },
      ["message.parts[1].content"],
    ],
    [
      {
        message: { messageId: "m", role: "ROLE_USER", parts: [{ text: "x" }] },
        configuration: { taskPushNotificationConfig: { authentication: {} } },
      },
      [
        "configuration.taskPushNotificationConfig.url",
        "configuration.taskPushNotificationConfig.authentication.scheme",
      ],
    ],
  ])("reports the missing fields of %j", (json, fields) => {
    const req = fromJson(SendMessageRequestSchema, json as JsonValue);
    expect(findMissingFields(table, req.$typeName, req).map((v) => v.field)).toEqual(fields);
  });

  it("covers every request of the service and reads binary-built messages too", () => {
    const req = create(GetTaskPushNotificationConfigRequestSchema, { taskId: "t" });
    expect(findMissingFields(table, req.$typeName, req)).toEqual([
      { field: "id", description: "id is required" },
    ]);
    const cfg = create(TaskPushNotificationConfigSchema, { url: "https://example.com/hook" });
    expect(findMissingFields(table, cfg.$typeName, cfg)).toEqual([]);
    // A Part needs exactly one content (spec §4.1.6): the one rule of its entry.
    expect(table[create(PartSchema).$typeName]).toEqual([
      { name: "content", json: "content", check: "oneof", members: ["text", "raw", "url", "data"] },
    ]);
    void Role;
  });
});

describe("generated route table", () => {
  it.each([
    ["POST", "/message:send", "SendMessage", {}],
    ["POST", "/acme/message:stream", "SendStreamingMessage", { tenant: "acme" }],
    ["GET", "/tasks/t-1", "GetTask", { id: "t-1" }],
    ["GET", "/acme/tasks", "ListTasks", { tenant: "acme" }],
    ["POST", "/tasks/t-1:cancel", "CancelTask", { id: "t-1" }],
    ["GET", "/tasks/t-1:subscribe", "SubscribeToTask", { id: "t-1" }],
    ["POST", "/acme/tasks/t-1:subscribe", "SubscribeToTask", { tenant: "acme", id: "t-1" }],
    [
      "POST",
      "/tasks/t-1/pushNotificationConfigs",
      "CreateTaskPushNotificationConfig",
      { task_id: "t-1" },
    ],
    [
      "GET",
      "/tasks/t-1/pushNotificationConfigs/c-1",
      "GetTaskPushNotificationConfig",
      { task_id: "t-1", id: "c-1" },
    ],
    [
      "GET",
      "/tasks/t-1/pushNotificationConfigs",
      "ListTaskPushNotificationConfigs",
      { task_id: "t-1" },
    ],
    [
      "DELETE",
      "/acme/tasks/t-1/pushNotificationConfigs/c-1",
      "DeleteTaskPushNotificationConfig",
      { tenant: "acme", task_id: "t-1", id: "c-1" },
    ],
    ["GET", "/extendedAgentCard", "GetExtendedAgentCard", {}],
    ["GET", "/tasks/abc%3Asubscribe", "GetTask", { id: "abc:subscribe" }],
  ])("%s %s → %s", (method, path, operation, params) => {
    const m = matchRoute(A2AServiceRoutes, method, path);
    if (m.kind !== "match") throw new Error(`no match: ${JSON.stringify(m)}`);
    expect(m.route.operation).toBe(operation);
    expect({ ...m.params }).toEqual(params);
  });

  it("answers 405 with Allow and 404 from the same table", () => {
    expect(matchRoute(A2AServiceRoutes, "PUT", "/tasks/t-1")).toEqual({
      kind: "method-not-allowed",
      allow: ["GET"],
    });
    expect(matchRoute(A2AServiceRoutes, "GET", "/nope/nope/nope")).toEqual({ kind: "not-found" });
  });
});

describe("generated operation and method tables", () => {
  it("map JSON-RPC method names to operations with their schemas", () => {
    expect(Object.keys(A2AServiceJsonRpcMethods)).toHaveLength(11);
    expect(findA2AServiceJsonRpcMethod("SendMessage")).toBe(A2AServiceOperations.sendMessage);
    expect(findA2AServiceJsonRpcMethod("SendStreamingMessage")?.kind).toBe("server_streaming");
    expect(findA2AServiceJsonRpcMethod("message/send")).toBeUndefined();
    expect(findA2AServiceJsonRpcMethod("toString")).toBeUndefined();
    expect(findA2AServiceJsonRpcMethod("__proto__")).toBeUndefined();
    expect(A2AServiceOperations.getTask.input.typeName).toBe("lf.a2a.v1.GetTaskRequest");
    expect(serviceParameters.version).toEqual({
      name: "A2A-Version",
      grpcKey: "a2a-version",
      query: true,
    });
  });
});
