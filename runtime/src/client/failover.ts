// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Client failover across an Agent Card's interfaces (A2A v1.0 §5.2 "Clients SHOULD implement
 * fallback logic for alternative protocols", §8.3.2): the interfaces a connection may use, in the
 * card's order, each with its health (interface-health.ts); every call goes to the first healthy
 * one, and a failure that is safe to retry moves the call to the next.
 *
 * Safe to retry ({@link isRetryable}):
 * - nothing can have reached the agent ("not-sent": connection refused, DNS failure, TLS handshake
 *   failure, connect timeout), or the agent's side said it is unavailable without an A2A error
 *   ("unavailable": an HTTP 503 without an A2A error body): any operation;
 * - the request may have reached the agent ("transport": a reset or a closed socket, an HTTP 502 or
 *   504 without an A2A error body, gRPC UNAVAILABLE after sending, an HTTP/2 stream cut): only the
 *   idempotent operations ({@link IDEMPOTENT_OPERATIONS}), unless `retryNonIdempotent`.
 * Never retried: A2A errors and every other answer (TaskNotFoundError, InvalidParamsError, …: the
 * agent answered; the interface counts as healthy), the caller's abort or timeout.
 *
 * Streams: a stream that fails before its first event is retried as a unary call is. A stream that
 * fails after events were handed out is continued, when the failure is a transport failure and the
 * task is known (from the events' `<seq>:<task id>` ids or their payload), with SubscribeToTask of
 * that task on the next interface, with `Last-Event-ID` of the last event handed out when the
 * events carried ids; events at or before it are dropped, so the caller sees every event once.
 * The HTTP clients first resume a dropped stream on the same interface themselves (`resumeStreams`,
 * http/stream-resume.ts); the failover comes after they gave up. Without event ids (gRPC, or an
 * agent whose task store does not number events, e.g. the task runtime's in-memory store) the
 * resubscription starts with the task's snapshot (a Task event), as SubscribeToTask does. When the
 * next interface refuses the resubscription because the task ended meanwhile (UnsupportedOperationError
 * from an agent that cannot replay a finished task), the task's final state (GetTask on that interface)
 * is the stream's last event.
 *
 * A call's `signal` covers all of its attempts; its `timeoutMs` (or the client's) applies to each
 * attempt. Interfaces are not probed ahead of calls: an interface is known to be down when a call
 * failed on it.
 */
import { create, type DescMessage, type MessageInitShape } from "@bufbuild/protobuf";
import { isA2AError } from "../errors/a2a-error.js";
import type { CallOptions } from "./call-options.js";
import { afterDrop } from "../http/stream-end.js";
import { receivedEventId } from "../http/stream-resume.js";
import type { OperationDescriptor } from "../protocol/operation.js";
import { parseEventId } from "../task/event-ids.js";
import type { SelectedInterface } from "./agent-client.js";
import {
  InterfaceHealth,
  type InterfaceBackoffOptions,
  type InterfaceHealthState,
} from "./interface-health.js";

/**
 * The operations of the A2A service that may be sent again after the request may have reached
 * the agent: reads, deletes, cancels and subscriptions, whose repetition changes nothing.
 * SendMessage, SendStreamingMessage and CreateTaskPushNotificationConfig are not among them.
 */
export const IDEMPOTENT_OPERATIONS: readonly string[] = Object.freeze([
  "GetTask",
  "ListTasks",
  "GetTaskPushNotificationConfig",
  "ListTaskPushNotificationConfigs",
  "DeleteTaskPushNotificationConfig",
  "GetExtendedAgentCard",
  "SubscribeToTask",
  "CancelTask",
]);

/**
 * What a failed call says about its interface:
 * - "not-sent": the request cannot have reached the agent (refused, DNS, TLS handshake, connect timeout);
 * - "unavailable": an HTTP 503 without an A2A error body (a gateway or an overloaded agent refusing it);
 * - "transport": the request may have reached the agent (reset, socket closed, HTTP 502/504 without an
 *   A2A error body, gRPC UNAVAILABLE or a cut HTTP/2 stream after sending);
 * - "answer": the agent answered (an A2A error, a malformed response, …): never failed over;
 * - "aborted": the caller's abort or timeout: never failed over.
 */
export type FailureKind = "not-sent" | "unavailable" | "transport" | "answer" | "aborted";

/** Error codes (Node, undici) in a cause chain that mean the request was not sent. */
const NOT_SENT_CODES: ReadonlySet<string> = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EAI_FAIL",
  "EAI_NONAME",
  "EAI_NODATA",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EHOSTDOWN",
  "ENETDOWN",
  "EADDRNOTAVAIL",
  "UND_ERR_CONNECT_TIMEOUT",
  "ERR_TLS_HANDSHAKE_TIMEOUT",
  "ERR_TLS_CERT_ALTNAME_INVALID",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "CERT_HAS_EXPIRED",
  "CERT_NOT_YET_VALID",
  "CERT_UNTRUSTED",
  "CERT_REVOKED",
]);

