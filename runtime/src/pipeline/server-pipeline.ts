// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The part of every binding's pipeline that comes after routing and before the
 * handler: authentication, version negotiation, extensions. Shared by JSON-RPC,
 * HTTP+JSON and gRPC, so that the three answer alike.
 */
import { A2AError, type A2AErrorSpec } from "../errors/a2a-error.js";
import type {
  ServiceParameters,
  AuthenticateFn,
  CallContext,
  ProtocolBinding,
} from "./call-context.js";
import {
  IMPLICIT_VERSION,
  formatExtensions,
  negotiateVersion,
  parseExtensions,
  type VersionNegotiation,
} from "./service-parameters.js";
import type { DescMessage, JsonValue, Message, Registry } from "@bufbuild/protobuf";
import { JsonDecodeError, decodeMessage } from "../protojson/proto-json.js";
import { CALL_CANCELLATION, type CallCancellation } from "./call-abort.js";
import { findMissingFields, type RequirementTable } from "./required-fields.js";
import { BINDING_CALL } from "./binding-call.js";
import { clipped, quoted } from "../client/input.js";
import type { ServeNodeOptions } from "../http/node-adapter.js";
import {
  DEFAULT_REQUEST_LIMITS,
  findLimitViolation,
  resolveRequestLimits,
  type RequestLimitOptions,
  type RequestLimits,
} from "./limits.js";
import { mergeRegistries, type TypeRegistryOption } from "../protojson/type-registry.js";
import type { JsonReaderTable } from "../protojson/json-read.js";
import { CONSOLE_LOGGER, type Logger } from "../observe/logger.js";
import type { A2ATracing } from "../observe/tracing.js";
import type { OperationDescriptor } from "../protocol/operation.js";

/**
 * The error types the pipelines raise themselves (the generated `errorSpecs` has them all).
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export interface PipelineErrorSpecs {
  readonly JsonParseError: A2AErrorSpec;
  readonly InvalidRequestError: A2AErrorSpec;
  readonly MethodNotFoundError: A2AErrorSpec;
  readonly InvalidParamsError: A2AErrorSpec;
  readonly InternalError: A2AErrorSpec;
  readonly ContentTypeNotSupportedError: A2AErrorSpec;
  readonly VersionNotSupportedError: A2AErrorSpec;
  readonly ExtensionSupportRequiredError: A2AErrorSpec;
  readonly UnauthenticatedError: A2AErrorSpec;
  readonly PermissionDeniedError: A2AErrorSpec;
}

/** Where a pipeline reports what it does not send to clients (handler bugs, failed writes): see logger.ts. */
export type { Logger } from "../observe/logger.js";

/**
 * The options every A2A server binding takes. The request limits (`maxJsonDepth`,
 * `maxPartsPerMessage`, `maxMetadataBytes`, see limits.ts) apply on every binding.
 */
export interface ServerOptions<Principal> extends RequestLimitOptions, TypeRegistryOption {
  /** Protocol versions (Major.Minor) this interface serves. Default `["1.0"]`. */
  readonly supportedVersions?: readonly string[] | undefined;
  /**
   * The version assumed when a request carries no `A2A-Version` (or an empty one).
   * The spec says "0.3" (§3.6.2), the default; a 1.0-only server that wants to be
   * lenient with clients that omit the header can set "1.0".
   */
  readonly versionWhenMissing?: string | undefined;
  /** Extension URIs the Agent Card marks `required: true`: a request that does not ask for all of them fails (§4.6.3). */
  readonly requiredExtensions?: readonly string[] | undefined;
  /**
   * Authenticates every call before its request is decoded into the operation's message and before the
   * handler runs; see AuthenticateFn. What is needed to know the call comes first: the HTTP body's JSON
   * parse and the JSON-RPC envelope (an unauthenticated caller can get JsonParseError or MethodNotFoundError),
   * and on gRPC the protobuf decoding, which Connect and grpc-js do before any A2A code runs.
   */
  readonly authenticate?: AuthenticateFn<Principal> | undefined;
  /** Where internal errors are logged (handler failures, failed stream clean-ups). Default: `console`. */
  readonly logger?: Logger | undefined;
  /**
   * Traces every call (a SERVER span per call, the caller's `traceparent` continued): `openTelemetryTracing()`
   * of `@protoc-gen-a2a/runtime/otel`. None by default (then nothing of OpenTelemetry is loaded).
   */
  readonly tracing?: A2ATracing | undefined;
}

