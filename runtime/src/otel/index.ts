// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * OpenTelemetry tracing of A2A servers, clients and push deliveries: `openTelemetryTracing()` builds the
 * hooks the runtime calls (`tracing` option of every server, client and push sender) from
 * `@opentelemetry/api` (an optional peer dependency: only this entry imports it).
 *
 *   const tracing = openTelemetryTracing(); // the global TracerProvider, or { tracerProvider }
 *   createA2AServiceJsonRpcHandler(handler, { tracing });
 *   new A2AServiceJsonRpcClient({ url, tracing });
 *   createPushNotificationSender({ ..., tracing });
 *
 * Spans: a SERVER span per call (named `lf.a2a.v1.A2AService/SendMessage`, continuing the caller's
 * `traceparent` from HTTP headers or gRPC metadata; for a stream it covers the stream), a CLIENT span per
 * call (the `traceparent` sent on every binding), a CLIENT span per push delivery (its attempts included;
 * `traceparent` sent to the webhook; linked to the span of the call that produced the event). Attributes:
 * `rpc.system` (`jsonrpc`, `grpc`, `a2a` for HTTP+JSON and custom bindings), `rpc.service`, `rpc.method`,
 * `a2a.operation`, `a2a.binding`, `a2a.version`, `a2a.task.id`, `a2a.context.id` (from the request, then
 * the answer), on failure `a2a.error.reason` (the A2A `ErrorInfo.reason`) and status ERROR; the task
 * states a call answers or streams are span events `a2a.task.state`. The propagator is the global one
 * (W3C trace context by default); the span active in a handler is the call's (needs a context manager,
 * e.g. the NodeSDK's AsyncLocalStorage one).
 */
import {
  type Attributes,
  type Context,
  type Link,
  type Span,
  type SpanContext,
  SpanKind,
  SpanStatusCode,
  type TextMapGetter,
  type Tracer,
  type TracerProvider,
  ROOT_CONTEXT,
  context as otelContext,
  isSpanContextValid,
  propagation,
  trace,
} from "@opentelemetry/api";
import type { DescEnum, DescMessage, Message } from "@bufbuild/protobuf";
import type { ServiceParameters } from "../pipeline/call-context.js";
import type { OperationDescriptor } from "../protocol/operation.js";
import type {
  A2ATracing,
  PushDeliveryOutcome,
  TracedClientCall,
  TracedPushDelivery,
  TracedServerCall,
} from "../observe/tracing.js";
import { RUNTIME_VERSION } from "../version/runtime-version.js";

export type { A2ATracing } from "../observe/tracing.js";

/** Options of {@link openTelemetryTracing}. */
export interface OpenTelemetryTracingOptions {
  /** Where the tracer comes from. Default: the global provider (`trace.getTracerProvider()`), read when a span starts. */
  readonly tracerProvider?: TracerProvider | undefined;
  /** Attributes added to every span (e.g. `{ "a2a.agent.name": "echo" }`). */
  readonly attributes?: Attributes | undefined;
}

/** The instrumentation scope name of the spans. */
export const INSTRUMENTATION_NAME = "@protoc-gen-a2a/runtime";

