// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/** Client options and per-call options shared by every binding's client. */
import { create, type DescMessage, type Message, type MessageInitShape } from "@bufbuild/protobuf";
import { formatExtensions } from "../pipeline/service-parameters.js";
import type { ErrorRegistry } from "../errors/a2a-error.js";
import { ownMessageInit } from "../protojson/own-json.js";
import type { A2ATracing } from "../observe/tracing.js";

/** Options every binding's client takes, fixed for its lifetime. */
export interface ClientOptions {
  /** Sent as `A2A-Version` (HTTP header or gRPC metadata). Default "1.0". */
  readonly version?: string | undefined;
  /**
   * Sets `tenant` in every request that has the field and leaves it empty (spec §8.3.2: the
   * tenant of the chosen interface); the REST client then also uses the `/{tenant}/…` routes.
   */
  readonly tenant?: string | undefined;
  /** Extension URIs sent in `A2A-Extensions` on every call. */
  readonly extensions?: readonly string[] | undefined;
  /** Headers (HTTP) or metadata (gRPC) sent on every call, e.g. Authorization. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** Default timeout of a call in ms (for streams: until the stream ends); none when unset. */
  readonly timeoutMs?: number | undefined;
  /**
   * Traces every call (a CLIENT span per call, `traceparent` sent): `openTelemetryTracing()` of
   * `@protoc-gen-a2a/runtime/otel`. None by default.
   */
  readonly tracing?: A2ATracing | undefined;
}

/**
 * The request message of a call: the init shape created, with the client's tenant filled in.
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export function requestMessage(
  schema: DescMessage,
  init: MessageInitShape<DescMessage>,
  client: ClientOptions,
): Message {
  // Own properties only: a field may be named after an Object.prototype member (own-json.ts).
  const message = create(schema, ownMessageInit(init));
  const tenant = client.tenant;
  if (
    tenant !== undefined &&
    schema.field["tenant"] !== undefined &&
    (message as { tenant?: string }).tenant === ""
  ) {
    (message as { tenant?: string }).tenant = tenant;
  }
  return message;
}

/**
 * The headers of a call: the client's, the call's, `a2a-version`, `a2a-extensions` when any, then `extra`.
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export function requestHeaders(
  client: ClientOptions,
  call: CallOptions | undefined,
  extra?: Readonly<Record<string, string>>,
): Record<string, string> {
  const headers: Record<string, string> = {
    ...client.headers,
    ...call?.headers,
    ...extra,
    "a2a-version": client.version ?? "1.0",
  };
  const extensions = [...(client.extensions ?? []), ...(call?.extensions ?? [])];
  if (extensions.length > 0) headers["a2a-extensions"] = formatExtensions(new Set(extensions));
  return headers;
}

/** Options of one call. */
export interface CallOptions {
  /** Cancels the call (for a stream: stops it and closes the connection). */
  readonly signal?: AbortSignal | undefined;
  /** Timeout in ms (for a stream: until the stream ends); overrides the client's default. */
  readonly timeoutMs?: number | undefined;
  /** Extra headers (HTTP) or metadata (gRPC) for this call. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** Extension URIs for this call, added to the client's. */
  readonly extensions?: readonly string[] | undefined;
  /** Receives the response headers (e.g. the activated `A2A-Extensions`). */
  readonly onHeaders?: ((headers: Headers) => void) | undefined;
}

/**
 * Combines the caller's signal and a timeout into one signal; `cleanup` clears the
 * timer and the listener, and must be called when the call ends.
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export function callSignal(
  signal: AbortSignal | undefined,
  timeoutMs: number | undefined,
): { signal: AbortSignal | undefined; cleanup: () => void } {
  if (timeoutMs === undefined) return { signal, cleanup: noop };
  const controller = new AbortController();
  const timer = setTimeout(
    () =>
      controller.abort(
        new DOMException(`the call timed out after ${timeoutMs} ms`, "TimeoutError"),
      ),
    timeoutMs,
  );
  const onAbort = () => controller.abort(signal?.reason);
  if (signal !== undefined) {
    if (signal.aborted) controller.abort(signal.reason);
    else signal.addEventListener("abort", onAbort, { once: true });
  }
  return {
    signal: controller.signal,
    cleanup: () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    },
  };
}

function noop(): void {}

/** gRPC status UNAVAILABLE: what Connect reports for an agent it cannot reach. */
const UNAVAILABLE = 14;

/**
 * What an HTTP client throws when `fetch` rejects before any response (connection refused,
 * DNS, TLS, reset): the same A2AError the gRPC client gives for an unreachable agent (gRPC
 * status UNAVAILABLE, reason UNKNOWN, the underlying message; the original as `cause`), so
 * callers handle it alike on every binding. An abort (the caller's signal or timeout) is
 * returned unchanged.
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export function unreachableError(
  errors: ErrorRegistry,
  thrown: unknown,
  signal: AbortSignal | undefined,
): unknown {
  if (signal?.aborted === true) return thrown;
  const inner = thrown instanceof Error && thrown.cause instanceof Error ? thrown.cause : thrown;
  const err = errors.fromGrpcStatus(
    UNAVAILABLE,
    inner instanceof Error ? inner.message : String(inner),
    [],
  );
  Object.defineProperty(err, "cause", {
    value: thrown,
    configurable: true,
    writable: true,
    enumerable: false,
  });
  return err;
}