/**
 * What a binding knows about a request when it establishes the call context.
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export interface ContextInput {
  readonly binding: ProtocolBinding;
  readonly operation: string;
  readonly serviceParameters: ServiceParameters;
  /** `A2A-Version` given as a query parameter (HTTP bindings, §3.6.1), which wins over the header. */
  readonly versionParameter?: string | undefined;
  readonly tenant: string;
  /** The call's cancellation: an AbortSignal, or (HTTP adapters) a source whose signal is only made when a handler reads it. */
  readonly signal: AbortSignal | CallCancellation;
}

/**
 * Resolved, immutable server settings (defaults applied once, not per request).
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export interface PipelineSettings<Principal> {
  readonly supportedVersions: readonly string[];
  readonly versionWhenMissing: string;
  readonly requiredExtensions: readonly string[];
  readonly authenticate: AuthenticateFn<Principal> | undefined;
  readonly logger: Logger;
  /** The `tracing` option; undefined (one null check per call) when not traced. */
  readonly tracing?: A2ATracing | undefined;
  readonly errors: PipelineErrorSpecs;
  /** The request limits (defaults applied). */
  readonly limits: RequestLimits;
  /** The generated type registry merged with the `registry` option (Any, extensions), once. */
  readonly registry: Registry | undefined;
}

/**
 * Applies the defaults of ServerOptions; `registry` is the generated one, merged with the option's.
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export function resolveServerOptions<Principal>(
  options: ServerOptions<Principal> | undefined,
  errors: PipelineErrorSpecs,
  registry?: Registry,
): PipelineSettings<Principal> {
  return {
    supportedVersions:
      options?.supportedVersions === undefined ? ["1.0"] : [...options.supportedVersions],
    versionWhenMissing: options?.versionWhenMissing ?? IMPLICIT_VERSION,
    requiredExtensions: options?.requiredExtensions ?? [],
    authenticate: options?.authenticate,
    logger: options?.logger ?? CONSOLE_LOGGER,
    tracing: options?.tracing,
    errors,
    limits: resolveRequestLimits(options),
    registry: mergeRegistries(registry, options?.registry),
  };
}

/**
 * Authenticates, negotiates the version and checks the required extensions; throws
 * the A2A error to answer with. The order is fixed: auth first (an unauthenticated
 * caller learns nothing else), then version, then extensions.
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export async function establishContext<Principal>(
  settings: PipelineSettings<Principal>,
  input: ContextInput,
): Promise<CallContext<Principal>> {
  let principal: Principal | undefined;
  if (settings.authenticate !== undefined) {
    const result = settings.authenticate({
      binding: input.binding,
      operation: input.operation,
      serviceParameters: input.serviceParameters,
    });
    // A hook that answers at once is not awaited (a microtask turn per request).
    principal = isPromiseLike(result) ? await result : result;
  }
  const requested = input.versionParameter ?? input.serviceParameters.get("a2a-version");
  const negotiated = negotiatedVersion(settings, requested);
  if (!negotiated.ok) {
    const shown =
      requested === undefined || requested.trim() === ""
        ? `${settings.versionWhenMissing} (no A2A-Version given)`
        : quoted(negotiated.requested);
    throw new A2AError(
      settings.errors.VersionNotSupportedError,
      `A2A protocol version ${shown} is not supported; supported versions: ${settings.supportedVersions.join(", ")}`,
      {
        metadata: {
          requestedVersion: clipped(negotiated.requested),
          supportedVersions: settings.supportedVersions.join(","),
        },
      },
    );
  }
  const requestedExtensions = parseExtensions(input.serviceParameters.get("a2a-extensions"));
  if (settings.requiredExtensions.length > 0) {
    const missing = settings.requiredExtensions.filter((uri) => !requestedExtensions.includes(uri));
    if (missing.length > 0) {
      throw new A2AError(
        settings.errors.ExtensionSupportRequiredError,
        `this agent requires the extension${missing.length > 1 ? "s" : ""} ${missing.join(", ")}; declare ${missing.length > 1 ? "them" : "it"} in A2A-Extensions`,
        { metadata: { requiredExtensions: missing.join(",") } },
      );
    }
  }
  const source = input.signal;
  const cancellation = source instanceof AbortSignal ? undefined : source;
  // A binding's signal is made on first read: most handlers never look (see call-abort.ts). An own,
  // enumerable getter (an object spread of the context reads it), one shared getter defined on a plain
  // literal: a `get signal()` in the literal made a closure and an accessor pair per call (~0.6 µs).
  const context = {
    operation: input.operation,
    binding: input.binding,
    serviceParameters: input.serviceParameters,
    requestedVersion: negotiated.version,
    requestedExtensions,
    activatedExtensions: new Set<string>(),
    tenant: input.tenant,
    principal,
    [CALL_CANCELLATION]: cancellation,
    [BINDING_CALL]: true,
    [SIGNAL_SOURCE]: source,
  };
  return Object.defineProperty(context, "signal", LAZY_SIGNAL) as unknown as CallContext<Principal>;
}

/** Where a binding's call context keeps its cancellation source, for {@link LAZY_SIGNAL}. */
const SIGNAL_SOURCE: unique symbol = Symbol("protoc-gen-a2a.signalSource");

