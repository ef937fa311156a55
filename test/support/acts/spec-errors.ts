/**
 * The error table the runner judges the wire against, written out by hand from the A2A
 * v1.0.1 text, deliberately NOT imported from the generated error catalog: a bug in the
 * catalog must show up as a mismatch here, never be copied into the oracle.
 * (`test/plugin/model/error-catalog.test.ts` compares the generated catalog with this table.)
 *
 * - §5.4 "Error Code Mappings": the nine A2A errors (JSON-RPC code, gRPC status, HTTP status).
 * - §9.5: the five JSON-RPC 2.0 standard errors. The spec gives them no gRPC/HTTP form; ours
 *   follows `google/rpc/code.proto` (INVALID_ARGUMENT/400, UNIMPLEMENTED/501, INTERNAL/500).
 * - §3.3.2 leaves authentication/authorization errors to "a custom error" on JSON-RPC and to
 *   the binding's native form elsewhere (UNAUTHENTICATED/401, PERMISSION_DENIED/403); the
 *   JSON-RPC codes -32098/-32099 are this project's documented choice (README, "Auth errors").
 * - §10.6 / §11.6: ErrorInfo `reason` = the type in UPPER_SNAKE_CASE without "Error",
 *   `domain` = "a2a-protocol.org". The reasons below are spelled out, not derived.
 * - JSON-RPC over HTTP answers errors with HTTP 200, except the auth errors (401/403, the
 *   HTTP-native challenge SEC-AUTH-006 asks for); HTTP+JSON answers the table's HTTP status,
 *   and a path no route matches (404) or a method a route does not take (405) is
 *   MethodNotFoundError there.
 */
import type { Binding } from "./client.js";

export const ERROR_DOMAIN = "a2a-protocol.org";

/** `google.rpc.Code` names and numbers. */
export const GRPC_CODES = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  DATA_LOSS: 15,
  UNAUTHENTICATED: 16,
} as const;
export type GrpcStatusName = keyof typeof GRPC_CODES;

export const grpcStatusName = (code: number): GrpcStatusName | undefined =>
  (Object.keys(GRPC_CODES) as GrpcStatusName[]).find((n) => GRPC_CODES[n] === code);

export interface SpecError {
  /** The A2A error type (the names of §3.3.2 / §9.5, v1.0.1 spelling). */
  readonly name: string;
  readonly reason: string;
  readonly jsonRpcCode: number;
  readonly grpcStatus: GrpcStatusName;
  readonly httpStatus: number;
  /** HTTP status of a JSON-RPC error response. */
  readonly jsonRpcHttpStatus: number;
  /** HTTP statuses an HTTP+JSON error response of this type may have. */
  readonly restStatuses: readonly number[];
  /** Where the row comes from. */
  readonly source: string;
}

type Row = readonly [
  name: string,
  reason: string,
  jsonRpcCode: number,
  grpcStatus: GrpcStatusName,
  httpStatus: number,
  source: string,
];

