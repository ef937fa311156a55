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
import type {
  UniversalBufferedResponse,
  UniversalHandler,
  UniversalRequest,
  UniversalResponse,
  UniversalStreamResponse,
} from "./universal.js";
import { concatChunks, normalizeBasePath, stripBasePath } from "./paths.js";
import {
  DEFAULT_MAX_PENDING_WRITE_BYTES,
  WriteBudget,
  type PendingWrite,
  type PendingWritesStats,
} from "../pipeline/write-budget.js";

/** Options of {@link serveNode}. */
export interface ServeNodeOptions {
  /**
   * A path prefix the service is mounted under, e.g. "/a2a": it is stripped from
   * `path` before the handler sees it; requests outside it get a plain 404.
   * Compared with the raw (percent-encoded) request path, case-sensitively.
   */
  readonly basePath?: string | undefined;
  /**
   * Write timeout, in ms: a response (buffered or streamed, HTTP/1.1 or HTTP/2) that holds bytes its
   * client has not taken, and of which the client took nothing for this long, is destroyed (HTTP/1.1:
   * the connection is closed; HTTP/2: the stream is reset). Progress is counted per chunk of at most
   * 64 KiB, so a client must read at least that much per timeout (about 1 KiB/s at the default). A
   * stream's iterator is then returned as for a client that went away. Checked every second (a
   * quarter of the timeout when shorter). Default {@link DEFAULT_STALLED_WRITE_TIMEOUT_MS} (60 s); 0
   * waits forever. (The name is kept from when it applied to streams only.)
   */
  readonly stalledWriteTimeoutMs?: number | undefined;
  /**
   * Bytes this listener may hold for clients that have not taken them, summed over its responses
   * (what waits in response, socket and HTTP/2 stream buffers; a buffered body over 64 KiB counts
   * whole until its last byte is flushed, as it stays in memory until then; a text that is not all ASCII counts 2 bytes a
   * character, as V8 may hold it). Over it, the response that has waited longest for its client is destroyed (as for the
   * write timeout), then the next, until the rest fit; the response being written is never the one
   * destroyed, so one answer alone may exceed it. Default {@link DEFAULT_MAX_PENDING_WRITE_BYTES}
   * (64 MiB); 0: no bound. Not with `writeBudget`.
   */
  readonly maxPendingWriteBytes?: number | undefined;
  /**
   * The byte budget to count this listener's pending writes in, instead of one of its own
   * (`maxPendingWriteBytes`): share one {@link WriteBudget} between serveNode, the gRPC listeners and
   * custom bindings to bound what the whole agent holds for peers that do not read. The write timeout
   * stays this listener's. Routes mounted with `mountConnectRoutes` in front of this listener count in
   * it too.
   */
  readonly writeBudget?: WriteBudget | undefined;
  /**
   * Lingering close (HTTP/1.1), like nginx's `lingering_close`: after a body over the `readBody`
   * limit has been answered (413 / -32600, `Connection: close`), the rest of the body is read and
   * discarded so that clients that send the whole body before reading (Python's urllib, …) or that
   * fail on a reset (fetch/undici) read the answer, then the connection is closed. At most this many
   * bytes are discarded (counted from the moment the limit was crossed); beyond, the connection is cut.
   * Default {@link DEFAULT_LINGERING_CLOSE_BYTES} (64 MiB); 0 closes at once once the answer is out.
   * On HTTP/2 the stream is reset (NO_ERROR) after the answer instead (RFC 9113 §8.1).
   */
  readonly lingeringCloseBytes?: number | undefined;
  /**
   * How long the lingering close waits for the rest of the body, in ms, from the answer; then the
   * connection is cut. Default {@link DEFAULT_LINGERING_CLOSE_MS} (30 s, nginx's `lingering_time`);
   * 0 closes at once once the answer is out.
   */
  readonly lingeringCloseMs?: number | undefined;
}

/** Default of {@link ServeNodeOptions.stalledWriteTimeoutMs}: 60 s. */
export const DEFAULT_STALLED_WRITE_TIMEOUT_MS = 60_000;
/** Default of {@link ServeNodeOptions.maxPendingWriteBytes}: 64 MiB. */
export { DEFAULT_MAX_PENDING_WRITE_BYTES };
/** Default of {@link ServeNodeOptions.lingeringCloseBytes}: 64 MiB. */
export const DEFAULT_LINGERING_CLOSE_BYTES = 64 * 1024 * 1024;
/** Default of {@link ServeNodeOptions.lingeringCloseMs}: 30 s. */
export const DEFAULT_LINGERING_CLOSE_MS = 30_000;

