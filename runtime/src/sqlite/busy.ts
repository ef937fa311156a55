// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Waiting for another connection's lock without stopping the agent. better-sqlite3 waits for a lock
 * synchronously, inside SQLite, which would block the event loop (every binding, reads too) for as
 * long. So once the store is open a write waits synchronously for at most
 * {@link SYNC_BUSY_WAIT_MS}; past it, it is retried on a timer every {@link BUSY_RETRY_MS} until
 * `busyTimeoutMs` has passed.
 */

/** How long a write may wait for another connection's lock synchronously (`PRAGMA busy_timeout` once open), in ms. */
export const SYNC_BUSY_WAIT_MS = 25;

/** Time between two tries of a write that found the database locked, in ms. */
export const BUSY_RETRY_MS = 20;

/** True for SQLITE_BUSY (and its extended codes): another connection holds the lock. */
export function isBusy(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("SQLITE_BUSY");
}

/**
 * Runs a synchronous write, retrying it on a timer while another connection holds the lock, for up
 * to `busyTimeoutMs` (then, or once `closing()` says so, the busy error is thrown).
 */
export async function retryWhileBusy<T>(
  run: () => T,
  busyTimeoutMs: number,
  closing: () => boolean,
): Promise<T> {
  const started = Date.now();
  for (;;) {
    try {
      return run();
    } catch (e) {
      if (!isBusy(e) || closing() || Date.now() - started >= busyTimeoutMs) throw e;
      await new Promise((resolve) => setTimeout(resolve, BUSY_RETRY_MS));
    }
  }
}
