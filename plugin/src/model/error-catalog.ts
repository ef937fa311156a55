// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The A2A error catalog as data, used at generation time.
 *
 * Sources (A2A specification v1.0.x):
 * - §5.4 "Error Code Mappings": the nine A2A-specific errors and their JSON-RPC code, gRPC status and HTTP status.
 *   The table changed in a patch release (v1.0.0 → v1.0.1, A2A commit 757f0ec6 / #1627, "so that http codes
 *   correspond to google.rpc.Code-defined mappings"), hence the two {@link ErrorProfile}s.
 * - §9.5 "Error Handling" (JSON-RPC): the five JSON-RPC 2.0 standard errors and their standard messages.
 * - §3.3.2 "Error Handling": descriptions of the A2A errors and the authentication / authorization categories.
 * - §10.6 / §11.6: `google.rpc.ErrorInfo.reason` = error type in UPPER_SNAKE_CASE without the "Error" suffix,
 *   `domain` = `"a2a-protocol.org"` (see {@link errorReason}, {@link ERROR_DOMAIN}).
 *
 * The generator turns every entry into a runtime `A2AErrorSpec` plus one small subclass of the runtime `A2AError`.
 */
import type { A2AErrorSpec } from "../../../runtime/src/errors/a2a-error.js";

/** A version of the §5.4 mapping table. `"v1.0.1"` (the current spec) is the default. */
export type ErrorProfile = "v1.0.1" | "v1.0.0";

/** All supported error profiles, the default first. */
export const errorProfiles: readonly ErrorProfile[] = Object.freeze(["v1.0.1", "v1.0.0"] as const);

/** The default error profile (`errorProfiles[0]`). */
export const DEFAULT_ERROR_PROFILE: ErrorProfile = "v1.0.1";

/** Type guard for plugin option parsing: is `value` one of {@link errorProfiles}? */
export function isErrorProfile(value: unknown): value is ErrorProfile {
  return typeof value === "string" && (errorProfiles as readonly string[]).includes(value);
}

/** `google.rpc.ErrorInfo.domain` for every A2A error (§10.6, §11.6). */
export const ERROR_DOMAIN = "a2a-protocol.org";

/** Canonical gRPC status code names (`google.rpc.Code`). */
export type GrpcStatusName =
  | "OK"
  | "CANCELLED"
  | "UNKNOWN"
  | "INVALID_ARGUMENT"
  | "DEADLINE_EXCEEDED"
  | "NOT_FOUND"
  | "ALREADY_EXISTS"
  | "PERMISSION_DENIED"
  | "RESOURCE_EXHAUSTED"
  | "FAILED_PRECONDITION"
  | "ABORTED"
  | "OUT_OF_RANGE"
  | "UNIMPLEMENTED"
  | "INTERNAL"
  | "UNAVAILABLE"
  | "DATA_LOSS"
  | "UNAUTHENTICATED";

/** The full `google.rpc.Code` table: status name → numeric code. */
export const grpcCodes: Readonly<Record<GrpcStatusName, number>> = Object.freeze({
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
});

/**
 * The HTTP status that `google/rpc/code.proto` documents for each code ("HTTP Mapping: …").
 * The v1.0.1 §5.4 table follows it for every entry; v1.0.0 did not (409, 415, 502).
 */
export const grpcHttpStatus: Readonly<Record<GrpcStatusName, number>> = Object.freeze({
  OK: 200,
  CANCELLED: 499,
  UNKNOWN: 500,
  INVALID_ARGUMENT: 400,
  DEADLINE_EXCEEDED: 504,
  NOT_FOUND: 404,
  ALREADY_EXISTS: 409,
  PERMISSION_DENIED: 403,
  RESOURCE_EXHAUSTED: 429,
  FAILED_PRECONDITION: 400,
  ABORTED: 409,
  OUT_OF_RANGE: 400,
  UNIMPLEMENTED: 501,
  INTERNAL: 500,
  UNAVAILABLE: 503,
  DATA_LOSS: 500,
  UNAUTHENTICATED: 401,
});

/** One error of the catalog. Structurally a superset of the runtime `A2AErrorSpec`. */
export interface ErrorCatalogEntry extends A2AErrorSpec {
  /** Class name, e.g. `"TaskNotFoundError"`. */
  readonly name: string;
  /** `google.rpc.ErrorInfo.reason`: {@link errorReason} of {@link name}, e.g. `"TASK_NOT_FOUND"`. */
  readonly reason: string;
  /** JSON-RPC 2.0 `error.code`. */
  readonly jsonRpcCode: number;
  /** gRPC status code name, e.g. `"NOT_FOUND"`. */
  readonly grpcStatus: GrpcStatusName;
  /** Numeric `google.rpc.Code` of {@link grpcStatus}. */
  readonly grpcCode: number;
  /** HTTP status of the HTTP+JSON binding (also `error.code` in the §11.6 body). */
  readonly httpStatus: number;
  /** Default human-readable message. */
  readonly message: string;
  /** One-paragraph description (spec §3.3.2 / §9.5), for JSDoc on the generated class. */
  readonly description: string;
  /** `"a2a"`: the nine §5.4 errors; `"jsonrpc"`: the five §9.5 standard errors; `"auth"`: the two §3.3.2 auth errors. */
  readonly category: "a2a" | "jsonrpc" | "auth";
}

/**
 * Derives the `google.rpc.ErrorInfo.reason` from an error class name: drop the `Error` suffix and convert
 * PascalCase to UPPER_SNAKE_CASE (§10.6/§11.6). Runs of capitals are treated as one word
 * (`"JSONParseError"` and `"JsonParseError"` both give `"JSON_PARSE"`).
 *
 * @throws Error if `name` is not a PascalCase identifier ending in `Error` with something before the suffix.
 */
export function errorReason(name: string): string {
  if (!/^[A-Z][A-Za-z0-9]*Error$/.test(name) || name === "Error") {
    throw new Error(
      `errorReason: "${name}" is not a PascalCase error class name ending in "Error"`,
    );
  }
  return name
    .slice(0, -"Error".length)
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z])([A-Z][a-z])/g, "$1_$2")
    .toUpperCase();
}

