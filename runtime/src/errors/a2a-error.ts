// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * A2A error runtime: one error base class and the mappings between it and the wire form of each binding
 * (A2A v1.0 §3.3.2, §5.4, §9.5 JSON-RPC, §10.6 gRPC, §11.6 HTTP+JSON).
 *
 * Generated code supplies only data: one {@link A2AErrorSpec} per error (the §5.4 table row) and a tiny subclass
 * per error, then builds an {@link ErrorRegistry} from those classes for the client direction.
 *
 * Part of the runtime library: the root entry (`@protoc-gen-a2a/runtime`) exports it, and the generated
 * `<file>_a2a_errors.ts` imports it. A leaf module that imports nothing, so the plugin can read
 * {@link A2AErrorSpec} from it at generation time (plugin/src/model/error-catalog.ts).
 */

/** `google.rpc.ErrorInfo.domain` of every A2A error (§10.6, §11.6). */
export const ERROR_DOMAIN = "a2a-protocol.org";

/** ProtoJSON `@type` of `google.rpc.ErrorInfo`. */
export const ERROR_INFO_TYPE = "type.googleapis.com/google.rpc.ErrorInfo";

/** ProtoJSON `@type` of `google.rpc.BadRequest`. */
export const BAD_REQUEST_TYPE = "type.googleapis.com/google.rpc.BadRequest";

/** `google.rpc.Code` names indexed by numeric code (0 = OK … 16 = UNAUTHENTICATED). */
export const GRPC_STATUS_NAMES: readonly string[] = Object.freeze([
  "OK",
  "CANCELLED",
  "UNKNOWN",
  "INVALID_ARGUMENT",
  "DEADLINE_EXCEEDED",
  "NOT_FOUND",
  "ALREADY_EXISTS",
  "PERMISSION_DENIED",
  "RESOURCE_EXHAUSTED",
  "FAILED_PRECONDITION",
  "ABORTED",
  "OUT_OF_RANGE",
  "UNIMPLEMENTED",
  "INTERNAL",
  "UNAVAILABLE",
  "DATA_LOSS",
  "UNAUTHENTICATED",
]);

/** HTTP status per `google.rpc.Code` (the "HTTP Mapping" of google/rpc/code.proto), indexed by numeric code. */
const GRPC_HTTP_STATUS: readonly number[] = [
  200, 499, 500, 400, 504, 404, 409, 403, 429, 400, 409, 400, 501, 500, 503, 500, 401,
];

/** Everything the runtime needs to know about one error type: one row of the §5.4 / §9.5 tables. */
export interface A2AErrorSpec {
  /** Class name, also `Error.name`, e.g. `"TaskNotFoundError"`. */
  readonly name: string;
  /** `google.rpc.ErrorInfo.reason`, e.g. `"TASK_NOT_FOUND"`. */
  readonly reason: string;
  /** JSON-RPC `error.code`, e.g. `-32001`. */
  readonly jsonRpcCode: number;
  /** Numeric `google.rpc.Code`, e.g. `5`. */
  readonly grpcCode: number;
  /** `google.rpc.Code` name, e.g. `"NOT_FOUND"` (HTTP body `error.status`). */
  readonly grpcStatus: string;
  /** HTTP status (and HTTP body `error.code`), e.g. `404`. */
  readonly httpStatus: number;
  /** Default human-readable message, e.g. `"Task not found"`. */
  readonly message: string;
}

/** An error detail in ProtoJSON `Any` form: `{"@type": "type.googleapis.com/…", …fields}`. */
export type ErrorDetail = { readonly "@type": string; readonly [field: string]: unknown };

/** One `google.rpc.BadRequest.FieldViolation`. */
export interface FieldViolation {
  /** Path of the offending field, e.g. `"message.parts"`. */
  readonly field: string;
  /** Why it is invalid, e.g. `"At least one part is required"`. */
  readonly description: string;
}

