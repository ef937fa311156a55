// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The per-call context every generated handler method receives, whatever the
 * binding the request came in on (JSON-RPC, gRPC, HTTP+JSON or a custom one).
 */

/** A protocol binding name as in `AgentInterface.protocol_binding`: the three of the spec, or a custom binding's URI. */
export type ProtocolBinding = "JSONRPC" | "GRPC" | "HTTP+JSON" | (string & {});

/**
 * Service parameters of one request (spec §3.2.6): keys are case-insensitive,
 * values case-sensitive. HTTP bindings fill them from headers, gRPC from metadata.
 */
export class ServiceParameters {
  #values: Map<string, string> | undefined;
  /** Headers read on demand (HTTP bindings): `get`/`has` ask them, `entries()` copies them once. */
  #headers: HeaderSource | undefined;

  /** Builds the parameters from any iterable of [key, value] pairs; repeated keys are joined with ", " (RFC 9110 §5.3). */
  constructor(entries?: Iterable<readonly [string, string]>) {
    this.#values = entries === undefined ? undefined : collect(entries);
  }

  /**
   * The parameters of an HTTP request, read from its headers when asked (no copy per request):
   * `header(name)` returns a header's value (repeated ones joined with ", "), `headers()` all of them.
   */
  static fromHeaders(source: HeaderSource): ServiceParameters {
    const parameters = new ServiceParameters(); // no Map: the headers are asked on demand
    parameters.#headers = source;
    return parameters;
  }

  /** The value of a parameter, or undefined when the request did not carry it. */
  get(name: string): string | undefined {
    const values = this.#values;
    if (values !== undefined) return values.get(name.toLowerCase());
    return this.#headers?.header(name);
  }

  /** Whether the request carried the parameter (possibly empty). */
  has(name: string): boolean {
    return this.get(name) !== undefined;
  }

  /** All parameters, keys lower-cased. */
  entries(): IterableIterator<[string, string]> {
    this.#values ??= collect(this.#headers?.headers() ?? []);
    return this.#values.entries();
  }
}

/** Keys lower-cased, repeated keys joined with ", " (RFC 9110 §5.3). */
function collect(entries: Iterable<readonly [string, string]>): Map<string, string> {
  const values = new Map<string, string>();
  for (const [key, value] of entries) {
    const k = key.toLowerCase();
    const prev = values.get(k);
    values.set(k, prev === undefined ? value : `${prev}, ${value}`);
  }
  return values;
}

/** Request headers as the HTTP adapters expose them (UniversalRequest's `header` and `headers`). */
export interface HeaderSource {
  header(name: string): string | undefined;
  headers(): Iterable<[string, string]>;
}

/** What the auth hook sees of a request, before the request body is decoded. */
export interface AuthRequest {
  readonly binding: ProtocolBinding;
  /** The operation (RPC name) when the binding knows it before authentication. */
  readonly operation: string | undefined;
  /** Request headers (HTTP) or metadata (gRPC). */
  readonly serviceParameters: ServiceParameters;
}

/**
 * Authenticates a request: return the principal, or throw the generated
 * `UnauthenticatedError` / `PermissionDeniedError` (any other throw is an internal error).
 */
export type AuthenticateFn<Principal> = (request: AuthRequest) => Principal | Promise<Principal>;

/** The context of one call, handed to every handler method. */
export interface CallContext<Principal = unknown> {
  /** The operation (RPC) name, e.g. "SendMessage". */
  readonly operation: string;
  /** The binding the request came in on. */
  readonly binding: ProtocolBinding;
  /** All service parameters of the request (headers or metadata). */
  readonly serviceParameters: ServiceParameters;
  /** The negotiated protocol version, `Major.Minor` (spec §3.6: patch ignored, empty = "0.3"). */
  readonly requestedVersion: string;
  /** Extension URIs the client asked for in `A2A-Extensions`, trimmed, in order, without duplicates. */
  readonly requestedExtensions: readonly string[];
  /**
   * Extensions the agent activated for this call. A handler adds the URIs it
   * honoured; the binding echoes them in the response's `A2A-Extensions`.
   */
  readonly activatedExtensions: Set<string>;
  /** The tenant of the request (path, request field or interface), "" when none. */
  readonly tenant: string;
  /** What the auth hook returned, or undefined when the server has no auth hook. */
  readonly principal: Principal | undefined;
  /** Aborted when the client goes away, the deadline passes or the server shuts down. */
  readonly signal: AbortSignal;
}

/** Fields of a CallContext; everything but the operation and binding has a default. */
export interface CallContextInit<Principal> {
  readonly operation: string;
  readonly binding: ProtocolBinding;
  readonly serviceParameters?: ServiceParameters;
  readonly requestedVersion?: string;
  readonly requestedExtensions?: readonly string[];
  readonly tenant?: string;
  readonly principal?: Principal;
  readonly signal?: AbortSignal;
}

/** Creates a CallContext, for bindings and for calling a handler directly in tests. */
export function createCallContext<Principal = unknown>(
  init: CallContextInit<Principal>,
): CallContext<Principal> {
  return {
    operation: init.operation,
    binding: init.binding,
    serviceParameters: init.serviceParameters ?? new ServiceParameters(),
    requestedVersion: init.requestedVersion ?? "1.0",
    requestedExtensions: init.requestedExtensions ?? [],
    activatedExtensions: new Set<string>(),
    tenant: init.tenant ?? "",
    principal: init.principal,
    signal: init.signal ?? new AbortController().signal,
  };
}
