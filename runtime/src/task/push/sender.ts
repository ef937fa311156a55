// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Push notification delivery (spec §3.5, §4.3.3, §13.2): plug
 * `createPushNotificationSender(…).onTaskEvent` into `TaskHandlerOptions.onTaskEvent` and
 * every stored task event is POSTed, as one ProtoJSON `StreamResponse`, to each webhook
 * registered for the task.
 *
 * ```ts
 * const store = new InMemoryTaskStore();
 * const push = createPushNotificationSender({ store, schemas: { StreamResponse: StreamResponseSchema } });
 * const handler = createA2AServiceTaskHandler({ executor, store, capabilities: { pushNotifications: true }, onTaskEvent: push.onTaskEvent });
 * // on shutdown:
 * await push.close();
 * ```
 *
 * Delivery: `POST {url}` with `Content-Type: application/a2a+json`, `A2A-Version: 1.0` and
 * `Authorization: {scheme} {credentials}` when the config has `authentication`. Events of one
 * task reach one URL in order (one serial queue per (task, url)); different tasks and URLs
 * are delivered concurrently, under a global cap and a cap per receiving host (so that one slow
 * or hanging receiver cannot take every slot from the others). Each attempt has a timeout; network errors,
 * timeouts, 408, 429 and 5xx are retried a bounded number of times with exponential backoff
 * and jitter (`Retry-After` seconds or date honoured, capped); other statuses (including 3xx:
 * redirects are never followed) fail at once; 2xx is delivered. Failures after the last
 * attempt go to `onDeliveryError`.
 *
 * SSRF guard (§13.2), on by default: only `http:`/`https:` URLs without `user:pass@`; the host
 * (`localhost`, an IP literal, or every address it resolves to) must not be loopback, private,
 * link-local (incl. cloud metadata 169.254.169.254), unspecified, CGNAT, multicast, reserved,
 * or an IPv4-mapped / NAT64 / 6to4 form of those; an IPv6 address must be global unicast
 * (2000::/3, outside its special ranges): {@link isBlockedAddress}. `allowHosts` and
 * `allowPrivateNetworks` relax it for tests and local setups.
 *
 * Portability: host names are resolved with `node:dns`, imported lazily (`import("node:dns")`
 * inside the default resolver), so this module loads on any runtime with `fetch`; elsewhere
 * than Node (or Deno/Bun with node: support) pass `resolveHost`, or `allowPrivateNetworks: true`.
 *
 * Residual risk — DNS rebinding: the address check and `fetch` resolve the host separately, so a
 * hostile DNS server can answer a public address to the check and a private one to `fetch`. To
 * close it, pass a `fetch` whose connector pins or re-checks the address (e.g. undici's
 * `Agent({ connect: { lookup } })` with a lookup that refuses {@link isBlockedAddress} addresses),
 * or route webhooks through an egress proxy.
 *
 * Bounded: the events queued per (task, url) while a webhook is slow (each waits for the previous
 * one, up to its retries): past `maxQueuedPerWebhook` further events of that queue are not queued
 * but reported at once as `overflow`, so a task with a hanging webhook holds bounded memory.
 *
 * Parts: this file wires the sender from its options and builds the requests (headers, body); the
 * URL policy is ./webhook-policy.ts, the lanes, bounds and close ./push-delivery-queue.ts, one HTTP
 * attempt under the caps ./push-attempt.ts (./delivery-slots.ts), the retries ./push-retry.ts, and
 * what happens to an event and a delivery ./push-delivery.ts. The public types are in ./push-types.ts.
 */
import { toJson } from "@bufbuild/protobuf";
import { CONSOLE_LOGGER } from "../../observe/logger.js";
import type { PushDeliveryOutcome } from "../../observe/tracing.js";
import { pushConfigVersionOf } from "./config-version.js";
import { createWebhookPost } from "./attempt.js";
import { attemptOnce, fanOut, type PushSenderParts, type WebhookRequests } from "./delivery.js";
import { abortableSleep, PushDeliveryQueue } from "./delivery-queue.js";
import type { RetryPolicy } from "./retry.js";
import type {
  PushDeliveryFailure,
  PushEventNotice,
  PushNotificationSender,
  PushPayload,
  PushSenderOptions,
} from "./types.js";
import type { PushConfigShape } from "../shapes.js";
import { WEBHOOK_URL_CHECK } from "./webhook-check.js";
import { checkWebhookUrl, WebhookUrlError } from "./webhook-policy.js";