/** The hooks of the `tracing` option, implemented with `@opentelemetry/api`. */
export function openTelemetryTracing(options: OpenTelemetryTracingOptions = {}): A2ATracing {
  const provider = options.tracerProvider;
  let fixed: Tracer | undefined;
  // The global provider's tracer is a proxy that follows a provider registered later.
  const tracer = (): Tracer =>
    (fixed ??= (provider ?? trace.getTracerProvider()).getTracer(
      INSTRUMENTATION_NAME,
      RUNTIME_VERSION,
    ));
  const common = options.attributes ?? {};

  return {
    server(call: TracedServerCall, dispatch) {
      const { operation, context: callContext } = call;
      const parent = propagation.extract(
        otelContext.active(),
        callContext.serviceParameters,
        PARAMETERS_GETTER,
      );
      const span = tracer().startSpan(
        spanName(operation),
        {
          kind: SpanKind.SERVER,
          attributes: {
            ...common,
            ...rpcAttributes(operation, callContext.binding),
            "a2a.version": callContext.requestedVersion,
          },
        },
        parent,
      );
      const ctx = trace.setSpan(parent, span);
      const track = new CallTrack(span, operation, call.internalReason, callContext.binding);
      track.request(call.request);
      let result: Promise<Message> | AsyncIterable<Message>;
      try {
        result = otelContext.with(ctx, dispatch);
      } catch (e) {
        track.end({ error: e });
        throw e;
      }
      if (isPromiseLike(result)) {
        return result.then(
          (response) => {
            track.answer(response);
            track.end();
            return response;
          },
          (e: unknown) => {
            track.end({ error: e });
            throw e;
          },
        );
      }
      return tracedServerStream(result, ctx, track);
    },

    clientUnary<T>(
      call: TracedClientCall,
      send: (headers: Readonly<Record<string, string>>) => Promise<T>,
    ): Promise<T> {
      const { ctx, headers, track } = startClient(tracer(), common, call);
      let sent: Promise<T>;
      try {
        sent = otelContext.with(ctx, () => send(headers));
      } catch (e) {
        track.end({ error: e });
        throw e;
      }
      return sent.then(
        (response) => {
          track.answer(response as Message);
          track.end();
          return response;
        },
        (e: unknown) => {
          track.end({ error: e });
          throw e;
        },
      );
    },

    clientStream<T>(
      call: TracedClientCall,
      open: (headers: Readonly<Record<string, string>>) => AsyncIterable<T>,
    ): AsyncGenerator<T> {
      return tracedClientStream(tracer(), common, call, open);
    },

    origin(): unknown {
      const active = trace.getSpanContext(otelContext.active());
      return active !== undefined && isSpanContextValid(active) ? active : undefined;
    },

    push(
      delivery: TracedPushDelivery,
      deliver: (headers: Readonly<Record<string, string>>) => Promise<PushDeliveryOutcome>,
    ): Promise<PushDeliveryOutcome> {
      const links: Link[] =
        delivery.origin === undefined ? [] : [{ context: delivery.origin as SpanContext }];
      const attributes: Attributes = {
        ...common,
        "http.request.method": "POST",
        "a2a.task.id": delivery.taskId,
        "a2a.context.id": delivery.contextId,
        ...urlAttributes(delivery.url),
      };
      // A delivery is work of its own (it may run long after the call that produced the event): a new trace, linked to that call.
      const span = tracer().startSpan(
        "A2A push notification",
        { kind: SpanKind.CLIENT, attributes, links, root: true },
        ROOT_CONTEXT,
      );
      const ctx = trace.setSpan(ROOT_CONTEXT, span);
      const headers: Record<string, string> = {};
      propagation.inject(ctx, headers);
      const finish = (outcome: PushDeliveryOutcome): PushDeliveryOutcome => {
        span.setAttribute("a2a.push.attempts", outcome.attempts);
        if (outcome.status !== undefined)
          span.setAttribute("http.response.status_code", outcome.status);
        if (!outcome.delivered) {
          span.setAttribute("a2a.error.reason", outcome.reason ?? "unknown");
          span.setStatus({
            code: SpanStatusCode.ERROR,
            message: `push notification not delivered (${outcome.reason ?? "unknown"})`,
          });
        }
        span.end();
        return outcome;
      };
      return otelContext
        .with(ctx, () => deliver(headers))
        .then(finish, (e: unknown) => {
          span.recordException(e instanceof Error ? e : String(e));
          span.setStatus({ code: SpanStatusCode.ERROR });
          span.end();
          throw e;
        });
    },
  };
}

/** Reads `traceparent`/`tracestate` from a call's service parameters (HTTP headers or gRPC metadata). */
const PARAMETERS_GETTER: TextMapGetter<ServiceParameters> = {
  keys: (carrier) => [...carrier.entries()].map(([key]) => key),
  get: (carrier, key) => carrier.get(key),
};

/** `lf.a2a.v1.A2AService/SendMessage`: the RPC's full name (rpc span name convention). */
function spanName(operation: OperationDescriptor): string {
  return operation.grpcPath.startsWith("/") ? operation.grpcPath.slice(1) : operation.grpcPath;
}

function rpcAttributes(operation: OperationDescriptor, binding: string): Attributes {
  const path = spanName(operation);
  const slash = path.lastIndexOf("/");
  return {
    "rpc.system": binding === "GRPC" ? "grpc" : binding === "JSONRPC" ? "jsonrpc" : "a2a",
    "rpc.service": slash < 0 ? path : path.slice(0, slash),
    "rpc.method": operation.name,
    "a2a.operation": operation.name,
    "a2a.binding": binding,
  };
}

