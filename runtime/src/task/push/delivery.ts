// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * What a push sender does with an event and with one delivery, over the parts it is wired from
 * (./push-sender.ts): the queue (./push-delivery-queue.ts), the attempt (./push-attempt.ts), the
 * retries (./push-retry.ts), the URL policy (./webhook-policy.ts) and the request builder.
 */
import type { A2ATracing, PushDeliveryOutcome } from "../../observe/tracing.js";
import type { PushDeliveryQueue } from "./delivery-queue.js";
import type { WebhookPost } from "./attempt.js";
import { deliverWithRetries, type RetryPolicy } from "./retry.js";
import type {
  PushAttemptResult,
  PushDeliveryFailure,
  PushEventNotice,
  PushPayload,
  PushSenderOptions,
} from "./types.js";
import type { PushConfigShape, StreamResponseShape } from "../shapes.js";
import type { TaskScope, TaskStore } from "../store.js";
import { checkWebhookUrl, WebhookUrlError } from "./webhook-policy.js";

/** Builds the requests of deliveries. */
export interface WebhookRequests {
  /** The payload of another protocol version `config` was registered in; undefined for the 1.0 body. */
  payloadOf(config: PushConfigShape): PushPayload | undefined;
  /** The body of `event` in `payload`'s form (1.0 ProtoJSON when undefined). Throws when it cannot be written. */
  bodyOf(event: StreamResponseShape, payload: PushPayload | undefined): string;
  /** The request headers of a delivery to `config`, or the error that refuses it. */
  headersOf(
    config: PushConfigShape,
    eventId: string | undefined,
  ): Record<string, string> | WebhookUrlError;
}

/** The parts a sender is wired from. */
export interface PushSenderParts {
  /** The sender's options (store, URL policy, `onDelivered`). */
  readonly options: PushSenderOptions;
  /** `options.tracing`, as it was when the sender was created. */
  readonly tracing: A2ATracing | undefined;
  readonly queue: PushDeliveryQueue;
  readonly post: WebhookPost;
  readonly retry: RetryPolicy;
  readonly requests: WebhookRequests;
  /** Hands a failure to `onDeliveryError`; returns the outcome a traced delivery reports. */
  readonly report: (failure: PushDeliveryFailure) => PushDeliveryOutcome;
}

/**
 * The deliveries of one event (run in the task's lane of the queue, which keeps the lanes of its
 * webhooks in event order): lists the task's push configs and queues one delivery per config, in
 * the lane of (task, url), unless past the queue's bounds (`overflow`).
 */
export async function fanOut(
  parts: PushSenderParts,
  notice: PushEventNotice,
  origin: unknown,
): Promise<void> {
  const { queue, requests, report } = parts;
  let configs: PushConfigShape[];
  try {
    configs = await listAllConfigs(parts.options.store, notice.scope, notice.taskId);
  } catch (error) {
    report({
      reason: "store",
      scope: notice.scope,
      taskId: notice.taskId,
      configId: "",
      url: "",
      attempts: 0,
      error,
      event: notice.event,
    });
    return;
  }
  // Most tasks have no push config: the event is only serialized (and copied) for those that do.
  if (configs.length === 0) return;
  // One body per protocol version the configs were registered in (almost always one).
  const bodies = new Map<PushPayload | undefined, string>();
  for (const config of configs) {
    const unsent = {
      scope: notice.scope,
      taskId: notice.taskId,
      configId: config.id,
      url: config.url,
      attempts: 0,
      event: notice.event,
    };
    const payload = requests.payloadOf(config);
    let body = bodies.get(payload);
    if (body === undefined) {
      try {
        body = requests.bodyOf(notice.event, payload);
      } catch (error) {
        report({ reason: "store", ...unsent, error });
        continue;
      }
      bodies.set(payload, body);
    }
    const sent = body;
    const key = JSON.stringify([
      notice.scope.tenant,
      notice.scope.owner,
      notice.taskId,
      config.url,
    ]);
    if (!queue.offer(key, sent.length, () => deliver(parts, notice, config, sent, origin)))
      report({ reason: "overflow", ...unsent });
  }
}

