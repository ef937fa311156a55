// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * `Part` between the three shapes.
 *
 * - 1.0: `{text} | {raw, mediaType?, filename?} | {url, mediaType?, filename?} | {data}` plus `metadata`.
 * - 0.3 JSON-RPC: `{kind: "text", text} | {kind: "file", file: {bytes | uri, mimeType?, name?}} |
 *   {kind: "data", data: {…}}` plus `metadata`.
 * - 0.3 ProtoJSON: `{text} | {file: {fileWithBytes | fileWithUri, mimeType?}} | {data: {data: {…}}}`, no metadata,
 *   no file name.
 *
 * Normalisations and losses (documented choices):
 * - A 1.0 `data` that is not an object (0.3 allows objects only) is sent as `{value: <data>}`; on the JSON-RPC wire
 *   the part's metadata also gets `data_part_compat: true` (a2a-js's convention), and a 0.3 data part carrying that
 *   flag is unwrapped again, so the JSON-RPC round trip is lossless (except that an empty `metadata: {}` on such a
 *   part comes back absent). 0.3 ProtoJSON has no part metadata: the wrapper stays.
 * - 1.0 `mediaType` / `filename` on a text or data part have no 0.3 field and are dropped.
 * - 0.3 ProtoJSON drops the part `metadata` and the file name (`filename`).
 * - A 0.3 file with both `bytes` and `uri`, or neither, is rejected.
 * - Base64 is checked and passed through unchanged (1.0 `toJson` would re-encode it in the standard alphabet).
 */
import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import {
  asObject,
  checkBase64,
  cloneJson,
  isObject,
  join,
  optNonEmptyString,
  optString,
  optStruct,
  put,
  reqObject,
  reqString,
  type Out,
} from "./json.js";
import { V03TranslationError } from "./translation-error.js";

/** Metadata key that marks a 0.3 data part `{value: …}` wrapping a non-object 1.0 `data` (a2a-js's convention). */
export const DATA_PART_COMPAT_KEY = "data_part_compat";

const V1_MEMBERS = ["text", "raw", "url", "data"] as const;

/** The one content member of a 1.0 part. */
function v1Member(part: JsonObject, path: string): (typeof V1_MEMBERS)[number] {
  // `data` may legitimately be JSON null (google.protobuf.Value null_value), so test own keys, not values.
  const set = V1_MEMBERS.filter(
    (k) => Object.hasOwn(part, k) && (k === "data" || part[k] !== null),
  );
  if (set.length !== 1) {
    throw new V03TranslationError(
      path,
      `must have exactly one of text, raw, url, data (found ${set.length === 0 ? "none" : set.join(", ")})`,
    );
  }
  return set[0] as (typeof V1_MEMBERS)[number];
}

/**
 * 0.3 JSON-RPC `Part` (`kind` text | file | data) → 1.0 `Part`.
 * @throws V03TranslationError on an unknown `kind` or a malformed part.
 */
export function partFromV03(value: JsonValue, path = "part"): JsonObject {
  const part = asObject(value, path);
  const out: Out = {};
  let metadata = optStruct(part, "metadata", path);
  switch (part["kind"]) {
    case "text":
      out["text"] = reqString(part, "text", path, true);
      break;
    case "file": {
      const filePath = join(path, "file");
      const file = reqObject(part, "file", path);
      const bytes = optString(file, "bytes", filePath);
      const uri = optString(file, "uri", filePath);
      if ((bytes === undefined) === (uri === undefined)) {
        throw new V03TranslationError(filePath, "must have exactly one of bytes, uri");
      }
      if (bytes !== undefined) out["raw"] = checkBase64(bytes, join(filePath, "bytes"));
      else out["url"] = uri as string;
      put(out, "mediaType", optNonEmptyString(file, "mimeType", filePath));
      put(out, "filename", optNonEmptyString(file, "name", filePath));
      break;
    }
    case "data": {
      const data = cloneJson(reqObject(part, "data", path), join(path, "data")) as JsonObject;
      if (
        metadata !== undefined &&
        metadata[DATA_PART_COMPAT_KEY] === true &&
        Object.hasOwn(data, "value")
      ) {
        out["data"] = data["value"] as JsonValue;
        const { [DATA_PART_COMPAT_KEY]: _flag, ...rest } = metadata;
        metadata = Object.keys(rest).length > 0 ? rest : undefined;
      } else {
        out["data"] = data;
      }
      break;
    }
    default:
      throw new V03TranslationError(
        join(path, "kind"),
        `must be "text", "file" or "data", got ${JSON.stringify(part["kind"] ?? null)}`,
      );
  }
  put(out, "metadata", metadata);
  return out;
}

