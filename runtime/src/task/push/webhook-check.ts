// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * How a push sender's `onTaskEvent` hook hands the task handler its webhook URL policy, so that a
 * handler given the hook refuses at creation the URLs the sender would refuse at delivery
 * (spec §13.2), without importing the sender (and its DNS look-ups) into every task handler. The
 * policy itself is ./webhook-policy.ts.
 */

/** The key under which a push sender's `onTaskEvent` carries its URL check. */
export const WEBHOOK_URL_CHECK: unique symbol = Symbol("protoc-gen-a2a.webhookUrlCheck");

/** The URL check a hook carries, if any. */
export function webhookUrlCheckOf(hook: unknown): ((url: string) => Promise<void>) | undefined {
  if (typeof hook !== "function") return undefined;
  const check = (hook as { readonly [WEBHOOK_URL_CHECK]?: unknown })[WEBHOOK_URL_CHECK];
  return typeof check === "function" ? (check as (url: string) => Promise<void>) : undefined;
}
