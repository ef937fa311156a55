// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The attempts of one push delivery: network errors, timeouts, 408, 429 and 5xx are retried a
 * bounded number of times, with exponential backoff and jitter (`Retry-After` honoured, capped);
 * other statuses fail at once; a 2xx ends it. Stops early when the sender closes.
 */
import type { AttemptOutcome } from "./attempt.js";

/** When and how often a delivery is attempted again. */
export interface RetryPolicy {
  /** Retries after the first attempt (an integer ≥ 0). */
  readonly maxRetries: number;
  /** Backoff before retry n (1-based) is about `baseDelayMs · 2^(n-1)`, jittered, at most `maxDelayMs`. */
  readonly baseDelayMs: number;
  /** Cap of the backoff, in ms. */
  readonly maxDelayMs: number;
  /** Cap of a `Retry-After` delay, in ms. */
  readonly maxRetryAfterMs: number;
  /** Waits `ms`; should resolve early when `signal` aborts. */
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Random number in [0, 1) for jitter. */
  readonly random: () => number;
}

/** How a delivery ended. */
export type DeliveryResult =
  | { readonly kind: "delivered"; readonly status: number; readonly attempts: number }
  | { readonly kind: "failed"; readonly failure: DeliveryFailure };

/** Why a delivery failed, in the words of `PushDeliveryFailure`. */
export interface DeliveryFailure {
  readonly reason: "closed" | "http-status" | "network" | "timeout";
  /** HTTP attempts made. */
  readonly attempts: number;
  /** The last HTTP status, when the receiver answered. */
  readonly status?: number;
  /** The last error. */
  readonly error?: unknown;
}

type Retry = Extract<AttemptOutcome, { kind: "retry" }>;

/**
 * Runs `attempt` until it delivers, fails for good, or the retries run out, sleeping between
 * attempts; once `signal` aborts no further attempt starts (`closed`, with the last outcome).
 */
export async function deliverWithRetries(
  attempt: () => Promise<AttemptOutcome>,
  policy: RetryPolicy,
  signal: AbortSignal,
): Promise<DeliveryResult> {
  const attempts = policy.maxRetries + 1;
  /** The last outcome worth a retry (any other ends the loop). */
  let last: Retry | undefined;
  for (let n = 1; ; n++) {
    if (signal.aborted) return failed("closed", n - 1, last);
    const outcome = await attempt();
    if (outcome.kind === "closed") return failed("closed", n - 1, last);
    if (outcome.kind === "delivered")
      return { kind: "delivered", status: outcome.status, attempts: n };
    if (outcome.kind === "fail")
      return {
        kind: "failed",
        failure: { reason: "http-status", attempts: n, status: outcome.status },
      };
    last = outcome;
    if (n >= attempts)
      return failed(
        signal.aborted && last.reason !== "http-status" ? "closed" : last.reason,
        n,
        last,
      );
    if (signal.aborted) return failed("closed", n, last);
    await policy.sleep(retryDelay(policy, n, last.retryAfterMs), signal);
  }
}

/** The wait after attempt `n` (1-based): `Retry-After` when given (capped), else the jittered backoff. */
export function retryDelay(
  policy: RetryPolicy,
  n: number,
  retryAfterMs: number | undefined,
): number {
  const backoff = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (n - 1));
  // Drawn even when Retry-After decides, as always (a seeded `random` sees the same sequence).
  const jittered = backoff / 2 + policy.random() * (backoff / 2);
  return retryAfterMs !== undefined
    ? Math.min(policy.maxRetryAfterMs, Math.max(retryAfterMs, 0))
    : jittered;
}

function failed(
  reason: DeliveryFailure["reason"],
  attempts: number,
  last: Retry | undefined,
): DeliveryResult {
  const status = last?.status === undefined ? {} : { status: last.status };
  const error = last?.error === undefined ? {} : { error: last.error };
  return { kind: "failed", failure: { reason, attempts, ...status, ...error } };
}