/** `server.address`, `server.port` and `url.full` (without query or credentials) of a URL. */
function urlAttributes(url: string | undefined): Attributes {
  if (url === undefined) return {};
  try {
    const parsed = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `http://${url}`);
    const port =
      parsed.port === "" ? (parsed.protocol === "https:" ? 443 : 80) : Number(parsed.port);
    return {
      "server.address": parsed.hostname,
      "server.port": port,
      "url.full": `${parsed.origin}${parsed.pathname}`,
    };
  } catch {
    return {};
  }
}

function startClient(tracer: Tracer, common: Attributes, call: TracedClientCall) {
  const parent = otelContext.active();
  const span = tracer.startSpan(
    spanName(call.operation),
    {
      kind: SpanKind.CLIENT,
      attributes: {
        ...common,
        ...rpcAttributes(call.operation, call.binding),
        "a2a.version": call.version,
        ...urlAttributes(call.url),
      },
    },
    parent,
  );
  const ctx = trace.setSpan(parent, span);
  const headers: Record<string, string> = {};
  propagation.inject(ctx, headers);
  const track = new CallTrack(span, call.operation, undefined, call.binding);
  track.request(call.request);
  return { span, ctx, headers, track };
}

async function* tracedClientStream<T>(
  tracer: Tracer,
  common: Attributes,
  call: TracedClientCall,
  open: (headers: Readonly<Record<string, string>>) => AsyncIterable<T>,
): AsyncGenerator<T> {
  const { ctx, headers, track } = startClient(tracer, common, call);
  let iterator: AsyncIterator<T> | undefined;
  let finished = false;
  try {
    iterator = otelContext.with(ctx, () => open(headers)[Symbol.asyncIterator]());
    for (;;) {
      const next: AsyncIterator<T> = iterator;
      const result = await otelContext.with(ctx, () => next.next());
      if (result.done === true) break;
      track.answer(result.value as Message);
      yield result.value;
    }
    finished = true;
    track.end();
  } catch (e) {
    finished = true;
    track.end({ error: e });
    throw e;
  } finally {
    if (!finished) {
      // The caller stopped reading (break): the stream is cancelled, which is no failure.
      track.cancelled();
      await iterator?.return?.();
    }
  }
}

/** A server stream whose events are tracked and read in the call's context; the span ends with the stream. */
function tracedServerStream(
  events: AsyncIterable<Message>,
  ctx: Context,
  track: CallTrack,
): AsyncIterable<Message> {
  return {
    [Symbol.asyncIterator](): AsyncIterator<Message> {
      let iterator: AsyncIterator<Message>;
      try {
        iterator = otelContext.with(ctx, () => events[Symbol.asyncIterator]());
      } catch (e) {
        track.end({ error: e });
        throw e;
      }
      return {
        next() {
          let pending: Promise<IteratorResult<Message>>;
          try {
            pending = otelContext.with(ctx, () => iterator.next());
          } catch (e) {
            track.end({ error: e });
            throw e;
          }
          return pending.then(
            (result) => {
              if (result.done === true) track.end();
              else track.answer(result.value);
              return result;
            },
            (e: unknown) => {
              track.end({ error: e });
              throw e;
            },
          );
        },
        // Forwarded at once (a binding stops a handler whose client went away while a `next` is pending).
        return(value?: unknown) {
          track.cancelled();
          const inner = iterator.return;
          return inner === undefined
            ? Promise.resolve({ done: true, value: value as Message })
            : otelContext.with(ctx, () => inner.call(iterator, value));
        },
      };
    },
  };
}

/** What a call's span learns on the way: task and context ids, task states, the outcome. */
class CallTrack {
  #taskId = "";
  #contextId = "";
  #lastState: number | undefined;
  #ended = false;

  constructor(
    private readonly span: Span,
    private readonly operation: OperationDescriptor,
    private readonly internalReason: string | undefined,
    private readonly binding: string,
  ) {}

  /** The ids a request names (SendMessage's message, GetTask's `id`, a push config's `taskId`, ListTasks' `contextId`). */
  request(request: unknown): void {
    const r = request as
      | {
          id?: unknown;
          taskId?: unknown;
          contextId?: unknown;
          message?: { taskId?: unknown; contextId?: unknown };
        }
      | undefined;
    if (r === undefined || r === null || typeof r !== "object") return;
    const input = this.operation.input.typeName;
    if (typeof r.id === "string" && /(GetTask|CancelTask|SubscribeToTask)Request$/.test(input))
      this.#ids(r.id, undefined);
    this.#ids(r.taskId, r.contextId);
    if (r.message !== undefined && r.message !== null)
      this.#ids(r.message.taskId, r.message.contextId);
  }

