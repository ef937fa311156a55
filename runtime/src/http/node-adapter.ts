// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Serves a {@link UniversalHandler} natively on `node:http` and on the `node:http2`
 * compatibility API, without allocating fetch `Request`/`Response` objects.
 *
 * Only types are imported from Node, so this file loads in any runtime; the
 * listener itself of course only makes sense on Node.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Http2ServerRequest, Http2ServerResponse } from "node:http2";
import type { UniversalBufferedResponse, UniversalHandler, UniversalRequest, UniversalResponse, UniversalStreamResponse } from "./universal.js";
import { concatChunks, normalizeBasePath, stripBasePath } from "./paths.js";

/** Options of {@link serveNode}. */
export interface ServeNodeOptions {
  /**
   * A path prefix the service is mounted under, e.g. "/a2a": it is stripped from
   * `path` before the handler sees it; requests outside it get a plain 404.
   * Compared with the raw (percent-encoded) request path, case-sensitively.
   */
  readonly basePath?: string | undefined;
  /**
   * How long a streamed response may wait for a client that does not read (the socket
   * buffer stays full, no "drain") before the response is destroyed, in ms. The stream's
   * iterator is then returned as for a client that went away. Default 60 000; 0 waits forever.
   */
  readonly stalledWriteTimeoutMs?: number | undefined;
}

/** Default of {@link ServeNodeOptions.stalledWriteTimeoutMs}. */
export const DEFAULT_STALLED_WRITE_TIMEOUT_MS = 60_000;

/** A Node request listener, for `http.createServer`, `http2.createServer`/`createSecureServer` or `server.on("request")`. */
export type NodeRequestListener = (req: IncomingMessage | Http2ServerRequest, res: ServerResponse | Http2ServerResponse) => void;

/**
 * Returns a request listener serving `handler` on `node:http` (HTTP/1.1) or the
 * `node:http2` compatibility API (h2 and h2c).
 *
 * - `path`/`query` come from `req.url` (absolute-form targets are reduced to the path).
 * - `readBody` reads the stream once; later calls return the first call's promise.
 * - `signal` aborts when the connection/stream closes before the response is complete
 *   (or the request body breaks off); it is only allocated if the handler reads it.
 * - Streamed responses honour back-pressure (`write()` returning false waits for
 *   "drain"); when the client goes away the iterator's `return()` is called.
 * - A body over the `readBody` limit is not buffered: the rest is read and
 *   discarded, and if it still has not fully arrived once the response is written,
 *   the request is destroyed (HTTP/1.1 gets `connection: close`, HTTP/2 a stream
 *   reset), so a client cannot keep the server busy draining an endless upload.
 * - The listener never throws; a rejecting handler (against its contract) gets a
 *   plain-text 500, or a destroyed response if headers were already sent.
 */
export function serveNode(handler: UniversalHandler, options?: ServeNodeOptions): NodeRequestListener {
  const base = normalizeBasePath(options?.basePath);
  const stalledWriteTimeoutMs = options?.stalledWriteTimeoutMs ?? DEFAULT_STALLED_WRITE_TIMEOUT_MS;
  if (!(stalledWriteTimeoutMs >= 0)) throw new RangeError(`stalledWriteTimeoutMs must be >= 0, got ${stalledWriteTimeoutMs}`);
  return function a2aNodeListener(req: IncomingMessage | Http2ServerRequest, res: ServerResponse | Http2ServerResponse): void {
    try {
      const url = req.url ?? "/";
      const q = url.indexOf("?");
      let path = q < 0 ? url : url.slice(0, q);
      const query = q < 0 ? "" : url.slice(q + 1);
      if (path.charCodeAt(0) !== 47 /* / */) path = stripAuthority(path);
      if (base !== undefined) {
        const inner = stripBasePath(path, base);
        if (inner === undefined) {
          res.on("error", ignore);
          writePlain(res, 404, "not found");
          return;
        }
        path = inner;
      }
      const exchange = new NodeExchange(req, res, (req.method ?? "GET").toUpperCase(), path, query, stalledWriteTimeoutMs);
      void exchange.run(handler);
    } catch {
      destroyQuietly(res);
    }
  };
}