/** The `signal` of a binding's call context: the AbortSignal given, or the cancellation's, made when first read. */
const LAZY_SIGNAL: PropertyDescriptor = {
  get(this: {
    readonly [CALL_CANCELLATION]: CallCancellation | undefined;
    readonly [SIGNAL_SOURCE]: AbortSignal | CallCancellation;
  }): AbortSignal {
    const cancellation = this[CALL_CANCELLATION];
    return cancellation === undefined ? (this[SIGNAL_SOURCE] as AbortSignal) : cancellation.signal;
  },
  enumerable: true,
  configurable: true,
};

/**
 * negotiateVersion for a request of a server, its last answer kept: nearly every request names the same
 * version, and the answer was a regex run and a result object per request. Keyed by the settings (whose
 * `supportedVersions` resolveServerOptions copied: nobody changes it) and the exact text requested.
 */
function negotiatedVersion<Principal>(
  settings: PipelineSettings<Principal>,
  requested: string | undefined,
): VersionNegotiation {
  const last = lastNegotiation;
  if (last !== undefined && last.settings === settings && last.requested === requested)
    return last.result;
  const result = negotiateVersion(
    requested === undefined || requested.trim() === "" ? settings.versionWhenMissing : requested,
    settings.supportedVersions,
  );
  lastNegotiation = { settings, requested, result };
  return result;
}

let lastNegotiation:
  | {
      readonly settings: object;
      readonly requested: string | undefined;
      readonly result: VersionNegotiation;
    }
  | undefined;

function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === "function";
}

