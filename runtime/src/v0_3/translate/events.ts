// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Stream events and send results between the three shapes: `TaskStatusUpdateEvent`, `TaskArtifactUpdateEvent`,
 * 1.0 `StreamResponse` ⇄ 0.3 JSON-RPC event (a `Task | Message | TaskStatusUpdateEvent | TaskArtifactUpdateEvent`
 * told apart by `kind`) ⇄ 0.3 ProtoJSON `StreamResponse`, and `SendMessageResponse` likewise.
 *
 * Documented choices:
 * - 0.3 `final` is dropped on the way to 1.0 (1.0 ends a stream by closing it). On the way to 0.3 it is computed:
 *   `true` when the state is terminal (completed, failed, canceled, rejected) or interrupted (input-required,
 *   auth-required), the states after which a 1.0 server closes the stream; callers may override it.
 * - `append` / `lastChunk`: `false` means the same as absent; they are written to 0.3 only when `true`.
 * - 0.3's required `contextId` is written as `""` when 1.0 has none.
 */
import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import {
  artifactFromV03,
  artifactFromV03Proto,
  artifactToV03,
  artifactToV03Proto,
} from "./artifacts.js";
import { isFinalV1State } from "./enums.js";
import {
  asObject,
  join,
  optBool,
  optNonEmptyString,
  optStruct,
  put,
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
import {
  taskFromV03,
  taskFromV03Proto,
  taskStatusFromV03,
  taskStatusFromV03Proto,
  taskStatusToV03,
  taskStatusToV03Proto,
  taskToV03,
  taskToV03Proto,
} from "./tasks.js";
import { V03TranslationError } from "./translation-error.js";

/** Options of {@link statusUpdateToV03} and {@link statusUpdateToV03Proto}. */
export interface StatusUpdateToV03Options {
  /** Overrides the computed `final` flag (by default: terminal or interrupted state). */
  readonly final?: boolean;
}

type StatusFn = (status: JsonValue, path: string) => JsonObject;
type ArtifactFn = (artifact: JsonValue, path: string) => JsonObject;

/** Task and context ids of an update event; `contextIdDefault` "" for 0.3 outputs, undefined for 1.0 outputs. */
function eventIds(ev: JsonObject, path: string, out: Out, toV03: boolean): void {
  out["taskId"] = reqString(ev, "taskId", path);
  const contextId = optNonEmptyString(ev, "contextId", path);
  if (toV03) out["contextId"] = contextId ?? "";
  else put(out, "contextId", contextId);
}

/** Body shared by every status-update direction. */
function statusUpdate(value: JsonValue, path: string, statusFn: StatusFn, toV03: boolean): Out {
  const ev = asObject(value, path);
  const out: Out = {};
  eventIds(ev, path, out, toV03);
  const status = reqObject(ev, "status", path);
  out["status"] = statusFn(status, join(path, "status"));
  put(out, "metadata", optStruct(ev, "metadata", path));
  return out;
}

/** Body shared by every artifact-update direction. */
function artifactUpdate(
  value: JsonValue,
  path: string,
  artifactFn: ArtifactFn,
  toV03: boolean,
): Out {
  const ev = asObject(value, path);
  const out: Out = {};
  eventIds(ev, path, out, toV03);
  out["artifact"] = artifactFn(reqObject(ev, "artifact", path), join(path, "artifact"));
  if (optBool(ev, "append", path) === true) out["append"] = true;
  if (optBool(ev, "lastChunk", path) === true) out["lastChunk"] = true;
  put(out, "metadata", optStruct(ev, "metadata", path));
  return out;
}

/** The computed or overridden `final` of a 1.0 status update. */
function finalFlag(value: JsonValue, options: StatusUpdateToV03Options | undefined): boolean {
  if (options?.final !== undefined) return options.final;
  const status = asObject(value, "statusUpdate")["status"];
  return isFinalV1State(
    status !== null && typeof status === "object" && !Array.isArray(status)
      ? status["state"]
      : undefined,
  );
}

/** 0.3 JSON-RPC `TaskStatusUpdateEvent` → 1.0 `TaskStatusUpdateEvent` (`kind` and `final` dropped). */
export function statusUpdateFromV03(value: JsonValue, path = "statusUpdate"): JsonObject {
  checkKind(asObject(value, path), "status-update", path);
  return statusUpdate(value, path, taskStatusFromV03, false);
}

/** 1.0 `TaskStatusUpdateEvent` → 0.3 JSON-RPC event with `kind: "status-update"` and a computed `final`. */
export function statusUpdateToV03(
  value: JsonValue,
  options?: StatusUpdateToV03Options,
  path = "statusUpdate",
): JsonObject {
  const out = statusUpdate(value, path, taskStatusToV03, true);
  return { kind: "status-update", ...out, final: finalFlag(value, options) };
}

/** 0.3 ProtoJSON `TaskStatusUpdateEvent` → 1.0 (`final` dropped). */
export function statusUpdateFromV03Proto(value: JsonValue, path = "statusUpdate"): JsonObject {
  return statusUpdate(value, path, taskStatusFromV03Proto, false);
}

/** 1.0 `TaskStatusUpdateEvent` → 0.3 ProtoJSON, with a computed `final` (written only when true, as ProtoJSON does). */
export function statusUpdateToV03Proto(
  value: JsonValue,
  options?: StatusUpdateToV03Options,
  path = "statusUpdate",
): JsonObject {
  const out = statusUpdate(value, path, taskStatusToV03Proto, false);
  if (finalFlag(value, options)) out["final"] = true;
  return out;
}

/** 0.3 JSON-RPC `TaskArtifactUpdateEvent` → 1.0 `TaskArtifactUpdateEvent` (`kind` dropped). */
export function artifactUpdateFromV03(value: JsonValue, path = "artifactUpdate"): JsonObject {
  checkKind(asObject(value, path), "artifact-update", path);
  return artifactUpdate(value, path, artifactFromV03, false);
}

/** 1.0 `TaskArtifactUpdateEvent` → 0.3 JSON-RPC event with `kind: "artifact-update"`. */
export function artifactUpdateToV03(value: JsonValue, path = "artifactUpdate"): JsonObject {
  return { kind: "artifact-update", ...artifactUpdate(value, path, artifactToV03, true) };
}

/** 0.3 ProtoJSON `TaskArtifactUpdateEvent` → 1.0. */
export function artifactUpdateFromV03Proto(value: JsonValue, path = "artifactUpdate"): JsonObject {
  return artifactUpdate(value, path, artifactFromV03Proto, false);
}

/** 1.0 `TaskArtifactUpdateEvent` → 0.3 ProtoJSON. */
export function artifactUpdateToV03Proto(value: JsonValue, path = "artifactUpdate"): JsonObject {
  return artifactUpdate(value, path, artifactToV03Proto, false);
}

/** The one member of a oneof wrapper such as `StreamResponse`. */
function oneMember(obj: JsonObject, members: readonly string[], path: string): [string, JsonValue] {
  const set = members.filter((k) => obj[k] !== undefined && obj[k] !== null);
  if (set.length !== 1) {
    throw new V03TranslationError(
      path,
      `must have exactly one of ${members.join(", ")} (found ${set.length === 0 ? "none" : set.join(", ")})`,
    );
  }
  const key = set[0] as string;
  return [key, obj[key] as JsonValue];
}

type MemberFn = (member: JsonValue, path: string) => JsonObject;

/**
 * Translates the one member of a oneof wrapper (`StreamResponse`, `SendMessageResponse`) with the function of its
 * key in `fns`, whose keys, in order, are the wrapper's members.
 * @throws V03TranslationError when the wrapper has no or several members.
 */
function translateMember(
  value: JsonValue,
  path: string,
  fns: Readonly<Record<string, MemberFn>>,
): { key: string; translated: JsonObject } {
  const [key, member] = oneMember(asObject(value, path), Object.keys(fns), path);
  return { key, translated: (fns[key] as MemberFn)(member, join(path, key)) };
}

/** Like {@link translateMember}, but keeps the translated member in its wrapper (ProtoJSON ⇄ 1.0). */
function translateWrapper(
  value: JsonValue,
  path: string,
  fns: Readonly<Record<string, MemberFn>>,
): JsonObject {
  const { key, translated } = translateMember(value, path, fns);
  return { [key]: translated };
}

/**
 * 1.0 `StreamResponse` → 0.3 JSON-RPC stream event (the `result` of a `message/stream` or `tasks/resubscribe`
 * response, and the body of a 0.3 push notification), with its `kind`.
 * @throws V03TranslationError when the response has no or several members.
 */
export function streamResponseToV03(
  value: JsonValue,
  options?: StatusUpdateToV03Options,
  path = "streamResponse",
): JsonObject {
  return translateMember(value, path, {
    task: taskToV03,
    message: messageToV03,
    statusUpdate: (member, p) => statusUpdateToV03(member, options, p),
    artifactUpdate: artifactUpdateToV03,
  }).translated;
}

/**
 * 0.3 JSON-RPC stream event (told apart by `kind`) → 1.0 `StreamResponse`; for a 1.0 client of a 0.3 agent.
 * @throws V03TranslationError on a missing or unknown `kind`.
 */
export function streamResponseFromV03(value: JsonValue, path = "result"): JsonObject {
  const ev = asObject(value, path);
  switch (ev["kind"]) {
    case "task":
      return { task: taskFromV03(ev, path) };
    case "message":
      return { message: messageFromV03(ev, path) };
    case "status-update":
      return { statusUpdate: statusUpdateFromV03(ev, path) };
    case "artifact-update":
      return { artifactUpdate: artifactUpdateFromV03(ev, path) };
    default:
      throw new V03TranslationError(
        join(path, "kind"),
        `must be "task", "message", "status-update" or "artifact-update", got ${JSON.stringify(ev["kind"] ?? null)}`,
      );
  }
}

/** 1.0 `StreamResponse` → 0.3 ProtoJSON `StreamResponse` (same member json names). */
export function streamResponseToV03Proto(
  value: JsonValue,
  options?: StatusUpdateToV03Options,
  path = "streamResponse",
): JsonObject {
  return translateWrapper(value, path, {
    task: taskToV03Proto,
    message: messageToV03Proto,
    statusUpdate: (member, p) => statusUpdateToV03Proto(member, options, p),
    artifactUpdate: artifactUpdateToV03Proto,
  });
}

/** 0.3 ProtoJSON `StreamResponse` → 1.0 `StreamResponse`. */
export function streamResponseFromV03Proto(value: JsonValue, path = "streamResponse"): JsonObject {
  return translateWrapper(value, path, {
    task: taskFromV03Proto,
    message: messageFromV03Proto,
    statusUpdate: statusUpdateFromV03Proto,
    artifactUpdate: artifactUpdateFromV03Proto,
  });
}

/** 1.0 `SendMessageResponse` → 0.3 JSON-RPC `message/send` result (`Task` or `Message`, with `kind`). */
export function sendMessageResponseToV03(
  value: JsonValue,
  path = "sendMessageResponse",
): JsonObject {
  return translateMember(value, path, { task: taskToV03, message: messageToV03 }).translated;
}

/** 0.3 JSON-RPC `message/send` result (`kind` task | message) → 1.0 `SendMessageResponse`. */
export function sendMessageResponseFromV03(value: JsonValue, path = "result"): JsonObject {
  const res = asObject(value, path);
  if (res["kind"] === "task") return { task: taskFromV03(res, path) };
  if (res["kind"] === "message") return { message: messageFromV03(res, path) };
  throw new V03TranslationError(
    join(path, "kind"),
    `must be "task" or "message", got ${JSON.stringify(res["kind"] ?? null)}`,
  );
}

/** 1.0 `SendMessageResponse` → 0.3 ProtoJSON `SendMessageResponse` (`task` | `message`). */
export function sendMessageResponseToV03Proto(
  value: JsonValue,
  path = "sendMessageResponse",
): JsonObject {
  return translateWrapper(value, path, { task: taskToV03Proto, message: messageToV03Proto });
}

/** 0.3 ProtoJSON `SendMessageResponse` → 1.0 `SendMessageResponse`. */
export function sendMessageResponseFromV03Proto(
  value: JsonValue,
  path = "sendMessageResponse",
): JsonObject {
  return translateWrapper(value, path, { task: taskFromV03Proto, message: messageFromV03Proto });
}
