// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * What the HTTP clients (JSON-RPC, HTTP+JSON, and the 0.3 JSON-RPC client) share around `fetch`:
 * sending a request, making a unary call, reading one connection of a stream (its SSE events or a
 * plain answer), and running a stream call with resumption (stream-resume.ts).
 */
import type { JsonObject, JsonValue, MessageShape } from "@bufbuild/protobuf";
import { callSignal, unreachableError, type CallOptions } from "../client/call-options.js";
import type { ErrorRegistry } from "../errors/a2a-error.js";
import type { OperationDescriptor } from "../protocol/operation.js";
import { afterDrop } from "./stream-end.js";
import {
  isGatewayFailure,
  lost,
  readText,
  sseEvents,
  type ReceivedSseEvent,
} from "./stream-connection.js";
import {
  RESUMABLE_STREAM_OPERATIONS,
  RESUME_OPERATION,
  StreamConnectionLost,
  resumableStream,
  resumeSettings,
  type ReceivedEvent,
  type ResumableStreamClientOptions,
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
 * A unary call: sends `request` with the call's signal and timeout (`timeoutMs`: the client's
 * default), hands its response headers to `onHeaders`, and returns what `read` makes of the
 * response and its body text. The timeout ends once `read` is done.
 */
export async function unaryCall<T>(
  request: ClientRequest,
  options: CallOptions | undefined,
  timeoutMs: number | undefined,
  read: (response: Response, text: string) => T,
): Promise<T> {
  const { signal, cleanup } = callSignal(options?.signal, options?.timeoutMs ?? timeoutMs);
  const response = await sendRequest(request, signal, (error) => {
    cleanup();
    return error;
  });
  options?.onHeaders?.(response.headers);
  try {
    return read(response, await response.text());
  } finally {
    cleanup();
  }
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

/** How a client reads the answer of one connection of a stream ({@link connectionEvents}). */
export interface StreamAnswer<T> {
  /** Whether `response` is the stream of events; any other answer is read as a plain one. */
  isStream(response: Response): boolean;
  /** A plain answer (`text`: its body): the one message a server may answer with, or its error, thrown. */
  plain(response: Response, text: string): T;
  /** The error a gateway's 502/503/504 answer to a resumption is, as the cause of StreamConnectionLost. */
  gatewayFailure(status: number, text: string): unknown;
  /** The message of one SSE event (or its error, thrown). */
  event(event: ReceivedSseEvent): T;
}

/**
 * The events of one connection of a stream (`lastEventId` set: a resumption), as `answer` reads
 * them. A connection that breaks throws {@link StreamConnectionLost}: while connecting, while
 * reading the body, or, for a resumption, with a gateway's 502/503/504.
 */
export async function* connectionEvents<T>(
  request: ClientRequest,
  options: CallOptions | undefined,
  signal: AbortSignal | undefined,
  lastEventId: string | undefined,
  answer: StreamAnswer<T>,
): AsyncGenerator<ReceivedEvent<T>> {
  const resuming = lastEventId !== undefined;
  const response = await openStreamConnection(request, options, signal, resuming);
  if (!answer.isStream(response)) {
    const text = await readText(response, signal);
    if (resuming && isGatewayFailure(response.status))
      throw new StreamConnectionLost(answer.gatewayFailure(response.status, text));
    yield { message: answer.plain(response, text), id: undefined };
    return;
  }
  for await (const event of dataEvents(response, signal)) {
    yield { message: answer.event(event), id: event.ownId };
  }
}

/**
 * The events of a stream call, with the call's signal and timeout (`client.timeoutMs`: the
 * default), resumed after drops when `operation` is one whose streams are and `client.resumeStreams`
 * lets it (see stream-resume.ts). `request` makes the request's ProtoJSON (checked: it throws before
 * anything is sent), once, when the stream starts; `open` opens one connection (as an
 * OpenStreamConnection does) of `operation` with it, or of the resumption: a SubscribeToTask of the
 * task (with the same output, the stream's events) after event `lastEventId`.
 */
export async function* resumableCall<I extends OperationDescriptor, J extends JsonValue>(
  operation: I,
  client: ResumableStreamClientOptions & { readonly timeoutMs?: number | undefined },
  options: CallOptions | undefined,
  request: () => J,
  open: (
    operation: I,
    request: J | JsonObject,
    signal: AbortSignal | undefined,
    lastEventId: string | undefined,
  ) => AsyncIterable<ReceivedEvent<MessageShape<I["output"]>>>,
): AsyncGenerator<MessageShape<I["output"]>> {
  const json = request();
  const settings = RESUMABLE_STREAM_OPERATIONS.includes(operation.name)
    ? resumeSettings(client.resumeStreams)
    : undefined;
  const { signal, cleanup } = callSignal(options?.signal, options?.timeoutMs ?? client.timeoutMs);
  // The name picks the JSON-RPC method, or the REST routes and request shape.
  const subscribe: I = { ...operation, name: RESUME_OPERATION, localName: "subscribeToTask" };
  try {
    yield* resumableStream(
      (resume) =>
        resume === undefined
          ? open(operation, json, signal, undefined)
          : open(subscribe, resumeRequest(resume.taskId, json), signal, resume.id),
      settings,
      signal,
      (event) => afterDrop(operation.name, operation.output, event),
    );
  } finally {
    cleanup();
  }
}

/** The SubscribeToTask request (ProtoJSON) that resumes a stream of task `taskId`: with the original request's tenant. */
function resumeRequest(taskId: string, original: JsonValue): JsonObject {
  const isObject = typeof original === "object" && original !== null && !Array.isArray(original);
  const tenant = isObject ? original["tenant"] : undefined;
  return typeof tenant === "string" && tenant !== "" ? { tenant, id: taskId } : { id: taskId };
}
