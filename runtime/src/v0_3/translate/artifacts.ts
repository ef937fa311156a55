// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * `Artifact` between the three shapes (same field names everywhere; parts translated by parts.ts). Empty
 * `name`/`description`/`extensions` mean the same as absent ones; `parts` is always written to 0.3 (required there).
 */
import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
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

type PartFn = (part: JsonValue, path: string) => JsonObject;

/** Shared body of the four directions. */
function translate(
  value: JsonValue,
  path: string,
  partFn: PartFn,
  requireParts: boolean,
  emitEmptyParts: boolean,
): JsonObject {
  const art = asObject(value, path);
  const out: Out = { artifactId: reqString(art, "artifactId", path) };
  put(out, "name", optNonEmptyString(art, "name", path));
  put(out, "description", optNonEmptyString(art, "description", path));
  const parts = mapArray(art, "parts", path, partFn);
  if (parts === undefined && requireParts)
    throw new V03TranslationError(join(path, "parts"), "is required");
  if (emitEmptyParts) out["parts"] = parts ?? [];
  else putNonEmpty(out, "parts", parts);
  put(out, "metadata", optStruct(art, "metadata", path));
  putNonEmpty(out, "extensions", optStringArray(art, "extensions", path));
  return out;
}

/** 0.3 JSON-RPC `Artifact` → 1.0 `Artifact`. @throws V03TranslationError on a missing `artifactId`/`parts`. */
export function artifactFromV03(value: JsonValue, path = "artifact"): JsonObject {
  return translate(value, path, partFromV03, true, false);
}

/** 1.0 `Artifact` → 0.3 JSON-RPC `Artifact`. @throws V03TranslationError on a missing `artifactId`. */
export function artifactToV03(value: JsonValue, path = "artifact"): JsonObject {
  return translate(value, path, partToV03, false, true);
}

/** 0.3 ProtoJSON `Artifact` → 1.0 `Artifact`. @throws V03TranslationError on a missing `artifactId`. */
export function artifactFromV03Proto(value: JsonValue, path = "artifact"): JsonObject {
  return translate(value, path, partFromV03Proto, false, false);
}

/** 1.0 `Artifact` → 0.3 ProtoJSON `Artifact` (part metadata and file names dropped). */
export function artifactToV03Proto(value: JsonValue, path = "artifact"): JsonObject {
  return translate(value, path, partToV03Proto, false, false);
}