/** Optional parts of an {@link A2AError}. */
export interface A2AErrorOptions {
  /** `ErrorInfo.metadata` (map<string,string>; non-string values are dropped), e.g. `{taskId: "task-123"}`. */
  metadata?: Readonly<Record<string, string>>;
  /**
   * Extra details sent after the ErrorInfo and BadRequest. Each MUST carry `@type`. Use {@link metadata} and
   * {@link fieldViolations} rather than adding an A2A ErrorInfo or a BadRequest here.
   */
  details?: readonly ErrorDetail[];
  /** Validation problems, sent as one `google.rpc.BadRequest` detail. */
  fieldViolations?: readonly FieldViolation[];
  /** The underlying cause; kept on `Error.cause`, never sent on the wire. */
  cause?: unknown;
}

/** JSON-RPC 2.0 error object (§9.5): `data` is an array of `@type` objects. */
export interface JsonRpcErrorObject {
  /** JSON-RPC error code. */
  code: number;
  /** Human-readable message. */
  message: string;
  /** `[ErrorInfo, BadRequest?, …details]`. */
  data: ErrorDetail[];
}

/** gRPC status (§10.6) before binary packing into `grpc-status-details-bin`. */
export interface GrpcStatusObject {
  /** Numeric `google.rpc.Code`. */
  code: number;
  /** Human-readable message (`grpc-message`). */
  message: string;
  /** `[ErrorInfo, BadRequest?, …details]` in ProtoJSON `Any` form. */
  details: ErrorDetail[];
}

/** HTTP+JSON error response (§11.6, AIP-193 envelope). */
export interface HttpErrorResponse {
  /** HTTP status code. */
  status: number;
  /** Response body. */
  body: {
    /** The google.rpc.Status-like error. */
    error: {
      /** Same as the HTTP status. */
      code: number;
      /** `google.rpc.Code` name, e.g. `"NOT_FOUND"`. */
      status: string;
      /** Human-readable message. */
      message: string;
      /** `[ErrorInfo, BadRequest?, …details]`. */
      details: ErrorDetail[];
    };
  };
}

const EMPTY_METADATA: Readonly<Record<string, string>> = Object.freeze({});
const EMPTY_LIST: readonly never[] = Object.freeze([]);
/** Brand shared by every copy of this runtime (generated packages each carry their own copy). */
const BRAND = Symbol.for("a2a-protocol.org/A2AError");

/**
 * Base class of every A2A error. Generated code declares one subclass per error, e.g.
 * `class TaskNotFoundError extends A2AError { static readonly spec = SPEC; constructor(m?: string, o?: A2AErrorOptions) { super(SPEC, m, o); } }`.
 * Throw it from a handler and the server maps it to the binding's wire form.
 */
export class A2AError extends Error {
  /** The error type (table row). */
  readonly spec: A2AErrorSpec;
  /** `ErrorInfo.metadata` (frozen). */
  readonly metadata: Readonly<Record<string, string>>;
  /** Extra details sent after ErrorInfo / BadRequest (frozen). */
  readonly details: readonly ErrorDetail[];
  /** Validation problems, sent as a `google.rpc.BadRequest` (frozen). */
  readonly fieldViolations: readonly FieldViolation[];

  /**
   * @param spec the error type.
   * @param message human-readable message; defaults to `spec.message`.
   * @param options metadata, field violations, extra details and cause.
   */
  constructor(spec: A2AErrorSpec, message?: string, options?: A2AErrorOptions) {
    super(
      message ?? spec.message,
      options && "cause" in options ? { cause: options.cause } : undefined,
    );
    Object.defineProperty(this, "name", {
      value: spec.name,
      writable: true,
      configurable: true,
      enumerable: false,
    });
    this.spec = spec;
    this.metadata = options?.metadata ? stringMap(options.metadata) : EMPTY_METADATA;
    this.details = options?.details?.length ? Object.freeze(options.details.slice()) : EMPTY_LIST;
    this.fieldViolations = options?.fieldViolations?.length
      ? Object.freeze(options.fieldViolations.slice())
      : EMPTY_LIST;
  }

