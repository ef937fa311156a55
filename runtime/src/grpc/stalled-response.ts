// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The slow-reader bounds of the Connect routes on an HTTP server (mountConnectRoutes). Connect writes
 * an answer and waits for "drain" before it goes on, with no timeout: a client that reads nothing
 * holds the answer (and the call) for as long as it keeps the connection open. Here
 *
 * - a write the response refused (its buffer full) that has not drained within the timeout destroys
 *   the response, as the HTTP bindings' `stalledWriteTimeoutMs` does (serveNode);
 * - what the response holds unwritten counts in a write budget (the one of the serveNode listener the
 *   routes are mounted in front of, write-budget.ts): over it, the writer that has waited longest is
 *   destroyed.
 *
 * The call is then aborted as for a client that went away. On the gRPC listeners the session guard
 * does this per HTTP/2 stream (grpc-wire/session-guard.ts).
 */
import type { WriteBudget } from "../pipeline/write-budget.js";

/** The part of a node:http or node:http2 compat response this uses. */
interface WritableResponse {
  write(...args: never[]): boolean;
  end(...args: never[]): unknown;
  destroy(): unknown;
  readonly writableLength?: number;
  on(event: "drain" | "close" | "finish", listener: () => void): unknown;
}

/**
 * Destroys `res` when one of its writes has waited `ms` for "drain" (0: never), or when `budget`
 * (if any) runs over and `res` has waited longest.
 */
export function destroyWhenStalled(res: WritableResponse, ms: number, budget?: WriteBudget): void {
  if (ms <= 0 && (budget === undefined || budget.maxBytes === 0)) return;
  let timer: NodeJS.Timeout | undefined;
  const clear = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
  const held = () => {
    try {
      return res.writableLength ?? 0;
    } catch {
      return 0;
    }
  };
  const pending = budget?.watch(() => res.destroy(), { measure: held });
  const write = res.write;
  res.write = function (this: WritableResponse, ...args: never[]): boolean {
    const flushed = write.apply(this, args);
    if (!flushed && timer === undefined && ms > 0) {
      timer = setTimeout(() => {
        timer = undefined;
        res.destroy();
      }, ms);
      timer.unref();
    }
    pending?.update(held(), false);
    return flushed;
  };
  if (pending !== undefined) {
    const end = res.end;
    res.end = function (this: WritableResponse, ...args: never[]): unknown {
      const result = end.apply(this, args);
      pending.update(held(), false);
      return result;
    };
    res.on("drain", () => pending.update(held(), true));
    res.on("finish", () => pending.close());
    res.on("close", () => pending.close());
  }
  res.on("drain", clear);
  res.on("close", clear);
}