export type {
  PushAttemptResult,
  PushDeliveryFailure,
  PushDeliverySuccess,
  PushEventNotice,
  PushFailureReason,
  PushNotificationSender,
  PushPayload,
  PushSenderOptions,
} from "./types.js";
export {
  checkWebhookUrl,
  isBlockedAddress,
  WebhookUrlError,
  type HostResolver,
  type ResolvedAddress,
  type WebhookUrlPolicy,
} from "./webhook-policy.js";

const A2A_JSON = "application/a2a+json";
const PROTOCOL_VERSION = "1.0";

/**
 * Creates a push notification sender over `options.store`. See the module comment for the
 * delivery rules and the SSRF guard.
 */
export function createPushNotificationSender(options: PushSenderOptions): PushNotificationSender {
  const fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const queue = new PushDeliveryQueue(queueOptionsOf(options));
  const post = createWebhookPost({
    fetch,
    timeoutMs: options.timeoutMs ?? 10_000,
    ...concurrencyOf(options),
    now: options.now ?? Date.now,
    signal: queue.signal,
  });
  const tracing = options.tracing;
  const parts: PushSenderParts = {
    options,
    tracing,
    queue,
    post,
    retry: retryPolicyOf(options),
    requests: webhookRequestsOf(options),
    report: reporterOf(options),
  };
  const checkUrl = (url: string): Promise<void> => checkUrlAtCreation(url, options);
  const deliverEvent = (notice: PushEventNotice): void => {
    if (queue.closed) return;
    // The span of the call that produced the event (active now), for the deliveries' link.
    const origin = tracing?.origin();
    // One lane per task for the config look-up keeps the per-(task, url) lanes in event order.
    queue.run(JSON.stringify([notice.scope.tenant, notice.scope.owner, notice.taskId]), () =>
      fanOut(parts, notice, origin),
    );
  };
  return {
    onTaskEvent: Object.assign(deliverEvent, { [WEBHOOK_URL_CHECK]: checkUrl }),
    checkUrl,
    close: () => queue.close(),
    attemptOnce: (config, event, eventId) => attemptOnce(parts, config, event, eventId),
    get pending() {
      return queue.pending;
    },
  };
}

/** `PushNotificationSender.checkUrl`: the policy, except that a host that does not resolve now is accepted. */
async function checkUrlAtCreation(url: string, options: PushSenderOptions): Promise<void> {
  try {
    await checkWebhookUrl(url, options);
  } catch (e) {
    if (!(e instanceof WebhookUrlError && e.code === "unresolvable")) throw e;
  }
}

/** The queue's bounds (`maxQueuedBytes` checked: a RangeError below 1). */
function queueOptionsOf(
  options: PushSenderOptions,
): ConstructorParameters<typeof PushDeliveryQueue>[0] {
  const maxQueuedBytes = options.maxQueuedBytes ?? 64 * 1024 * 1024;
  if (!(maxQueuedBytes >= 1))
    throw new RangeError(`maxQueuedBytes must be at least 1, got ${maxQueuedBytes}`);
  return {
    maxQueuedPerWebhook: Math.max(1, Math.floor(options.maxQueuedPerWebhook ?? 100)),
    maxQueuedBytes,
    closeTimeoutMs: options.closeTimeoutMs ?? 10_000,
  };
}

/** The global cap and the cap per host (default: half of the global one, rounded up; at least 2, at most the global one). */
function concurrencyOf(options: PushSenderOptions): {
  readonly concurrency: number;
  readonly concurrencyPerHost: number;
} {
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 16));
  const concurrencyPerHost = Math.max(
    1,
    Math.floor(
      options.concurrencyPerHost ?? Math.max(Math.min(concurrency, 2), Math.ceil(concurrency / 2)),
    ),
  );
  return { concurrency, concurrencyPerHost };
}

