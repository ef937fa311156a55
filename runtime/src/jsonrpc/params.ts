// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * JSON-RPC `params` of a request message. JSON-RPC 2.0 wants params to be an object (by name)
 * or an array (by position). A request whose ProtoJSON form is an object is its params as it is;
 * one whose ProtoJSON form is not an object (google.protobuf.Value, ListValue, Timestamp,
 * Duration, FieldMask, the wrappers: json-form.ts) travels by position, as the one-element
 * array `[<ProtoJSON value>]`. The server accepts exactly that, and answers anything else with
 * InvalidParams.
 */
import type { DescMessage, JsonValue } from "@bufbuild/protobuf";
import { hasObjectJson } from "../protojson/json-form.js";

/** Params that do not fit the request type: the message says what was expected. */
export class JsonRpcParamsError extends Error {
  override name = "JsonRpcParamsError";
}

/** The `params` of a request whose ProtoJSON form is `json`. */
export function toJsonRpcParams(schema: DescMessage, json: JsonValue): JsonValue {
  return hasObjectJson(schema) ? json : [json];
}

/** The ProtoJSON form of the request in `params`; throws JsonRpcParamsError when the params do not have the type's structure. */
export function fromJsonRpcParams(schema: DescMessage, params: JsonValue): JsonValue {
  const isArray = Array.isArray(params);
  if (hasObjectJson(schema)) {
    if (isArray || typeof params !== "object" || params === null)
      throw new JsonRpcParamsError("params must be a JSON object (by-name parameters)");
    return params;
  }
  if (!isArray || params.length !== 1) {
    throw new JsonRpcParamsError(
      `params of a ${schema.typeName} request must be a one-element array holding its ProtoJSON value (by-position parameters)`,
    );
  }
  return params[0] as JsonValue;
}