// Minimal structural views of the two request/response flavours, so that calls
// type-check against their union without casts.
interface NodeReq {
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly complete: boolean;
  readonly destroyed: boolean;
  readonly httpVersionMajor: number;
  on(event: "data", listener: (chunk: Uint8Array) => void): unknown;
  on(event: "end" | "close", listener: () => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
  off(event: "data", listener: (chunk: Uint8Array) => void): unknown;
  off(event: "end" | "close", listener: () => void): unknown;
  off(event: "error", listener: (error: Error) => void): unknown;
  resume(): unknown;
  destroy(): unknown;
}

interface NodeRes {
  readonly headersSent: boolean;
  writeHead(status: number, headers: Record<string, string | string[]>): unknown;
  /** Missing from the HTTP/2 compat typings, present at runtime. */
  flushHeaders?(): void;
  write(chunk: string): boolean;
  end(chunk?: string | Uint8Array): unknown;
  destroy(): unknown;
  on(event: "close" | "drain" | "finish", listener: () => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
  off(event: "close" | "drain", listener: () => void): unknown;
}

const PLAIN_TEXT = "text/plain; charset=utf-8";

function ignore(): void {}

class ClientGoneError extends Error {
  constructor() {
    super("client disconnected");
    this.name = "ClientGoneError";
  }
}

/** One exchange: the UniversalRequest the handler sees, plus the response writer. */
class NodeExchange implements UniversalRequest {
  readonly method: string;
  readonly path: string;
  readonly query: string;
  readonly #req: NodeReq;
  readonly #res: NodeRes;
  /** Created on first `signal` access. */
  #controller: AbortController | undefined;
  /** `onAbort` listeners (the runtime's cheap alternative to `signal`). */
  #abortListeners: (() => void)[] | undefined;
  /** The response emitted "close" (or the request body broke off). */
  #closed = false;
  /** `res.end()` was called: a later close is not an abort. */
  #ended = false;
  /** The stream being written; cleared once it is done or returned. */
  #iterator: AsyncIterator<string> | undefined;
  #body: Promise<Uint8Array | "too-large"> | undefined;
  /** The body went over the limit; the rest is being discarded. */
  #discarding = false;
  readonly #stalledWriteTimeoutMs: number;

