// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Server-sent events (WHATWG HTML §9.2): the server side encodes events and
 * interleaves keep-alive comments, the client side parses a response body into
 * events with the EventSource parsing rules (no reconnection: that is the
 * caller's business).
 *
 * Part of the runtime library, exported by `@protoc-gen-a2a/runtime/http`; the JSON-RPC and HTTP+JSON
 * servers and clients stream with it. A leaf module: it imports nothing.
 */

// ---------------------------------------------------------------------------
// Server side
// ---------------------------------------------------------------------------

/** Response headers of an SSE stream (no `connection` header: it is forbidden in HTTP/2). */
export const SSE_HEADERS: readonly (readonly [string, string])[] = Object.freeze([
  Object.freeze(["content-type", "text/event-stream"] as const),
  Object.freeze(["cache-control", "no-cache"] as const),
  Object.freeze(["x-accel-buffering", "no"] as const),
]);

/** The comment chunk {@link withKeepAlive} sends while the stream is idle. */
export const SSE_KEEP_ALIVE = ": keep-alive\n\n";

const LINE_BREAK = /\r\n|\r|\n/;

/**
 * Encodes one event: optional `event:` and `id:` lines, one `data:` line per line
 * of `data` (split on CRLF, CR or LF, since each is a line end to the parser),
 * then the blank line that dispatches it.
 *
 * Throws a `RangeError` when `event` or `id` contains a line break (it would
 * inject fields) or `id` contains NUL (the parser would ignore it).
 */
export function encodeSseEvent(
  data: string,
  options?: { readonly event?: string; readonly id?: string },
): string {
  let head = "";
  if (options !== undefined) {
    const { event, id } = options;
    if (event !== undefined) {
      if (LINE_BREAK.test(event))
        throw new RangeError("SSE event type must not contain a line break");
      head = `event: ${event}\n`;
    }
    if (id !== undefined) {
      if (LINE_BREAK.test(id) || id.includes("\0"))
        throw new RangeError("SSE id must not contain a line break or NUL");
      head += `id: ${id}\n`;
    }
  }
  // Fast path: JSON text never holds a raw line break.
  if (data.indexOf("\n") < 0 && data.indexOf("\r") < 0) return `${head}data: ${data}\n\n`;
  return `${head}data: ${data.split(LINE_BREAK).join("\ndata: ")}\n\n`;
}

/**
 * Interleaves {@link SSE_KEEP_ALIVE} comments into `events` whenever no event has
 * come for `intervalMs` while waiting for the next one (proxies and load balancers
 * drop idle connections). `intervalMs <= 0` turns keep-alives off.
 *
 * When `signal` aborts, iteration ends (`done`) and the source is returned.
 * `return()` on the result calls `return()` on the source (so a generator's
 * `finally` runs) and settles a pending `next()` with `done` at once. The timer is
 * cleared on completion, error, `return()` and abort. Meant for one consumer
 * calling `next()` sequentially (as `for await` does); overlapping calls are
 * queued.
 *
 * If `return()` comes while a `next()` of the source is still pending, the source's
 * `return()` is requested but not awaited (an async generator would only act on it
 * once its pending step settles; the caller must not hang on that).
 */
export function withKeepAlive(
  events: AsyncIterable<string>,
  intervalMs: number,
  signal?: AbortSignal,
): AsyncIterable<string> {
  if (!(intervalMs > 0) && signal === undefined) return events;
  return {
    [Symbol.asyncIterator]: () =>
      new KeepAliveIterator<string>(
        events[Symbol.asyncIterator](),
        clampInterval(intervalMs),
        signal,
        undefined,
      ),
  };
}

/** How {@link encodeEventStream} turns a source's items and failure into SSE chunks. */
export interface EventStreamEncoding<T> {
  /** One item as a complete SSE chunk (see {@link encodeSseEvent}); a throw ends the stream as a source error would (the source is returned). */
  encode(item: T): string;
  /** The final chunk for a source error (or a throwing `encode`); the stream ends after it. A throw here rejects the pending `next()`. */
  encodeError(error: unknown): string;
  /** Where an error of the source's `return()` goes (the stream has ended for its consumer already). */
  onReturnError?(error: unknown): void;
}

/**
 * The SSE chunks of a source of items, with keep-alives as {@link withKeepAlive} interleaves
 * them, in one iterator (no async generator between the source and the writer: one promise
 * per chunk). `first`, when given, is a step already read from `source` (it is handed out
 * first). Everything else is as for {@link withKeepAlive}: `signal` ends it, `return()` ends it
 * at once and returns the source (without waiting when one of its steps is pending).
 */
export function encodeEventStream<T>(
  source: AsyncIterator<T>,
  encoding: EventStreamEncoding<T>,
  intervalMs: number,
  signal?: AbortSignal,
  first?: IteratorResult<T>,
): AsyncIterable<string> {
  const iterator = new KeepAliveIterator<T>(
    source,
    clampInterval(intervalMs),
    signal,
    encoding,
    first,
  );
  return { [Symbol.asyncIterator]: () => iterator };
}

type Step = IteratorResult<string, undefined>;

/** setTimeout's largest delay; longer ones fire at once. */
const MAX_TIMEOUT = 2_147_483_647;

const clampInterval = (intervalMs: number): number =>
  intervalMs > 0 ? Math.min(intervalMs, MAX_TIMEOUT) : 0;

const DONE: Step = Object.freeze({ done: true, value: undefined });
const KEEP_ALIVE_STEP: Step = Object.freeze({ done: false, value: SSE_KEEP_ALIVE });

function ignore(): void {}

/** A step for the consumer, or the error its `next()` rejects with. */
type Outcome = { ok: true; step: IteratorYieldResult<string> } | { ok: false; error: unknown };

/**
 * See {@link withKeepAlive} and {@link encodeEventStream}. One timer per stream, armed
 * (`refresh()`) when a wait starts and left to fire harmlessly when a step came first:
 * nothing is allocated or cleared per chunk.
 */
class KeepAliveIterator<T> implements AsyncIterator<string, undefined> {
  readonly #source: AsyncIterator<T>;
  readonly #intervalMs: number;
  readonly #signal: AbortSignal | undefined;
  /** undefined: the items are the chunks. */
  readonly #encoding: EventStreamEncoding<T> | undefined;
  #finished = false;
  /** A source `next()` is in flight. */
  #inFlight = false;
  /** What arrived while nobody waited (after a keep-alive was handed out, or the `first` step). */
  #buffered: Outcome | undefined;
  #resolve: ((step: Step) => void) | undefined;
  #reject: ((error: unknown) => void) | undefined;
  /** Created on the first wait; re-armed by each later one (`refresh()`, or a new timer where timers are numbers); fires a keep-alive only while a `next()` waits. */
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** The last promise handed out, to queue overlapping `next()` calls. */
  #last: Promise<Step> | undefined;
  readonly #onAbort = (): void => {
    this.#finish();
    this.#returnSource();
  };
  readonly #onTimer = (): void => {
    this.#settle(KEEP_ALIVE_STEP);
  };
  readonly #onStep = (step: IteratorResult<T>): void => {
    this.#inFlight = false;
    if (this.#finished) return;
    if (step.done) {
      this.#finish(); // hands `done` to a waiting next(); later calls see #finished
      return;
    }
    let chunk: string;
    if (this.#encoding === undefined) chunk = step.value as unknown as string;
    else {
      try {
        chunk = this.#encoding.encode(step.value);
      } catch (error) {
        this.#returnSource();
        this.#fail(error);
        return;
      }
    }
    const out: IteratorYieldResult<string> = { done: false, value: chunk };
    if (this.#resolve !== undefined) this.#settle(out);
    else this.#buffered = { ok: true, step: out };
  };
  readonly #onError = (error: unknown): void => {
    this.#inFlight = false;
    if (this.#finished) return;
    this.#fail(error);
  };

  constructor(
    source: AsyncIterator<T>,
    intervalMs: number,
    signal: AbortSignal | undefined,
    encoding: EventStreamEncoding<T> | undefined,
    first?: IteratorResult<T>,
  ) {
    this.#source = source;
    this.#intervalMs = intervalMs;
    this.#signal = signal;
    this.#encoding = encoding;
    if (first !== undefined) this.#onStep(first);
    if (signal !== undefined && !this.#finished) {
      if (signal.aborted) this.#onAbort();
      else signal.addEventListener("abort", this.#onAbort, { once: true });
    }
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<Step> {
    if (this.#resolve !== undefined && this.#last !== undefined) {
      // Overlapping call: wait for the previous one.
      const p = this.#last.then(
        () => this.next(),
        () => this.next(),
      );
      this.#last = p;
      return p;
    }
    const buffered = this.#buffered;
    if (buffered !== undefined) {
      this.#buffered = undefined;
      if (!buffered.ok) return Promise.reject(buffered.error);
      return Promise.resolve(buffered.step);
    }
    if (this.#finished) return Promise.resolve(DONE);
    const p = new Promise<Step>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    this.#last = p;
    if (!this.#inFlight) {
      this.#inFlight = true;
      let pending: Promise<IteratorResult<T>>;
      try {
        pending = this.#source.next();
      } catch (error) {
        this.#onError(error);
        return p;
      }
      pending.then(this.#onStep, this.#onError);
    }
    // The step may have settled synchronously above (sync throw); only arm the timer while waiting.
    if (this.#resolve !== undefined && this.#intervalMs > 0) {
      const timer = this.#timer as { refresh?: () => unknown } | number | undefined;
      if (timer === undefined) this.#timer = setTimeout(this.#onTimer, this.#intervalMs);
      else if (typeof timer === "object" && typeof timer.refresh === "function") timer.refresh();
      else {
        // Workers and browsers: setTimeout gives a number, with nothing to re-arm.
        clearTimeout(this.#timer);
        this.#timer = setTimeout(this.#onTimer, this.#intervalMs);
      }
    }
    return p;
  }

  async return(): Promise<Step> {
    const wasFinished = this.#finished;
    this.#finish();
    if (!wasFinished) {
      if (this.#inFlight) this.#returnSource();
      else if (this.#encoding?.onReturnError === undefined) await this.#source.return?.();
      else {
        try {
          await this.#source.return?.();
        } catch (error) {
          this.#encoding.onReturnError(error);
        }
      }
    }
    return DONE;
  }

  /** Hands `step` to the waiting `next()` (nothing when none waits). */
  #settle(step: Step): void {
    const resolve = this.#resolve;
    if (resolve === undefined) return;
    this.#resolve = this.#reject = undefined;
    resolve(step);
  }

  /** The source failed (or encoding did): the error, or its final chunk, goes to the consumer; then done. */
  #fail(error: unknown): void {
    this.#finish(false);
    let outcome: Outcome;
    if (this.#encoding === undefined) outcome = { ok: false, error };
    else {
      try {
        outcome = { ok: true, step: { done: false, value: this.#encoding.encodeError(error) } };
      } catch (e) {
        outcome = { ok: false, error: e };
      }
    }
    const resolve = this.#resolve;
    const reject = this.#reject;
    if (resolve === undefined || reject === undefined) {
      this.#buffered = outcome;
      return;
    }
    this.#resolve = this.#reject = undefined;
    if (outcome.ok) resolve(outcome.step);
    else reject(outcome.error);
  }

  /** Ends iteration: no timer, no abort listener, a pending `next()` gets `done`. */
  #finish(settlePending = true): void {
    this.#finished = true;
    this.#buffered = undefined;
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    this.#signal?.removeEventListener("abort", this.#onAbort);
    if (settlePending) this.#settle(DONE);
  }

  /** Asks the source to stop without waiting for it; its errors are ignored (or reported to `onReturnError`). */
  #returnSource(): void {
    const report = this.#encoding?.onReturnError;
    const onError = report === undefined ? ignore : (e: unknown) => report(e);
    try {
      const r = this.#source.return?.();
      if (r !== undefined) r.then(ignore, onError);
    } catch (e) {
      onError(e); // the source is gone either way
    }
  }
}

// ---------------------------------------------------------------------------
// Client side
// ---------------------------------------------------------------------------

/** One dispatched server-sent event. */
export interface SseEvent {
  /** The event type; "message" when the event had no `event:` field. */
  readonly event: string;
  /** The `data:` lines joined with "\n". */
  readonly data: string;
  /** The last event ID at dispatch (it carries over between events, per spec); undefined when none or reset to "". */
  readonly id: string | undefined;
}

/**
 * Incremental EventSource parser (WHATWG HTML §9.2.6) over decoded text.
 * Feed text with {@link SseParser.push}; complete events are appended to `out`.
 * Call sites hand it text from a streaming `TextDecoder`, which drops a leading BOM.
 */
export class SseParser {
  /** Text of the unterminated last line. */
  #pending = "";
  /** The previous chunk ended with CR: a LF at the start of the next one belongs to it. */
  #skipLf = false;
  #data = "";
  #hasData = false;
  #type = "";
  #lastId = "";

  /** Parses `text` (any split), appending the events it completes to `out`. */
  push(text: string, out: SseEvent[]): void {
    const n = text.length;
    if (n === 0) return;
    let i = 0;
    if (this.#skipLf) {
      this.#skipLf = false;
      if (text.charCodeAt(0) === 10) i = 1;
    }
    let start = i;
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      let line = text.slice(start, i);
      if (this.#pending !== "") {
        line = this.#pending + line;
        this.#pending = "";
      }
      this.#line(line, out);
      if (c === 13) {
        if (i + 1 < n) {
          if (text.charCodeAt(i + 1) === 10) i++;
        } else this.#skipLf = true;
      }
      start = i + 1;
    }
    if (start < n) this.#pending += text.slice(start);
  }

  #line(line: string, out: SseEvent[]): void {
    if (line === "") {
      if (this.#hasData)
        out.push({
          event: this.#type === "" ? "message" : this.#type,
          data: this.#data,
          id: this.#lastId === "" ? undefined : this.#lastId,
        });
      this.#data = "";
      this.#hasData = false;
      this.#type = "";
      return;
    }
    if (line.charCodeAt(0) === 58 /* : */) return; // comment
    const colon = line.indexOf(":");
    let field: string;
    let value: string;
    if (colon < 0) {
      field = line;
      value = "";
    } else {
      field = line.slice(0, colon);
      value = line.slice(line.charCodeAt(colon + 1) === 32 ? colon + 2 : colon + 1);
    }
    switch (field) {
      case "data":
        if (this.#hasData) this.#data += "\n" + value;
        else {
          this.#data = value;
          this.#hasData = true;
        }
        break;
      case "event":
        this.#type = value;
        break;
      case "id":
        if (!value.includes("\0")) this.#lastId = value;
        break;
      // "retry" and unknown fields are ignored: this parser does not reconnect.
    }
  }
}

/** What `read()` of a reader or `next()` of an iterator resolves to. */
interface ChunkResult {
  readonly done?: boolean | undefined;
  readonly value?: Uint8Array | undefined;
}

interface ChunkSource {
  read(): Promise<ChunkResult>;
  /** Stops the source (idempotent, never throws); a pending `read()` settles. */
  cancel(reason?: unknown): void;
  /** Releases locks once nothing is pending. */
  release(): void;
}

class StreamSource implements ChunkSource {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  #cancelled = false;
  constructor(stream: ReadableStream<Uint8Array>) {
    this.#reader = stream.getReader();
  }
  read(): Promise<ChunkResult> {
    return this.#reader.read();
  }
  cancel(reason?: unknown): void {
    if (this.#cancelled) return;
    this.#cancelled = true;
    this.#reader.cancel(reason).then(ignore, ignore);
  }
  release(): void {
    try {
      this.#reader.releaseLock();
    } catch {
      // a read still pending (abort while reading): the cancel settles it
    }
  }
}

class IterableSource implements ChunkSource {
  readonly #iterator: AsyncIterator<Uint8Array>;
  readonly #interruptible: boolean;
  #reject: ((reason: unknown) => void) | undefined;
  #cancelled = false;
  constructor(iterable: AsyncIterable<Uint8Array>, interruptible: boolean) {
    this.#iterator = iterable[Symbol.asyncIterator]();
    this.#interruptible = interruptible;
  }
  read(): Promise<ChunkResult> {
    if (!this.#interruptible) return this.#iterator.next();
    // An async generator's return() waits for its pending step: let an abort interrupt the wait.
    return new Promise((resolve, reject) => {
      this.#reject = reject;
      this.#iterator.next().then(resolve, reject);
    });
  }
  cancel(reason?: unknown): void {
    if (this.#cancelled) return;
    this.#cancelled = true;
    this.#reject?.(reason);
    try {
      const r = this.#iterator.return?.();
      if (r !== undefined) r.then(ignore, ignore);
    } catch {
      // ignore
    }
  }
  release(): void {}
}

/**
 * Parses an SSE response body into events, following the EventSource rules:
 * lines end with CRLF, LF or CR (chunks may split anywhere, also inside CRLF or
 * a UTF-8 sequence); a leading BOM is dropped; `data:` lines are joined with
 * "\n"; one space after the colon is removed; comment lines are ignored; a blank
 * line dispatches; an event without `data:` lines is not dispatched; an event not
 * followed by a blank line when the stream ends is discarded.
 *
 * If the consumer stops early (`break`, `return()`), the underlying reader is
 * cancelled (or the iterable's `return()` called). If `signal` aborts, the body is
 * cancelled and iteration throws `signal.reason`.
 */
export async function* parseSse(
  body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>,
  signal?: AbortSignal,
): AsyncGenerator<SseEvent, void, undefined> {
  signal?.throwIfAborted();
  const source: ChunkSource =
    typeof (body as Partial<ReadableStream<Uint8Array>>).getReader === "function"
      ? new StreamSource(body as ReadableStream<Uint8Array>)
      : new IterableSource(body as AsyncIterable<Uint8Array>, signal !== undefined);
  const onAbort = (): void => source.cancel(signal?.reason);
  signal?.addEventListener("abort", onAbort, { once: true });
  const decoder = new TextDecoder("utf-8");
  const parser = new SseParser();
  const events: SseEvent[] = [];
  let complete = false;
  try {
    for (;;) {
      const { done, value } = await source.read();
      signal?.throwIfAborted();
      if (done) {
        complete = true;
        return; // a trailing unterminated event is discarded (spec)
      }
      if (value === undefined || value.byteLength === 0) continue;
      parser.push(decoder.decode(value, { stream: true }), events);
      for (let i = 0; i < events.length; i++) yield events[i]!;
      events.length = 0;
    }
  } finally {
    signal?.removeEventListener("abort", onAbort);
    if (!complete) source.cancel();
    source.release();
  }
}
