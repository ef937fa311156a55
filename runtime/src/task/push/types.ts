// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The public types of the push notification sender (./push-sender.ts): what it reads of a task
 * event, its options, what it reports, and the sender itself.
 */
import type { JsonValue, JsonWriteOptions } from "@bufbuild/protobuf";
import type { GenMessage } from "@bufbuild/protobuf/codegenv2";
import type { JsonTextWriterTable } from "../../protojson/json-write.js";
import type { Logger } from "../../observe/logger.js";
import type { A2ATracing } from "../../observe/tracing.js";
import type { PushConfigShape, StreamResponseShape } from "../shapes.js";
import type { TaskScope, TaskStore } from "../store.js";
import type { WEBHOOK_URL_CHECK } from "./webhook-check.js";
import type { WebhookUrlPolicy } from "./webhook-policy.js";

/** What the sender reads of a task event (a `TaskEventNotice` of the task runtime fits). */
export interface PushEventNotice {
  /** Scope of the task, to look its push configs up. */
  readonly scope: TaskScope;
  /** The task. */
  readonly taskId: string;
  /** Its context. */
  readonly contextId: string;
  /** The task state after the event. */
  readonly state: number;
  /** The event, sent as the body. */
  readonly event: StreamResponseShape;
}

/** Why a delivery ended unsuccessfully. */
export type PushFailureReason =
  /** The webhook URL was refused by the policy (not retried). */
  | "refused"
  /** The receiver answered a non-2xx status (after retries when retryable). */
  | "http-status"
  /** fetch failed (after retries). */
  | "network"
  /** Every attempt timed out. */
  | "timeout"
  /** The push configs of the task could not be listed. */
  | "store"
  /** The sender was closed before the delivery could finish. */
  | "closed"
  /** `maxQueuedPerWebhook` events of the task were already waiting for this webhook, or `maxQueuedBytes` of bodies for all: this one was dropped (not attempted). */
  | "overflow";

/** Reported by `onDeliveryError` once a delivery has failed for good. */
export interface PushDeliveryFailure {
  /** Why. */
  readonly reason: PushFailureReason;
  /** Scope of the task. */
  readonly scope: TaskScope;
  /** The task. */
  readonly taskId: string;
  /** The config ("" for `store` failures). */
  readonly configId: string;
  /** The webhook URL ("" for `store` failures). */
  readonly url: string;
  /** HTTP attempts made (0 when refused, closed before trying, or `store`). */
  readonly attempts: number;
  /** The last HTTP status, when the receiver answered. */
  readonly status?: number;
  /** The last error (refusal, network error, store error). */
  readonly error?: unknown;
  /** The event that was not delivered. */
  readonly event: StreamResponseShape;
}

/** Reported by `onDelivered` after a 2xx. */
export interface PushDeliverySuccess {
  /** The task. */
  readonly taskId: string;
  /** The config. */
  readonly configId: string;
  /** The webhook URL. */
  readonly url: string;
  /** The 2xx status. */
  readonly status: number;
  /** Attempts it took (1 = first try). */
  readonly attempts: number;
}

/** Options of {@link createPushNotificationSender}. */
export interface PushSenderOptions extends WebhookUrlPolicy {
  /** The task store the handler uses (push configs are read from it at each event). */
  readonly store: TaskStore;
  /** `{ StreamResponse: StreamResponseSchema }` (the generated schema; the binder's schemas object fits). */
  readonly schemas: { readonly StreamResponse: GenMessage<StreamResponseShape> };
  /** ProtoJSON options of the body (e.g. a registry). */
  readonly jsonOptions?: Partial<JsonWriteOptions> | undefined;
  /**
   * The generated ProtoJSON writers (`<Service>ResponseJsonWriters` of `<file>_a2a_json.ts`): an A2A 1.0
   * body is then written by the generated writer of StreamResponse, without reflection, as the servers
   * write their answers (REQUIRED fields present even at their zero value). Used when `jsonOptions` holds
   * no option but `registry`; reflection otherwise, and for a payload of another version.
   */
  readonly writers?: JsonTextWriterTable | undefined;
  /** The fetch to use. Default `globalThis.fetch`. Called with `redirect: "manual"`. */
  readonly fetch?: typeof globalThis.fetch | undefined;
  /** Timeout of one attempt, until the response headers arrive, in ms. Default 10 000. */
  readonly timeoutMs?: number | undefined;
  /** Retries after the first attempt. Default 3 (so at most 4 attempts). */
  readonly maxRetries?: number | undefined;
  /** Backoff before retry n (1-based) is about `baseDelayMs · 2^(n-1)`, jittered, at most `maxDelayMs`. Default 500. */
  readonly baseDelayMs?: number | undefined;
  /** Default 30 000. */
  readonly maxDelayMs?: number | undefined;
  /** Cap of a `Retry-After` delay, in ms. Default 60 000. */
  readonly maxRetryAfterMs?: number | undefined;
  /** Deliveries (HTTP attempts) in flight at once, over all tasks. Default 16. */
  readonly concurrency?: number | undefined;
  /**
   * Deliveries in flight at once to one receiving host (`host:port` of the URL), over all tasks: a
   * receiver that hangs holds at most this many of the `concurrency` slots. Default: half of
   * `concurrency` (rounded up; at least 2, at most `concurrency`): 8 of the default 16.
   */
  readonly concurrencyPerHost?: number | undefined;
  /**
   * Events of one task that may wait (queued or in delivery) for one webhook URL; a further event is
   * reported as `overflow` without being attempted. Default 100.
   */
  readonly maxQueuedPerWebhook?: number | undefined;
  /**
   * Bytes of notification bodies (the events' JSON) that may wait, queued or in delivery, over all
   * tasks and webhooks: a delivery that would pass it is reported as `overflow` without being
   * attempted. The count per webhook alone let large events (up to the task runtime's
   * `maxTaskBytes` each) to many slow webhooks hold any amount of memory. Default 64 MiB.
   */
  readonly maxQueuedBytes?: number | undefined;
  /** How long `close()` waits for in-flight and queued deliveries before aborting them, in ms. Default 10 000. */
  readonly closeTimeoutMs?: number | undefined;
  /** Also sends the config's `token` in this header (the spec defines no header for it). Default: not sent. */
  readonly tokenHeader?: string | undefined;
  /**
   * Webhook bodies for push configs registered in another protocol version (the task runtime marks them:
   * config-version.ts), by version: A2A 0.3's is `V03_PUSH_PAYLOAD` of `@protoc-gen-a2a/runtime/v0_3`.
   * Configs of the service's own version, or of a version without an entry, get the 1.0 body.
   */
  readonly payloads?: Readonly<Record<string, PushPayload>> | undefined;
  /** Called once a delivery has failed for good. Default: a warning to `logger`. Must not throw. */
  readonly onDeliveryError?: ((failure: PushDeliveryFailure) => void) | undefined;
  /** Where the default `onDeliveryError` reports. Default: `console`. */
  readonly logger?: Logger | undefined;
  /**
   * Traces every delivery (a CLIENT span per delivery, its attempts included, `traceparent` sent to the
   * webhook, linked to the span of the call that produced the event): `openTelemetryTracing()` of
   * `@protoc-gen-a2a/runtime/otel`. None by default.
   */
  readonly tracing?: A2ATracing | undefined;
  /** Called after each successful delivery. */
  readonly onDelivered?: ((success: PushDeliverySuccess) => void) | undefined;
  /** Waits `ms` between attempts (backoff, Retry-After); should resolve early when `signal` aborts (on close). Default: setTimeout. */
  readonly sleep?: ((ms: number, signal: AbortSignal) => Promise<void>) | undefined;
  /** Random number in [0, 1) for jitter. Default Math.random. */
  readonly random?: (() => number) | undefined;
  /** Epoch ms, to read a `Retry-After` date. Default Date.now. */
  readonly now?: (() => number) | undefined;
}

