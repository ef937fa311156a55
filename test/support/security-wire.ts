// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * For the security tests: one A2A call as raw bytes on each binding of the example agent, and
 * its answer as one string (status, content type, body, gRPC status and details), so that two
 * answers can be compared byte by byte (test/e2e/security/isolation.test.ts: the answer about another
 * principal's task is the answer about a task that does not exist, once the id is replaced).
 * JSON-RPC, HTTP+JSON and the Connect protocol by fetch, gRPC-web by fetch with its framing, gRPC
 * by a raw grpc-js client (binary in, status and `grpc-status-details-bin` out), WebSocket by a
 * raw `ws` socket.
 */
import { fromJson, toBinary, type JsonObject } from "@bufbuild/protobuf";
import { Client as GrpcJsClient, credentials, Metadata, type ServiceError } from "@grpc/grpc-js";
import { WebSocket } from "ws";
import { A2AServiceOperationsByName } from "../../generated-example/gen/a2a_a2a_handler.js";
import type { OperationName, Target } from "./security-operations.js";

/** The bindings the raw calls speak, as the example agent serves them. */
export const WIRE_BINDINGS = ["JSONRPC", "HTTP+JSON", "GRPC", "GRPC-WEB", "CONNECT", "WS"] as const;
/** One of {@link WIRE_BINDINGS}. */
export type WireBinding = (typeof WIRE_BINDINGS)[number];

/** Where the example agent serves its bindings (`ExampleAgent.endpoints`). */
export interface WireEndpoints {
  readonly jsonrpc: string;
  readonly rest: string;
  readonly grpc: string;
  readonly connect: string;
  readonly ws: string;
}

/** A fixed messageId, so that two SendMessage calls differ only in what the test varies. */
const MESSAGE_ID = "m-security-wire";

/** The ProtoJSON request of an operation about `target`. */
export function requestJson(operation: OperationName, target: Target): JsonObject {
  const tenant: JsonObject =
    target.tenant === undefined || target.tenant === "" ? {} : { tenant: target.tenant };
  const ids: JsonObject = {};
  if (target.taskId !== undefined) ids["taskId"] = target.taskId;
  if (target.contextId !== undefined) ids["contextId"] = target.contextId;
  switch (operation) {
    case "SendMessage":
    case "SendStreamingMessage":
      return {
        ...tenant,
        message: { messageId: MESSAGE_ID, role: "ROLE_USER", parts: [{ text: "hello" }], ...ids },
      };
    case "GetTask":
    case "CancelTask":
    case "SubscribeToTask":
      return { ...tenant, id: target.taskId ?? "" };
    case "ListTasks":
      return {
        ...tenant,
        ...(target.contextId === undefined ? {} : { contextId: target.contextId }),
      };
    case "CreateTaskPushNotificationConfig":
      return { ...tenant, taskId: target.taskId ?? "", url: "http://127.0.0.1:9/hook" };
    case "GetTaskPushNotificationConfig":
    case "DeleteTaskPushNotificationConfig":
      return { ...tenant, taskId: target.taskId ?? "", id: target.configId ?? "cfg-1" };
    case "ListTaskPushNotificationConfigs":
      return { ...tenant, taskId: target.taskId ?? "" };
    case "GetExtendedAgentCard":
      return { ...tenant };
  }
}

/** The HTTP+JSON method, path (below the base) and body of an operation about `target`. */
function restRequest(
  operation: OperationName,
  target: Target,
): { method: string; path: string; body?: string } {
  const prefix =
    target.tenant === undefined || target.tenant === ""
      ? ""
      : `/${encodeURIComponent(target.tenant)}`;
  const task = encodeURIComponent(target.taskId ?? "");
  const config = encodeURIComponent(target.configId ?? "cfg-1");
  const json = requestJson(operation, target);
  delete json["tenant"];
  switch (operation) {
    case "SendMessage":
      return { method: "POST", path: `${prefix}/message:send`, body: JSON.stringify(json) };
    case "SendStreamingMessage":
      return { method: "POST", path: `${prefix}/message:stream`, body: JSON.stringify(json) };
    case "GetTask":
      return { method: "GET", path: `${prefix}/tasks/${task}` };
    case "CancelTask":
      return { method: "POST", path: `${prefix}/tasks/${task}:cancel`, body: "{}" };
    case "SubscribeToTask":
      return { method: "GET", path: `${prefix}/tasks/${task}:subscribe` };
    case "ListTasks":
      return {
        method: "GET",
        path: `${prefix}/tasks${target.contextId === undefined ? "" : `?contextId=${encodeURIComponent(target.contextId)}`}`,
      };
    case "CreateTaskPushNotificationConfig":
      return {
        method: "POST",
        path: `${prefix}/tasks/${task}/pushNotificationConfigs`,
        body: JSON.stringify({ url: json["url"] }),
      };
    case "GetTaskPushNotificationConfig":
      return { method: "GET", path: `${prefix}/tasks/${task}/pushNotificationConfigs/${config}` };
    case "DeleteTaskPushNotificationConfig":
      return {
        method: "DELETE",
        path: `${prefix}/tasks/${task}/pushNotificationConfigs/${config}`,
      };
    case "ListTaskPushNotificationConfigs":
      return { method: "GET", path: `${prefix}/tasks/${task}/pushNotificationConfigs` };
    case "GetExtendedAgentCard":
      return { method: "GET", path: `${prefix}/extendedAgentCard` };
  }
}

function authHeaders(token: string | undefined): Record<string, string> {
  return {
    "a2a-version": "1.0",
    ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
  };
}

const isStreaming = (operation: OperationName) =>
  A2AServiceOperationsByName[operation].kind !== "unary";

/** An HTTP answer as one string: status, content type, body (bytes as latin1). */
async function httpAnswer(response: Response): Promise<string> {
  const body = Buffer.from(await response.arrayBuffer()).toString("latin1");
  return `HTTP ${response.status}\ncontent-type: ${response.headers.get("content-type")}\nwww-authenticate: ${response.headers.get("www-authenticate")}\n${body}`;
}

/** A Connect error's details carry their message base64-encoded (`value`): decoded, so that an id in them is comparable. */
function decodedConnectDetails(answer: string): string {
  return answer.replace(
    /"value":"([A-Za-z0-9+/_-]*={0,2})"/g,
    (_, b64: string) => `"value":${JSON.stringify(Buffer.from(b64, "base64").toString("latin1"))}`,
  );
}

/** A 5-byte-prefixed frame (gRPC-web, Connect streaming). */
function envelope(bytes: Uint8Array, flags = 0): Buffer {
  const head = Buffer.alloc(5);
  head.writeUInt8(flags, 0);
  head.writeUInt32BE(bytes.length, 1);
  return Buffer.concat([head, Buffer.from(bytes)]);
}

/** The gRPC-web answer: HTTP status, then each frame (data as latin1; the trailers with the details decoded from base64). */
async function grpcWebAnswer(response: Response): Promise<string> {
  const bytes = Buffer.from(await response.arrayBuffer());
  const parts = [`HTTP ${response.status}`, `grpc-status: ${response.headers.get("grpc-status")}`];
  for (let at = 0; at + 5 <= bytes.length; ) {
    const flags = bytes.readUInt8(at);
    const length = bytes.readUInt32BE(at + 1);
    const frame = bytes.subarray(at + 5, at + 5 + length);
    at += 5 + length;
    if ((flags & 0x80) === 0) {
      parts.push(`data ${frame.toString("latin1")}`);
      continue;
    }
    for (const line of frame.toString("latin1").split("\r\n")) {
      const [name, ...rest] = line.split(":");
      const value = rest.join(":").trim();
      parts.push(
        name === "grpc-status-details-bin"
          ? `${name}: ${Buffer.from(value, "base64").toString("latin1")}`
          : line,
      );
    }
  }
  return parts.join("\n");
}

/** The gRPC answer of a raw grpc-js call: status code, message, details (latin1), or the events. */
function grpcAnswer(
  address: string,
  operation: OperationName,
  json: JsonObject,
  token: string | undefined,
): Promise<string> {
  const op = A2AServiceOperationsByName[operation];
  const client = new GrpcJsClient(address, credentials.createInsecure());
  const metadata = new Metadata();
  for (const [k, v] of Object.entries(authHeaders(token))) metadata.set(k, v);
  const request = toBinary(op.input, fromJson(op.input, json));
  const serialize = (m: Uint8Array) => Buffer.from(m);
  const deserialize = (b: Buffer) => b;
  const statusOf = (e: ServiceError) => {
    const bin = e.metadata.get("grpc-status-details-bin")[0];
    return `grpc-status ${e.code}\ngrpc-message ${e.details}\ndetails ${Buffer.isBuffer(bin) ? bin.toString("latin1") : ""}`;
  };
  return new Promise<string>((resolve) => {
    if (!isStreaming(operation)) {
      client.makeUnaryRequest(op.grpcPath, serialize, deserialize, request, metadata, (e, value) =>
        resolve(e !== null ? statusOf(e) : `ok ${value?.toString("latin1")}`),
      );
      return;
    }
    const events: string[] = [];
    const call = client.makeServerStreamRequest(
      op.grpcPath,
      serialize,
      deserialize,
      request,
      metadata,
    );
    call.on("data", (b: Buffer) => events.push(`event ${b.toString("latin1")}`));
    call.on("error", (e: ServiceError) => resolve([...events, statusOf(e)].join("\n")));
    call.on("end", () => resolve([...events, "end"].join("\n")));
  }).finally(() => client.close());
}

/** The frames a raw WebSocket gets for one call, up to its last (result, end or error). */
async function wsAnswer(
  url: string,
  operation: OperationName,
  json: JsonObject,
  token: string | undefined,
): Promise<string> {
  const socket = new WebSocket(url);
  await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject));
  const frames: string[] = [];
  try {
    return await new Promise<string>((resolve) => {
      socket.on("message", (data) => {
        const text = String(data);
        frames.push(text);
        const frame = JSON.parse(text) as Record<string, unknown>;
        if ("result" in frame || "end" in frame || "error" in frame) resolve(frames.join("\n"));
      });
      const serviceParameters: Record<string, string> = {
        "A2A-Version": "1.0",
        ...(token === undefined ? {} : { Authorization: `Bearer ${token}` }),
      };
      socket.send(JSON.stringify({ id: 1, method: operation, params: json, serviceParameters }));
    });
  } finally {
    socket.close();
  }
}