  /** `ErrorInfo.reason`, e.g. `"TASK_NOT_FOUND"`. */
  get reason(): string {
    return this.spec.reason;
  }

  /** JSON-RPC error code. */
  get code(): number {
    return this.spec.jsonRpcCode;
  }

  /** Numeric gRPC status code. */
  get grpcCode(): number {
    return this.spec.grpcCode;
  }

  /** gRPC status name. */
  get grpcStatus(): string {
    return this.spec.grpcStatus;
  }

  /** HTTP status. */
  get httpStatus(): number {
    return this.spec.httpStatus;
  }

  /**
   * The `google.rpc.ErrorInfo` detail: `{"@type": ERROR_INFO_TYPE, reason, domain: "a2a-protocol.org", metadata}`.
   * `metadata` is omitted when empty (ProtoJSON omits empty maps).
   */
  errorInfo(): ErrorDetail {
    return this.metadata === EMPTY_METADATA
      ? { "@type": ERROR_INFO_TYPE, reason: this.spec.reason, domain: ERROR_DOMAIN }
      : {
          "@type": ERROR_INFO_TYPE,
          reason: this.spec.reason,
          domain: ERROR_DOMAIN,
          metadata: this.metadata,
        };
  }

  /** The `google.rpc.BadRequest` detail built from {@link fieldViolations}, or `undefined` if there are none. */
  badRequest(): ErrorDetail | undefined {
    if (this.fieldViolations.length === 0) return undefined;
    return {
      "@type": BAD_REQUEST_TYPE,
      fieldViolations: this.fieldViolations.map((v) => ({
        field: v.field,
        description: v.description,
      })),
    };
  }

  /** All wire details in order: ErrorInfo, BadRequest (if any violations), then {@link details}. */
  wireDetails(): ErrorDetail[] {
    const out: ErrorDetail[] = [this.errorInfo()];
    const badRequest = this.badRequest();
    if (badRequest) out.push(badRequest);
    for (const d of this.details) out.push(d);
    return out;
  }
}
Object.defineProperty(A2AError.prototype, BRAND, { value: true });

/**
 * True for any A2AError, including instances from another copy of this runtime (where `instanceof` fails).
 */
export function isA2AError(value: unknown): value is A2AError {
  return (
    value instanceof A2AError ||
    (typeof value === "object" &&
      value !== null &&
      (value as { [BRAND]?: unknown })[BRAND] === true)
  );
}

/** JSON-RPC error object (§9.5): `{code, message, data: [ErrorInfo, BadRequest?, …details]}`. */
export function toJsonRpcError(err: A2AError): JsonRpcErrorObject {
  return { code: err.spec.jsonRpcCode, message: err.message, data: err.wireDetails() };
}

/** gRPC status (§10.6): `{code, message, details}`; binary packing into `grpc-status-details-bin` happens in the gRPC binding. */
export function toGrpcStatus(err: A2AError): GrpcStatusObject {
  return { code: err.spec.grpcCode, message: err.message, details: err.wireDetails() };
}

/** HTTP+JSON error (§11.6): `{status, body: {error: {code: status, status: grpcStatusName, message, details}}}`. */
export function toHttpError(err: A2AError): HttpErrorResponse {
  const status = err.spec.httpStatus;
  return {
    status,
    body: {
      error: {
        code: status,
        status: err.spec.grpcStatus,
        message: err.message,
        details: err.wireDetails(),
      },
    },
  };
}

/**
 * Turns anything a handler threw into an A2AError. A2AErrors pass through unchanged; anything else becomes
 * `internal(thrown)` (the generated InternalError with its default message: the thrown value's message and stack
 * never reach the wire, it is only kept as `cause`).
 */