/** A webhook body of another protocol version: see {@link PushSenderOptions.payloads}. */
export interface PushPayload {
  /** The event (1.0 ProtoJSON `StreamResponse`) → the body's JSON. */
  encode(event: JsonValue): JsonValue;
  /** Its Content-Type. */
  readonly contentType: string;
  /** The header the config's token goes in (A2A 0.3: X-A2A-Notification-Token); default `tokenHeader`. */
  readonly tokenHeader?: string | undefined;
  /** The A2A-Version header to send; none when undefined (0.3 had no such header). */
  readonly version?: string | undefined;
}

/** The sender: pass `onTaskEvent` to the task handler; `close()` on shutdown. */
export interface PushNotificationSender {
  /**
   * The `TaskHandlerOptions.onTaskEvent` hook. Never throws; returns at once. It carries
   * {@link checkUrl} (under `WEBHOOK_URL_CHECK`), which the task handler applies to every
   * push config it is asked to create unless its `checkPushUrl` option says otherwise.
   */
  readonly onTaskEvent: ((notice: PushEventNotice) => void) & {
    readonly [WEBHOOK_URL_CHECK]: (url: string) => Promise<void>;
  };
  /**
   * Checks a webhook URL against this sender's policy, as a push config is created: rejects with
   * {@link WebhookUrlError} for a URL it would never deliver to (not absolute, a scheme other than
   * http(s), credentials, a blocked host or address, a host resolving to a blocked address). A host
   * that does not resolve now is accepted: delivery checks again (DNS can be down for a while).
   */
  checkUrl(url: string): Promise<void>;
  /**
   * Stops accepting events and waits (at most `closeTimeoutMs`) for queued and in-flight
   * deliveries; then aborts what is left (reported as `closed`). Resolves true when everything
   * finished in time.
   */
  close(): Promise<boolean>;
  /** Deliveries queued or in flight (and event look-ups pending). */
  readonly pending: number;
  /**
   * One delivery attempt of `event` to `config`'s webhook, with this sender's policy, headers,
   * timeout and caps, and no retry, queue or report: for a durable outbox that schedules retries
   * itself (the PostgreSQL store's). `eventId` goes in the `A2A-Event-Id` header, so that a receiver
   * can recognize an event delivered again after a crash. Never rejects.
   */
  attemptOnce(
    config: PushConfigShape,
    event: StreamResponseShape,
    eventId?: string,
  ): Promise<PushAttemptResult>;
}

/** The outcome of {@link PushNotificationSender.attemptOnce}. */
export type PushAttemptResult =
  /** The receiver answered 2xx. */
  | { readonly kind: "delivered"; readonly status: number }
  /** Worth trying again later (network error, timeout, 408, 429, 5xx; `Retry-After` when given). */
  | {
      readonly kind: "retry";
      readonly reason: "http-status" | "network" | "timeout";
      readonly status?: number;
      readonly error?: unknown;
      readonly retryAfterMs?: number;
    }
  /** Never worth trying again (refused URL, another status); `closed`: the sender is closed. */
  | {
      readonly kind: "fail";
      readonly reason: "refused" | "http-status" | "closed";
      readonly status?: number;
      readonly error?: unknown;
    };
