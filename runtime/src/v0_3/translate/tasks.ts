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

type StateFn = (state: JsonValue | undefined, path: string) => string;
type ObjectFn = (value: JsonValue, path: string) => JsonObject;

/**
 * Body of every `TaskStatus` direction. A `TASK_STATE_UNSPECIFIED` state is omitted (ProtoJSON's default); 0.3
 * JSON-RPC's `unknown` is written.
 */
function translateStatus(
  value: JsonValue,
  path: string,
  stateFn: StateFn,
  messageFn: ObjectFn,
): Out {
  const st = asObject(value, path);
  const out: Out = {};
  const state = stateFn(st["state"], join(path, "state"));
  if (state !== "TASK_STATE_UNSPECIFIED") out["state"] = state;
  const msg = optObject(st, "message", path);
  if (msg !== undefined) out["message"] = messageFn(msg, join(path, "message"));
  put(out, "timestamp", optTimestamp(st, "timestamp", path));
  return out;
}

/** 0.3 JSON-RPC `TaskStatus` → 1.0 `TaskStatus`. @throws V03TranslationError on a bad state, message or timestamp. */
export function taskStatusFromV03(value: JsonValue, path = "status"): JsonObject {
  return translateStatus(value, path, taskStateFromV03, messageFromV03);
}

/** 1.0 `TaskStatus` → 0.3 JSON-RPC `TaskStatus`. @throws V03TranslationError on a bad state or message. */
export function taskStatusToV03(value: JsonValue, path = "status"): JsonObject {
  return translateStatus(value, path, taskStateToV03, messageToV03);
}

/** 0.3 ProtoJSON `TaskStatus` (`TASK_STATE_CANCELLED`, `message`) → 1.0 `TaskStatus`. */
export function taskStatusFromV03Proto(value: JsonValue, path = "status"): JsonObject {
  return translateStatus(value, path, taskStateFromV03Proto, messageFromV03Proto);
}

/** 1.0 `TaskStatus` → 0.3 ProtoJSON `TaskStatus`. */
export function taskStatusToV03Proto(value: JsonValue, path = "status"): JsonObject {
  return translateStatus(value, path, taskStateToV03Proto, messageToV03Proto);
}

/** The translations of a `Task`'s nested objects in one direction. */
interface TaskFns {
  readonly status: ObjectFn;
  readonly artifact: ObjectFn;
  readonly message: ObjectFn;
}

/** Body of every `Task` direction; `toV03` writes 0.3 JSON-RPC's required `contextId` (`""` when absent). */
function translateTask(value: JsonValue, path: string, fns: TaskFns, toV03: boolean): Out {
  const task = asObject(value, path);
  const out: Out = { id: reqString(task, "id", path) };
  const contextId = optNonEmptyString(task, "contextId", path);
  if (toV03) out["contextId"] = contextId ?? "";
  else put(out, "contextId", contextId);
  out["status"] = fns.status(reqObject(task, "status", path), join(path, "status"));
  putNonEmpty(out, "artifacts", mapArray(task, "artifacts", path, fns.artifact));
  putNonEmpty(out, "history", mapArray(task, "history", path, fns.message));
  put(out, "metadata", optStruct(task, "metadata", path));
  return out;
}

/**
 * 0.3 JSON-RPC `Task` → 1.0 `Task`.
 * @throws V03TranslationError when `id` or `status` is missing or anything nested is malformed.
 */
export function taskFromV03(value: JsonValue, path = "task"): JsonObject {
  checkKind(asObject(value, path), "task", path);
  const fns = { status: taskStatusFromV03, artifact: artifactFromV03, message: messageFromV03 };
  return translateTask(value, path, fns, false);
}

/**
 * 1.0 `Task` → 0.3 JSON-RPC `Task` with `kind: "task"`.
 * @throws V03TranslationError when `id` or `status` is missing or anything nested is malformed.
 */
export function taskToV03(value: JsonValue, path = "task"): JsonObject {
  const fns = { status: taskStatusToV03, artifact: artifactToV03, message: messageToV03 };
  return { kind: "task", ...translateTask(value, path, fns, true) };
}

/** 0.3 ProtoJSON `Task` → 1.0 `Task`. @throws V03TranslationError on a missing `id`/`status`. */
export function taskFromV03Proto(value: JsonValue, path = "task"): JsonObject {
  const fns = {
    status: taskStatusFromV03Proto,
    artifact: artifactFromV03Proto,
    message: messageFromV03Proto,
  };
  return translateTask(value, path, fns, false);
}

/** 1.0 `Task` → 0.3 ProtoJSON `Task`. @throws V03TranslationError on a missing `id`/`status`. */
export function taskToV03Proto(value: JsonValue, path = "task"): JsonObject {
  const fns = {
    status: taskStatusToV03Proto,
    artifact: artifactToV03Proto,
    message: messageToV03Proto,
  };
  return translateTask(value, path, fns, false);
}