  /** An answer or a stream event: its task, context and task state. */
  answer(message: Message | undefined): void {
    if (this.#ended || message === undefined || message === null) return;
    const found = taskOf(message as unknown as Record<string, unknown>);
    if (found === undefined) return;
    this.#ids(found.taskId, found.contextId);
    if (found.state !== undefined && found.state !== this.#lastState) {
      this.#lastState = found.state;
      const name = stateName(this.operation.output, found.state);
      this.span.addEvent("a2a.task.state", {
        "a2a.task.state": name,
        "a2a.task.id": typeof found.taskId === "string" ? found.taskId : this.#taskId,
      });
    }
  }

  cancelled(): void {
    if (this.#ended) return;
    this.span.setAttribute("a2a.stream.cancelled", true);
    this.end();
  }

  /** Ends the span: a success without `failure`, else a failure (`{ error }`). */
  end(failure?: { readonly error: unknown }): void {
    if (this.#ended) return;
    this.#ended = true;
    const span = this.span;
    if (failure !== undefined) {
      const error = failure.error;
      const spec = (error as { spec?: { reason?: unknown; grpcCode?: unknown } } | null | undefined)
        ?.spec;
      const reason = typeof spec?.reason === "string" ? spec.reason : this.internalReason;
      if (reason !== undefined) span.setAttribute("a2a.error.reason", reason);
      if (this.binding === "GRPC")
        span.setAttribute(
          "rpc.grpc.status_code",
          typeof spec?.grpcCode === "number" ? spec.grpcCode : 13,
        );
      if (typeof spec?.reason !== "string")
        span.recordException(error instanceof Error ? error : String(error));
      span.setStatus({
        code: SpanStatusCode.ERROR,
        message: error instanceof Error ? error.message : String(error),
      });
    } else if (this.binding === "GRPC") {
      span.setAttribute("rpc.grpc.status_code", 0);
    }
    span.end();
  }

  #ids(taskId: unknown, contextId: unknown): void {
    if (this.#taskId === "" && typeof taskId === "string" && taskId !== "") {
      this.#taskId = taskId;
      this.span.setAttribute("a2a.task.id", taskId);
    }
    if (this.#contextId === "" && typeof contextId === "string" && contextId !== "") {
      this.#contextId = contextId;
      this.span.setAttribute("a2a.context.id", contextId);
    }
  }
}

/** The task an answer or event is about: a Task, a Message, a status or artifact update, or one in a `payload` oneof. */
function taskOf(
  message: Record<string, unknown>,
): { taskId: unknown; contextId: unknown; state: number | undefined } | undefined {
  const typeName = message["$typeName"];
  if (typeof typeName !== "string") return undefined;
  const payload = message["payload"] as
    | { case?: string; value?: Record<string, unknown> }
    | undefined;
  if (
    payload !== undefined &&
    payload !== null &&
    typeof payload === "object" &&
    payload.value !== undefined
  )
    return taskOf(payload.value);
  const status = message["status"] as { state?: unknown } | undefined;
  const state = typeof status?.state === "number" ? status.state : undefined;
  if (typeName.endsWith(".Task"))
    return { taskId: message["id"], contextId: message["contextId"], state };
  if ("taskId" in message)
    return { taskId: message["taskId"], contextId: message["contextId"], state };
  return undefined;
}

const STATE_ENUMS = new WeakMap<DescMessage, DescEnum | null>();

/** The name of a task state (`TASK_STATE_WORKING`), from the TaskState enum reachable from the answer's schema. */
function stateName(output: DescMessage, state: number): string {
  let found = STATE_ENUMS.get(output);
  if (found === undefined) {
    found = findStateEnum(output) ?? null;
    STATE_ENUMS.set(output, found);
  }
  return found?.values.find((v) => v.number === state)?.name ?? String(state);
}

function findStateEnum(root: DescMessage): DescEnum | undefined {
  const seen = new Set<DescMessage>();
  const queue = [root];
  while (queue.length > 0) {
    const desc = queue.shift()!;
    if (seen.has(desc)) continue;
    seen.add(desc);
    for (const field of desc.fields) {
      if (
        field.fieldKind === "enum" &&
        field.name === "state" &&
        desc.typeName.endsWith(".TaskStatus")
      )
        return field.enum;
      if (
        field.fieldKind === "message" ||
        (field.fieldKind === "list" && field.listKind === "message")
      )
        queue.push(field.message);
    }
  }
  return undefined;
}

function isPromiseLike<T>(value: unknown): value is PromiseLike<T> & Promise<T> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === "function";
}