/** A row of the source tables below; `reason` and `grpcCode` are derived. */
interface Row {
  readonly name: string;
  readonly jsonRpcCode: number;
  readonly grpcStatus: GrpcStatusName;
  readonly httpStatus: number;
  readonly message: string;
  readonly description: string;
  readonly category: ErrorCatalogEntry["category"];
}

/** Per-profile deviations from the v1.0.1 rows (the v1.0.0 text of §5.4). */
type RowOverride = Partial<Pick<Row, "grpcStatus" | "httpStatus">>;

/** §5.4 at v1.0.1 (the A2A-specific errors; JSON-RPC codes -32001 upwards). */
const A2A_ROWS: readonly Row[] = [
  {
    name: "TaskNotFoundError",
    jsonRpcCode: -32001,
    grpcStatus: "NOT_FOUND",
    httpStatus: 404,
    message: "Task not found",
    description:
      "The specified task ID does not correspond to an existing or accessible task. It might be invalid, expired, or already completed and purged.",
    category: "a2a",
  },
  {
    name: "TaskNotCancelableError",
    jsonRpcCode: -32002,
    grpcStatus: "FAILED_PRECONDITION",
    httpStatus: 400,
    message: "Task cannot be canceled",
    description:
      "An attempt was made to cancel a task that is not in a cancelable state (e.g., it has already reached a terminal state like `TASK_STATE_COMPLETED`, `TASK_STATE_FAILED`, `TASK_STATE_CANCELED`, `TASK_STATE_REJECTED`).",
    category: "a2a",
  },
  {
    name: "PushNotificationNotSupportedError",
    jsonRpcCode: -32003,
    grpcStatus: "FAILED_PRECONDITION",
    httpStatus: 400,
    message: "Push notifications are not supported",
    description:
      "Client attempted to use push notification features but the server agent does not support them (i.e., `AgentCard.capabilities.pushNotifications` is `false`).",
    category: "a2a",
  },
  {
    name: "UnsupportedOperationError",
    jsonRpcCode: -32004,
    grpcStatus: "FAILED_PRECONDITION",
    httpStatus: 400,
    message: "This operation is not supported",
    description:
      "The requested operation or a specific aspect of it is not supported by this server agent implementation.",
    category: "a2a",
  },
  {
    name: "ContentTypeNotSupportedError",
    jsonRpcCode: -32005,
    grpcStatus: "INVALID_ARGUMENT",
    httpStatus: 400,
    message: "Content type not supported",
    description:
      "A Media Type provided in the request's message parts or implied for an artifact is not supported by the agent or the specific skill being invoked.",
    category: "a2a",
  },
  {
    name: "InvalidAgentResponseError",
    jsonRpcCode: -32006,
    grpcStatus: "INTERNAL",
    httpStatus: 500,
    message: "Invalid agent response",
    description:
      "An agent returned a response that does not conform to the specification for the current method.",
    category: "a2a",
  },
  {
    name: "ExtendedAgentCardNotConfiguredError",
    jsonRpcCode: -32007,
    grpcStatus: "FAILED_PRECONDITION",
    httpStatus: 400,
    message: "Extended agent card is not configured",
    description:
      "The agent does not have an extended agent card configured when one is required for the requested operation.",
    category: "a2a",
  },
  {
    name: "ExtensionSupportRequiredError",
    jsonRpcCode: -32008,
    grpcStatus: "FAILED_PRECONDITION",
    httpStatus: 400,
    message: "Extension support required",
    description:
      "Server requested use of an extension marked as `required: true` in the Agent Card but the client did not declare support for it in the request.",
    category: "a2a",
  },
  {
    name: "VersionNotSupportedError",
    jsonRpcCode: -32009,
    grpcStatus: "FAILED_PRECONDITION",
    httpStatus: 400,
    message: "Protocol version not supported",
    description:
      "The A2A protocol version specified in the request (via `A2A-Version` service parameter) is not supported by the agent.",
    category: "a2a",
  },
];