/** Buffered bodies larger than this are written chunk by chunk, each after the previous one was taken. */
const WRITE_CHUNK_BYTES = 64 * 1024;

/** A Node request listener, for `http.createServer`, `http2.createServer`/`createSecureServer` or `server.on("request")`. */
export type NodeRequestListener = (
  req: IncomingMessage | Http2ServerRequest,
  res: ServerResponse | Http2ServerResponse,
) => void;

/** The write accounting of each listener serveNode returned (see {@link pendingWriteStats}). */
const listenerWrites = new WeakMap<NodeRequestListener, WriteBudget>();

/**
 * What a listener returned by {@link serveNode} holds for clients that have not read it yet: the
 * bytes (bounded by `maxPendingWriteBytes`) and the responses holding them. Undefined for a function
 * serveNode did not return.
 */
export function pendingWriteStats(listener: NodeRequestListener): PendingWritesStats | undefined {
  return listenerWrites.get(listener)?.stats;
}

/** @private The budget a listener returned by serveNode counts its pending writes in (for mountConnectRoutes). */
export function writeBudgetOf(listener: unknown): WriteBudget | undefined {
  return typeof listener === "function"
    ? listenerWrites.get(listener as NodeRequestListener)
    : undefined;
}

/** The options, checked, with their defaults. */
interface ExchangeSettings {
  readonly writes: WriteBudget;
  readonly writeTimeoutMs: number;
  readonly lingeringCloseBytes: number;
  readonly lingeringCloseMs: number;
}

function nonNegative(name: string, value: number): number {
  if (value >= 0 && value !== Number.POSITIVE_INFINITY) return value;
  throw new RangeError(`${name} must be >= 0, got ${value}`);
}

/**
 * Returns a request listener serving `handler` on `node:http` (HTTP/1.1) or the
 * `node:http2` compatibility API (h2 and h2c).
 *
 * - `path`/`query` come from `req.url` (absolute-form targets are reduced to the path).
 * - `readBody` reads the stream once; later calls return the first call's promise.
 * - `signal` aborts when the connection/stream closes before the response is complete
 *   (or the request body breaks off); it is only allocated if the handler reads it.
 * - Responses honour back-pressure: streams wait for "drain" when `write()` returns false, and
 *   buffered bodies over 64 KiB are written chunk by chunk the same way. When the client goes away
 *   the stream's iterator's `return()` is called.
 * - Clients that do not read are bounded: a response none of whose bytes are taken within
 *   `stalledWriteTimeoutMs` is destroyed, and so is the one that has waited longest when the
 *   listener holds more than `maxPendingWriteBytes` for its clients ({@link pendingWriteStats}).
 * - A body over the `readBody` limit is not buffered: the rest is read and discarded. On HTTP/1.1
 *   the answer goes out at once with `connection: close`, the rest of the body is discarded up to
 *   `lingeringCloseBytes` / `lingeringCloseMs` (lingering close), then the connection is closed
 *   (cut if a bound is crossed first). On HTTP/2 the stream is reset once the answer is out.
 * - The listener never throws; a rejecting handler (against its contract) gets a
 *   plain-text 500, or a destroyed response if headers were already sent.
 */