/**
 * Decodes a request from ProtoJSON and validates it against the REQUIRED/range table and the
 * request limits (default: DEFAULT_REQUEST_LIMITS); throws InvalidParamsError naming the field
 * (with a google.rpc.BadRequest). `registry` resolves Any and extensions.
 *
 * `readers` (the generated `<Service>RequestJsonReaders`) read the common requests in one pass, their
 * REQUIRED, exactly-one and range rules checked on the way: a reader returns the message `fromJson`
 * would build, or undefined for anything it is not sure of (an error included), and then reflection
 * decodes and validates the request as without readers: the reference message or the reference error.
 * The request limits are checked on the message either way.
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export function decodeRequest(
  errors: PipelineErrorSpecs,
  schema: DescMessage,
  json: JsonValue,
  requestFields: RequirementTable,
  limits: RequestLimits = DEFAULT_REQUEST_LIMITS,
  registry?: Registry,
  readers?: JsonReaderTable,
): Message {
  if (readers !== undefined && Object.hasOwn(readers, schema.typeName)) {
    let read: object | undefined;
    try {
      read = readers[schema.typeName]!(json);
    } catch {
      // Not expected of a reader: reflection decides below.
    }
    if (read !== undefined) {
      checkRequestLimits(errors, limits, schema, read as Message);
      return read as Message;
    }
  }
  let message: Message;
  try {
    message = decodeMessage(schema, json, registry);
  } catch (e) {
    if (e instanceof JsonDecodeError)
      throw new A2AError(errors.InvalidParamsError, `Invalid parameters: ${e.message}`);
    throw e;
  }
  const violations = findMissingFields(requestFields, schema.typeName, message);
  if (violations.length > 0) {
    throw new A2AError(
      errors.InvalidParamsError,
      `Invalid parameters: ${violations.map((v) => v.description).join("; ")}`,
      {
        fieldViolations: violations,
      },
    );
  }
  checkRequestLimits(errors, limits, schema, message);
  return message;
}

/**
 * Throws InvalidParamsError naming the field when a decoded request breaks a request limit (too many
 * parts, metadata too large or too deep; ErrorInfo metadata `limit`, the option's name, and `maximum`)
 * or holds a number JSON cannot express (NaN, ±Infinity in a Struct or Value: it could never be answered).
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export function checkRequestLimits(
  errors: PipelineErrorSpecs,
  limits: RequestLimits,
  schema: DescMessage,
  message: Message,
): void {
  const violation = findLimitViolation(limits, schema, message);
  if (violation === undefined) return;
  throw new A2AError(errors.InvalidParamsError, `Invalid parameters: ${violation.description}`, {
    ...(violation.limit === undefined
      ? {}
      : { metadata: { limit: violation.limit, maximum: String(violation.maximum) } }),
    fieldViolations: [{ field: violation.field, description: violation.description }],
  });
}

/**
 * A handler's unexpected throw as the generic InternalError, logged (never sent: no message,
 * no stack). Not logged when it is only the abort of a call whose client went away
 * (`signal` aborted and the throw is its reason or an AbortError): nobody is left to answer
 * and nothing failed.
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export function internalError<Principal>(
  settings: PipelineSettings<Principal>,
  operation: string,
  cause: unknown,
  signal?: AbortSignal,
): A2AError {
  const abandoned =
    signal?.aborted === true &&
    (cause === signal.reason || (cause instanceof Error && cause.name === "AbortError"));
  if (!abandoned) settings.logger.error(`${operation}: handler failed`, cause);
  return new A2AError(settings.errors.InternalError, undefined, { cause });
}

/**
 * Calls the handler of `operation` (`service.dispatch`), in a SERVER span when the server is traced
 * (PipelineSettings.tracing): what every binding calls. Untraced, one null check.
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export function dispatchCall<Principal>(
  settings: PipelineSettings<Principal>,
  service: Pick<ServiceDefinitionBase<Principal>, "dispatch">,
  operation: OperationDescriptor,
  request: Message,
  context: CallContext<Principal>,
): Promise<Message> | AsyncIterable<Message> {
  const tracing = settings.tracing;
  if (tracing === undefined) return service.dispatch(operation.name, request, context);
  return tracing.server(
    { operation, context, request, internalReason: settings.errors.InternalError.reason },
    () => service.dispatch(operation.name, request, context),
  );
}

/**
 * Response headers plus `A2A-Extensions` listing the extensions the handler activated, if any.
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export function withActivatedExtensions(
  headers: readonly (readonly [string, string])[],
  context: CallContext<unknown>,
): readonly (readonly [string, string])[] {
  if (context.activatedExtensions.size === 0) return headers;
  return [...headers, ["a2a-extensions", formatExtensions(context.activatedExtensions)]];
}

/**
 * What every binding's server takes from the generated code: validation tables, error table, dispatcher.
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export interface ServiceDefinitionBase<Principal> {
  /** REQUIRED fields and ranges of requests (validated). */
  readonly requestFields: RequirementTable;
  readonly errors: PipelineErrorSpecs;
  /** Calls the handler method of an operation. */
  readonly dispatch: (
    operation: string,
    request: Message,
    context: CallContext<Principal>,
  ) => Promise<Message> | AsyncIterable<Message>;
  /** The types of the proto's files, their imports and the well-known types, for ProtoJSON's Any and extensions. */
  readonly registry?: Registry | undefined;
  /** The generated ProtoJSON readers of the request types (`<Service>RequestJsonReaders`); reflection alone without them (decodeRequest). */
  readonly requestReaders?: JsonReaderTable | undefined;
}

/**
 * Options of the HTTP bindings' servers (JSON-RPC, HTTP+JSON). The `node` listener's bounds on
 * slow readers and oversized uploads (`stalledWriteTimeoutMs`, `maxPendingWriteBytes` or `writeBudget`,
 * `lingeringCloseBytes`, `lingeringCloseMs`) are `serveNode`'s, passed through.
 */
export interface HttpServerOptions<Principal>
  extends ServerOptions<Principal>,
    Pick<
      ServeNodeOptions,
      | "stalledWriteTimeoutMs"
      | "maxPendingWriteBytes"
      | "writeBudget"
      | "lingeringCloseBytes"
      | "lingeringCloseMs"
    > {
  /** Largest request body accepted, in bytes. Default 10 MiB. */
  readonly maxBodyBytes?: number | undefined;
  /** Interval of SSE keep-alive comments on streams, in ms; 0 turns them off. Default 15 000. */
  readonly keepAliveMs?: number | undefined;
  /**
   * The `WWW-Authenticate` challenge sent with every 401 (RFC 9110 §15.5.2: a 401 MUST carry
   * one). Default `"Bearer"`; name the schemes your Agent Card declares (e.g.
   * `Bearer realm="my-agent"`, or `Basic realm="my-agent", Bearer`).
   */
  readonly authChallenge?: string | undefined;
}

/**
 * The header an HTTP server adds to a 401 answer (see HttpServerOptions.authChallenge).
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export function authChallengeHeader(
  options: { readonly authChallenge?: string | undefined } | undefined,
): readonly [string, string] {
  return ["www-authenticate", options?.authChallenge ?? "Bearer"];
}