export function toA2AError(thrown: unknown, internal: (cause: unknown) => A2AError): A2AError {
  return isA2AError(thrown) ? thrown : internal(thrown);
}

/** A generated error class: a constructor with the spec as a static field. */
export interface A2AErrorClass {
  /** The error type. */
  readonly spec: A2AErrorSpec;
  /** Creates the error. */
  new (message?: string, options?: A2AErrorOptions): A2AError;
}

/** An explicit registry entry: the spec and a factory. */
export interface ErrorRegistryEntry {
  /** The error type. */
  readonly spec: A2AErrorSpec;
  /** Creates the error from a wire message and the decoded options. */
  readonly create: (message: string, options: A2AErrorOptions) => A2AError;
}

/** Client-side reverse mapping: wire error → typed A2AError. No method ever throws on malformed input. */
export interface ErrorRegistry {
  /** The registered specs, in registration order. */
  readonly specs: readonly A2AErrorSpec[];
  /** The spec registered for an `ErrorInfo.reason`, if any. */
  byReason(reason: string): A2AErrorSpec | undefined;
  /** Decodes a JSON-RPC `error` member (`{code, message, data}`); `error` is untrusted JSON. */
  fromJsonRpcError(error: unknown): A2AError;
  /** Decodes an HTTP+JSON error response (status + parsed JSON body, untrusted). */
  fromHttpError(status: number, body: unknown): A2AError;
  /** Decodes a gRPC status (code, `grpc-message`, details already unpacked to ProtoJSON `Any` form). */
  fromGrpcStatus(code: number, message: string, details: readonly ErrorDetail[]): A2AError;
}

type Factory = (message: string, options: A2AErrorOptions) => A2AError;

/**
 * Builds the reverse mapping from the generated error classes (or explicit `{spec, create}` entries).
 *
 * Resolution, for every binding: an A2A `ErrorInfo` (domain `a2a-protocol.org`, or no domain) whose reason is
 * registered wins. Otherwise the wire code decides: the JSON-RPC code (unique per error), or for HTTP/gRPC the
 * status only when exactly one registered error has it (statuses are shared, e.g. 400). Otherwise the result is a
 * plain A2AError with a synthesized spec that keeps the wire codes, message and reason (`"UNKNOWN"` if none).
 * Message, metadata, field violations (first BadRequest) and remaining details are restored; an ErrorInfo whose
 * reason does not match the resolved error is kept in `details`.
 *
 * @throws Error if two entries share a reason or a JSON-RPC code (a generator bug, not a wire problem).
 */
