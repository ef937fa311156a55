// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * One HTTP attempt of a push delivery: `POST` under the concurrency caps (./delivery-slots.ts), with
 * a timeout until the response headers arrive, redirects never followed, the response body
 * discarded, and the status sorted into delivered (2xx), worth retrying (network error, timeout,
 * 408, 429, 5xx, with `Retry-After` read) and failed (any other status, 3xx included).
 */
import { DeliverySlots } from "./delivery-slots.js";
import type { PushAttemptResult } from "./types.js";

/** The outcome of one attempt: delivered and retry as {@link PushAttemptResult} has them. */
export type AttemptOutcome =
  | Extract<PushAttemptResult, { readonly kind: "delivered" | "retry" }>
  /** The sender was closed while the attempt waited for a slot: no request was made. */
  | { readonly kind: "closed" }
  | { readonly kind: "fail"; readonly status: number };

/** POSTs `body` to `url` with `headers`, once. Never rejects. */
export type WebhookPost = (
  url: string,
  headers: Record<string, string>,
  body: string,
) => Promise<AttemptOutcome>;

/** What {@link createWebhookPost} needs. */
export interface WebhookPostOptions {
  /** The fetch to use (called with `redirect: "manual"`). */
  readonly fetch: typeof globalThis.fetch;
  /** Timeout of one attempt, until the response headers arrive, in ms. */
  readonly timeoutMs: number;
  /** Attempts in flight at once, over all hosts. */
  readonly concurrency: number;
  /** Attempts in flight at once to one host (`host:port`). */
  readonly concurrencyPerHost: number;
  /** Epoch ms, to read a `Retry-After` date. */
  readonly now: () => number;
  /** Aborts the attempts in flight, and answers `closed` to those still waiting for a slot. */
  readonly signal: AbortSignal;
}

/** The attempt function of a sender, with its own slots. */
export function createWebhookPost(options: WebhookPostOptions): WebhookPost {
  const { fetch: fetchFn, timeoutMs, now, signal: lifetime } = options;
  const slots = new DeliverySlots(options.concurrency, options.concurrencyPerHost);
  return async (url, headers, body) => {
    const release = await slots.acquire(url);
    // Closed while this attempt waited for a slot: no request (an abort listener added now would never fire).
    if (lifetime.aborted) {
      release();
      return { kind: "closed" };
    }
    const controller = new AbortController();
    const onClose = (): void => controller.abort();
    lifetime.addEventListener("abort", onClose);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    try {
      const response = await fetchFn(url, {
        method: "POST",
        headers,
        body,
        redirect: "manual",
        signal: controller.signal,
      });
      clearTimeout(timer);
      // The body is not needed: release the connection.
      response.body?.cancel().catch(() => {});
      const status = response.status;
      if (status >= 200 && status < 300) return { kind: "delivered", status };
      if (status === 408 || status === 429 || status >= 500) {
        const retryAfterMs = parseRetryAfter(response.headers.get("retry-after"), now());
        return {
          kind: "retry",
          reason: "http-status",
          status,
          ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
        };
      }
      return { kind: "fail", status };
    } catch (error) {
      return { kind: "retry", reason: timedOut ? "timeout" : "network", error };
    } finally {
      clearTimeout(timer);
      lifetime.removeEventListener("abort", onClose);
      release();
    }
  };
}

/** A `Retry-After` value (delta-seconds or HTTP-date) in ms from now, or undefined. */
export function parseRetryAfter(value: string | null, nowMs: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}
