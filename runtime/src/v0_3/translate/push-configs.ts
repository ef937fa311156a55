// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Push-notification configs between the three shapes.
 *
 * - 1.0 `TaskPushNotificationConfig` is flat: `{tenant?, id?, taskId, url, token?, authentication: {scheme,
 *   credentials?}}`.
 * - 0.3 JSON-RPC nests it: `{taskId, pushNotificationConfig: {id?, url, token?, authentication: {schemes[],
 *   credentials?}}}`.
 * - 0.3 ProtoJSON: `{name: "tasks/{taskId}/pushNotificationConfigs/{id}", pushNotificationConfig: {…}}`.
 *
 * Documented choices:
 * - 0.3 `schemes[]` → 1.0 `scheme`: only the first scheme is kept (as a2a-js does); 1.0 `scheme` → `[scheme]`
 *   (`[]` when empty, since 0.3 JSON-RPC requires `schemes`).
 * - 1.0 `tenant` is dropped (0.3 has no tenants).
 * - A 0.3 `tasks/pushNotificationConfig/set` without a config id gets the task id as its config id, the default
 *   the 0.3 SDKs used, so that a later get without a config id (see requests.ts) finds it.
 */
import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import {
  asObject,
  join,
  optNonEmptyString,
  optObject,
  optString,
  optStringArray,
  put,
  reqObject,
  reqString,
  type Out,
} from "./json.js";
import {
  parsePushConfigResourceName,
  pushConfigResourceName,
  taskResourceName,
} from "./resource-names.js";
import { V03TranslationError } from "./translation-error.js";

/** 0.3 `authentication` → 1.0 `authentication`. */
function authFromV03(value: JsonObject, path: string): JsonObject {
  const out: Out = {};
  const schemes = optStringArray(value, "schemes", path) ?? [];
  put(
    out,
    "scheme",
    schemes.find((s) => s !== ""),
  );
  put(out, "credentials", optNonEmptyString(value, "credentials", path));
  return out;
}

/** 1.0 `authentication` → 0.3 `authentication`; `emitEmptySchemes` writes `schemes: []` (JSON-RPC requires it). */
function authToV03(value: JsonObject, path: string, emitEmptySchemes: boolean): JsonObject {
  const out: Out = {};
  const scheme = optNonEmptyString(value, "scheme", path);
  if (scheme !== undefined) out["schemes"] = [scheme];
  else if (emitEmptySchemes) out["schemes"] = [];
  put(out, "credentials", optNonEmptyString(value, "credentials", path));
  return out;
}

/**
 * Shared body of the three `PushNotificationConfig` directions: `id`, `url` and `token` are the same in every
 * shape; `authentication` is translated by `authFn`.
 */
function pushConfigFields(
  value: JsonValue,
  path: string,
  authFn: (auth: JsonObject, path: string) => JsonObject,
): JsonObject {
  const cfg = asObject(value, path);
  const out: Out = {};
  put(out, "id", optNonEmptyString(cfg, "id", path));
  out["url"] = reqString(cfg, "url", path);
  put(out, "token", optNonEmptyString(cfg, "token", path));
  const auth = optObject(cfg, "authentication", path);
  if (auth !== undefined) out["authentication"] = authFn(auth, join(path, "authentication"));
  return out;
}

/**
 * 0.3 `PushNotificationConfig` (same JSON on the JSON-RPC and proto wires) → the fields of a 1.0
 * `TaskPushNotificationConfig` (no `taskId`; used for `MessageSendConfiguration`).
 * @throws V03TranslationError when `url` is missing or a field has the wrong type.
 */
export function pushConfigFromV03(value: JsonValue, path = "pushNotificationConfig"): JsonObject {
  return pushConfigFields(value, path, authFromV03);
}

/**
 * 1.0 `TaskPushNotificationConfig` → 0.3 JSON-RPC `PushNotificationConfig` (`taskId` and `tenant` dropped).
 * @throws V03TranslationError when `url` is missing.
 */