export function createErrorRegistry(
  entries: readonly (A2AErrorClass | ErrorRegistryEntry)[],
): ErrorRegistry {
  const specs: A2AErrorSpec[] = [];
  const byReason = new Map<string, [A2AErrorSpec, Factory]>();
  const byJsonRpc = new Map<number, [A2AErrorSpec, Factory]>();
  for (const entry of entries) {
    const spec = entry.spec;
    const create: Factory =
      typeof entry === "function"
        ? (m, o) => new entry(m, o)
        : (entry as ErrorRegistryEntry).create;
    if (byReason.has(spec.reason)) throw new Error(`duplicate A2A error reason ${spec.reason}`);
    if (byJsonRpc.has(spec.jsonRpcCode))
      throw new Error(`duplicate JSON-RPC error code ${spec.jsonRpcCode}`);
    const pair: [A2AErrorSpec, Factory] = [spec, create];
    specs.push(spec);
    byReason.set(spec.reason, pair);
    byJsonRpc.set(spec.jsonRpcCode, pair);
  }
  Object.freeze(specs);

  /** The only registered entry matching `pred`, if exactly one does. */
  const unique = (pred: (s: A2AErrorSpec) => boolean): [A2AErrorSpec, Factory] | undefined => {
    let found: [A2AErrorSpec, Factory] | undefined;
    for (const pair of byReason.values()) {
      if (!pred(pair[0])) continue;
      if (found) return undefined;
      found = pair;
    }
    return found;
  };

  const build = (
    wireMessage: unknown,
    rawDetails: unknown,
    fallback: () => [A2AErrorSpec, Factory] | undefined,
    generic: (reason: string, message: string | undefined) => A2AErrorSpec,
  ): A2AError => {
    const parsed = parseDetails(rawDetails);
    const message = typeof wireMessage === "string" && wireMessage !== "" ? wireMessage : undefined;
    const infoReason = parsed.info ? parsed.info.reason : undefined;
    const pair = (infoReason !== undefined ? byReason.get(infoReason) : undefined) ?? fallback();
    const options: A2AErrorOptions = {};
    if (parsed.fieldViolations.length) options.fieldViolations = parsed.fieldViolations;
    if (pair) {
      const [spec, create] = pair;
      if (parsed.info && infoReason === spec.reason) {
        if (parsed.info.metadata) options.metadata = parsed.info.metadata;
      } else if (parsed.info) {
        parsed.details.unshift(parsed.info.raw);
      }
      if (parsed.details.length) options.details = parsed.details;
      try {
        return create(message ?? spec.message, options);
      } catch {
        return new A2AError(spec, message, options);
      }
    }
    if (parsed.info?.metadata) options.metadata = parsed.info.metadata;
    if (parsed.details.length) options.details = parsed.details;
    return new A2AError(generic(infoReason ?? "UNKNOWN", message), message, options);
  };

  return {
    specs,
    byReason: (reason) => byReason.get(reason)?.[0],

    fromJsonRpcError(error) {
      const e = isRecord(error) ? error : undefined;
      const code = e && Number.isSafeInteger(e["code"]) ? (e["code"] as number) : undefined;
      return build(
        e?.["message"],
        e?.["data"],
        () => (code !== undefined ? byJsonRpc.get(code) : undefined),
        (reason, message) =>
          genericSpec(
            reason,
            code ?? -32603,
            2,
            500,
            message ?? (e ? "Unknown error" : "Malformed JSON-RPC error"),
          ),
      );
    },

    fromHttpError(status, body) {
      const b = isRecord(body) ? body : undefined;
      // §11.6 AIP-193 envelope; tolerate a bare google.rpc.Status and RFC 9457 problem+json (the §6.4 example).
      const e = b && isRecord(b["error"]) ? b["error"] : b;
      const statusCode = isHttpError(status)
        ? status
        : e && isHttpError(e["code"])
          ? (e["code"] as number)
          : 500;
      const statusName =
        e && typeof e["status"] === "string" ? GRPC_STATUS_NAMES.indexOf(e["status"]) : -1;
      const grpcCode = statusName > 0 ? statusName : grpcCodeForHttp(statusCode);
      const message = e ? (e["message"] ?? b?.["detail"] ?? b?.["title"]) : undefined;
      return build(
        message,
        e?.["details"],
        // Without an error body (an HTML 404 from a proxy, a wrong base URL) a status says nothing about the task,
        // but 401 and 403 keep their HTTP meaning whoever sent them.
        () =>
          e === undefined
            ? unique(
                (s) => s.httpStatus === statusCode && (statusCode === 401 || statusCode === 403),
              )
            : ((statusName > 0
                ? unique((s) => s.httpStatus === statusCode && s.grpcCode === statusName)
                : undefined) ?? unique((s) => s.httpStatus === statusCode)),
        (reason, m) =>
          genericSpec(reason, -32603, grpcCode, statusCode, m ?? `HTTP ${statusCode} error`),
      );
    },

    fromGrpcStatus(code, message, details) {
      const grpcCode =
        Number.isInteger(code) && code > 0 && code < GRPC_STATUS_NAMES.length ? code : 2;
      return build(
        message,
        details,
        () => unique((s) => s.grpcCode === grpcCode),
        (reason, m) =>
          genericSpec(
            reason,
            -32603,
            grpcCode,
            GRPC_HTTP_STATUS[grpcCode] ?? 500,
            m ?? `gRPC ${GRPC_STATUS_NAMES[grpcCode]}`,
          ),
      );
    },
  };
}

