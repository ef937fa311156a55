// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The tracing seam of the runtime: the hooks servers, clients and the push sender call when a `tracing`
 * option is given. The runtime itself knows nothing of OpenTelemetry: `openTelemetryTracing()` of
 * `@protoc-gen-a2a/runtime/otel` implements these hooks with `@opentelemetry/api` (an optional peer),
 * and only that entry imports it. Without the option, nothing here runs: one null check per call.
 */
import type { Message } from "@bufbuild/protobuf";
import type { CallContext, ProtocolBinding } from "../pipeline/call-context.js";
import type { CallOptions, ClientOptions } from "../client/call-options.js";
import type { OperationDescriptor } from "../protocol/operation.js";

/** A call a server received, as its binding hands it to the handler. */
export interface TracedServerCall {
  readonly operation: OperationDescriptor;
  /** The call context (binding, negotiated version, service parameters with the caller's `traceparent`). */
  readonly context: CallContext<unknown>;
  /** The decoded request. */
  readonly request: Message;
  /** `ErrorInfo.reason` of InternalError: what a throw that is not an A2AError becomes. */
  readonly internalReason: string;
}

/** A call a client makes. */
export interface TracedClientCall {
  readonly operation: OperationDescriptor;
  readonly binding: ProtocolBinding;
  /** The protocol version sent (`A2A-Version`). */
  readonly version: string;
  /** The interface URL (or gRPC base URL), when the transport knows it. */
  readonly url: string | undefined;
  /** The request as the caller gave it (an init shape). */
  readonly request: unknown;
}

/** One push notification delivery (all its attempts). */
export interface TracedPushDelivery {
  readonly taskId: string;
  readonly contextId: string;
  readonly url: string;
  /** What {@link A2ATracing.origin} returned when the event was produced. */
  readonly origin: unknown;
}

/** How a push delivery ended. */
export interface PushDeliveryOutcome {
  readonly delivered: boolean;
  /** The last HTTP status, if a response came. */
  readonly status?: number | undefined;
  /** Why it failed (`PushDeliveryFailure.reason`). */
  readonly reason?: string | undefined;
  readonly attempts: number;
}

/**
 * Tracing hooks (implemented by `openTelemetryTracing()`). Every hook runs the work it is given
 * (`dispatch`, `send`, `open`, `deliver`) exactly once, in its span, and returns its result.
 */
export interface A2ATracing {
  /** A server call: runs `dispatch` (the handler) in a SERVER span that covers the answer, the whole stream for a streaming call. */
  server(
    call: TracedServerCall,
    dispatch: () => Promise<Message> | AsyncIterable<Message>,
  ): Promise<Message> | AsyncIterable<Message>;
  /** A client's unary call: `send` gets the headers (`traceparent`) to add to the request. */
  clientUnary<T>(
    call: TracedClientCall,
    send: (headers: Readonly<Record<string, string>>) => Promise<T>,
  ): Promise<T>;
  /** A client's stream: `open` gets the headers to add; the span covers the stream. */
  clientStream<T>(
    call: TracedClientCall,
    open: (headers: Readonly<Record<string, string>>) => AsyncIterable<T>,
  ): AsyncGenerator<T>;
  /** The span context active now (when a task event is produced), for the link of its push deliveries. */
  origin(): unknown;
  /** A push delivery: `deliver` gets the headers (`traceparent`) to add to the webhook POST. */
  push(
    delivery: TracedPushDelivery,
    deliver: (headers: Readonly<Record<string, string>>) => Promise<PushDeliveryOutcome>,
  ): Promise<PushDeliveryOutcome>;
}

/**
 * The options of a client call with the tracing headers added (the call's own headers win over the client's, these over both).
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export function withTracingHeaders(
  options: CallOptions | undefined,
  headers: Readonly<Record<string, string>>,
): CallOptions {
  return { ...options, headers: { ...options?.headers, ...headers } };
}

/** A client's call as {@link traceClientUnary} and {@link traceClientStream} take it: the version comes from the client. */
type ClientCallSite = Omit<TracedClientCall, "version">;

/** The call a client's span records: `call` with the client's protocol version (default "1.0"). */
function tracedClientCall(client: Pick<ClientOptions, "version">, call: ClientCallSite) {
  return {
    operation: call.operation,
    binding: call.binding,
    version: client.version ?? "1.0",
    url: call.url,
    request: call.request,
  };
}

/**
 * A client's unary call: `run` as is without the client's `tracing`, else in its CLIENT span, with
 * the tracing headers added to the call's options.
 */
export function traceClientUnary<T>(
  client: Pick<ClientOptions, "tracing" | "version">,
  call: ClientCallSite,
  options: CallOptions | undefined,
  run: (options: CallOptions | undefined) => Promise<T>,
): Promise<T> {
  const tracing = client.tracing;
  if (tracing === undefined) return run(options);
  return tracing.clientUnary(tracedClientCall(client, call), (headers) =>
    run(withTracingHeaders(options, headers)),
  );
}

/**
 * A client's stream: `open` as is without the client's `tracing`, else in its CLIENT span (which
 * covers the stream), with the tracing headers added to the call's options.
 */
export function traceClientStream<T>(
  client: Pick<ClientOptions, "tracing" | "version">,
  call: ClientCallSite,
  options: CallOptions | undefined,
  open: (options: CallOptions | undefined) => AsyncGenerator<T>,
): AsyncGenerator<T> {
  const tracing = client.tracing;
  if (tracing === undefined) return open(options);
  return tracing.clientStream(tracedClientCall(client, call), (headers) =>
    open(withTracingHeaders(options, headers)),
  );
}
