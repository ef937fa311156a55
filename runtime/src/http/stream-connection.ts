// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Reading one connection of a stream in the HTTP clients (JSON-RPC, HTTP+JSON): what broke the
 * connection is told apart from what ended or failed the stream, for stream-resume.ts.
 */
import { parseSse, type SseEvent } from "./sse.js";
import { StreamConnectionLost } from "./stream-resume.js";

/** A parsed SSE event, with whether it carried its own id. */
export interface ReceivedSseEvent extends SseEvent {
  /**
   * The event's own `id:` field. The parser carries the last id over to events without one (as
   * EventSource does); an id equal to the previous event's counts as carried over, not as the event's own.
   */
  readonly ownId: string | undefined;
}

/**
 * The events of an SSE response body. A failure to read it (a reset, a body cut short, a network
 * error) throws {@link StreamConnectionLost} with that failure as its cause, unless `signal` (the
 * call's, which the fetch got) aborted: then the failure is thrown as is.
 */
export async function* sseEvents(
  body: ReadableStream<Uint8Array>,
  signal?: AbortSignal,
): AsyncGenerator<ReceivedSseEvent> {
  const events = parseSse(body);
  let previous: string | undefined;
  try {
    for (;;) {
      let step: IteratorResult<SseEvent, void>;
      try {
        step = await events.next();
      } catch (e) {
        throw lost(e, signal);
      }
      if (step.done === true) return;
      const event = step.value;
      const ownId = event.id !== previous ? event.id : undefined;
      previous = event.id;
      yield { event: event.event, data: event.data, id: event.id, ownId };
    }
  } finally {
    await events.return();
  }
}

/** The text of a (non-SSE) response body; a failure to read it throws as {@link sseEvents} says. */
export async function readText(
  response: Response,
  signal: AbortSignal | undefined,
): Promise<string> {
  try {
    return await response.text();
  } catch (e) {
    throw lost(e, signal);
  }
}

/** `thrown`, a connection failure, as {@link StreamConnectionLost}; as is when `signal` aborted (abort, timeout). */
export function lost(thrown: unknown, signal: AbortSignal | undefined): unknown {
  return signal?.aborted === true ? thrown : new StreamConnectionLost(thrown);
}

/** Whether an HTTP status is a gateway's: the agent is not reachable now (502, 503, 504); a resumption retries it. */
export function isGatewayFailure(status: number): boolean {
  return status === 502 || status === 503 || status === 504;
}