function retryPolicyOf(options: PushSenderOptions): RetryPolicy {
  return {
    maxRetries: Math.max(0, Math.floor(options.maxRetries ?? 3)),
    baseDelayMs: options.baseDelayMs ?? 500,
    maxDelayMs: options.maxDelayMs ?? 30_000,
    maxRetryAfterMs: options.maxRetryAfterMs ?? 60_000,
    sleep: options.sleep ?? abortableSleep,
    random: options.random ?? Math.random,
  };
}

/** Hands a failure to `onDeliveryError` (default: a warning to `logger`), which must not break delivery by throwing. */
function reporterOf(
  options: PushSenderOptions,
): (failure: PushDeliveryFailure) => PushDeliveryOutcome {
  const logger = options.logger ?? CONSOLE_LOGGER;
  const onDeliveryError =
    options.onDeliveryError ??
    ((f: PushDeliveryFailure) =>
      logger.warn?.(
        `push notification for task ${f.taskId} to ${redact(f.url)} failed (${f.reason}${f.status === undefined ? "" : ` ${f.status}`}, ${f.attempts} attempt(s))`,
        f.error ?? "",
      ));
  return (failure) => {
    try {
      onDeliveryError(failure);
    } catch {
      // A broken reporter must not break delivery.
    }
    return {
      delivered: false,
      reason: failure.reason,
      status: failure.status,
      attempts: failure.attempts,
    };
  };
}

/** The bodies and headers of webhook requests, as the options say (payloads of other versions, writers, token header). */
function webhookRequestsOf(options: PushSenderOptions): WebhookRequests {
  const payloadOf = (config: PushConfigShape): PushPayload | undefined => {
    if (options.payloads === undefined) return undefined;
    const version = pushConfigVersionOf(config);
    return version === undefined ? undefined : options.payloads[version];
  };
  const jsonOptions = options.jsonOptions;
  const writeEvent = Object.keys(jsonOptions ?? {}).every((k) => k === "registry")
    ? options.writers?.[options.schemas.StreamResponse.typeName]
    : undefined;
  return {
    payloadOf,
    bodyOf(event, payload) {
      if (payload === undefined && writeEvent !== undefined) {
        try {
          return writeEvent(event, jsonOptions?.registry);
        } catch {
          // A bail, or an error reflection reports in its own words: it decides below.
        }
      }
      const json = toJson(options.schemas.StreamResponse, event, jsonOptions);
      return JSON.stringify(payload === undefined ? json : payload.encode(json));
    },
    headersOf(config, eventId) {
      const payload = payloadOf(config);
      const headers: Record<string, string> =
        payload === undefined
          ? {
              "Content-Type": A2A_JSON,
              Accept: "application/json",
              "A2A-Version": PROTOCOL_VERSION,
            }
          : {
              "Content-Type": payload.contentType,
              Accept: "application/json",
              ...(payload.version === undefined ? {} : { "A2A-Version": payload.version }),
            };
      const auth = (
        config as PushConfigShape & { authentication?: { scheme: string; credentials: string } }
      ).authentication;
      if (auth !== undefined && (auth.scheme !== "" || auth.credentials !== "")) {
        headers["Authorization"] =
          auth.scheme === "" ? auth.credentials : `${auth.scheme} ${auth.credentials}`;
      }
      const token = (config as PushConfigShape & { token?: string }).token;
      const tokenHeader = payload?.tokenHeader ?? options.tokenHeader;
      if (tokenHeader !== undefined && token !== undefined && token !== "")
        headers[tokenHeader] = token;
      if (eventId !== undefined) headers["A2A-Event-Id"] = eventId;
      if (Object.values(headers).some((v) => /[\r\n\0]/.test(v)))
        return new WebhookUrlError(
          "Push config authentication contains control characters",
          "invalid-url",
        );
      return headers;
    },
  };
}

/** The URL without query, fragment or credentials, for logs. */
function redact(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return "<invalid url>";
  }
}