export function pushConfigToV03(value: JsonValue, path = "pushNotificationConfig"): JsonObject {
  return pushConfigFields(value, path, (auth, p) => authToV03(auth, p, true));
}

/** 1.0 `TaskPushNotificationConfig` → 0.3 ProtoJSON `PushNotificationConfig` (no empty `schemes`). */
export function pushConfigToV03Proto(
  value: JsonValue,
  path = "pushNotificationConfig",
): JsonObject {
  return pushConfigFields(value, path, (auth, p) => authToV03(auth, p, false));
}

/**
 * 0.3 JSON-RPC `TaskPushNotificationConfig` (the params of `tasks/pushNotificationConfig/set`, and each entry of
 * a get/list result) → 1.0 `TaskPushNotificationConfig`. A missing config id becomes the task id.
 * @throws V03TranslationError when `taskId` or `pushNotificationConfig.url` is missing.
 */
export function taskPushConfigFromV03(value: JsonValue, path = "params"): JsonObject {
  const obj = asObject(value, path);
  const taskId = reqString(obj, "taskId", path);
  const inner = pushConfigFromV03(
    reqObject(obj, "pushNotificationConfig", path),
    join(path, "pushNotificationConfig"),
  );
  return { taskId, ...inner, id: inner["id"] ?? taskId };
}

/**
 * 1.0 `TaskPushNotificationConfig` → 0.3 JSON-RPC `TaskPushNotificationConfig` (`{taskId, pushNotificationConfig}`).
 * @throws V03TranslationError when `taskId` or `url` is missing.
 */
export function taskPushConfigToV03(value: JsonValue, path = "config"): JsonObject {
  const obj = asObject(value, path);
  return {
    taskId: reqString(obj, "taskId", path),
    pushNotificationConfig: pushConfigToV03(obj, path),
  };
}

/**
 * 0.3 ProtoJSON `TaskPushNotificationConfig` (`{name, pushNotificationConfig}`) → 1.0. The task id comes from
 * `name`; the config id from `name`, else from `pushNotificationConfig.id`, else the task id. `fallbackTaskId` is
 * used when `name` is empty (a create request's `config` often carries none; the task is in `parent`).
 * @throws V03TranslationError on a malformed name or a missing `url`.
 */
export function taskPushConfigFromV03Proto(
  value: JsonValue,
  path = "config",
  fallbackTaskId?: string,
): JsonObject {
  const obj = asObject(value, path);
  const name = optNonEmptyString(obj, "name", path);
  let taskId = fallbackTaskId;
  let nameId: string | undefined;
  if (name !== undefined)
    ({ taskId, id: nameId } = parsePushConfigResourceName(name, join(path, "name"), true));
  if (taskId === undefined) throw new V03TranslationError(join(path, "name"), "is required");
  if (fallbackTaskId !== undefined && taskId !== fallbackTaskId) {
    throw new V03TranslationError(
      join(path, "name"),
      `names task ${JSON.stringify(taskId)}, not ${JSON.stringify(fallbackTaskId)}`,
    );
  }
  const inner = pushConfigFromV03(
    reqObject(obj, "pushNotificationConfig", path),
    join(path, "pushNotificationConfig"),
  );
  return { taskId, ...inner, id: nameId ?? inner["id"] ?? taskId };
}

/**
 * 1.0 `TaskPushNotificationConfig` → 0.3 ProtoJSON `{name, pushNotificationConfig}`; `name` is
 * `tasks/{taskId}/pushNotificationConfigs/{id}`, or `tasks/{taskId}` when the config has no id.
 * @throws V03TranslationError when `taskId` or `url` is missing.
 */
export function taskPushConfigToV03Proto(value: JsonValue, path = "config"): JsonObject {
  const obj = asObject(value, path);
  const taskId = reqString(obj, "taskId", path);
  const id = optString(obj, "id", path);
  const name =
    id === undefined || id === ""
      ? taskResourceName(taskId, join(path, "taskId"))
      : pushConfigResourceName(taskId, id, join(path, "id"));
  return { name, pushNotificationConfig: pushConfigToV03Proto(obj, path) };
}
