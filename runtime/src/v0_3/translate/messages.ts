// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * `Message` between the three shapes. 0.3 JSON-RPC adds `kind: "message"` and spells roles `user`/`agent`; 0.3
 * ProtoJSON calls the parts `content` and has no `referenceTaskIds`.
 *
 * Normalisations (documented choices): an empty `contextId`/`taskId` or an empty `extensions`/`referenceTaskIds`
 * array means the same as an absent one (1.0 ProtoJSON writes neither); `parts` is always written to 0.3 (required
 * there), as `[]` when 1.0 has none. A 0.3 message without `kind` is accepted; any other `kind` is rejected.
 * 0.3 ProtoJSON drops `referenceTaskIds` (no field; dropped like the other SDKs do) and each part's metadata and
 * file name (see parts.ts).
 */
import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import { roleFromV03, roleProto, roleToV03 } from "./enums.js";
import {
  asObject,
  join,
  mapArray,
  optNonEmptyString,
  optStringArray,
  optStruct,
  put,
  putNonEmpty,
  reqString,
  type Out,
} from "./json.js";
import { partFromV03, partFromV03Proto, partToV03, partToV03Proto } from "./parts.js";
import { V03TranslationError } from "./translation-error.js";

/** Checks an optional `kind` discriminator. */
export function checkKind(obj: JsonObject, kind: string, path: string): void {
  const k = obj["kind"];
  if (k !== undefined && k !== null && k !== kind) {
    throw new V03TranslationError(
      join(path, "kind"),
      `must be ${JSON.stringify(kind)}, got ${JSON.stringify(k)}`,
    );
  }
}

/** Fields shared by every shape: ids, metadata, extensions. */
function commonFields(msg: JsonObject, path: string, out: Out): void {
  put(out, "contextId", optNonEmptyString(msg, "contextId", path));
  put(out, "taskId", optNonEmptyString(msg, "taskId", path));
  put(out, "metadata", optStruct(msg, "metadata", path));
  putNonEmpty(out, "extensions", optStringArray(msg, "extensions", path));
}

/**
 * Body of the two ProtoJSON directions, which differ only in the parts' key (`content` in 0.3, `parts` in 1.0)
 * and the parts' translation.
 */
function protoMessage(
  value: JsonValue,
  path: string,
  partsIn: string,
  partsOut: string,
  partFn: (part: JsonValue, path: string) => JsonObject,
): JsonObject {
  const msg = asObject(value, path);
  const out: Out = {
    messageId: reqString(msg, "messageId", path),
    role: roleProto(msg["role"], join(path, "role")),
  };
  putNonEmpty(out, partsOut, mapArray(msg, partsIn, path, partFn));
  commonFields(msg, path, out);
  return out;
}

/**
 * 0.3 JSON-RPC `Message` → 1.0 `Message`.
 * @throws V03TranslationError when `messageId`, `role` or `parts` is missing or malformed.
 */
export function messageFromV03(value: JsonValue, path = "message"): JsonObject {
  const msg = asObject(value, path);
  checkKind(msg, "message", path);
  const out: Out = {
    messageId: reqString(msg, "messageId", path),
    role: roleFromV03(msg["role"], join(path, "role")),
  };
  const parts = mapArray(msg, "parts", path, partFromV03);
  if (parts === undefined) throw new V03TranslationError(join(path, "parts"), "is required");
  putNonEmpty(out, "parts", parts);
  commonFields(msg, path, out);
  putNonEmpty(out, "referenceTaskIds", optStringArray(msg, "referenceTaskIds", path));
  return out;
}

/**
 * 1.0 `Message` → 0.3 JSON-RPC `Message` with `kind: "message"`.
 * @throws V03TranslationError when `messageId` or `role` is missing or a part is malformed.
 */
export function messageToV03(value: JsonValue, path = "message"): JsonObject {
  const msg = asObject(value, path);
  const out: Out = {
    kind: "message",
    messageId: reqString(msg, "messageId", path),
    role: roleToV03(msg["role"], join(path, "role")),
    parts: mapArray(msg, "parts", path, partToV03) ?? [],
  };
  commonFields(msg, path, out);
  putNonEmpty(out, "referenceTaskIds", optStringArray(msg, "referenceTaskIds", path));
  return out;
}

/**
 * 0.3 ProtoJSON `Message` (`content`, `ROLE_*`) → 1.0 `Message`.
 * @throws V03TranslationError when `messageId` or `role` is missing or a part is malformed.
 */
export function messageFromV03Proto(value: JsonValue, path = "message"): JsonObject {
  return protoMessage(value, path, "content", "parts", partFromV03Proto);
}

/**
 * 1.0 `Message` → 0.3 ProtoJSON `Message`; drops `referenceTaskIds`, part metadata and file names.
 * @throws V03TranslationError when `messageId` or `role` is missing or a part is malformed.
 */
export function messageToV03Proto(value: JsonValue, path = "message"): JsonObject {
  return protoMessage(value, path, "parts", "content", partToV03Proto);
}