const ROWS: readonly Row[] = [
  ["TaskNotFoundError", "TASK_NOT_FOUND", -32001, "NOT_FOUND", 404, "§5.4"],
  ["TaskNotCancelableError", "TASK_NOT_CANCELABLE", -32002, "FAILED_PRECONDITION", 400, "§5.4"],
  [
    "PushNotificationNotSupportedError",
    "PUSH_NOTIFICATION_NOT_SUPPORTED",
    -32003,
    "FAILED_PRECONDITION",
    400,
    "§5.4",
  ],
  [
    "UnsupportedOperationError",
    "UNSUPPORTED_OPERATION",
    -32004,
    "FAILED_PRECONDITION",
    400,
    "§5.4",
  ],
  [
    "ContentTypeNotSupportedError",
    "CONTENT_TYPE_NOT_SUPPORTED",
    -32005,
    "INVALID_ARGUMENT",
    400,
    "§5.4",
  ],
  ["InvalidAgentResponseError", "INVALID_AGENT_RESPONSE", -32006, "INTERNAL", 500, "§5.4"],
  [
    "ExtendedAgentCardNotConfiguredError",
    "EXTENDED_AGENT_CARD_NOT_CONFIGURED",
    -32007,
    "FAILED_PRECONDITION",
    400,
    "§5.4",
  ],
  [
    "ExtensionSupportRequiredError",
    "EXTENSION_SUPPORT_REQUIRED",
    -32008,
    "FAILED_PRECONDITION",
    400,
    "§5.4",
  ],
  ["VersionNotSupportedError", "VERSION_NOT_SUPPORTED", -32009, "FAILED_PRECONDITION", 400, "§5.4"],
  [
    "JsonParseError",
    "JSON_PARSE",
    -32700,
    "INVALID_ARGUMENT",
    400,
    "§9.5 (gRPC/HTTP: google.rpc.Code)",
  ],
  [
    "InvalidRequestError",
    "INVALID_REQUEST",
    -32600,
    "INVALID_ARGUMENT",
    400,
    "§9.5 (gRPC/HTTP: google.rpc.Code)",
  ],
  [
    "MethodNotFoundError",
    "METHOD_NOT_FOUND",
    -32601,
    "UNIMPLEMENTED",
    501,
    "§9.5 (gRPC/HTTP: google.rpc.Code)",
  ],
  [
    "InvalidParamsError",
    "INVALID_PARAMS",
    -32602,
    "INVALID_ARGUMENT",
    400,
    "§9.5 (gRPC/HTTP: google.rpc.Code)",
  ],
  ["InternalError", "INTERNAL", -32603, "INTERNAL", 500, "§9.5 (gRPC/HTTP: google.rpc.Code)"],
  [
    "UnauthenticatedError",
    "UNAUTHENTICATED",
    -32098,
    "UNAUTHENTICATED",
    401,
    "§3.3.2 (JSON-RPC code: project choice)",
  ],
  [
    "PermissionDeniedError",
    "PERMISSION_DENIED",
    -32099,
    "PERMISSION_DENIED",
    403,
    "§3.3.2 (JSON-RPC code: project choice)",
  ],
];

export const SPEC_ERRORS: readonly SpecError[] = ROWS.map(
  ([name, reason, jsonRpcCode, grpcStatus, httpStatus, source]) => ({
    name,
    reason,
    jsonRpcCode,
    grpcStatus,
    httpStatus,
    jsonRpcHttpStatus: httpStatus === 401 || httpStatus === 403 ? httpStatus : 200,
    restStatuses: name === "MethodNotFoundError" ? [httpStatus, 404, 405] : [httpStatus],
    source,
  }),
);

/** ACTS spells some error types differently from v1.0.1. */
export const ACTS_ERROR_ALIASES: Readonly<Record<string, string>> = {
  JSONParseError: "JsonParseError",
  ExtendedCardNotSupportedError: "ExtendedAgentCardNotConfiguredError",
  // v1.0 has no StreamingNotSupportedError: §3.3.4 answers a missing streaming capability with UnsupportedOperationError.
  StreamingNotSupportedError: "UnsupportedOperationError",
};

export const specErrorByName = (name: string): SpecError | undefined =>
  SPEC_ERRORS.find((e) => e.name === (ACTS_ERROR_ALIASES[name] ?? name));
export const specErrorByReason = (reason: string | undefined): SpecError | undefined =>
  reason === undefined ? undefined : SPEC_ERRORS.find((e) => e.reason === reason);
export const specErrorByJsonRpcCode = (code: number | undefined): SpecError | undefined =>
  code === undefined ? undefined : SPEC_ERRORS.find((e) => e.jsonRpcCode === code);

/** The HTTP status / gRPC code a `binding` must show for `error` (what `expect_error` compares). */
export function wireCodesOf(
  error: SpecError,
  binding: Binding,
): {
  readonly httpStatus?: readonly number[];
  readonly jsonRpcCode?: number;
  readonly grpcCode?: number;
} {
  switch (binding) {
    case "jsonrpc":
      return { httpStatus: [error.jsonRpcHttpStatus], jsonRpcCode: error.jsonRpcCode };
    case "rest":
      return { httpStatus: error.restStatuses };
    case "grpc":
      return { grpcCode: GRPC_CODES[error.grpcStatus] };
  }
}