/** Code prefixes of TLS verification and handshake failures (before any request byte is sent). */
const NOT_SENT_PREFIXES: readonly string[] = ["UNABLE_TO_", "ERR_SSL_", "ERR_TLS_CERT"];

/** Error codes in a cause chain that mean the connection broke after the request may have been sent. */
const TRANSPORT_CODES: ReadonlySet<string> = new Set([
  "ECONNRESET",
  "EPIPE",
  "ECONNABORTED",
  "ETIMEDOUT",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
]);

/** The HTTP bindings: their errors without `cause` carry the response's real HTTP status. */
const HTTP_BINDINGS: readonly string[] = ["JSONRPC", "HTTP+JSON"];

/** gRPC statuses by number. */
const GRPC_CANCELLED = 1;
const GRPC_UNAVAILABLE = 14;

/** The `code` strings of `error`'s cause chain (`cause`, AggregateError's `errors`), at most `depth` deep. */
function errorCodes(error: unknown, depth = 8, out: string[] = []): string[] {
  if (depth <= 0 || typeof error !== "object" || error === null) return out;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string") out.push(code);
  const errors = (error as { errors?: unknown }).errors;
  if (Array.isArray(errors)) for (const e of errors.slice(0, 8)) errorCodes(e, depth - 1, out);
  errorCodes((error as { cause?: unknown }).cause, depth - 1, out);
  return out;
}

/**
 * What the failure `error` of a call on an interface of `binding` says (see {@link FailureKind}).
 * `signal` is the call's: when it aborted, the failure is the caller's ("aborted").
 */
export function classifyFailure(
  error: unknown,
  binding: string,
  signal?: AbortSignal,
): FailureKind {
  if (signal?.aborted === true) return "aborted";
  const name = error instanceof Error || error instanceof DOMException ? error.name : undefined;
  if (name === "TimeoutError" || name === "AbortError") return "aborted";
  const codes = errorCodes(error);
  if (codes.some((c) => NOT_SENT_CODES.has(c) || NOT_SENT_PREFIXES.some((p) => c.startsWith(p))))
    return "not-sent";
  const broken = codes.some((c) => TRANSPORT_CODES.has(c) || c.startsWith("ERR_HTTP2_"));
  if (!isA2AError(error)) return broken ? "transport" : "answer";
  // An A2A ErrorInfo (or a registered error class): the agent answered.
  if (error.reason !== "UNKNOWN" || error.spec.name !== "A2AError") return "answer";
  if (broken) return "transport";
  const http = HTTP_BINDINGS.includes(binding);
  const caused = (error as { cause?: unknown }).cause !== undefined;
  if (http && !caused) {
    // The response's status, without an A2A error body.
    if (error.httpStatus === 503) return "unavailable";
    if (error.httpStatus === 502 || error.httpStatus === 504) return "transport";
    return "answer";
  }
  // A fetch failure without a known code (HTTP), gRPC UNAVAILABLE, or an HTTP/2 stream cut that Connect reports as CANCELLED.
  if (error.grpcCode === GRPC_UNAVAILABLE) return "transport";
  if (error.grpcCode === GRPC_CANCELLED && !http) return "transport";
  return "answer";
}