export function serveNode(
  handler: UniversalHandler,
  options?: ServeNodeOptions,
): NodeRequestListener {
  const base = normalizeBasePath(options?.basePath);
  const timeoutMs = nonNegative(
    "stalledWriteTimeoutMs",
    options?.stalledWriteTimeoutMs ?? DEFAULT_STALLED_WRITE_TIMEOUT_MS,
  );
  if (options?.writeBudget !== undefined && options.maxPendingWriteBytes !== undefined) {
    throw new TypeError(
      "serveNode: give maxPendingWriteBytes or writeBudget, not both (the budget has its own size)",
    );
  }
  const writes =
    options?.writeBudget ??
    new WriteBudget(
      nonNegative(
        "maxPendingWriteBytes",
        options?.maxPendingWriteBytes ?? DEFAULT_MAX_PENDING_WRITE_BYTES,
      ),
    );
  const settings: ExchangeSettings = {
    writes,
    writeTimeoutMs: timeoutMs,
    lingeringCloseBytes: nonNegative(
      "lingeringCloseBytes",
      options?.lingeringCloseBytes ?? DEFAULT_LINGERING_CLOSE_BYTES,
    ),
    lingeringCloseMs: nonNegative(
      "lingeringCloseMs",
      options?.lingeringCloseMs ?? DEFAULT_LINGERING_CLOSE_MS,
    ),
  };
  const listener = function a2aNodeListener(
    req: IncomingMessage | Http2ServerRequest,
    res: ServerResponse | Http2ServerResponse,
  ): void {
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
      const exchange = new NodeExchange(
        req,
        res,
        (req.method ?? "GET").toUpperCase(),
        path,
        query,
        settings,
      );
      void exchange.run(handler);
    } catch {
      destroyQuietly(res);
    }
  };
  listenerWrites.set(listener, settings.writes);
  return listener;
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
  /** Bytes (text: UTF-16 units) written and not yet flushed: the response's own buffer plus the socket's (HTTP/1.1) or the stream's (HTTP/2). */
  readonly writableLength: number;
  writeHead(status: number, headers: Record<string, string | string[]>): unknown;
  /** Missing from the HTTP/2 compat typings, present at runtime. */
  flushHeaders?(): void;
  /** `flushed` is called once the chunk has left the response's buffers (or with an error if it never will). */
  write(chunk: string | Uint8Array, flushed?: (error?: Error | null) => void): boolean;
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
  readonly #settings: ExchangeSettings;
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
  /** Set while this response holds bytes its client has not taken (created at the first such write). */
  #pending: PendingWrite | undefined;
  /**
   * Length of a large buffered body being written (bytes, or UTF-16 units of a text: what the write
   * buffers count): all of it stays in memory until the last chunk is flushed (the chunks are views
   * of it), so all of it counts as held until then.
   */
  #retained = 0;
  /** A chunk was flushed since the last report to #pending. */
  #progressed = false;

  constructor(
    req: NodeReq,
    res: NodeRes,
    method: string,
    path: string,
    query: string,
    settings: ExchangeSettings,
  ) {
    this.#req = req;
    this.#res = res;
    this.#settings = settings;
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
    if (req.destroyed || (this.#closed && !req.complete))
      return Promise.reject(new ClientGoneError());
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

  /** Reads and drops the rest of an oversized body, at most lingeringCloseBytes (see {@link serveNode} for when it is cut off). */
  #discard(): void {
    this.#discarding = true;
    const req = this.#req;
    const max = this.#settings.lingeringCloseBytes;
    // Without lingering, the upload is cut once the answer is out (#end).
    if (max > 0) {
      let discarded = 0;
      const onData = (chunk: Uint8Array): void => {
        discarded += chunk.byteLength;
        if (discarded > max) {
          req.off("data", onData);
          destroyQuietly(req); // an endless upload: cut
        }
      };
      req.on("data", onData);
    }
    req.on("error", ignore);
    req.resume();
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
      else await this.#writeBuffered(response);
    } catch {
      this.#fail();
    }
  }

  async #writeBuffered(response: UniversalBufferedResponse): Promise<void> {
    if (this.#closed) return;
    const headers = this.#nodeHeaders(response.headers);
    const status = response.status;
    const body = response.body;
    const bytes = typeof body === "string" ? Buffer.byteLength(body, "utf8") : body.byteLength;
    if (status !== 204 && status !== 304) headers["content-length"] = String(bytes);
    this.#res.writeHead(status, headers);
    if (body.length <= WRITE_CHUNK_BYTES) {
      this.#end(body);
      this.#account();
      return;
    }
    // What the body takes in memory until its last byte is flushed: a text with only ASCII (as many UTF-8 bytes as
    // characters) is a one-byte V8 string; any other may be a two-byte one, counted as such (2 bytes a character).
    await this.#writeChunks(
      body,
      typeof body === "string" && bytes !== body.length ? 2 * body.length : body.length,
    );
  }

  /**
   * Writes a large body a chunk at a time, the next once the previous ones were taken ("drain"). A text
   * is written in slices (encoded as they go, never copied whole), none splitting a surrogate pair.
   */
  async #writeChunks(body: string | Uint8Array, memoryBytes: number): Promise<void> {
    const res = this.#res;
    const size = body.length;
    this.#retained = memoryBytes;
    for (let offset = 0; ; ) {
      let end = Math.min(offset + WRITE_CHUNK_BYTES, size);
      let chunk: string | Uint8Array;
      if (typeof body === "string") {
        if (end < size && isHighSurrogate(body.charCodeAt(end - 1))) end--;
        chunk = body.slice(offset, end);
      } else chunk = body.subarray(offset, end);
      offset = end;
      if (end === size) {
        this.#end(chunk);
        this.#account();
        return;
      }
      const more = res.write(chunk, this.#onFlushed);
      this.#account();
      if (!more) await this.#drained();
      if (this.#closed) return;
    }
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
      const more = res.write(step.value, this.#onFlushed);
      this.#account();
      if (!more && !this.#closed) await this.#drained();
    }
    this.#iterator = undefined;
    this.#end();
    this.#account();
  }

  /** A written chunk left the buffers (or failed: then "close" follows). An arrow: one function per exchange, no allocation per write. */
  readonly #onFlushed = (): void => {
    this.#progressed = true;
    if (this.#pending !== undefined) this.#account();
  };

  /**
   * Reports what the response holds for its client to the listener's accounting (which destroys it
   * when it stalls too long or the listener holds too much). Watching starts with the first write
   * that leaves bytes behind: an answer the socket took at once costs nothing.
   */
  #account(): void {
    if (this.#closed) return;
    const buffered = this.#res.writableLength;
    if (this.#retained > 0 && buffered === 0 && this.#ended) this.#retained = 0; // all flushed: the body is free
    const held = Math.max(this.#retained, buffered);
    let pending = this.#pending;
    if (pending === undefined) {
      if (held === 0) return;
      pending = this.#pending = this.#settings.writes.watch(() => cutResponse(this.#res), {
        timeoutMs: this.#settings.writeTimeoutMs,
      });
      this.#res.on("finish", this.#onFlushed); // the last chunk of end() has no callback
    }
    const progressed = this.#progressed;
    this.#progressed = false;
    pending.update(held, progressed);
  }

  /** Resolves on "drain" or "close", whichever comes first, leaving no listener behind (the write timeout closes a stalled response). */
  #drained(): Promise<void> {
    const res = this.#res;
    return new Promise((resolve) => {
      const done = (): void => {
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
        if (
          req.httpVersionMajor === 1 &&
          this.#settings.lingeringCloseBytes > 0 &&
          this.#settings.lingeringCloseMs > 0
        ) {
          this.#linger(body);
          return;
        }
        // Cut off an upload still running once the answer is out (HTTP/2: RST_STREAM NO_ERROR, RFC 9113 §8.1).
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

  /**
   * Lingering close (HTTP/1.1): the answer is written now (its content-length lets the client read
   * it), but ended only once the rest of the body has been discarded, so that node:http closes the
   * connection (`connection: close`) with nothing unread: a close with unread data would be a reset,
   * which discards the answer at clients that read it late. Cut after lingeringCloseMs; #discard cuts
   * after lingeringCloseBytes.
   */
  #linger(body: string | Uint8Array | undefined): void {
    const req = this.#req;
    const res = this.#res;
    if (body !== undefined && body.length > 0) res.write(body);
    const timer = setTimeout(() => {
      cleanup();
      destroyQuietly(req);
    }, this.#settings.lingeringCloseMs);
    timer.unref?.();
    const onEnd = (): void => {
      cleanup();
      res.end();
    };
    const cleanup = (): void => {
      clearTimeout(timer);
      req.off("end", onEnd);
      res.off("close", cleanup);
    };
    req.on("end", onEnd);
    res.on("close", cleanup);
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
    if (this.#discarding && this.#req.httpVersionMajor === 1 && !this.#req.complete)
      headers["connection"] = "close";
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
    this.#pending?.close();
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

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

/** NGHTTP2_CANCEL: "the stream is no longer needed". */
const HTTP2_CANCEL = 8;

/**
 * Ends a response its client does not take: HTTP/1.1 closes the connection; HTTP/2 resets the
 * stream with CANCEL (a plain destroy would reset it with NO_ERROR, which reads as a complete answer).
 */
function cutResponse(res: NodeRes): void {
  const stream = (res as { stream?: { close?(code: number): void } }).stream;
  if (typeof stream?.close === "function") {
    try {
      stream.close(HTTP2_CANCEL);
      return;
    } catch {
      // fall through
    }
  }
  destroyQuietly(res);
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
