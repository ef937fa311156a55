// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * `TaskStatus` and `Task` between the three shapes.
 *
 * Normalisations (documented choices): timestamps become canonical RFC 3339 UTC (`Z`, 0/3/6/9 fractional digits;
 * an offset-less 0.3 timestamp is read as UTC); 0.3 state `unknown` ⇄ 1.0 `TASK_STATE_UNSPECIFIED` (omitted in 1.0
 * ProtoJSON); 0.3's required `contextId` is written as `""` when 1.0 has none; empty `artifacts`/`history` arrays
 * mean the same as absent ones. 0.3 `kind: "task"` is optional on input and always written.
 */
import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import {
  artifactFromV03,
  artifactFromV03Proto,
  artifactToV03,
  artifactToV03Proto,
} from "./artifacts.js";
import {
  taskStateFromV03,
  taskStateFromV03Proto,
  taskStateToV03,
  taskStateToV03Proto,
} from "./enums.js";
import {
  asObject,
  join,
  mapArray,
  optNonEmptyString,
  optObject,
  optStruct,
  optTimestamp,
  put,
  putNonEmpty,
  reqObject,
  reqString,
  type Out,
} from "./json.js";
import {
  checkKind,
  messageFromV03,
  messageFromV03Proto,
  messageToV03,
  messageToV03Proto,
} from "./messages.js";

/** 0.3 JSON-RPC `TaskStatus` → 1.0 `TaskStatus`. @throws V03TranslationError on a bad state, message or timestamp. */
export function taskStatusFromV03(value: JsonValue, path = "status"): JsonObject {
  const st = asObject(value, path);
  const out: Out = {};
  const state = taskStateFromV03(st["state"], join(path, "state"));
  if (state !== "TASK_STATE_UNSPECIFIED") out["state"] = state;
  const msg = optObject(st, "message", path);
  if (msg !== undefined) out["message"] = messageFromV03(msg, join(path, "message"));
  put(out, "timestamp", optTimestamp(st, "timestamp", path));
  return out;
}

/** 1.0 `TaskStatus` → 0.3 JSON-RPC `TaskStatus`. @throws V03TranslationError on a bad state or message. */
export function taskStatusToV03(value: JsonValue, path = "status"): JsonObject {
  const st = asObject(value, path);
  const out: Out = { state: taskStateToV03(st["state"], join(path, "state")) };
  const msg = optObject(st, "message", path);
  if (msg !== undefined) out["message"] = messageToV03(msg, join(path, "message"));
  put(out, "timestamp", optTimestamp(st, "timestamp", path));
  return out;
}

/** 0.3 ProtoJSON `TaskStatus` (`TASK_STATE_CANCELLED`, `message`) → 1.0 `TaskStatus`. */
export function taskStatusFromV03Proto(value: JsonValue, path = "status"): JsonObject {
  const st = asObject(value, path);
  const out: Out = {};
  const state = taskStateFromV03Proto(st["state"], join(path, "state"));
  if (state !== "TASK_STATE_UNSPECIFIED") out["state"] = state;
  const msg = optObject(st, "message", path);
  if (msg !== undefined) out["message"] = messageFromV03Proto(msg, join(path, "message"));
  put(out, "timestamp", optTimestamp(st, "timestamp", path));
  return out;
}

/** 1.0 `TaskStatus` → 0.3 ProtoJSON `TaskStatus`. */
export function taskStatusToV03Proto(value: JsonValue, path = "status"): JsonObject {
  const st = asObject(value, path);
  const out: Out = {};
  const state = taskStateToV03Proto(st["state"], join(path, "state"));
  if (state !== "TASK_STATE_UNSPECIFIED") out["state"] = state;
  const msg = optObject(st, "message", path);
  if (msg !== undefined) out["message"] = messageToV03Proto(msg, join(path, "message"));
  put(out, "timestamp", optTimestamp(st, "timestamp", path));
  return out;
}

/**
 * 0.3 JSON-RPC `Task` → 1.0 `Task`.
 * @throws V03TranslationError when `id` or `status` is missing or anything nested is malformed.
 */
export function taskFromV03(value: JsonValue, path = "task"): JsonObject {
  const task = asObject(value, path);
  checkKind(task, "task", path);
  const out: Out = { id: reqString(task, "id", path) };
  put(out, "contextId", optNonEmptyString(task, "contextId", path));
  out["status"] = taskStatusFromV03(reqObject(task, "status", path), join(path, "status"));
  putNonEmpty(out, "artifacts", mapArray(task, "artifacts", path, artifactFromV03));
  putNonEmpty(out, "history", mapArray(task, "history", path, messageFromV03));
  put(out, "metadata", optStruct(task, "metadata", path));
  return out;
}

/**
 * 1.0 `Task` → 0.3 JSON-RPC `Task` with `kind: "task"`.
 * @throws V03TranslationError when `id` or `status` is missing or anything nested is malformed.
 */
export function taskToV03(value: JsonValue, path = "task"): JsonObject {
  const task = asObject(value, path);
  const out: Out = {
    kind: "task",
    id: reqString(task, "id", path),
    contextId: optNonEmptyString(task, "contextId", path) ?? "",
    status: taskStatusToV03(reqObject(task, "status", path), join(path, "status")),
  };
  putNonEmpty(out, "artifacts", mapArray(task, "artifacts", path, artifactToV03));
  putNonEmpty(out, "history", mapArray(task, "history", path, messageToV03));
  put(out, "metadata", optStruct(task, "metadata", path));
  return out;
}

/** 0.3 ProtoJSON `Task` → 1.0 `Task`. @throws V03TranslationError on a missing `id`/`status`. */
export function taskFromV03Proto(value: JsonValue, path = "task"): JsonObject {
  const task = asObject(value, path);
  const out: Out = { id: reqString(task, "id", path) };
  put(out, "contextId", optNonEmptyString(task, "contextId", path));
  out["status"] = taskStatusFromV03Proto(reqObject(task, "status", path), join(path, "status"));
  putNonEmpty(out, "artifacts", mapArray(task, "artifacts", path, artifactFromV03Proto));
  putNonEmpty(out, "history", mapArray(task, "history", path, messageFromV03Proto));
  put(out, "metadata", optStruct(task, "metadata", path));
  return out;
}

/** 1.0 `Task` → 0.3 ProtoJSON `Task`. @throws V03TranslationError on a missing `id`/`status`. */
export function taskToV03Proto(value: JsonValue, path = "task"): JsonObject {
  const task = asObject(value, path);
  const out: Out = { id: reqString(task, "id", path) };
  put(out, "contextId", optNonEmptyString(task, "contextId", path));
  out["status"] = taskStatusToV03Proto(reqObject(task, "status", path), join(path, "status"));
  putNonEmpty(out, "artifacts", mapArray(task, "artifacts", path, artifactToV03Proto));
  putNonEmpty(out, "history", mapArray(task, "history", path, messageToV03Proto));
  put(out, "metadata", optStruct(task, "metadata", path));
  return out;
}
