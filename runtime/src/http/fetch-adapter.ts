// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Serves a {@link UniversalHandler} as a fetch handler, `(Request) => Promise<Response>`,
 * for Deno, Bun, workers, service workers and Node fetch-style servers.
 *
 * Uses only web-standard globals (Request, Response, ReadableStream, TextEncoder,
 * AbortController), and two things of the runtimes it knows (see {@link serveFetch}): Bun's
 * `server.timeout(request, seconds)` and, on Deno, not reading `request.signal`.
 */
import type {
  UniversalBufferedResponse,
  UniversalHandler,
  UniversalRequest,
  UniversalResponse,
  UniversalStreamResponse,
} from "./universal.js";
import { concatChunks, normalizeBasePath, stripBasePath } from "./paths.js";

/** Options of {@link serveFetch}. */
export interface ServeFetchOptions {
  /**
   * A path prefix the service is mounted under, e.g. "/a2a": it is stripped from
   * `path` before the handler sees it; requests outside it get a plain 404.
   * Compared with the raw (percent-encoded) request path, case-sensitively.
   */
  readonly basePath?: string | undefined;
  /**
   * Bun only (`Bun.serve({ fetch })` passes its server as the handler's second argument): the idle
   * timeout, in seconds, each request gets through `server.timeout(request, seconds)` once its body
   * has been read (at once when it has none). Default 0: no idle timeout while the agent works and
   * while an SSE stream waits for its next event or keep-alive (Bun's `idleTimeout`, 10 s unless set,
   * would cut blocking SendMessage calls and streams quieter than that, and the servers' SSE keep-alive
   * comes every 15 s). Bun's own `idleTimeout` still bounds reading the request (headers and body).
   * Ignored elsewhere.
   */
  readonly bunIdleTimeoutSeconds?: number | undefined;
}

/** Bun's Server, as far as {@link serveFetch} uses it. */
interface BunServerLike {
  timeout(request: Request, seconds: number): void;
  requestIP(request: Request): unknown;
}

/** The second argument of a fetch handler when it is Bun's server (Workers pass `env`, Deno `{ remoteAddr, completed }`). */
function bunServer(platform: unknown): BunServerLike | undefined {
  if (typeof platform !== "object" || platform === null) return undefined;
  const s = platform as Partial<BunServerLike>;
  return typeof s.timeout === "function" && typeof s.requestIP === "function"
    ? (s as BunServerLike)
    : undefined;
}

/**
 * Deno: `request.signal` is not read. `Deno.serve` aborts it on successful responses too (its legacy
 * behaviour) and warns on first use; the handler's signal aborts when a streamed response is
 * cancelled (the client went away) instead.
 */
const onDeno =
  typeof (globalThis as { Deno?: { version?: { deno?: unknown } } }).Deno?.version?.deno ===
  "string";

/**
 * Returns a fetch handler serving `handler`.
 *
 * - The URL is split once (no `URL` object); `path` stays percent-encoded.
 * - `readBody(limit)` reads `request.body` chunk by chunk and cancels it as soon
 *   as the limit is exceeded (or up front when `content-length` says so). It reads
 *   once; later calls return the first call's promise.
 * - `signal` aborts when `request.signal` aborts or the response stream is
 *   cancelled (the client went away).
 * - Streamed responses become a `ReadableStream` pulled on demand (no read-ahead:
 *   the iterator is advanced only when the consumer reads); cancelling it aborts
 *   `signal` and calls the iterator's `return()`.
 * - Never rejects: a rejecting handler (against its contract) gets a plain-text 500.
 *
 * Runtimes: it serves `Deno.serve(fetch)`, `export default { fetch }` (Workers; the second and
 * third arguments, `env` and `ctx`, are ignored) and `Bun.serve({ fetch })`. On Bun, pass the
 * server along when wrapping it (`fetch: (request, server) => a2a(request, server)`): the adapter
 * then lifts Bun's idle timeout once the request is read (`bunIdleTimeoutSeconds`), so that SSE
 * streams and long calls are not cut after Bun's default 10 s. On Deno, `request.signal` is not
 * read (no warning about its legacy abort on success); a client that leaves is noticed when its
 * stream is cancelled.
 */
export function serveFetch(
  handler: UniversalHandler,
  options?: ServeFetchOptions,
): (request: Request, platform?: unknown) => Promise<Response> {
  const base = normalizeBasePath(options?.basePath);
  const bunIdleSeconds = Math.max(0, Math.floor(options?.bunIdleTimeoutSeconds ?? 0));
  return async function a2aFetchHandler(request: Request, platform?: unknown): Promise<Response> {
    try {
      const url = request.url;
      // Request URLs are absolute and serialized: "scheme://authority/path?query" (no fragment).
      const scheme = url.indexOf("://");
      let start = scheme < 0 ? 0 : url.indexOf("/", scheme + 3);
      if (start < 0) start = url.length;
      let end = url.indexOf("#", start);
      if (end < 0) end = url.length;
      const q = url.indexOf("?", start);
      let path = url.slice(start, q < 0 || q > end ? end : q) || "/";
      const query = q < 0 || q > end ? "" : url.slice(q + 1, end);
      if (base !== undefined) {
        const inner = stripBasePath(path, base);
        if (inner === undefined) return plain(404, "not found");
        path = inner;
      }
      const bun = bunServer(platform);
      const exchange = new FetchExchange(
        request,
        request.method.toUpperCase(),
        path,
        query,
        bun === undefined ? undefined : () => bun.timeout(request, bunIdleSeconds),
      );
      return exchange.respond(await handler(exchange));
    } catch {
      return plain(500, "internal error");
    }
  };
}

