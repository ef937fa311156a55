// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Deadlines longer than a timer can hold. `grpc-timeout` may say up to 99,999,999 hours and
 * `connect-timeout-ms` up to ten digits, but Node's timers take at most 2^31−1 ms (≈ 24.8 days): a
 * longer delay is silently set to 1 ms (with a TimeoutOverflowWarning on stderr), so the call would
 * fail at once with DEADLINE_EXCEEDED. Clients do send such deadlines (grpc-go writes a 30-day
 * deadline as `720H`). Both gRPC stacks read these headers themselves, so the header is rewritten
 * before they see it: a deadline over the timer range becomes the longest one a timer holds, which
 * is "no practical deadline", never a shorter one.
 */

/** The longest delay a Node timer holds, in ms. */
export const MAX_TIMER_MS = 2_147_483_647;

/** `grpc-timeout` for the longest deadline a timer holds (2,147,483 s ≤ 2^31−1 ms). */
const CLAMPED_GRPC_TIMEOUT = "2147483S";

const UNIT_MS: Readonly<Record<string, number>> = {
  H: 3_600_000,
  M: 60_000,
  S: 1_000,
  m: 1,
  u: 1e-3,
  n: 1e-6,
};

/** A `grpc-timeout` value clamped to the timer range; any other value (malformed ones too: the stack rejects them) unchanged. */
export function clampGrpcTimeout(value: string): string {
  const match = /^(\d{1,8})([HMSmun])$/.exec(value);
  if (match === null) return value;
  return Number(match[1]) * UNIT_MS[match[2]!]! > MAX_TIMER_MS ? CLAMPED_GRPC_TIMEOUT : value;
}

/** A `connect-timeout-ms` value clamped to the timer range; any other value unchanged. */
export function clampConnectTimeout(value: string): string {
  return /^\d{1,10}$/.test(value) && Number(value) > MAX_TIMER_MS ? String(MAX_TIMER_MS) : value;
}

/** Rewrites, in place, the deadline headers of a request that exceed the timer range (see above). */
export function clampDeadlineHeaders(headers: Record<string, string | string[] | undefined>): void {
  const grpc = headers["grpc-timeout"];
  if (typeof grpc === "string") headers["grpc-timeout"] = clampGrpcTimeout(grpc);
  const connect = headers["connect-timeout-ms"];
  if (typeof connect === "string") headers["connect-timeout-ms"] = clampConnectTimeout(connect);
}
