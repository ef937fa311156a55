// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * JSON-RPC 2.0 envelopes (https://www.jsonrpc.org/specification) as A2A uses them
 * (spec §9): one request per HTTP request, `params` a JSON object, no batches, no
 * notifications.
 */
import type { JsonValue } from "@bufbuild/protobuf";
import type { JsonRpcErrorObject } from "../a2a-error.js";

/** A request id: string, number or null. */
export type JsonRpcId = string | number | null;

/** A validated request envelope. */
export interface JsonRpcRequest {
  readonly id: JsonRpcId;
  readonly method: string;
  /** The `params` object; `{}` when the request has none. */
  readonly params: JsonValue;
}

/** Why an envelope is invalid, with the id to answer with (null when it could not be read). */
export interface EnvelopeProblem {
  readonly id: JsonRpcId;
  /** "request": answer -32600; "params": answer -32602. */
  readonly kind: "request" | "params";
  readonly message: string;
}

/** Validates a parsed body as a JSON-RPC 2.0 request envelope. */
export function readRequestEnvelope(body: unknown): JsonRpcRequest | EnvelopeProblem {
  if (Array.isArray(body)) {
    return { id: null, kind: "request", message: "batch requests are not supported: send one JSON-RPC request per HTTP request" };
  }
  if (typeof body !== "object" || body === null) {
    return { id: null, kind: "request", message: "the request must be a JSON object" };
  }
  const envelope = body as Record<string, unknown>;
  const rawId = envelope["id"];
  const idValid = typeof rawId === "string" || (typeof rawId === "number" && Number.isFinite(rawId)) || rawId === null;
  const id: JsonRpcId = idValid ? (rawId as JsonRpcId) : null;
  if (!Object.hasOwn(envelope, "id")) {
    return { id: null, kind: "request", message: "id is required: A2A methods always answer, so notifications are not supported" };
  }
  if (!idValid) return { id: null, kind: "request", message: "id must be a string, a number or null" };
  if (envelope["jsonrpc"] !== "2.0") return { id, kind: "request", message: 'jsonrpc must be "2.0"' };
  const method = envelope["method"];
  if (typeof method !== "string" || method === "") return { id, kind: "request", message: "method must be a non-empty string" };
  const params = Object.hasOwn(envelope, "params") ? envelope["params"] : {};
  if (typeof params !== "object" || params === null || Array.isArray(params)) {
    return { id, kind: "params", message: "params must be a JSON object (by-name parameters)" };
  }
  return { id, method, params: params as JsonValue };
}

/** True when readRequestEnvelope found a problem. */
export function isEnvelopeProblem(value: JsonRpcRequest | EnvelopeProblem): value is EnvelopeProblem {
  return "kind" in value;
}

/** Serialises a success response. `result` is already ProtoJSON. */
export function resultResponse(id: JsonRpcId, result: JsonValue): string {
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${JSON.stringify(result)}}`;
}

/** Serialises an error response. */
export function errorResponse(id: JsonRpcId, error: JsonRpcErrorObject): string {
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"error":${JSON.stringify(error)}}`;
}