/** §9.5 standard JSON-RPC errors; messages are the spec's "Standard Message" column. */
const JSONRPC_ROWS: readonly Row[] = [
  {
    // §9.5 spells it `JSONParseError`; the class is `JsonParseError` (reason derives to JSON_PARSE either way).
    name: "JsonParseError",
    jsonRpcCode: -32700,
    grpcStatus: "INVALID_ARGUMENT",
    httpStatus: 400,
    message: "Invalid JSON payload",
    description: "The server received invalid JSON.",
    category: "jsonrpc",
  },
  {
    name: "InvalidRequestError",
    jsonRpcCode: -32600,
    grpcStatus: "INVALID_ARGUMENT",
    httpStatus: 400,
    message: "Request payload validation error",
    description: "The JSON sent is not a valid Request object.",
    category: "jsonrpc",
  },
  {
    name: "MethodNotFoundError",
    jsonRpcCode: -32601,
    grpcStatus: "UNIMPLEMENTED",
    httpStatus: 501,
    message: "Method not found",
    description: "The requested method does not exist or is not available.",
    category: "jsonrpc",
  },
  {
    name: "InvalidParamsError",
    jsonRpcCode: -32602,
    grpcStatus: "INVALID_ARGUMENT",
    httpStatus: 400,
    message: "Invalid parameters",
    description:
      "The method parameters are invalid. Validation errors (§3.3.2) SHOULD say which parameter(s) failed and why, e.g. with a `google.rpc.BadRequest` detail.",
    category: "jsonrpc",
  },
  {
    name: "InternalError",
    jsonRpcCode: -32603,
    grpcStatus: "INTERNAL",
    httpStatus: 500,
    message: "Internal error",
    description: "An internal error occurred on the server.",
    category: "jsonrpc",
  },
];

/**
 * §3.3.2 authentication / authorization errors. The spec only says "JSON-RPC custom error"; the codes are taken
 * from the far end of the A2A server range (-32001 … -32099, §9.5) so that they never collide with future
 * A2A-specific codes, which are allocated upwards from -32001 (dev-1.1 already adds -32010).
 */
const AUTH_ROWS: readonly Row[] = [
  {
    name: "UnauthenticatedError",
    jsonRpcCode: -32098,
    grpcStatus: "UNAUTHENTICATED",
    httpStatus: 401,
    message: "Authentication required",
    description:
      "The request has invalid or missing authentication credentials (e.g. a missing bearer token, an expired API key or an invalid OAuth token). Servers SHOULD say which authentication scheme is required.",
    category: "auth",
  },
  {
    name: "PermissionDeniedError",
    jsonRpcCode: -32099,
    grpcStatus: "PERMISSION_DENIED",
    httpStatus: 403,
    message: "Permission denied",
    description:
      "The authenticated client lacks the permissions required for the requested operation. The error MUST NOT reveal the existence of resources the client is not authorized to access.",
    category: "auth",
  },
];

/** How each profile differs from v1.0.1, keyed by error name. */
const PROFILE_OVERRIDES: Readonly<Record<ErrorProfile, Readonly<Record<string, RowOverride>>>> = {
  "v1.0.1": {},
  "v1.0.0": {
    TaskNotCancelableError: { httpStatus: 409 },
    PushNotificationNotSupportedError: { grpcStatus: "UNIMPLEMENTED" },
    UnsupportedOperationError: { grpcStatus: "UNIMPLEMENTED" },
    ContentTypeNotSupportedError: { httpStatus: 415 },
    InvalidAgentResponseError: { httpStatus: 502 },
    VersionNotSupportedError: { grpcStatus: "UNIMPLEMENTED" },
  },
};

