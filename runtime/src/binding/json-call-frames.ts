// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * JSON call frames: the framing of the example WebSocket and stdio bindings, ready for any carrier
 * of text frames. One JSON object per frame, JSON-RPC-like:
 *
 * - call (client → server): `{"id": <number|string>, "method": <wire name>, "params"?: <ProtoJSON request>, "serviceParameters"?: {name: value}}`
 * - cancel (client → server): `{"id", "cancel": true}` (at most {@link JSON_CANCEL_FRAME_MAX_CHARS} characters)
 * - answers (server → client): `{"id", "result", "activatedExtensions"?}`, `{"id", "event", "activatedExtensions"?}`
 *   (a stream's events, the first carrying the activated extensions), `{"id", "end": true}`,
 *   `{"id": <id or null>, "error": <JSON-RPC error object>}`
 */
import type { JsonValue } from "@bufbuild/protobuf";
import { A2AError, type A2AErrorSpec, type JsonRpcErrorObject } from "../errors/a2a-error.js";
import type { FramedClientCodec, FramedDecodedAnswer } from "./framed-connection.js";
import {
  isFramedCallId,
  type FramedAnswer,
  type FramedCallId,
  type FramedInboundCall,
  type FramedOutboundCall,
  type FramedReplySink,
} from "./framed-call.js";

/** The error types a JSON call frame can be refused with (the generated `errorSpecs` has them). */
export interface JsonCallFrameErrors {
  /** A frame that is not JSON (-32700). */
  readonly JsonParseError: A2AErrorSpec;
  /** A frame that is JSON but no call (-32600). */
  readonly InvalidRequestError: A2AErrorSpec;
}

/** Options of {@link decodeJsonCallFrame}. */
export interface JsonCallFrameOptions {
  /** What the carrier calls a frame, in error messages ("frame", "line", "message"). Default "frame". */
  readonly unit?: string | undefined;
}

/** The longest text read as a possible cancel frame; longer ones are calls. */
export const JSON_CANCEL_FRAME_MAX_CHARS = 1024;

/** An answer frame of JSON call frames, as the server writes it (JSON.stringify it). */
export type JsonAnswerFrame =
  | {
      readonly id: FramedCallId;
      readonly result: JsonValue;
      readonly activatedExtensions?: readonly string[];
    }
  | {
      readonly id: FramedCallId;
      readonly event: JsonValue;
      readonly activatedExtensions?: readonly string[];
    }
  | { readonly id: FramedCallId; readonly end: true }
  | { readonly id: FramedCallId | null; readonly error: JsonRpcErrorObject };

function isJsonObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The JSON object a text is, or undefined (not JSON, or JSON of another kind). */
function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return isJsonObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads one call frame (a string; anything else is refused). Throws an A2AError for a frame that
 * is no call: JsonParseError when it does not parse, InvalidRequestError when it is no call
 * object, has no `id` or `method`, or `serviceParameters` is not an object of strings. Absent
 * `params` are an empty request; the tenant is the request's `tenant` field, as on JSON-RPC.
 */
export function decodeJsonCallFrame(
  frame: unknown,
  errors: JsonCallFrameErrors,
  options: JsonCallFrameOptions = {},
): FramedInboundCall {
  const unit = options.unit ?? "frame";
  if (typeof frame !== "string")
    throw new A2AError(errors.InvalidRequestError, `a ${unit} is text: one JSON object`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(frame);
  } catch (e) {
    throw new A2AError(
      errors.JsonParseError,
      `Invalid JSON ${unit}: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  if (!isJsonObject(parsed))
    throw new A2AError(
      errors.InvalidRequestError,
      `a ${unit} is a JSON object: {id, method, params, serviceParameters?}`,
    );
  const id = parsed["id"];
  if (!isFramedCallId(id))
    throw new A2AError(
      errors.InvalidRequestError,
      `the ${unit} has no "id" (a number or a string)`,
    );
  const method = parsed["method"];
  if (typeof method !== "string" || method === "")
    throw new A2AError(
      errors.InvalidRequestError,
      `the ${unit} has no "method" (the operation's wire name)`,
    );
  // Absent params are an empty request (GetExtendedAgentCard has no required field); anything
  // else goes to the pipeline as it is, which answers a non-object with InvalidParamsError.
  const request = parsed["params"] === undefined ? {} : (parsed["params"] as JsonValue);
  const parameters = parsed["serviceParameters"];
  if (
    parameters !== undefined &&
    (!isJsonObject(parameters) || !Object.values(parameters).every((v) => typeof v === "string"))
  ) {
    throw new A2AError(
      errors.InvalidRequestError,
      '"serviceParameters" is an object of strings ({"A2A-Version": "1.0", …})',
    );
  }
  // The tenant travels in the request (as on JSON-RPC): the pipeline scopes the call by it.
  const tenant =
    isJsonObject(request) && typeof request["tenant"] === "string" ? request["tenant"] : undefined;
  return {
    id,
    operation: method,
    request,
    serviceParameters: (parameters ?? {}) as Record<string, string>,
    tenant,
  };
}

/** The `id` of a frame that is a JSON object with a call id, whatever else it holds or lacks; null otherwise. */
export function peekJsonCallId(frame: unknown): FramedCallId | null {
  if (typeof frame !== "string") return null;
  const id = parseObject(frame)?.["id"];
  return isFramedCallId(id) ? id : null;
}

/** The id of a cancel frame `{"id", "cancel": true}`; undefined for any other frame (a call, for the server to read). */
export function jsonCancelFrameId(frame: unknown): FramedCallId | undefined {
  if (
    typeof frame !== "string" ||
    frame.length > JSON_CANCEL_FRAME_MAX_CHARS ||
    !frame.includes("cancel")
  )
    return undefined;
  const parsed = parseObject(frame);
  return parsed !== undefined && parsed["cancel"] === true && isFramedCallId(parsed["id"])
    ? parsed["id"]
    : undefined;
}

/**
 * The reply sink of JSON call frames: each answer as its {@link JsonAnswerFrame} object, handed
 * to `write` (which encodes it, `JSON.stringify`, when the carrier has room, and resolves once
 * the carrier took it: backpressure). `activatedExtensions` is written only when there are some.
 */
export function jsonReplySink(
  write: (frame: JsonAnswerFrame) => void | Promise<void>,
): FramedReplySink<JsonRpcErrorObject> {
  return {
    result: (id, response, activated) =>
      write(
        activated.length > 0
          ? { id, result: response, activatedExtensions: activated }
          : { id, result: response },
      ),
    event: (id, event, activated) =>
      write(activated.length > 0 ? { id, event, activatedExtensions: activated } : { id, event }),
    end: (id) => write({ id, end: true }),
    error: (id, error) => write({ id, error }),
  };
}

/** A call frame: `{"id", "method", "params", "serviceParameters"?}` (serviceParameters only when there are some). */
export function encodeJsonCallFrame(id: FramedCallId, call: FramedOutboundCall): string {
  const frame: Record<string, JsonValue> = { id, method: call.operation, params: call.request };
  if (Object.keys(call.serviceParameters).length > 0)
    frame["serviceParameters"] = call.serviceParameters;
  return JSON.stringify(frame);
}

/** A cancel frame: `{"id", "cancel": true}`. */
export function encodeJsonCancelFrame(id: FramedCallId): string {
  return JSON.stringify({ id, cancel: true });
}

/**
 * Reads one answer frame: undefined for a frame that is not a JSON object or has no call id
 * (`id` null: the server could not read one of the client's frames, which it cannot tell).
 */
export function decodeJsonAnswerFrame(frame: string): FramedDecodedAnswer | undefined {
  const f = parseObject(frame);
  const id = f?.["id"];
  if (f === undefined || !isFramedCallId(id)) return undefined;
  const activated = Array.isArray(f["activatedExtensions"])
    ? f["activatedExtensions"].filter((e): e is string => typeof e === "string")
    : undefined;
  let answer: FramedAnswer | undefined;
  if ("result" in f)
    answer = { kind: "result", response: f["result"] as JsonValue, activatedExtensions: activated };
  else if ("event" in f)
    answer = { kind: "event", event: f["event"] as JsonValue, activatedExtensions: activated };
  else if (f["end"] === true) answer = { kind: "end" };
  else if ("error" in f) answer = { kind: "error", error: f["error"] };
  return answer === undefined
    ? { id, invalid: "an answer frame with neither result, event, end nor error" }
    : { id, answer };
}

/** The client side of JSON call frames, for {@link createFramedConnection}. */
export const jsonClientFrames: FramedClientCodec<string> = Object.freeze({
  encodeCall: encodeJsonCallFrame,
  encodeCancel: encodeJsonCancelFrame,
  decodeAnswer: decodeJsonAnswerFrame,
});
