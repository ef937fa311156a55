// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Server-streaming operations over HTTP as Server-Sent Events, shared by the JSON-RPC
 * and HTTP+JSON servers (they differ only in how an event and an error are framed).
 */
import type { Message } from "@bufbuild/protobuf";
import type { A2AError } from "../a2a-error.js";
import type { UniversalResponse } from "./universal.js";
import { SSE_HEADERS, withKeepAlive } from "./sse.js";

/** How one binding frames its stream. */
export interface EventStreamFraming {
  /** One event, as a complete SSE chunk. */
  encodeEvent(event: Message): string;
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
 * generator, which asks the handler's iterator to stop without waiting for it (it may
 * be blocked on something only the abort signal ends).
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
  async function* sse(): AsyncGenerator<string> {
    let done = first.done === true;
    try {
      if (!done) yield framing.encodeEvent(first.value as Message);
      while (!done) {
        const next = await iterator.next();
        done = next.done === true;
        if (!done) yield framing.encodeEvent(next.value);
      }
    } catch (e) {
      done = true;
      yield framing.encodeError(framing.toError(e));
    } finally {
      if (!done) iterator.return?.().catch((e: unknown) => framing.logCleanupError(e));
    }
  }
  return { status: 200, headers: [...SSE_HEADERS, ...headers], stream: withKeepAlive(sse(), keepAliveMs, signal) };
}