const cache = new Map<ErrorProfile, readonly ErrorCatalogEntry[]>();

/**
 * The catalog for `profile`: the nine A2A errors (§5.4 order), the five JSON-RPC standard errors, then the two
 * auth errors. The result is frozen and cached.
 *
 * @throws Error if `profile` is unknown.
 */
export function errorCatalog(
  profile: ErrorProfile = DEFAULT_ERROR_PROFILE,
): readonly ErrorCatalogEntry[] {
  const cached = cache.get(profile);
  if (cached) return cached;
  if (!isErrorProfile(profile)) {
    throw new Error(
      `unknown error profile "${String(profile)}" (expected one of: ${errorProfiles.join(", ")})`,
    );
  }
  const overrides = PROFILE_OVERRIDES[profile];
  const entries = Object.freeze(
    [...A2A_ROWS, ...JSONRPC_ROWS, ...AUTH_ROWS].map((row): ErrorCatalogEntry => {
      const merged = { ...row, ...overrides[row.name] };
      return Object.freeze({
        name: merged.name,
        reason: errorReason(merged.name),
        jsonRpcCode: merged.jsonRpcCode,
        grpcStatus: merged.grpcStatus,
        grpcCode: grpcCodes[merged.grpcStatus],
        httpStatus: merged.httpStatus,
        message: merged.message,
        description: merged.description,
        category: merged.category,
      });
    }),
  );
  const problems = validateErrorCatalog(entries);
  if (problems.length > 0) {
    throw new Error(`invalid A2A error catalog (${profile}):\n  ${problems.join("\n  ")}`);
  }
  cache.set(profile, entries);
  return entries;
}

/**
 * Checks a catalog for internal consistency and returns the problems found (empty = valid): unique names,
 * reasons and JSON-RPC codes; reason = {@link errorReason}(name); grpcCode matches grpcStatus; JSON-RPC codes in
 * the reserved ranges of their category; HTTP statuses are 4xx/5xx; messages and descriptions non-empty.
 */
export function validateErrorCatalog(entries: readonly ErrorCatalogEntry[]): string[] {
  const problems: string[] = [];
  const unique = (what: string, key: (e: ErrorCatalogEntry) => string | number): void => {
    const seen = new Map<string | number, string>();
    for (const e of entries) {
      const k = key(e);
      const other = seen.get(k);
      if (other !== undefined)
        problems.push(`duplicate ${what} ${String(k)}: ${other} and ${e.name}`);
      else seen.set(k, e.name);
    }
  };
  unique("name", (e) => e.name);
  unique("reason", (e) => e.reason);
  unique("JSON-RPC code", (e) => e.jsonRpcCode);
  for (const e of entries) {
    let derived: string | undefined;
    try {
      derived = errorReason(e.name);
    } catch (err) {
      problems.push((err as Error).message);
    }
    if (derived !== undefined && derived !== e.reason) {
      problems.push(`${e.name}: reason ${e.reason} should be ${derived}`);
    }
    if (!Object.hasOwn(grpcCodes, e.grpcStatus)) {
      problems.push(`${e.name}: unknown gRPC status ${e.grpcStatus}`);
    } else if (grpcCodes[e.grpcStatus] !== e.grpcCode) {
      problems.push(
        `${e.name}: grpcCode ${e.grpcCode} does not match ${e.grpcStatus} (${grpcCodes[e.grpcStatus]})`,
      );
    }
    if (e.grpcStatus === "OK") problems.push(`${e.name}: an error cannot have gRPC status OK`);
    if (!Number.isInteger(e.httpStatus) || e.httpStatus < 400 || e.httpStatus > 599) {
      problems.push(`${e.name}: HTTP status ${e.httpStatus} is not 4xx/5xx`);
    }
    const inServerRange = e.jsonRpcCode <= -32001 && e.jsonRpcCode >= -32099;
    const isStandard = [-32700, -32600, -32601, -32602, -32603].includes(e.jsonRpcCode);
    if (
      !Number.isInteger(e.jsonRpcCode) ||
      (e.category === "jsonrpc" ? !isStandard : !inServerRange)
    ) {
      problems.push(
        `${e.name}: JSON-RPC code ${e.jsonRpcCode} is outside the range for category ${e.category}`,
      );
    }
    if (e.message.trim() === "") problems.push(`${e.name}: empty message`);
    if (e.description.trim() === "") problems.push(`${e.name}: empty description`);
  }
  return problems;
}

// Validate every profile at module load so a bad edit fails the plugin immediately.
for (const profile of errorProfiles) errorCatalog(profile);