/** Whether a failure of kind `kind` of operation `operation` (its proto name) may be retried on another interface. */
export function isRetryable(
  kind: FailureKind,
  operation: string,
  retryNonIdempotent = false,
): boolean {
  if (kind === "not-sent" || kind === "unavailable") return true;
  if (kind === "transport") return retryNonIdempotent || IDEMPOTENT_OPERATIONS.includes(operation);
  return false;
}

/** Why a failed call was not sent to another interface. */
export type NotRetriedReason =
  /** The request may have reached the agent and the operation is not idempotent (see `retryNonIdempotent`). */
  | "not-idempotent"
  /** Every interface was tried in this call. */
  | "no-other-interface"
  /** A stream broke, but no event told which task to resubscribe to. */
  | "no-task-id"
  /** A SendStreamingMessage stream broke right after an interrupted state (INPUT_REQUIRED, AUTH_REQUIRED): its turn had ended. */
  | "turn-ended"
  /** A stream broke, but the service has no SubscribeToTask to continue it with. */
  | "no-resubscribe";

/** What a failover client decided; given to `onEvent` as it happens. */
export type FailoverEvent =
  | {
      /** A call failed on `interface` for a transport reason; it backs off for `backoffMs` (undefined: it already was). */
      readonly type: "interface-failed";
      readonly interface: SelectedInterface<string>;
      /** The operation's proto name, e.g. "GetTask". */
      readonly operation: string;
      readonly error: unknown;
      readonly failure: Exclude<FailureKind, "answer" | "aborted">;
      readonly backoffMs: number | undefined;
    }
  | {
      /** The call is sent again, to `to`. */
      readonly type: "failover";
      readonly from: SelectedInterface<string>;
      readonly to: SelectedInterface<string>;
      readonly operation: string;
    }
  | {
      /** An interface that had failed answered again. */
      readonly type: "interface-recovered";
      readonly interface: SelectedInterface<string>;
      readonly operation: string;
    }
  | {
      /** A stream that broke after events is continued with SubscribeToTask of `taskId` on `to`. */
      readonly type: "resubscribe";
      readonly taskId: string;
      readonly from: SelectedInterface<string>;
      readonly to: SelectedInterface<string>;
      readonly operation: string;
      /** The `Last-Event-ID` sent: the last event handed out; undefined when the events carried no ids. */
      readonly lastEventId: string | undefined;
    }
  | {
      /** A transport failure that was not retried: the call fails with `error`. */
      readonly type: "not-retried";
      readonly reason: NotRetriedReason;
      readonly interface: SelectedInterface<string>;
      readonly operation: string;
      readonly error: unknown;
    };

/** The `failover` option of a connection (see `AgentConnectOptions.failover`). */
export interface FailoverOptions {
  /**
   * Also retry SendMessage, SendStreamingMessage, CreateTaskPushNotificationConfig (any operation
   * not in {@link IDEMPOTENT_OPERATIONS}) after a failure that may have reached the agent: the agent
   * may then process the request twice. Default false.
   */
  readonly retryNonIdempotent?: boolean | undefined;
  /** How long a failed interface is avoided: `initial` ms after the first failure, doubled up to `max` ms. Default 1 s → 30 s. */
  readonly backoffMs?: InterfaceBackoffOptions | undefined;
  /** Receives every decision (errors it throws are ignored). */
  readonly onEvent?: ((event: FailoverEvent) => void) | undefined;
}

/** One interface a failover client may use. */
export interface FailoverCandidate<Client> {
  /** The interface. */
  readonly interface: SelectedInterface<string>;
  /** Builds its client (called once, at its first use). */
  readonly connect: () => Client;
}

type UnaryCall = (request: unknown, options?: CallOptions) => Promise<unknown>;
type StreamCall = (request: unknown, options?: CallOptions) => AsyncIterable<unknown>;