/**
 * 1.0 `Part` → 0.3 JSON-RPC `Part` with `kind`. `raw`/`url` become a file part; non-object `data` is wrapped
 * (see the module notes).
 * @throws V03TranslationError when the part has no or several content members.
 */
export function partToV03(value: JsonValue, path = "part"): JsonObject {
  const part = asObject(value, path);
  const member = v1Member(part, path);
  let metadata = optStruct(part, "metadata", path);
  let out: Out;
  switch (member) {
    case "text":
      out = { kind: "text", text: reqString(part, "text", path, true) };
      break;
    case "raw":
    case "url": {
      const file: Out =
        member === "raw"
          ? { bytes: checkBase64(reqString(part, "raw", path, true), join(path, "raw")) }
          : { uri: reqString(part, "url", path, true) };
      put(file, "mimeType", optNonEmptyString(part, "mediaType", path));
      put(file, "name", optNonEmptyString(part, "filename", path));
      out = { kind: "file", file };
      break;
    }
    case "data": {
      const data = cloneJson(part["data"], join(path, "data"));
      if (isObject(data)) {
        out = { kind: "data", data };
      } else {
        out = { kind: "data", data: { value: data } };
        metadata = { ...(metadata ?? {}), [DATA_PART_COMPAT_KEY]: true };
      }
      break;
    }
  }
  put(out, "metadata", metadata);
  return out;
}

/**
 * 0.3 ProtoJSON `Part` (`text` | `file` | `data`) → 1.0 `Part`.
 * @throws V03TranslationError when the part has no or several members, or a file has neither URI nor bytes.
 */
export function partFromV03Proto(value: JsonValue, path = "part"): JsonObject {
  const part = asObject(value, path);
  const set = ["text", "file", "data"].filter((k) => part[k] !== undefined && part[k] !== null);
  if (set.length !== 1)
    throw new V03TranslationError(path, "must have exactly one of text, file, data");
  if (set[0] === "text") return { text: reqString(part, "text", path, true) };
  if (set[0] === "file") {
    const filePath = join(path, "file");
    const file = reqObject(part, "file", path);
    const bytes = optString(file, "fileWithBytes", filePath);
    const uri = optString(file, "fileWithUri", filePath);
    if ((bytes === undefined) === (uri === undefined)) {
      throw new V03TranslationError(
        filePath,
        "must have exactly one of fileWithBytes, fileWithUri",
      );
    }
    const out: Out =
      bytes !== undefined
        ? { raw: checkBase64(bytes, join(filePath, "fileWithBytes")) }
        : { url: uri as string };
    put(out, "mediaType", optNonEmptyString(file, "mimeType", filePath));
    return out;
  }
  const dataPart = reqObject(part, "data", path);
  return { data: optStruct(dataPart, "data", join(path, "data")) ?? {} };
}

/**
 * 1.0 `Part` → 0.3 ProtoJSON `Part`. Drops `metadata` and `filename`; wraps non-object `data` as `{value: …}`.
 * @throws V03TranslationError when the part has no or several content members.
 */
export function partToV03Proto(value: JsonValue, path = "part"): JsonObject {
  const part = asObject(value, path);
  const member = v1Member(part, path);
  switch (member) {
    case "text":
      return { text: reqString(part, "text", path, true) };
    case "raw":
    case "url": {
      const file: Out =
        member === "raw"
          ? { fileWithBytes: checkBase64(reqString(part, "raw", path, true), join(path, "raw")) }
          : { fileWithUri: reqString(part, "url", path, true) };
      put(file, "mimeType", optNonEmptyString(part, "mediaType", path));
      return { file };
    }
    case "data": {
      const data = cloneJson(part["data"], join(path, "data"));
      return { data: { data: isObject(data) ? data : { value: data } } };
    }
  }
}
