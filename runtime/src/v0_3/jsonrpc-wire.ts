// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * A2A 0.3's JSON-RPC wire on the 1.0 JSON-RPC server: `message/send`-style methods, `kind`
 * discriminators, kebab-case states, `final` on the last status update, 0.3 error codes; the
 * same handler serves both versions (`createA2AServiceJsonRpcServer(handler, { wires: [v03JsonRpcWire()] })`).
 */
import type { JsonObject } from "@bufbuild/protobuf";
import type { A2AError, JsonRpcErrorObject } from "../errors/a2a-error.js";
import type { HeaderSource } from "../pipeline/call-context.js";
import type { JsonRpcWire, JsonRpcWireMethod } from "../jsonrpc/wire.js";
import { agentCardToV03 } from "./translate/agent-card.js";
import { errorToV03 } from "./translate/errors.js";
import {
  cancelTaskParamsFromV03,
  deletePushConfigParamsFromV03,
  getPushConfigParamsFromV03,
  getTaskParamsFromV03,
  listPushConfigsParamsFromV03,
  listPushConfigsResponseToV03,
  sendMessageParamsFromV03,
  setPushConfigParamsFromV03,
  subscribeParamsFromV03,
} from "./translate/requests.js";
import { sendMessageResponseToV03, streamResponseToV03 } from "./translate/events.js";
import { taskPushConfigToV03 } from "./translate/push-configs.js";
import { taskToV03 } from "./translate/tasks.js";

/** The protocol version of the wire. */
export const V03_VERSION = "0.3";

/** 0.3 JSON-RPC method → the 1.0 operation that serves it, and the translations of its params and result. */
export const V03_JSONRPC_METHODS: ReadonlyMap<string, JsonRpcWireMethod> = new Map<
  string,
  JsonRpcWireMethod
>([
  [
    "message/send",
    {
      operation: "SendMessage",
      decodeParams: (p) => sendMessageParamsFromV03(p),
      encodeResult: (r) => sendMessageResponseToV03(r),
    },
  ],
  [
    "message/stream",
    {
      operation: "SendStreamingMessage",
      decodeParams: (p) => sendMessageParamsFromV03(p),
      encodeResult: (r) => streamResponseToV03(r),
    },
  ],
  [
    "tasks/get",
    {
      operation: "GetTask",
      decodeParams: (p) => getTaskParamsFromV03(p),
      encodeResult: (r) => taskToV03(r),
    },
  ],
  [
    "tasks/cancel",
    {
      operation: "CancelTask",
      decodeParams: (p) => cancelTaskParamsFromV03(p),
      encodeResult: (r) => taskToV03(r),
    },
  ],
  [
    "tasks/resubscribe",
    {
      operation: "SubscribeToTask",
      decodeParams: (p) => subscribeParamsFromV03(p),
      encodeResult: (r) => streamResponseToV03(r),
    },
  ],
  [
    "tasks/pushNotificationConfig/set",
    {
      operation: "CreateTaskPushNotificationConfig",
      decodeParams: (p) => setPushConfigParamsFromV03(p),
      encodeResult: (r) => taskPushConfigToV03(r),
    },
  ],
  [
    "tasks/pushNotificationConfig/get",
    {
      operation: "GetTaskPushNotificationConfig",
      decodeParams: (p) => getPushConfigParamsFromV03(p),
      encodeResult: (r) => taskPushConfigToV03(r),
    },
  ],
  [
    "tasks/pushNotificationConfig/list",
    {
      operation: "ListTaskPushNotificationConfigs",
      decodeParams: (p) => listPushConfigsParamsFromV03(p),
      encodeResult: (r) => listPushConfigsResponseToV03(r),
    },
  ],
  [
    "tasks/pushNotificationConfig/delete",
    {
      operation: "DeleteTaskPushNotificationConfig",
      decodeParams: (p) => deletePushConfigParamsFromV03(p),
      encodeResult: () => null,
    },
  ],
  [
    "agent/getAuthenticatedExtendedCard",
    {
      operation: "GetExtendedAgentCard",
      decodeParams: () => ({}),
      encodeResult: (r) => agentCardToV03(r as JsonObject),
    },
  ],
]);

/** An A2A error in 0.3's JSON-RPC codes (-32001…-32007, the standard ones), without 1.0's ErrorInfo. */
export function v03ErrorObject(error: A2AError): JsonRpcErrorObject {
  return errorToV03({
    name: error.spec.name,
    message: error.message,
  }) as unknown as JsonRpcErrorObject;
}

/** 0.3 clients send `X-A2A-Extensions`; read it as 1.0's `A2A-Extensions` when that is absent. */
export function v03Headers(request: HeaderSource): HeaderSource {
  return {
    header: (name: string) => {
      const value = request.header(name);
      if (value !== undefined || name.toLowerCase() !== "a2a-extensions") return value;
      return request.header("x-a2a-extensions");
    },
    headers: () => request.headers(),
  };
}

/**
 * The A2A 0.3 JSON-RPC wire, for the `wires` option of the generated JSON-RPC server: requests
 * with a 0.3 method name and no A2A-Version (0.3 clients send none; spec §3.6 reads a missing one
 * as 0.3) or `A2A-Version: 0.3` are served by the 1.0 handler, translated both ways. ListTasks has
 * no 0.3 method (0.3 clients cannot call it).
 */
export function v03JsonRpcWire(): JsonRpcWire {
  return {
    version: V03_VERSION,
    methods: V03_JSONRPC_METHODS,
    encodeError: v03ErrorObject,
    headers: v03Headers,
  };
}