/** The task an A2A stream event is about (`StreamResponse`: task, message, status or artifact update); undefined if none. */
function taskIdOf(event: unknown): string | undefined {
  const payload = (
    event as { payload?: { case?: unknown; value?: { id?: unknown; taskId?: unknown } } } | null
  )?.payload;
  const value = payload?.value;
  const id = payload?.case === "task" ? value?.id : value?.taskId;
  return typeof id === "string" && id !== "" ? id : undefined;
}

/** `request` with the tenant the caller set in `original`, if any (else the interface's client sets its own). */
function withTenant(
  request: { readonly id: string },
  original: unknown,
): { readonly id: string; readonly tenant?: string } {
  const tenant = (original as { tenant?: unknown } | null)?.tenant;
  return typeof tenant === "string" && tenant !== "" ? { ...request, tenant } : request;
}

/**
 * A client over several interfaces of one agent (see the module comment): {@link client} has the
 * methods of the service's client (one per operation of `operations`), each routed to the first
 * healthy interface and failed over as described.
 */
export class InterfaceFailover<Client> {
  /** The failover client. */
  readonly client: Client;
  /** The candidate interfaces, in preference order. */
  readonly interfaces: readonly SelectedInterface<string>[];
  readonly #candidates: readonly FailoverCandidate<Client>[];
  readonly #clients: (Client | undefined)[];
  readonly #health: InterfaceHealth;
  readonly #options: FailoverOptions;
  readonly #operations: Readonly<Record<string, OperationDescriptor>>;

  /** Failover over `candidates` (at least one) for the service of `operations`. */
  constructor(
    candidates: readonly FailoverCandidate<Client>[],
    operations: Readonly<Record<string, OperationDescriptor>>,
    options?: FailoverOptions,
  ) {
    if (candidates.length === 0) throw new Error("InterfaceFailover needs at least one interface");
    this.#candidates = candidates;
    this.#clients = candidates.map(() => undefined);
    this.interfaces = Object.freeze(candidates.map((c) => c.interface));
    this.#health = new InterfaceHealth(candidates.length, options?.backoffMs);
    this.#options = options ?? {};
    this.#operations = operations;
    const client: Record<string, UnaryCall | StreamCall> = {};
    for (const operation of Object.values(operations)) {
      client[operation.localName] =
        operation.kind === "unary"
          ? (request, options) => this.#unary(operation, request, options)
          : (request, options) => this.#stream(operation, request, options);
    }
    this.client = client as unknown as Client;
  }

  /**
   * The interface the next call goes to first: the first interface (in preference order) that is
   * not backing off after a failure; when all are, the one whose backoff ends first.
   */
  activeInterface(): SelectedInterface<string> {
    return this.interfaces[this.#health.order()[0]!]!;
  }

  /** The health of every interface now, by candidate position. */
  health(): InterfaceHealthState[] {
    return this.#health.snapshot();
  }

  #client(i: number): Client {
    let client = this.#clients[i];
    if (client === undefined) {
      client = this.#candidates[i]!.connect();
      this.#clients[i] = client;
    }
    return client;
  }