  constructor(req: NodeReq, res: NodeRes, method: string, path: string, query: string, stalledWriteTimeoutMs: number) {
    this.#req = req;
    this.#res = res;
    this.#stalledWriteTimeoutMs = stalledWriteTimeoutMs;
    this.method = method;
    this.path = path;
    this.query = query;
    res.on("close", () => this.#onClose());
    // Writes racing a disconnect (EPIPE, ERR_STREAM_DESTROYED, ERR_HTTP2_INVALID_STREAM) must not crash the process.
    res.on("error", ignore);
  }

  header(name: string): string | undefined {
    if (name.charCodeAt(0) === 58 /* : */) return undefined; // HTTP/2 pseudo-headers are not headers
    const v = this.#req.headers[name.toLowerCase()];
    return typeof v === "string" || v === undefined ? v : v.join(", ");
  }

  headers(): Iterable<[string, string]> {
    const all = this.#req.headers;
    const out: [string, string][] = [];
    for (const name in all) {
      if (name.charCodeAt(0) === 58) continue;
      const v = all[name];
      if (v !== undefined) out.push([name, typeof v === "string" ? v : v.join(", ")]);
    }
    return out;
  }

  get aborted(): boolean {
    return this.#closed && !this.#ended;
  }

  onAbort(listener: () => void): () => void {
    if (this.#closed) {
      if (!this.#ended) listener();
      return ignore;
    }
    (this.#abortListeners ??= []).push(listener);
    return () => {
      const list = this.#abortListeners;
      const i = list === undefined ? -1 : list.indexOf(listener);
      if (i >= 0) list!.splice(i, 1);
    };
  }

  get signal(): AbortSignal {
    let c = this.#controller;
    if (c === undefined) {
      c = this.#controller = new AbortController();
      if (this.#closed && !this.#ended) c.abort();
    }
    return c.signal;
  }

  readBody(limit: number): Promise<Uint8Array | "too-large"> {
    return (this.#body ??= this.#readBody(limit));
  }

  #readBody(limit: number): Promise<Uint8Array | "too-large"> {
    const req = this.#req;
    const declared = req.headers["content-length"];
    if (typeof declared === "string" && Number(declared) > limit) {
      this.#discard();
      return Promise.resolve("too-large");
    }
    if (req.destroyed || (this.#closed && !req.complete)) return Promise.reject(new ClientGoneError());
    return new Promise((resolve, reject) => {
      const chunks: Uint8Array[] = [];
      let size = 0;
      const cleanup = (): void => {
        req.off("data", onData);
        req.off("end", onEnd);
        req.off("error", onGone);
        req.off("close", onGone);
      };
      const onData = (chunk: Uint8Array): void => {
        size += chunk.byteLength;
        if (size > limit) {
          cleanup();
          chunks.length = 0;
          this.#discard();
          resolve("too-large");
        } else chunks.push(chunk);
      };
      const onEnd = (): void => {
        cleanup();
        resolve(concatChunks(chunks, size));
      };
      const onGone = (): void => {
        cleanup();
        this.#onClose(); // the request broke off ("aborted"/error): the client is gone, abort the signal
        reject(new ClientGoneError());
      };
      req.on("data", onData);
      req.on("end", onEnd);
      req.on("error", onGone);
      req.on("close", onGone);
    });
  }

  /** Reads and drops the rest of an oversized body (see {@link serveNode} for when it is cut off). */
  #discard(): void {
    this.#discarding = true;
    this.#req.on("error", ignore);
    this.#req.resume();
  }

  /** Runs the handler and writes its response. Never rejects. */
  async run(handler: UniversalHandler): Promise<void> {
    let response: UniversalResponse;
    try {
      response = await handler(this);
    } catch {
      this.#fail();
      return;
    }
    try {
      if ("stream" in response) await this.#writeStream(response);
      else this.#writeBuffered(response);
    } catch {
      this.#fail();
    }
  }

  #writeBuffered(response: UniversalBufferedResponse): void {
    if (this.#closed) return;
    const headers = this.#nodeHeaders(response.headers);
    const { status, body } = response;
    if (status !== 204 && status !== 304) {
      headers["content-length"] = String(typeof body === "string" ? Buffer.byteLength(body, "utf8") : body.byteLength);
    }
    this.#res.writeHead(status, headers);
    this.#end(body);
  }

  async #writeStream(response: UniversalStreamResponse): Promise<void> {
    const it = response.stream[Symbol.asyncIterator]();
    if (this.#closed) {
      returnQuietly(it);
      return;
    }
    this.#iterator = it;
    const res = this.#res;
    res.writeHead(response.status, this.#nodeHeaders(response.headers));
    res.flushHeaders?.(); // SSE clients want the headers before the first event
    for (;;) {
      let step: IteratorResult<string>;
      try {
        step = await it.next();
      } catch (error) {
        this.#iterator = undefined; // a throwing iterator is finished
        throw error;
      }
      if (this.#closed) return; // #onClose returned the iterator
      if (step.done) break;
      if (step.value === "") continue;
      if (!res.write(step.value) && !this.#closed) await this.#drained();
    }
    this.#iterator = undefined;
    this.#end();
  }

  /**
   * Resolves on "drain" or "close", whichever comes first, leaving no listener behind. A
   * client that reads nothing for `stalledWriteTimeoutMs` gets its response destroyed
   * (which closes it: the stream is then ended as for a client that went away).
   */
  #drained(): Promise<void> {
    const res = this.#res;
    return new Promise((resolve) => {
      const timer = this.#stalledWriteTimeoutMs > 0 ? setTimeout(() => destroyQuietly(res), this.#stalledWriteTimeoutMs) : undefined;
      timer?.unref?.();
      const done = (): void => {
        if (timer !== undefined) clearTimeout(timer);
        res.off("drain", done);
        res.off("close", done);
        resolve();
      };
      res.on("drain", done);
      res.on("close", done);
    });
  }

  #end(body?: string | Uint8Array): void {
    this.#ended = true;
    const req = this.#req;
    if (!req.complete) {
      if (this.#discarding) {
        // Cut off an upload still running once the answer is out.
        this.#res.on("finish", () => {
          if (!req.complete) destroyQuietly(req);
        });
      } else if (this.#body === undefined) {
        req.on("error", ignore);
        req.resume(); // unread body (e.g. a 404): drain it so the connection/stream can finish
      }
    }
    this.#res.end(body);
  }

  #nodeHeaders(list: readonly (readonly [string, string])[]): Record<string, string | string[]> {
    const headers: Record<string, string | string[]> = {};
    for (const [rawName, value] of list) {
      const name = rawName.toLowerCase();
      const prev = headers[name];
      if (prev === undefined) headers[name] = value;
      else if (typeof prev === "string") headers[name] = [prev, value];
      else prev.push(value);
    }
    if (this.#discarding && this.#req.httpVersionMajor === 1 && !this.#req.complete) headers["connection"] = "close";
    return headers;
  }

  /** The handler failed (or writing did): a 500 if nothing was sent yet, else cut the response off. */
  #fail(): void {
    const it = this.#iterator;
    if (it !== undefined) {
      this.#iterator = undefined;
      returnQuietly(it);
    }
    if (this.#closed) return;
    try {
      if (!this.#res.headersSent) {
        this.#ended = true;
        writePlain(this.#res, 500, "internal error");
        return;
      }
    } catch {
      // fall through
    }
    destroyQuietly(this.#res);
  }

  #onClose(): void {
    this.#closed = true;
    if (this.#ended) return;
    this.#controller?.abort();
    const listeners = this.#abortListeners;
    this.#abortListeners = undefined;
    if (listeners !== undefined) for (const listener of listeners) listener();
    const it = this.#iterator;
    if (it !== undefined) {
      this.#iterator = undefined;
      returnQuietly(it);
    }
  }
}

function writePlain(res: NodeRes, status: number, text: string): void {
  res.writeHead(status, { "content-type": PLAIN_TEXT, "content-length": String(text.length) });
  res.end(text);
}

/** Calls `return()` without waiting (a generator acts on it once its pending step settles). */
function returnQuietly(it: AsyncIterator<string>): void {
  try {
    const r = it.return?.();
    if (r !== undefined) r.then(ignore, ignore);
  } catch {
    // ignore
  }
}

function destroyQuietly(stream: { destroy(): unknown }): void {
  try {
    stream.destroy();
  } catch {
    // ignore
  }
}

/** "http://host:1/x" (absolute-form request target) → "/x"; anything else unchanged. */
function stripAuthority(target: string): string {
  const m = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/]*/.exec(target);
  if (m === null) return target;
  const rest = target.slice(m[0].length);
  return rest === "" ? "/" : rest;
}
