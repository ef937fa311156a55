// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Request parameters and the push-config list result between the three shapes: 0.3 JSON-RPC `params` objects and
 * 0.3 ProtoJSON request messages ⇄ 1.0 request messages (ProtoJSON). Servers use the `…FromV03…` functions, clients
 * of 0.3 agents the `…ToV03…` ones.
 *
 * Documented choices:
 * - `blocking` ⇄ `returnImmediately` (inverted). JSON-RPC: an absent `blocking` means blocking (what the 0.3 SDKs'
 *   servers did), so only `blocking: false` sets `returnImmediately`; outbound, `blocking` is always written.
 *   ProtoJSON: `blocking` has no presence, so inside a present `configuration` an absent `blocking` is `false` and
 *   sets `returnImmediately` (configurable, see {@link SendMessageFromV03ProtoOptions}); an absent `configuration`
 *   means blocking (as a2a-js 0.3's gRPC server read it); outbound, `blocking: true` is written when blocking.
 * - `historyLength`: 0.3 `0` (and the proto's unset 0) means "no limit" (0.3 SDKs); 1.0 says absent = no limit
 *   and `0` = no history. So 0.3 `0` → 1.0 absent; 1.0 `0` → 0.3 `0` (the closest 0.3 can say; a 0.3 agent will
 *   return the whole history). Negative values pass through for the 1.0 handler to reject.
 * - `metadata` of `TaskQueryParams` / `TaskIdParams` of get, subscribe and the push-config calls is dropped: the
 *   1.0 requests have no metadata (only CancelTaskRequest does, and keeps it). 1.0 `tenant` is dropped outbound.
 * - A get-push-config without `pushNotificationConfigId` (0.3 allows plain `TaskIdParams`) asks for config id =
 *   the task id, the 0.3 SDKs' default config id (see push-configs.ts).
 * - The list result has no paging in 0.3: `nextPageToken` is dropped (servers should gather all pages first).
 */
import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import {
  asObject,
  join,
  mapArray,
  optBool,
  optInt,
  optNonEmptyString,
  optObject,
  optStringArray,
  optStruct,
  put,
  putNonEmpty,
  reqObject,
  reqString,
  type Out,
} from "./json.js";
import {
  messageFromV03,
  messageFromV03Proto,
  messageToV03,
  messageToV03Proto,
} from "./messages.js";
import {
  pushConfigFromV03,
  pushConfigToV03,
  pushConfigToV03Proto,
  taskPushConfigFromV03,
  taskPushConfigFromV03Proto,
  taskPushConfigToV03,
  taskPushConfigToV03Proto,
} from "./push-configs.js";
import { V03TranslationError } from "./translation-error.js";
import {
  parsePushConfigParent,
  parsePushConfigResourceName,
  parseTaskResourceName,
  pushConfigResourceName,
  taskResourceName,
} from "./resource-names.js";

/** 0.3 historyLength → 1.0 (0 = unlimited = absent). */
function historyIn(obj: JsonObject, path: string): number | undefined {
  const h = optInt(obj, "historyLength", path);
  return h === 0 ? undefined : h;
}

/** Options of {@link sendMessageRequestFromV03Proto}. */
export interface SendMessageFromV03ProtoOptions {
  /**
   * What an absent `blocking` inside a present `configuration` means. Default `false`: proto3 semantics (a 0.3
   * gRPC message cannot tell absent from false; a2a-js 0.3's gRPC server and the 0.3 Python SDK read it as
   * non-blocking). An HTTP+JSON server may pass `true` to behave like a2a-js 0.3's REST server, which kept JSON
   * presence and treated an absent `blocking` as blocking.
   */
  readonly blockingDefault?: boolean;
}

/** 0.3 JSON-RPC `MessageSendConfiguration` (or 0.3 proto configuration) → 1.0 `SendMessageConfiguration`. */
function sendConfigFromV03(
  cfg: JsonObject,
  path: string,
  proto: boolean,
  blockingDefault = !proto,
): JsonObject {
  const out: Out = {};
  putNonEmpty(out, "acceptedOutputModes", optStringArray(cfg, "acceptedOutputModes", path));
  const pushKey = proto ? "pushNotification" : "pushNotificationConfig";
  const push = optObject(cfg, pushKey, path);
  if (push !== undefined)
    out["taskPushNotificationConfig"] = pushConfigFromV03(push, join(path, pushKey));
  put(out, "historyLength", historyIn(cfg, path));
  if ((optBool(cfg, "blocking", path) ?? blockingDefault) === false)
    out["returnImmediately"] = true;
  return out;
}

/** 1.0 `SendMessageConfiguration` → 0.3 JSON-RPC `MessageSendConfiguration` or 0.3 ProtoJSON configuration. */
function sendConfigToV03(cfg: JsonObject, path: string, proto: boolean): JsonObject {
  const out: Out = {};
  putNonEmpty(out, "acceptedOutputModes", optStringArray(cfg, "acceptedOutputModes", path));
  const push = optObject(cfg, "taskPushNotificationConfig", path);
  if (push !== undefined) {
    const p = join(path, "taskPushNotificationConfig");
    if (proto) out["pushNotification"] = pushConfigToV03Proto(push, p);
    else out["pushNotificationConfig"] = pushConfigToV03(push, p);
  }
  const h = optInt(cfg, "historyLength", path);
  if (h !== undefined && !(proto && h === 0)) out["historyLength"] = h;
  const blocking = optBool(cfg, "returnImmediately", path) !== true;
  if (!proto || blocking) out["blocking"] = blocking;
  return out;
}

/**
 * 0.3 JSON-RPC `MessageSendParams` (params of `message/send` and `message/stream`) → 1.0 `SendMessageRequest`.
 * @throws V03TranslationError when `message` is missing or malformed.
 */
export function sendMessageParamsFromV03(value: JsonValue, path = "params"): JsonObject {
  const params = asObject(value, path);
  const out: Out = {
    message: messageFromV03(reqObject(params, "message", path), join(path, "message")),
  };
  const cfg = optObject(params, "configuration", path);
  if (cfg !== undefined)
    out["configuration"] = sendConfigFromV03(cfg, join(path, "configuration"), false);
  put(out, "metadata", optStruct(params, "metadata", path));
  return out;
}

/**
 * 1.0 `SendMessageRequest` → 0.3 JSON-RPC `MessageSendParams` (`tenant` dropped).
 * @throws V03TranslationError when `message` is missing or malformed.
 */
export function sendMessageParamsToV03(value: JsonValue, path = "request"): JsonObject {
  const req = asObject(value, path);
  const out: Out = {
    message: messageToV03(reqObject(req, "message", path), join(path, "message")),
  };
  const cfg = optObject(req, "configuration", path);
  if (cfg !== undefined)
    out["configuration"] = sendConfigToV03(cfg, join(path, "configuration"), false);
  put(out, "metadata", optStruct(req, "metadata", path));
  return out;
}

/**
 * 0.3 ProtoJSON `SendMessageRequest` (`message` = json name of `request`, `content` parts) → 1.0
 * `SendMessageRequest`.
 * @throws V03TranslationError when `message` is missing or malformed.
 */
export function sendMessageRequestFromV03Proto(
  value: JsonValue,
  options?: SendMessageFromV03ProtoOptions,
  path = "request",
): JsonObject {
  const req = asObject(value, path);
  const out: Out = {
    message: messageFromV03Proto(reqObject(req, "message", path), join(path, "message")),
  };
  const cfg = optObject(req, "configuration", path);
  if (cfg !== undefined)
    out["configuration"] = sendConfigFromV03(
      cfg,
      join(path, "configuration"),
      true,
      options?.blockingDefault ?? false,
    );
  put(out, "metadata", optStruct(req, "metadata", path));
  return out;
}

/** 1.0 `SendMessageRequest` → 0.3 ProtoJSON `SendMessageRequest`. @throws V03TranslationError on a bad message. */
export function sendMessageRequestToV03Proto(value: JsonValue, path = "request"): JsonObject {
  const req = asObject(value, path);
  const out: Out = {
    message: messageToV03Proto(reqObject(req, "message", path), join(path, "message")),
  };
  const cfg = optObject(req, "configuration", path);
  if (cfg !== undefined)
    out["configuration"] = sendConfigToV03(cfg, join(path, "configuration"), true);
  put(out, "metadata", optStruct(req, "metadata", path));
  return out;
}

/** 0.3 `TaskQueryParams` (`tasks/get`) → 1.0 `GetTaskRequest` (metadata dropped; historyLength 0 → absent). */
export function getTaskParamsFromV03(value: JsonValue, path = "params"): JsonObject {
  const params = asObject(value, path);
  const out: Out = { id: reqString(params, "id", path) };
  put(out, "historyLength", historyIn(params, path));
  return out;
}

/** 1.0 `GetTaskRequest` → 0.3 `TaskQueryParams`. */
export function getTaskParamsToV03(value: JsonValue, path = "request"): JsonObject {
  const req = asObject(value, path);
  const out: Out = { id: reqString(req, "id", path) };
  put(out, "historyLength", optInt(req, "historyLength", path));
  return out;
}

/** 0.3 `TaskIdParams` (`tasks/cancel`) → 1.0 `CancelTaskRequest` (metadata kept). */
export function cancelTaskParamsFromV03(value: JsonValue, path = "params"): JsonObject {
  const params = asObject(value, path);
  const out: Out = { id: reqString(params, "id", path) };
  put(out, "metadata", optStruct(params, "metadata", path));
  return out;
}

/** 1.0 `CancelTaskRequest` → 0.3 `TaskIdParams` (metadata kept). */
export function cancelTaskParamsToV03(value: JsonValue, path = "request"): JsonObject {
  return cancelTaskParamsFromV03(value, path);
}

/** 0.3 `TaskIdParams` (`tasks/resubscribe`) → 1.0 `SubscribeToTaskRequest` (metadata dropped). */
export function subscribeParamsFromV03(value: JsonValue, path = "params"): JsonObject {
  return { id: reqString(asObject(value, path), "id", path) };
}

/** 1.0 `SubscribeToTaskRequest` → 0.3 `TaskIdParams`. */
export function subscribeParamsToV03(value: JsonValue, path = "request"): JsonObject {
  return { id: reqString(asObject(value, path), "id", path) };
}

/** 0.3 `TaskPushNotificationConfig` (`tasks/pushNotificationConfig/set`) → 1.0 `TaskPushNotificationConfig`. */
export function setPushConfigParamsFromV03(value: JsonValue, path = "params"): JsonObject {
  return taskPushConfigFromV03(value, path);
}

/** 1.0 `TaskPushNotificationConfig` (create request) → 0.3 `tasks/pushNotificationConfig/set` params. */
export function setPushConfigParamsToV03(value: JsonValue, path = "request"): JsonObject {
  return taskPushConfigToV03(value, path);
}

/**
 * 0.3 `GetTaskPushNotificationConfigParams` or `TaskIdParams` → 1.0 `GetTaskPushNotificationConfigRequest`
 * (`{taskId, id}`; a missing config id becomes the task id).
 */
export function getPushConfigParamsFromV03(value: JsonValue, path = "params"): JsonObject {
  const params = asObject(value, path);
  const taskId = reqString(params, "id", path);
  return { taskId, id: optNonEmptyString(params, "pushNotificationConfigId", path) ?? taskId };
}

/** 1.0 `GetTaskPushNotificationConfigRequest` → 0.3 `GetTaskPushNotificationConfigParams`. */
export function getPushConfigParamsToV03(value: JsonValue, path = "request"): JsonObject {
  const req = asObject(value, path);
  return {
    id: reqString(req, "taskId", path),
    pushNotificationConfigId: reqString(req, "id", path),
  };
}

/** 0.3 `ListTaskPushNotificationConfigParams` → 1.0 `ListTaskPushNotificationConfigsRequest` (`{taskId}`). */
export function listPushConfigsParamsFromV03(value: JsonValue, path = "params"): JsonObject {
  return { taskId: reqString(asObject(value, path), "id", path) };
}

/** 1.0 `ListTaskPushNotificationConfigsRequest` → 0.3 params (`pageSize`/`pageToken` dropped). */
export function listPushConfigsParamsToV03(value: JsonValue, path = "request"): JsonObject {
  return { id: reqString(asObject(value, path), "taskId", path) };
}

/** 0.3 `DeleteTaskPushNotificationConfigParams` → 1.0 `DeleteTaskPushNotificationConfigRequest`. */
export function deletePushConfigParamsFromV03(value: JsonValue, path = "params"): JsonObject {
  const params = asObject(value, path);
  return {
    taskId: reqString(params, "id", path),
    id: reqString(params, "pushNotificationConfigId", path),
  };
}

/** 1.0 `DeleteTaskPushNotificationConfigRequest` → 0.3 `DeleteTaskPushNotificationConfigParams`. */
export function deletePushConfigParamsToV03(value: JsonValue, path = "request"): JsonObject {
  return getPushConfigParamsToV03(value, path);
}

/** 1.0 `ListTaskPushNotificationConfigsResponse` → the 0.3 JSON-RPC result: an array of `TaskPushNotificationConfig`. */
export function listPushConfigsResponseToV03(value: JsonValue, path = "response"): JsonValue[] {
  return mapArray(asObject(value, path), "configs", path, taskPushConfigToV03) ?? [];
}

/** The 0.3 JSON-RPC list result (an array) → 1.0 `ListTaskPushNotificationConfigsResponse`. */
export function listPushConfigsResponseFromV03(value: JsonValue, path = "result"): JsonObject {
  if (!Array.isArray(value)) throw new V03TranslationError(path, "must be an array");
  const out: Out = {};
  putNonEmpty(
    out,
    "configs",
    value.map((c, i) => taskPushConfigFromV03(c, `${path}[${i}]`)),
  );
  return out;
}

/** 0.3 ProtoJSON `GetTaskRequest` (`{name: "tasks/{id}", historyLength}`) → 1.0 `GetTaskRequest`. */
export function getTaskRequestFromV03Proto(value: JsonValue, path = "request"): JsonObject {
  const req = asObject(value, path);
  const out: Out = { id: parseTaskResourceName(reqString(req, "name", path), join(path, "name")) };
  put(out, "historyLength", historyIn(req, path));
  return out;
}

/** 1.0 `GetTaskRequest` → 0.3 ProtoJSON `GetTaskRequest` (1.0 `historyLength: 0` is written as 0 = unlimited). */
export function getTaskRequestToV03Proto(value: JsonValue, path = "request"): JsonObject {
  const req = asObject(value, path);
  const out: Out = { name: taskResourceName(reqString(req, "id", path), join(path, "id")) };
  const h = optInt(req, "historyLength", path);
  if (h !== undefined && h !== 0) out["historyLength"] = h;
  return out;
}

/** 0.3 ProtoJSON `CancelTaskRequest` / `TaskSubscriptionRequest` (`{name}`) → 1.0 `{id}`. */
export function taskNameRequestFromV03Proto(value: JsonValue, path = "request"): JsonObject {
  const req = asObject(value, path);
  return { id: parseTaskResourceName(reqString(req, "name", path), join(path, "name")) };
}

/** 1.0 `CancelTaskRequest` / `SubscribeToTaskRequest` → 0.3 ProtoJSON `{name}` (cancel metadata dropped). */
export function taskNameRequestToV03Proto(value: JsonValue, path = "request"): JsonObject {
  return { name: taskResourceName(reqString(asObject(value, path), "id", path), join(path, "id")) };
}

/**
 * 0.3 ProtoJSON `CreateTaskPushNotificationConfigRequest` (`{parent, configId, config}`) → 1.0
 * `TaskPushNotificationConfig`. The config id is `configId`, else the one in `config`, else the task id.
 */
export function createPushConfigRequestFromV03Proto(
  value: JsonValue,
  path = "request",
): JsonObject {
  const req = asObject(value, path);
  const taskId = parsePushConfigParent(reqString(req, "parent", path), join(path, "parent"));
  const cfg = taskPushConfigFromV03Proto(
    reqObject(req, "config", path),
    join(path, "config"),
    taskId,
  );
  const configId = optNonEmptyString(req, "configId", path);
  return configId === undefined ? cfg : { ...cfg, id: configId };
}

/** 1.0 `TaskPushNotificationConfig` (create request) → 0.3 ProtoJSON `CreateTaskPushNotificationConfigRequest`. */
export function createPushConfigRequestToV03Proto(value: JsonValue, path = "request"): JsonObject {
  const cfg = asObject(value, path);
  const taskId = reqString(cfg, "taskId", path);
  const out: Out = { parent: taskResourceName(taskId, join(path, "taskId")) };
  put(out, "configId", optNonEmptyString(cfg, "id", path));
  out["config"] = taskPushConfigToV03Proto(cfg, path);
  return out;
}

/** 0.3 ProtoJSON `Get…`/`DeleteTaskPushNotificationConfigRequest` (`{name}`) → 1.0 `{taskId, id}`. */
export function pushConfigNameRequestFromV03Proto(value: JsonValue, path = "request"): JsonObject {
  const req = asObject(value, path);
  const { taskId, id } = parsePushConfigResourceName(
    reqString(req, "name", path),
    join(path, "name"),
    true,
  );
  return { taskId, id: id ?? taskId };
}

/** 1.0 `Get…`/`DeleteTaskPushNotificationConfigRequest` → 0.3 ProtoJSON `{name}`. */
export function pushConfigNameRequestToV03Proto(value: JsonValue, path = "request"): JsonObject {
  const req = asObject(value, path);
  return {
    name: pushConfigResourceName(
      reqString(req, "taskId", path),
      reqString(req, "id", path),
      join(path, "id"),
    ),
  };
}

/** 0.3 ProtoJSON `ListTaskPushNotificationConfigRequest` (`{parent, pageSize, pageToken}`) → 1.0. */
export function listPushConfigsRequestFromV03Proto(value: JsonValue, path = "request"): JsonObject {
  const req = asObject(value, path);
  const out: Out = {
    taskId: parsePushConfigParent(reqString(req, "parent", path), join(path, "parent")),
  };
  const size = optInt(req, "pageSize", path);
  if (size !== undefined && size !== 0) out["pageSize"] = size;
  put(out, "pageToken", optNonEmptyString(req, "pageToken", path));
  return out;
}

/** 1.0 `ListTaskPushNotificationConfigsRequest` → 0.3 ProtoJSON `ListTaskPushNotificationConfigRequest`. */
export function listPushConfigsRequestToV03Proto(value: JsonValue, path = "request"): JsonObject {
  const req = asObject(value, path);
  const out: Out = {
    parent: taskResourceName(reqString(req, "taskId", path), join(path, "taskId")),
  };
  const size = optInt(req, "pageSize", path);
  if (size !== undefined && size !== 0) out["pageSize"] = size;
  put(out, "pageToken", optNonEmptyString(req, "pageToken", path));
  return out;
}

/** 0.3 ProtoJSON `ListTaskPushNotificationConfigResponse` → 1.0 `ListTaskPushNotificationConfigsResponse`. */
export function listPushConfigsResponseFromV03Proto(
  value: JsonValue,
  path = "response",
): JsonObject {
  const res = asObject(value, path);
  const out: Out = {};
  putNonEmpty(
    out,
    "configs",
    mapArray(res, "configs", path, (c, p) => taskPushConfigFromV03Proto(c, p)),
  );
  put(out, "nextPageToken", optNonEmptyString(res, "nextPageToken", path));
  return out;
}

/** 1.0 `ListTaskPushNotificationConfigsResponse` → 0.3 ProtoJSON `ListTaskPushNotificationConfigResponse`. */
export function listPushConfigsResponseToV03Proto(value: JsonValue, path = "response"): JsonObject {
  const res = asObject(value, path);
  const out: Out = {};
  putNonEmpty(
    out,
    "configs",
    mapArray(res, "configs", path, (c, p) => taskPushConfigToV03Proto(c, p)),
  );
  put(out, "nextPageToken", optNonEmptyString(res, "nextPageToken", path));
  return out;
}