  #emit(event: FailoverEvent): void {
    try {
      this.#options.onEvent?.(event);
    } catch {
      // An observer's failure does not change the call.
    }
  }

  #succeeded(i: number, operation: string): void {
    if (this.#health.succeeded(i))
      this.#emit({ type: "interface-recovered", interface: this.interfaces[i]!, operation });
  }

  /** Records a failure of kind `kind` on interface `i`. */
  #failed(
    i: number,
    operation: string,
    error: unknown,
    failure: Exclude<FailureKind, "answer" | "aborted">,
  ): void {
    const backoffMs = this.#health.failed(i);
    this.#emit({
      type: "interface-failed",
      interface: this.interfaces[i]!,
      operation,
      error,
      failure,
      backoffMs,
    });
  }

  /**
   * After `error` on interface `i`: the kind of failure when it is a transport failure (recorded),
   * undefined when the error is to be thrown as is (an answer, recorded as a success, or an abort).
   */
  #judge(
    i: number,
    operation: string,
    error: unknown,
    signal: AbortSignal | undefined,
  ): Exclude<FailureKind, "answer" | "aborted"> | undefined {
    const kind = classifyFailure(error, this.interfaces[i]!.protocolBinding, signal);
    if (kind === "aborted") return undefined;
    if (kind === "answer") {
      this.#succeeded(i, operation);
      return undefined;
    }
    this.#failed(i, operation, error, kind);
    return kind;
  }

  /** The method of `operation` of interface `i`'s client (built at its first use). */
  #method<T>(i: number, operation: OperationDescriptor): T {
    const client = this.#client(i) as unknown as Readonly<Record<string, unknown>>;
    const method = client[operation.localName];
    if (typeof method !== "function")
      throw new TypeError(
        `the client of ${this.interfaces[i]!.protocolBinding} has no method ${operation.localName}`,
      );
    return method.bind(client) as T;
  }

  async #unary(
    operation: OperationDescriptor,
    request: unknown,
    options: CallOptions | undefined,
  ): Promise<unknown> {
    const order = this.#health.order();
    for (let k = 0; ; k++) {
      const i = order[k]!;
      try {
        const result = await this.#method<UnaryCall>(i, operation)(request, options);
        this.#succeeded(i, operation.name);
        return result;
      } catch (e) {
        const kind = this.#judge(i, operation.name, e, options?.signal);
        if (kind === undefined) throw e;
        const next = order[k + 1];
        if (!this.#mayRetry(i, next, kind, operation.name, e)) throw e;
        this.#emit({
          type: "failover",
          from: this.interfaces[i]!,
          to: this.interfaces[next!]!,
          operation: operation.name,
        });
      }
    }
  }

  /** Whether a call that failed on `i` with a `kind` failure goes on to `next`; emits `not-retried` when not. */
  #mayRetry(
    i: number,
    next: number | undefined,
    kind: FailureKind,
    operation: string,
    error: unknown,
  ): boolean {
    let reason: NotRetriedReason | undefined;
    if (!isRetryable(kind, operation, this.#options.retryNonIdempotent === true))
      reason = "not-idempotent";
    else if (next === undefined) reason = "no-other-interface";
    if (reason === undefined) return true;
    this.#emit({ type: "not-retried", reason, interface: this.interfaces[i]!, operation, error });
    return false;
  }

  /**
   * After a resubscription to task `taskId` on interface `i` was refused with `error`: when that is
   * UnsupportedOperationError (SubscribeToTask of a task in a terminal state) and GetTask on `i`
   * finds the task terminal, the stream event carrying it (a `task` payload of `operation`'s output);
   * else undefined.
   */
  async #finalTask(
    i: number,
    operation: OperationDescriptor,
    taskId: string,
    request: unknown,
    options: CallOptions | undefined,
    error: unknown,
  ): Promise<unknown> {
    const getTask = Object.values(this.#operations).find(
      (o) => o.name === "GetTask" && o.kind === "unary",
    );
    const output = operation.output as DescMessage;
    if (
      getTask === undefined ||
      !isA2AError(error) ||
      error.reason !== "UNSUPPORTED_OPERATION" ||
      !output.oneofs.some(
        (o) => o.localName === "payload" && o.fields.some((f) => f.localName === "task"),
      )
    )
      return undefined;
    try {
      const task = await this.#method<UnaryCall>(i, getTask)(
        withTenant({ id: taskId }, request),
        options,
      );
      const event: unknown = create(output, {
        payload: { case: "task", value: task },
      } as MessageInitShape<DescMessage>);
      return afterDrop(operation.name, output, event) === "end" ? event : undefined;
    } catch {
      return undefined;
    }
  }

  async *#stream(
    operation: OperationDescriptor,
    request: unknown,
    options: CallOptions | undefined,
  ): AsyncGenerator<unknown, void, undefined> {
    const signal = options?.signal;
    const subscribe = Object.values(this.#operations).find(
      (o) => o.name === "SubscribeToTask" && o.kind !== "unary",
    );
    /** Interfaces tried since the last event handed out. */
    const tried = new Set<number>();
    let order = this.#health.order();
    let i = order[0]!;
    /** The call on interface `i`: the original one, or a resubscription. */
    let call: {
      operation: OperationDescriptor;
      request: unknown;
      options: CallOptions | undefined;
    } = { operation, request, options };
    let delivered = false;
    let resubscribed = false;
    let taskId: string | undefined;
    let last: { id: string; seq: number; taskId: string } | undefined;
    let lastEvent: unknown;
    for (;;) {
      tried.add(i);
      let answered = false;
      try {
        for await (const event of this.#method<StreamCall>(i, call.operation)(
          call.request,
          call.options,
        )) {
          if (!answered) {
            answered = true;
            this.#succeeded(i, operation.name);
          }
          const id = receivedEventId(event);
          const parsed = id === undefined ? undefined : parseEventId(id);
          // A resubscription may repeat what the caller has (a server that ignores Last-Event-ID).
          if (
            resubscribed &&
            parsed !== undefined &&
            last !== undefined &&
            parsed.taskId === last.taskId &&
            parsed.seq <= last.seq
          )
            continue;
          if (parsed !== undefined && id !== undefined)
            last = { id, seq: parsed.seq, taskId: parsed.taskId };
          taskId = parsed?.taskId ?? taskIdOf(event) ?? taskId;
          delivered = true;
          lastEvent = event;
          tried.clear();
          tried.add(i);
          yield event;
          // SubscribeToTask stays open across turns; the SendStreamingMessage it continues ends at its turn's end.
          if (
            resubscribed &&
            afterDrop(operation.name, operation.output as DescMessage, event) !== "resume"
          )
            return;
        }
        return;
      } catch (e) {
        const kind = this.#judge(i, operation.name, e, signal);
        if (kind === undefined) {
          // The task ended while the stream was moved (a server that cannot replay a finished task's events refuses
          // to subscribe to it): its final state, as the stream's last event.
          const final =
            resubscribed && !delivered && taskId !== undefined
              ? await this.#finalTask(i, operation, taskId, request, options, e)
              : undefined;
          if (final === undefined) throw e;
          yield final;
          return;
        }
        order = this.#health.order().filter((n) => !tried.has(n));
        const next = order[0];
        if (!delivered) {
          if (!this.#mayRetry(i, next, kind, resubscribed ? "SubscribeToTask" : operation.name, e))
            throw e;
          this.#emit(
            resubscribed
              ? {
                  type: "resubscribe",
                  taskId: taskId!,
                  from: this.interfaces[i]!,
                  to: this.interfaces[next!]!,
                  operation: operation.name,
                  lastEventId: last?.id,
                }
              : {
                  type: "failover",
                  from: this.interfaces[i]!,
                  to: this.interfaces[next!]!,
                  operation: operation.name,
                },
          );
          i = next!;
          continue;
        }
        // Events were handed out: continue the task's stream elsewhere, if it has more to come.
        const verdict = afterDrop(operation.name, operation.output as DescMessage, lastEvent);
        if (verdict === "end") return;
        let reason: NotRetriedReason | undefined;
        if (verdict === "fail") reason = "turn-ended";
        else if (taskId === undefined) reason = "no-task-id";
        else if (subscribe === undefined) reason = "no-resubscribe";
        else if (next === undefined) reason = "no-other-interface";
        if (reason !== undefined) {
          this.#emit({
            type: "not-retried",
            reason,
            interface: this.interfaces[i]!,
            operation: operation.name,
            error: e,
          });
          throw e;
        }
        const lastEventId = last !== undefined && last.taskId === taskId ? last.id : undefined;
        this.#emit({
          type: "resubscribe",
          taskId: taskId!,
          from: this.interfaces[i]!,
          to: this.interfaces[next!]!,
          operation: operation.name,
          lastEventId,
        });
        call = {
          operation: subscribe!,
          request: withTenant({ id: taskId! }, request),
          options:
            lastEventId === undefined
              ? options
              : { ...options, headers: { ...options?.headers, "last-event-id": lastEventId } },
        };
        resubscribed = true;
        delivered = false;
        i = next!;
      }
    }
  }
}
