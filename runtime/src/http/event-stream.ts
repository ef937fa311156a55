// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Server-streaming operations over HTTP as Server-Sent Events, shared by the JSON-RPC
 * and HTTP+JSON servers (they differ only in how an event and an error are framed).
 */
import type { Message } from "@bufbuild/protobuf";
import type { A2AError } from "../errors/a2a-error.js";
import type { UniversalResponse } from "./universal.js";
import { SSE_HEADERS, encodeEventStream, type EventStreamEncoding } from "./sse.js";
import { isImmutable } from "../pipeline/binding-call.js";
import { eventIdOf } from "../task/event-ids.js";

/**
 * The text of events shared between streams, per event object: one per binding and output
 * type (the text must not depend on the stream). See {@link SharedEventEncoding}.
 */
export type EventTextCache = WeakMap<Message, string>;

/** A cache for {@link SharedEventEncoding.cache}; make one per binding and output type, once (not per call). */
export function createEventTextCache(): EventTextCache {
  return new WeakMap();
}

/**
 * How a binding encodes an event in two parts: the text every stream shares (its ProtoJSON as
 * JSON text, say) and the stream's own framing around it (a JSON-RPC envelope with the request's
 * id, the SSE `data:` line). The task runtime hands every subscriber of a task the very same event
 * object when the call comes through a binding (binding-call.ts) and marks it immutable, so with
 * 10,000 subscribers the shared text is computed once instead of 10,000 times; an event seen by one
 * stream only costs a cache entry. Only events marked with `markImmutable` share their text: any
 * other message (a handler that yields one object, changes it and yields it again, to one stream or
 * to several) is encoded afresh every time.
 */
export interface SharedEventEncoding {
  /** Where the shared texts are kept ({@link createEventTextCache}, one per binding and output type). */
  readonly cache: EventTextCache;
  /** The text of `event` every stream shares. */
  text(event: Message): string;
  /** This stream's complete SSE chunk around the shared `text`. */
  frame(text: string): string;
}

/** How one binding frames its stream. */
export interface EventStreamFraming {
  /** One event, as a complete SSE chunk of one event ({@link openEventStream} puts the event's `id:` line before it). */
  encodeEvent(event: Message): string;
  /** When given, events are encoded through it (and `encodeEvent` is not called): see `SharedEventEncoding`. */
  readonly shared?: SharedEventEncoding | undefined;
  /** A final error event, as a complete SSE chunk. */
  encodeError(error: A2AError): string;
  /** The plain error response for an error before the first event. */
  respondError(error: A2AError): UniversalResponse;
  /** Anything thrown, as an A2A error (logging what it hides). */
  toError(thrown: unknown): A2AError;
  /** Where a failed clean-up is reported. */
  logCleanupError(thrown: unknown): void;
}

/**
 * Starts an SSE response for a handler's event stream. The first event is awaited
 * before anything is sent, so an error before it is a plain error response; a later
 * error becomes a final error event. When the client goes away the adapter returns the
 * stream, which asks the handler's iterator to stop without waiting for it (it may
 * be blocked on something only the abort signal ends).
 *
 * An event marked with an id (`setEventId`, task/event-ids.ts; the task runtime marks every event
 * it hands out) goes out with an `id:` line before the framing's chunk (which must be one event),
 * so a client that lost the stream can resume it with `Last-Event-ID`; an id SSE cannot carry (CR,
 * LF, NUL) is left out. The id is added per chunk, never part of the text streams share: the cached
 * text is right whatever the id, and an event marked after it was first encoded still gets it.
 *
 * Events are encoded as they arrive, by one iterator that also interleaves the
 * keep-alives (`encodeEventStream`): no async generator sits between the
 * handler's iterator and the writer, so a chunk costs one promise, not a chain of them
 * (it matters when one event fans out to thousands of streams).
 */
export async function openEventStream(
  events: AsyncIterable<Message>,
  framing: EventStreamFraming,
  headers: readonly (readonly [string, string])[],
  keepAliveMs: number,
  signal: AbortSignal,
): Promise<UniversalResponse> {
  let iterator: AsyncIterator<Message>;
  let first: IteratorResult<Message>;
  try {
    iterator = events[Symbol.asyncIterator]();
    first = await iterator.next();
  } catch (e) {
    return framing.respondError(framing.toError(e));
  }
  const encode =
    framing.shared === undefined
      ? (event: Message) => framing.encodeEvent(event)
      : sharedEncoder(framing.shared);
  const encoding: EventStreamEncoding<Message> = {
    encode: (event) => withIdField(event, encode(event)),
    encodeError: (e) => framing.encodeError(framing.toError(e)),
    onReturnError: (e) => framing.logCleanupError(e),
  };
  return {
    status: 200,
    headers: [...SSE_HEADERS, ...headers],
    stream: encodeEventStream(iterator, encoding, keepAliveMs, signal, first),
  };
}

/** `chunk` with the `id:` field of `event` first, when it was marked with an id SSE can carry. */
function withIdField(event: Message, chunk: string): string {
  const id = eventIdOf(event);
  if (id === undefined || /[\r\n\0]/.test(id)) return chunk;
  return `id: ${id}\n${chunk}`;
}

/** One stream's encoder over a {@link SharedEventEncoding}: only events marked immutable (binding-call.ts) share their text. */
function sharedEncoder(shared: SharedEventEncoding): (event: Message) => string {
  let last: Message | undefined;
  return (event) => {
    if (!isImmutable(event)) return shared.frame(shared.text(event));
    let text = event === last ? undefined : shared.cache.get(event);
    if (text === undefined) {
      text = shared.text(event);
      shared.cache.set(event, text);
    }
    last = event;
    return shared.frame(text);
  };
}
