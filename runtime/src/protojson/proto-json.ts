// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * ProtoJSON decoding and encoding for the HTTP bindings, on protobuf-es.
 *
 * Decoding is strict about what a field holds (wrong types, unknown enum names, two
 * oneof members, malformed timestamps are errors) and lenient about fields it does
 * not know, which spec §5.7 says implementations SHOULD ignore. The fast path is one
 * strict `fromJson`; only a request with unknown keys pays for a second pass. The type
 * registry (type-registry.ts) resolves `google.protobuf.Any` and proto2 extensions both ways.
 */
import {
  fromJson,
  toJson,
  type DescMessage,
  type JsonValue,
  type MessageShape,
  type Registry,
} from "@bufbuild/protobuf";
import { fillRequiredDefaults, type RequirementTable } from "../pipeline/required-fields.js";

/** A request that does not decode: `message` says which field and why (no internals). */
export class JsonDecodeError extends Error {
  override name = "JsonDecodeError";
}

const UNKNOWN_KEY = /key "[^"]*" is unknown/;

/** Decodes a ProtoJSON value into a message of `schema` (Any and extensions by `registry`); throws JsonDecodeError. */
export function decodeMessage<Desc extends DescMessage>(
  schema: Desc,
  json: JsonValue,
  registry?: Registry,
): MessageShape<Desc> {
  const options = registry === undefined ? undefined : { registry };
  try {
    return fromJson(schema, json, options);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    if (!UNKNOWN_KEY.test(message)) throw new JsonDecodeError(message);
  }
  try {
    return fromJson(schema, dropUnknownKeys(schema, json, 0), options);
  } catch (e) {
    throw new JsonDecodeError(e instanceof Error ? e.message : String(e));
  }
}

/** Encodes a message to ProtoJSON (Any and extensions by `registry`), adding the REQUIRED fields ProtoJSON omits at their zero value. */
export function encodeMessage(
  schema: DescMessage,
  message: MessageShape<DescMessage>,
  responseFields: RequirementTable,
  registry?: Registry,
): JsonValue {
  return fillRequiredDefaults(
    responseFields,
    schema.typeName,
    toJson(schema, message, registry === undefined ? undefined : { registry }),
  );
}

const MAX_DEPTH = 100;

/** A copy of `json` without the keys `desc` does not know, recursively. Well-known types are left as they are. */
function dropUnknownKeys(desc: DescMessage, json: JsonValue, depth: number): JsonValue {
  if (
    typeof json !== "object" ||
    json === null ||
    Array.isArray(json) ||
    depth > MAX_DEPTH ||
    desc.typeName.startsWith("google.protobuf.")
  ) {
    return json;
  }
  const out: Record<string, JsonValue> = {};
  for (const [key, value] of Object.entries(json)) {
    const field = desc.fields.find((f) => f.jsonName === key || f.name === key);
    if (field === undefined) continue;
    let v = value;
    if (field.fieldKind === "message") {
      v = dropUnknownKeys(field.message, value, depth + 1);
    } else if (field.fieldKind === "list" && field.listKind === "message" && Array.isArray(value)) {
      v = value.map((item) => dropUnknownKeys(field.message, item, depth + 1));
    } else if (
      field.fieldKind === "map" &&
      field.mapKind === "message" &&
      typeof value === "object" &&
      value !== null &&
      !Array.isArray(value)
    ) {
      const m: Record<string, JsonValue> = {};
      for (const [k, item] of Object.entries(value))
        m[k] = dropUnknownKeys(field.message, item, depth + 1);
      v = m;
    }
    Object.defineProperty(out, key, {
      value: v,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}
