// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * What the HTTP clients (JSON-RPC, HTTP+JSON, and the 0.3 JSON-RPC client) share around `fetch`:
 * sending a request, sending a unary call, opening one connection of a stream, reading its SSE
 * events, and running a stream call with resumption (stream-resume.ts).
 */
import type { MessageShape } from "@bufbuild/protobuf";
import { callSignal, unreachableError, type CallOptions } from "../client/call-options.js";
import type { ErrorRegistry } from "../errors/a2a-error.js";
import type { OperationDescriptor } from "../protocol/operation.js";
import { afterDrop } from "./stream-end.js";
import { lost, sseEvents, type ReceivedSseEvent } from "./stream-connection.js";
import {
  RESUMABLE_STREAM_OPERATIONS,
  resumableStream,
  resumeSettings,
  type ReceivedEvent,
  type ResumableStreamClientOptions,
  type ResumePoint,
} from "./stream-resume.js";

/** One HTTP request of a client: the fetch to send it with, what it sends, and the error registry. */
export interface ClientRequest {
  /** The client's fetch. */
  readonly fetch: typeof globalThis.fetch;
  /** The request URL. */
  readonly url: string;
  /** The HTTP method. */
  readonly method: string;
  /** The request headers. */
  readonly headers: Record<string, string>;
  /** The request body; undefined: none. */
  readonly body: string | undefined;
  /** The registry that builds the error of an unreachable agent. */
  readonly errors: ErrorRegistry;
}

/**
 * Sends `request` with `signal`. A fetch that fails (no connection, abort, timeout) throws what
 * `failed` makes of its error ({@link unreachableError}); default: that error.
 */
export async function sendRequest(
  request: ClientRequest,
  signal: AbortSignal | undefined,
  failed: (error: unknown) => unknown = (error) => error,
): Promise<Response> {
  const { fetch } = request;
  try {
    return await fetch(request.url, {
      method: request.method,
      headers: request.headers,
      ...(request.body !== undefined ? { body: request.body } : {}),
      signal: signal ?? null,
    });
  } catch (e) {
    throw failed(unreachableError(request.errors, e, signal));
  }
}

/**
 * Sends a unary call with the call's signal and timeout (`timeoutMs`: the client's default) and
 * hands its response headers to `onHeaders`. `cleanup` ends the timeout once the body is read.
 */
export async function sendCall(
  request: ClientRequest,
  options: CallOptions | undefined,
  timeoutMs: number | undefined,
): Promise<{ response: Response; cleanup: () => void }> {
  const { signal, cleanup } = callSignal(options?.signal, options?.timeoutMs ?? timeoutMs);
  const response = await sendRequest(request, signal, (error) => {
    cleanup();
    return error;
  });
  options?.onHeaders?.(response.headers);
  return { response, cleanup };
}

/**
 * Opens one connection of a stream (`resuming`: a resumption, whose headers `onHeaders` does not
 * get). A failure to connect throws StreamConnectionLost (stream-resume.ts), unless `signal` aborted.
 */
export async function openStreamConnection(
  request: ClientRequest,
  options: CallOptions | undefined,
  signal: AbortSignal | undefined,
  resuming: boolean,
): Promise<Response> {
  const response = await sendRequest(request, signal, (error) => lost(error, signal));
  if (!resuming) options?.onHeaders?.(response.headers);
  return response;
}

/** Whether a response is an SSE stream (its Content-Type is `text/event-stream`). */
export function isEventStream(response: Response): boolean {
  const type = response.headers.get("content-type") ?? "";
  return type.toLowerCase().startsWith("text/event-stream");
}

/** The SSE events of a response body that carry data (none when it has no body), as {@link sseEvents}. */
export async function* dataEvents(
  response: Response,
  signal: AbortSignal | undefined,
): AsyncGenerator<ReceivedSseEvent> {
  if (response.body === null) return;
  for await (const event of sseEvents(response.body, signal)) {
    if (event.data === "") continue;
    yield event;
  }
}

/**
 * The events of a stream call, with the call's signal and timeout (`client.timeoutMs`: the
 * default), resumed after drops when `operation` is one whose streams are and `client.resumeStreams`
 * lets it (see stream-resume.ts). `open` opens one connection (as an OpenStreamConnection does).
 */
export async function* resumableCall<I extends OperationDescriptor>(
  operation: I,
  client: ResumableStreamClientOptions & { readonly timeoutMs?: number | undefined },
  options: CallOptions | undefined,
  open: (
    resume: ResumePoint | undefined,
    signal: AbortSignal | undefined,
  ) => AsyncIterable<ReceivedEvent<MessageShape<I["output"]>>>,
): AsyncGenerator<MessageShape<I["output"]>> {
  const settings = RESUMABLE_STREAM_OPERATIONS.includes(operation.name)
    ? resumeSettings(client.resumeStreams)
    : undefined;
  const { signal, cleanup } = callSignal(options?.signal, options?.timeoutMs ?? client.timeoutMs);
  try {
    yield* resumableStream(
      (resume) => open(resume, signal),
      settings,
      signal,
      (event) => afterDrop(operation.name, operation.output, event),
    );
  } finally {
    cleanup();
  }
}
