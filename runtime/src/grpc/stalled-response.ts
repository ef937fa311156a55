// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The write timeout of the Connect routes on an HTTP server (mountConnectRoutes). Connect writes an
 * answer and waits for "drain" before it goes on, with no timeout: a client that reads nothing holds the
 * answer (and the call) for as long as it keeps the connection open. Here a write the response refused
 * (its buffer full) that has not drained within the timeout destroys the response, as the HTTP
 * bindings' `stalledWriteTimeoutMs` does (serveNode); the call is then aborted as for a client that
 * went away. On the gRPC listeners the session guard does this per HTTP/2 stream (session-guard.ts).
 */

/** The part of a node:http or node:http2 compat response this uses. */
interface WritableResponse {
  write(...args: never[]): boolean;
  destroy(): unknown;
  on(event: "drain" | "close", listener: () => void): unknown;
}

/** Destroys `res` when one of its writes has waited `ms` for "drain" (0: never). */
export function destroyWhenStalled(res: WritableResponse, ms: number): void {
  if (ms <= 0) return;
  let timer: NodeJS.Timeout | undefined;
  const clear = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
  const write = res.write;
  res.write = function (this: WritableResponse, ...args: never[]): boolean {
    const flushed = write.apply(this, args);
    if (!flushed && timer === undefined) {
      timer = setTimeout(() => {
        timer = undefined;
        res.destroy();
      }, ms);
      timer.unref();
    }
    return flushed;
  };
  res.on("drain", clear);
  res.on("close", clear);
}