const encoder = new TextEncoder();

function ignore(): void {}

/** Calls `f`, ignoring a throw (Bun's `server.timeout` on a request that has gone already). */
function settle(f: () => void): void {
  try {
    f();
  } catch {
    // ignore
  }
}

/** The UniversalRequest over a fetch Request. */
class FetchExchange implements UniversalRequest {
  readonly method: string;
  readonly path: string;
  readonly query: string;
  readonly #request: Request;
  /** Created on first `signal` access or on cancellation. */
  #controller: AbortController | undefined;
  #body: Promise<Uint8Array | "too-large"> | undefined;
  /** Bun: sets the request's idle timeout for the rest of the exchange, called once the request is read. */
  #requestRead: (() => void) | undefined;

  constructor(
    request: Request,
    method: string,
    path: string,
    query: string,
    requestRead: (() => void) | undefined,
  ) {
    this.#request = request;
    this.method = method;
    this.path = path;
    this.query = query;
    if (requestRead !== undefined) {
      if (request.body === null) settle(requestRead);
      else this.#requestRead = requestRead;
    }
  }

  header(name: string): string | undefined {
    return this.#request.headers.get(name) ?? undefined;
  }

  headers(): Iterable<[string, string]> {
    const out: [string, string][] = [];
    this.#request.headers.forEach((value, name) => {
      out.push([name, value]);
    });
    return out;
  }

  get signal(): AbortSignal {
    return this.#abortController().signal;
  }

  #abortController(): AbortController {
    let c = this.#controller;
    if (c === undefined) {
      const controller = (c = this.#controller = new AbortController());
      if (!onDeno) {
        const outer = this.#request.signal;
        if (outer.aborted) controller.abort(outer.reason);
        else outer.addEventListener("abort", () => controller.abort(outer.reason), { once: true });
      }
    }
    return c;
  }

  /** Turns the handler's response into a fetch Response. */
  respond(response: UniversalResponse): Response {
    return "stream" in response ? this.#streamResponse(response) : bufferedResponse(response);
  }

  readBody(limit: number): Promise<Uint8Array | "too-large"> {
    return (this.#body ??= this.#readBody(limit));
  }

  async #readBody(limit: number): Promise<Uint8Array | "too-large"> {
    const request = this.#request;
    const body = request.body;
    if (body === null) return new Uint8Array(0);
    const declared = request.headers.get("content-length");
    if (declared !== null && Number(declared) > limit) {
      body.cancel().then(ignore, ignore);
      return "too-large";
    }
    const reader: ReadableStreamDefaultReader<Uint8Array> = body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > limit) {
          reader.cancel().then(ignore, ignore);
          return "too-large";
        }
        chunks.push(value);
      }
    } finally {
      reader.releaseLock();
    }
    const requestRead = this.#requestRead;
    if (requestRead !== undefined) {
      this.#requestRead = undefined;
      settle(requestRead);
    }
    return concatChunks(chunks, size);
  }

  #streamResponse(response: UniversalStreamResponse): Response {
    const it = response.stream[Symbol.asyncIterator]();
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>(
      {
        async pull(controller): Promise<void> {
          for (;;) {
            const step = await it.next(); // a rejection errors the stream
            if (cancelled) return;
            if (step.done) {
              controller.close();
              return;
            }
            if (step.value !== "") {
              controller.enqueue(encoder.encode(step.value));
              return;
            }
          }
        },
        cancel: (reason): void => {
          cancelled = true;
          // The client is gone.
          const c = this.#abortController();
          if (!c.signal.aborted) c.abort(reason);
          // Not awaited: a generator's return() waits for its pending step, and cancel() must not hang.
          try {
            const r = it.return?.();
            if (r !== undefined) r.then(ignore, ignore);
          } catch {
            // ignore
          }
        },
      },
      { highWaterMark: 0 },
    );
    return new Response(body, {
      status: response.status,
      headers: response.headers as [string, string][],
    });
  }
}

function bufferedResponse(response: UniversalBufferedResponse): Response {
  const { status } = response;
  // Null-body statuses must not get a body, not even "" (the constructor throws).
  const body = status === 204 || status === 205 || status === 304 ? null : response.body;
  // Headers accepts any iterable of pairs; the casts only drop `readonly`, and say that a body's
  // bytes sit in an ArrayBuffer (TextEncoder's and Buffer's do), which DOM's BodyInit asks for.
  return new Response(body as string | Uint8Array<ArrayBuffer> | null, {
    status,
    headers: response.headers as [string, string][],
  });
}

function plain(status: number, text: string): Response {
  return new Response(text, { status, headers: { "content-type": "text/plain; charset=utf-8" } });
}