/** A synthesized spec for an error type the registry does not know. */
function genericSpec(
  reason: string,
  jsonRpcCode: number,
  grpcCode: number,
  httpStatus: number,
  message: string,
): A2AErrorSpec {
  return Object.freeze({
    name: "A2AError",
    reason,
    jsonRpcCode,
    grpcCode,
    grpcStatus: GRPC_STATUS_NAMES[grpcCode] ?? "UNKNOWN",
    httpStatus,
    message,
  });
}

/** Details split into the A2A ErrorInfo, the first BadRequest's violations and the rest. */
interface ParsedDetails {
  info:
    | { reason: string; metadata: Record<string, string> | undefined; raw: ErrorDetail }
    | undefined;
  fieldViolations: FieldViolation[];
  details: ErrorDetail[];
}

/** Splits untrusted wire details; entries without a string `@type` are dropped. */
function parseDetails(raw: unknown): ParsedDetails {
  const out: ParsedDetails = { info: undefined, fieldViolations: [], details: [] };
  // JSON-RPC `data` should be an array; accept a single typed object too.
  const list: readonly unknown[] = Array.isArray(raw) ? raw : isRecord(raw) ? [raw] : EMPTY_LIST;
  let sawBadRequest = false;
  for (const d of list) {
    if (!isRecord(d) || typeof d["@type"] !== "string") continue;
    const detail = d as ErrorDetail;
    const type = detail["@type"];
    if (
      !out.info &&
      type === ERROR_INFO_TYPE &&
      typeof d["reason"] === "string" &&
      d["reason"] !== "" &&
      (d["domain"] === ERROR_DOMAIN || d["domain"] === undefined || d["domain"] === "")
    ) {
      out.info = {
        reason: d["reason"],
        metadata: isRecord(d["metadata"]) ? stringMap(d["metadata"]) : undefined,
        raw: detail,
      };
      continue;
    }
    if (!sawBadRequest && type === BAD_REQUEST_TYPE) {
      const violations = d["fieldViolations"] ?? d["field_violations"];
      if (violations === undefined || Array.isArray(violations)) {
        sawBadRequest = true;
        for (const v of violations ?? EMPTY_LIST) {
          if (!isRecord(v)) continue;
          const field = v["field"] ?? "";
          const description = v["description"] ?? "";
          if (typeof field === "string" && typeof description === "string") {
            out.fieldViolations.push({ field, description });
          }
        }
        continue;
      }
    }
    out.details.push(detail);
  }
  return out;
}

/** A frozen copy of `map` keeping only string values (safe for `__proto__` keys). */
function stringMap(map: Readonly<Record<string, unknown>>): Readonly<Record<string, string>> {
  const out: Record<string, string> = {};
  let any = false;
  for (const key of Object.keys(map)) {
    const value = map[key];
    if (typeof value !== "string") continue;
    Object.defineProperty(out, key, {
      value,
      enumerable: true,
      writable: false,
      configurable: false,
    });
    any = true;
  }
  return any ? Object.freeze(out) : EMPTY_METADATA;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isHttpError(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 400 && (value as number) <= 599;
}

/** Reverse of the google.rpc.Code HTTP mapping, for errors the registry does not know. */
function grpcCodeForHttp(status: number): number {
  switch (status) {
    case 400:
      return 3;
    case 401:
      return 16;
    case 403:
      return 7;
    case 404:
      return 5;
    case 409:
      return 10;
    case 429:
      return 8;
    case 499:
      return 1;
    case 500:
      return 13;
    case 501:
      return 12;
    case 503:
      return 14;
    case 504:
      return 4;
    default:
      return 2;
  }
}