/** One delivery of an event to a config's webhook (its attempts), in a span when traced. */
export function deliver(
  parts: PushSenderParts,
  notice: PushEventNotice,
  config: PushConfigShape,
  body: string,
  origin: unknown,
): Promise<PushDeliveryOutcome> {
  const tracing = parts.tracing;
  if (tracing === undefined) return deliverUntraced(parts, notice, config, body, undefined);
  return tracing.push(
    { taskId: notice.taskId, contextId: notice.contextId, url: config.url, origin },
    (traceHeaders) => deliverUntraced(parts, notice, config, body, traceHeaders),
  );
}

async function deliverUntraced(
  parts: PushSenderParts,
  notice: PushEventNotice,
  config: PushConfigShape,
  body: string,
  traceHeaders: Readonly<Record<string, string>> | undefined,
): Promise<PushDeliveryOutcome> {
  const { queue, report } = parts;
  const base = {
    scope: notice.scope,
    taskId: notice.taskId,
    configId: config.id,
    url: config.url,
    event: notice.event,
  };
  if (queue.signal.aborted) return report({ ...base, reason: "closed", attempts: 0 });
  const checked = await checkedHeaders(parts, config, undefined);
  if (!checked.ok) return report({ ...base, reason: "refused", attempts: 0, error: checked.error });
  const headers =
    traceHeaders === undefined ? checked.headers : { ...checked.headers, ...traceHeaders };
  const result = await deliverWithRetries(
    () => parts.post(config.url, headers, body),
    parts.retry,
    queue.signal,
  );
  if (result.kind === "failed") return report({ ...base, ...result.failure });
  parts.options.onDelivered?.({
    taskId: notice.taskId,
    configId: config.id,
    url: config.url,
    status: result.status,
    attempts: result.attempts,
  });
  return { delivered: true, status: result.status, attempts: result.attempts };
}

/** `PushNotificationSender.attemptOnce`: one attempt, no retry, queue or report. Never rejects. */
export async function attemptOnce(
  parts: PushSenderParts,
  config: PushConfigShape,
  event: StreamResponseShape,
  eventId?: string,
): Promise<PushAttemptResult> {
  const { queue, requests } = parts;
  if (queue.closed || queue.signal.aborted) return { kind: "fail", reason: "closed" };
  const checked = await checkedHeaders(parts, config, eventId);
  if (!checked.ok) return { kind: "fail", reason: "refused", error: checked.error };
  let body: string;
  try {
    body = requests.bodyOf(event, requests.payloadOf(config));
  } catch (error) {
    return { kind: "fail", reason: "refused", error };
  }
  const outcome = await queue.track(() => parts.post(config.url, checked.headers, body));
  if (outcome.kind === "closed") return { kind: "fail", reason: "closed" };
  if (outcome.kind === "fail")
    return { kind: "fail", reason: "http-status", status: outcome.status };
  return outcome;
}

/** The URL checked against the policy, then the headers of a delivery to `config`; or the refusal. */
async function checkedHeaders(
  parts: PushSenderParts,
  config: PushConfigShape,
  eventId: string | undefined,
): Promise<
  | { readonly ok: true; readonly headers: Record<string, string> }
  | { readonly ok: false; readonly error: unknown }
> {
  try {
    await checkWebhookUrl(config.url, parts.options);
  } catch (error) {
    return { ok: false, error };
  }
  const headers = parts.requests.headersOf(config, eventId);
  return headers instanceof WebhookUrlError ? { ok: false, error: headers } : { ok: true, headers };
}

/** All push configs of the task, over every page. */
async function listAllConfigs(
  store: TaskStore,
  scope: TaskScope,
  taskId: string,
): Promise<PushConfigShape[]> {
  const out: PushConfigShape[] = [];
  let pageToken = "";
  for (let pages = 0; pages < 10_000; pages++) {
    const page = await store.listPushConfigs(scope, taskId, { pageSize: 0, pageToken });
    out.push(...page.configs);
    if (page.nextPageToken === "" || page.nextPageToken === pageToken) break;
    pageToken = page.nextPageToken;
  }
  return out;
}
