/** Per-call options shared by every binding's client. */

/** Options of one call. */
export interface CallOptions {
  /** Cancels the call (for a stream: stops it and closes the connection). */
  readonly signal?: AbortSignal;
  /** Timeout in ms (for a stream: until the stream ends); overrides the client's default. */
  readonly timeoutMs?: number;
  /** Extra headers (HTTP) or metadata (gRPC) for this call. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Extension URIs for this call, added to the client's. */
  readonly extensions?: readonly string[];
  /** Receives the response headers (e.g. the activated `A2A-Extensions`). */
  readonly onHeaders?: (headers: Headers) => void;
}

/**
 * Combines the caller's signal and a timeout into one signal; `cleanup` clears the
 * timer and the listener, and must be called when the call ends.
 */
export function callSignal(signal: AbortSignal | undefined, timeoutMs: number | undefined): { signal: AbortSignal | undefined; cleanup: () => void } {
  if (timeoutMs === undefined) return { signal, cleanup: noop };
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException(`the call timed out after ${timeoutMs} ms`, "TimeoutError")), timeoutMs);
  const onAbort = () => controller.abort(signal?.reason);
  if (signal !== undefined) {
    if (signal.aborted) controller.abort(signal.reason);
    else signal.addEventListener("abort", onAbort, { once: true });
  }
  return {
    signal: controller.signal,
    cleanup: () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    },
  };
}

function noop(): void {}
