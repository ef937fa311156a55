// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Reading a JSON-RPC 2.0 response envelope in the clients (the 1.0 JSON-RPC client and the 0.3
 * one): its `error` as an A2A error, a body that is no JSON-RPC result as an HTTP or protocol error.
 */
import type { A2AError, ErrorRegistry } from "../errors/a2a-error.js";

/** How a client turns what a response envelope says into errors. */
export interface ResponseEnvelopeErrors {
  /** The client's error registry (HTTP errors: a body that is not a JSON-RPC response). */
  readonly errors: ErrorRegistry;
  /** The envelope's `error` object as an A2A error. */
  readonly rpcError: (error: unknown) => A2AError;
  /** A response that breaks the protocol (InvalidAgentResponseError). */
  readonly protocolError: (message: string) => A2AError;
}

/** The envelope of a response body `text` (HTTP status `status`) to the request `id`, checked. */
export function parseResponseEnvelope(
  text: string,
  id: number,
  status: number,
  answers: ResponseEnvelopeErrors,
): Record<string, unknown> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw answers.errors.fromHttpError(status, text);
  }
  return checkResponseEnvelope(json, id, status, answers);
}

/**
 * `json` as the result envelope of the response to the request `id`: its `error` thrown as an A2A
 * error; anything else that is not a JSON-RPC 2.0 result with that id thrown as an HTTP error
 * (`status` ≥ 300) or a protocol error.
 */
export function checkResponseEnvelope(
  json: unknown,
  id: number,
  status: number,
  answers: ResponseEnvelopeErrors,
): Record<string, unknown> {
  if (typeof json !== "object" || json === null || Array.isArray(json))
    throw answers.errors.fromHttpError(status, json);
  const envelope = json as Record<string, unknown>;
  if (Object.hasOwn(envelope, "error")) throw answers.rpcError(envelope["error"]);
  if (envelope["jsonrpc"] !== "2.0" || !Object.hasOwn(envelope, "result")) {
    throw status >= 300
      ? answers.errors.fromHttpError(status, json)
      : answers.protocolError("the response is not a JSON-RPC 2.0 result");
  }
  if (envelope["id"] !== id)
    throw answers.protocolError(
      `the response id ${JSON.stringify(envelope["id"])} does not match the request id ${id}`,
    );
  return envelope;
}