/**
 * Calls `operation` about `target` on `binding` as raw bytes, with `token` as bearer (none when
 * undefined), and returns everything the answer says as one string.
 */
export async function rawAnswer(
  binding: WireBinding,
  endpoints: WireEndpoints,
  operation: OperationName,
  target: Target,
  token: string | undefined,
): Promise<string> {
  const json = requestJson(operation, target);
  switch (binding) {
    case "JSONRPC":
      return httpAnswer(
        await fetch(endpoints.jsonrpc, {
          method: "POST",
          headers: { "content-type": "application/json", ...authHeaders(token) },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: operation, params: json }),
        }),
      );
    case "HTTP+JSON": {
      const r = restRequest(operation, target);
      return httpAnswer(
        await fetch(`${endpoints.rest}${r.path}`, {
          method: r.method,
          headers: { "content-type": "application/json", ...authHeaders(token) },
          ...(r.body === undefined ? {} : { body: r.body }),
        }),
      );
    }
    case "CONNECT": {
      const url = `${endpoints.connect}/lf.a2a.v1.A2AService/${operation}`;
      const headers = { ...authHeaders(token), "connect-protocol-version": "1" };
      if (!isStreaming(operation))
        return decodedConnectDetails(
          await httpAnswer(
            await fetch(url, {
              method: "POST",
              headers: { ...headers, "content-type": "application/json" },
              body: JSON.stringify(json),
            }),
          ),
        );
      const body = envelope(new TextEncoder().encode(JSON.stringify(json)));
      return decodedConnectDetails(
        await httpAnswer(
          await fetch(url, {
            method: "POST",
            headers: { ...headers, "content-type": "application/connect+json" },
            body,
          }),
        ),
      );
    }
    case "GRPC-WEB": {
      const op = A2AServiceOperationsByName[operation];
      const body = envelope(toBinary(op.input, fromJson(op.input, json)));
      return grpcWebAnswer(
        await fetch(`${endpoints.connect}${op.grpcPath}`, {
          method: "POST",
          headers: {
            ...authHeaders(token),
            "content-type": "application/grpc-web+proto",
            "x-grpc-web": "1",
          },
          body,
        }),
      );
    }
    case "GRPC":
      return grpcAnswer(endpoints.grpc, operation, json, token);
    case "WS":
      return wsAnswer(endpoints.ws, operation, json, token);
  }
}
