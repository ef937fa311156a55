// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * JSON-RPC 2.0 envelopes (https://www.jsonrpc.org/specification) as A2A uses them
 * (spec §9): one request per HTTP request, `params` a JSON object (or, for a request whose
 * ProtoJSON is not an object, a one-element array: params.ts), no batches, no notifications.
 */
import type { JsonValue } from "@bufbuild/protobuf";
import type { JsonRpcErrorObject } from "../errors/a2a-error.js";
import { idJson } from "./raw-id.js";

/** A request id: string, number or null. */
export type JsonRpcId = string | number | null;

/**
 * A request id as the JSON text the answer echoes: `null`, a JSON string, or a number exactly as the
 * request wrote it when a JS number would not echo it (beyond 2^53, fractions: see raw-id.ts).
 */
export type JsonRpcIdJson = string;

/** The id of answers to requests whose id could not be read. */
export const NULL_ID: JsonRpcIdJson = "null";

/** A validated request envelope. */
export interface JsonRpcRequest {
  readonly id: JsonRpcIdJson;
  readonly method: string;
  /** The `params` object (or array, see params.ts); `{}` when the request has none. */
  readonly params: JsonValue;
}

/** Why an envelope is invalid, with the id to answer with (null when it could not be read). */
export interface EnvelopeProblem {
  readonly id: JsonRpcIdJson;
  /** "request": answer -32600; "params": answer -32602. */
  readonly kind: "request" | "params";
  readonly message: string;
}

/** Validates a parsed body as a JSON-RPC 2.0 request envelope; `text` is what was parsed (to echo a numeric id exactly). */
export function readRequestEnvelope(body: unknown, text: string): JsonRpcRequest | EnvelopeProblem {
  if (Array.isArray(body)) {
    return {
      id: NULL_ID,
      kind: "request",
      message: "batch requests are not supported: send one JSON-RPC request per HTTP request",
    };
  }
  if (typeof body !== "object" || body === null) {
    return { id: NULL_ID, kind: "request", message: "the request must be a JSON object" };
  }
  const envelope = body as Record<string, unknown>;
  if (!Object.hasOwn(envelope, "id")) {
    return {
      id: NULL_ID,
      kind: "request",
      message: "id is required: A2A methods always answer, so notifications are not supported",
    };
  }
  const rawId = envelope["id"];
  if (typeof rawId !== "string" && typeof rawId !== "number" && rawId !== null) {
    return { id: NULL_ID, kind: "request", message: "id must be a string, a number or null" };
  }
  // A number beyond what a double holds (1e400) is still a JSON number: echoed as written.
  const id = idJson(rawId, text);
  if (id === "null" && rawId !== null)
    return { id: NULL_ID, kind: "request", message: "id must be a string, a number or null" };
  if (envelope["jsonrpc"] !== "2.0")
    return { id, kind: "request", message: 'jsonrpc must be "2.0"' };
  const method = envelope["method"];
  if (typeof method !== "string" || method === "")
    return { id, kind: "request", message: "method must be a non-empty string" };
  const params = Object.hasOwn(envelope, "params") ? envelope["params"] : {};
  // An array (by position) is a request type's whose ProtoJSON is not an object (params.ts): the method decides.
  if (typeof params !== "object" || params === null) {
    return { id, kind: "params", message: "params must be a JSON object (by-name parameters)" };
  }
  return { id, method, params: params as JsonValue };
}

/** True when readRequestEnvelope found a problem. */
export function isEnvelopeProblem(
  value: JsonRpcRequest | EnvelopeProblem,
): value is EnvelopeProblem {
  return "kind" in value;
}

/** Serialises a success response. `result` is already ProtoJSON. */
export function resultResponse(id: JsonRpcIdJson, result: JsonValue): string {
  return `{"jsonrpc":"2.0","id":${id},"result":${JSON.stringify(result)}}`;
}

/** Serialises a result response around the result's JSON text (a generated writer's, protojson/response-text.ts). */
export function resultTextResponse(id: JsonRpcIdJson, resultText: string): string {
  return `{"jsonrpc":"2.0","id":${id},"result":${resultText}}`;
}

/** Serialises an error response. */
export function errorResponse(id: JsonRpcIdJson, error: JsonRpcErrorObject): string {
  return `{"jsonrpc":"2.0","id":${id},"error":${JSON.stringify(error)}}`;
}
