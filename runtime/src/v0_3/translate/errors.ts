// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * A2A errors between 1.0 (error names / ErrorInfo reasons, JSON-RPC -32001…-32009 and the project's -32098/-32099)
 * and the 0.3 JSON-RPC codes (-32001…-32007 and the standard -32700, -32600…-32603). 0.3 error objects are bare
 * `{code, message, data?}`: no ErrorInfo.
 */
import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import { asObject } from "./json.js";
import { V03TranslationError } from "./translation-error.js";

/** One 0.3 JSON-RPC error: its code and the default message of the 0.3 JSON Schema. */
export interface V03ErrorCode {
  /** 0.3 JSON-RPC `error.code`. */
  readonly code: number;
  /** The 0.3 JSON Schema's default `error.message`. */
  readonly message: string;
}

/**
 * 1.0 error name (`Error.name` of the runtime's error classes, e.g. `"TaskNotFoundError"`) → 0.3 JSON-RPC code and
 * default message. The 1.0-only errors map to the nearest 0.3 code:
 * - `ExtensionSupportRequiredError` (1.0 -32008) → -32600 Invalid Request: the request lacks an extension the agent
 *   requires, i.e. it is not a valid request for this agent; 0.3 has no extension error.
 * - `VersionNotSupportedError` (1.0 -32009) → -32004 UnsupportedOperation: the requested protocol version is an
 *   operation mode the agent does not support.
 * - `UnauthenticatedError` (-32098) / `PermissionDeniedError` (-32099): 0.3 signals these with HTTP 401/403 and has
 *   no JSON-RPC code; the codes are kept (JSON-RPC reserves -32000…-32099 for implementation-defined server errors
 *   and the 0.3 schema's `JSONRPCError` allows any integer).
 */
export const V1_ERROR_TO_V03: Readonly<Record<string, V03ErrorCode>> = Object.freeze({
  JsonParseError: { code: -32700, message: "Invalid JSON payload" },
  InvalidRequestError: { code: -32600, message: "Request payload validation error" },
  MethodNotFoundError: { code: -32601, message: "Method not found" },
  InvalidParamsError: { code: -32602, message: "Invalid parameters" },
  InternalError: { code: -32603, message: "Internal error" },
  TaskNotFoundError: { code: -32001, message: "Task not found" },
  TaskNotCancelableError: { code: -32002, message: "Task cannot be canceled" },
  PushNotificationNotSupportedError: {
    code: -32003,
    message: "Push Notification is not supported",
  },
  UnsupportedOperationError: { code: -32004, message: "This operation is not supported" },
  ContentTypeNotSupportedError: { code: -32005, message: "Incompatible content types" },
  InvalidAgentResponseError: { code: -32006, message: "Invalid agent response" },
  ExtendedAgentCardNotConfiguredError: {
    code: -32007,
    message: "Authenticated Extended Card is not configured",
  },
  ExtensionSupportRequiredError: { code: -32600, message: "Request payload validation error" },
  VersionNotSupportedError: { code: -32004, message: "This operation is not supported" },
  UnauthenticatedError: { code: -32098, message: "Authentication required" },
  PermissionDeniedError: { code: -32099, message: "Permission denied" },
});

/**
 * 0.3 JSON-RPC code → 1.0 error name. Every 0.3 code has a 1.0 error of the same meaning (-32007
 * AuthenticatedExtendedCardNotConfigured is 1.0's ExtendedAgentCardNotConfiguredError); -32098/-32099 are read back
 * as the project's authentication errors.
 */
export const V03_CODE_TO_V1_ERROR: Readonly<Record<number, string>> = Object.freeze({
  [-32700]: "JsonParseError",
  [-32600]: "InvalidRequestError",
  [-32601]: "MethodNotFoundError",
  [-32602]: "InvalidParamsError",
  [-32603]: "InternalError",
  [-32001]: "TaskNotFoundError",
  [-32002]: "TaskNotCancelableError",
  [-32003]: "PushNotificationNotSupportedError",
  [-32004]: "UnsupportedOperationError",
  [-32005]: "ContentTypeNotSupportedError",
  [-32006]: "InvalidAgentResponseError",
  [-32007]: "ExtendedAgentCardNotConfiguredError",
  [-32098]: "UnauthenticatedError",
  [-32099]: "PermissionDeniedError",
});

/** A 1.0 error as the translators see it: its name and (optional) message and data. */
export interface V1ErrorLike {
  /** 1.0 error name, e.g. `"TaskNotFoundError"`. Unknown names become InternalError (-32603). */
  readonly name: string;
  /** Human-readable message; the 0.3 default message when absent or empty. */
  readonly message?: string | undefined;
  /** Optional JSON-RPC `error.data`, copied as is. */
  readonly data?: JsonValue | undefined;
}

/**
 * A 1.0 error → the 0.3 JSON-RPC `error` object `{code, message, data?}` (no ErrorInfo; 0.3 clients ignore it).
 * Unknown error names become -32603 Internal error.
 */
export function errorToV03(error: V1ErrorLike): JsonObject {
  const entry = V1_ERROR_TO_V03[error.name] ?? { code: -32603, message: "Internal error" };
  const out: { [k: string]: JsonValue } = {
    code: entry.code,
    message: error.message !== undefined && error.message !== "" ? error.message : entry.message,
  };
  if (error.data !== undefined) out["data"] = error.data;
  return out;
}

/**
 * A 0.3 JSON-RPC `error` object → `{name, message, data?}` of the 1.0 error to raise (for a 1.0 client of a 0.3
 * agent). Codes with no entry become `InternalError`, the message kept.
 * @throws V03TranslationError when `code` is not an integer or `message` not a string.
 */
export function errorFromV03(
  value: JsonValue,
  path = "error",
): { name: string; message: string; data?: JsonValue } {
  const err = asObject(value, path);
  const code = err["code"];
  if (typeof code !== "number" || !Number.isInteger(code))
    throw new V03TranslationError(`${path}.code`, "must be an integer");
  const message = err["message"] ?? "";
  if (typeof message !== "string")
    throw new V03TranslationError(`${path}.message`, "must be a string");
  const out: { name: string; message: string; data?: JsonValue } = {
    name: V03_CODE_TO_V1_ERROR[code] ?? "InternalError",
    message,
  };
  if (err["data"] !== undefined) out.data = err["data"] as JsonValue;
  return out;
}
