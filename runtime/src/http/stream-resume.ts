// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Resuming an A2A event stream whose connection dropped, for the HTTP clients (JSON-RPC, HTTP+JSON).
 *
 * The servers send every event the task runtime hands out with an SSE `id:` of `<seq>:<task id>`
 * (task/event-ids.ts). A client of SendStreamingMessage or SubscribeToTask remembers the id of the
 * last event it handed to its caller; when the connection drops before the stream ended (a reset,
 * a body cut short, a network error while reading), it calls SubscribeToTask for that task with
 * `Last-Event-ID: <id>` and goes on handing out events: the server sends no Task snapshot then,
 * only the events after that one, then live events, and the client drops any event whose sequence
 * number is not above the last one handed out. The caller sees one stream, without gap or
 * duplicate.
 *
 * Not resumed: a clean end of the SSE body, an A2A error (an error event, an error response), the
 * caller's abort or timeout, a stream whose last event carried no id of its own (a server that does
 * not mark events, a message-only answer), or no event at all. A drop right after the stream's last
 * event (a terminal state, a Message) ends the stream normally: the caller has it all; a drop of
 * SendStreamingMessage right after an interrupted state fails with the drop's error (stream-end.ts).
 * Resume attempts are bounded (see {@link StreamResumeOptions}); the count restarts once a resumed
 * connection delivered an event. A resume call that cannot connect, or meets a gateway's 502, 503
 * or 504, is a failed attempt. When resuming fails, the caller gets:
 * - the A2A error the resume call was answered with (TaskNotFoundError: the task is gone;
 *   UnsupportedOperationError, InvalidParamsError: a server that cannot resume it), since it says
 *   more than the connection error;
 * - else, attempts exhausted, the error that broke the connection in the first place (what the
 *   caller would have got without resuming).
 *
 * The gRPC client does not resume: gRPC messages carry no per-message id to resume from.
 */
import { parseEventId, type ParsedEventId } from "../task/event-ids.js";
import type { AfterDrop } from "./stream-end.js";

/** How a client resumes dropped streams (the `resumeStreams` client option, when an object). */
export interface StreamResumeOptions {
  /** Resume attempts in a row without a new event before giving up. Default 5. */
  readonly maxAttempts?: number | undefined;
  /** Delay before the first attempt in ms; doubled after each attempt that failed. Default 100. */
  readonly initialDelayMs?: number | undefined;
  /** Largest delay between attempts in ms. Default 2000. */
  readonly maxDelayMs?: number | undefined;
}

/** The client option of the HTTP clients (JSON-RPC, HTTP+JSON) that turns stream resumption on, off or tunes it. */
export interface ResumableStreamClientOptions {
  /**
   * Resume SendStreamingMessage and SubscribeToTask streams whose connection dropped, with
   * SubscribeToTask and `Last-Event-ID` (see stream-resume.ts). `true` or absent: on, with
   * {@link DEFAULT_STREAM_RESUME}; an object: on, with those settings; `false`: off (a dropped
   * connection ends the stream with its error, as without resumption). A call's `signal` and
   * `timeoutMs` cover the whole stream, resumptions included; its `headers` and `extensions` go
   * with every resumption too; `onHeaders` gets the first response's headers only.
   */
  readonly resumeStreams?: boolean | StreamResumeOptions | undefined;
}

/** {@link StreamResumeOptions} with every setting filled in. */
export interface ResumeSettings {
  /** See {@link StreamResumeOptions.maxAttempts}. */
  readonly maxAttempts: number;
  /** See {@link StreamResumeOptions.initialDelayMs}. */
  readonly initialDelayMs: number;
  /** See {@link StreamResumeOptions.maxDelayMs}. */
  readonly maxDelayMs: number;
}

/** The settings of stream resumption when not given. */
export const DEFAULT_STREAM_RESUME: ResumeSettings = Object.freeze({
  maxAttempts: 5,
  initialDelayMs: 100,
  maxDelayMs: 2000,
});

/** The operations whose streams are resumed: their events belong to one task, and SubscribeToTask continues them. */
export const RESUMABLE_STREAM_OPERATIONS: readonly string[] = Object.freeze([
  "SendStreamingMessage",
  "SubscribeToTask",
]);

/** The operation a dropped stream is resumed with. */
export const RESUME_OPERATION = "SubscribeToTask";

/** The settings of stream resumption for a client option, all filled in; undefined when it is off. */
export function resumeSettings(
  option: ResumableStreamClientOptions["resumeStreams"],
): ResumeSettings | undefined {
  if (option === false) return undefined;
  if (option === undefined || option === true) return DEFAULT_STREAM_RESUME;
  const count = (n: number | undefined, fallback: number) =>
    n === undefined || !(n >= 0) ? fallback : n;
  return {
    maxAttempts: Math.floor(count(option.maxAttempts, DEFAULT_STREAM_RESUME.maxAttempts)),
    initialDelayMs: count(option.initialDelayMs, DEFAULT_STREAM_RESUME.initialDelayMs),
    maxDelayMs: count(option.maxDelayMs, DEFAULT_STREAM_RESUME.maxDelayMs),
  };
}

/** One event as a connection received it: the decoded message and the id its SSE event carried itself. */
export interface ReceivedEvent<T> {
  /** The decoded event. */
  readonly message: T;
  /** Its own `id:` field; undefined when it had none (an id carried over from an earlier event does not count). */
  readonly id: string | undefined;
}

/**
 * What a connection's events throw when the connection broke (rather than the stream ending or
 * failing): the stream may be resumed. `cause` is what broke it, what the caller gets when it is not.
 */
export class StreamConnectionLost extends Error {
  /** Wraps the error that broke the connection. */
  constructor(cause: unknown) {
    super(
      `the stream's connection was lost: ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
    this.name = "StreamConnectionLost";
  }
}

/** Where a stream resumes: the last event handed to the caller. */
export interface ResumePoint extends ParsedEventId {
  /** The event's id as received, for `Last-Event-ID`. */
  readonly id: string;
}

/**
 * Opens one connection of a stream: the original call when `resume` is undefined, else
 * SubscribeToTask of `resume.taskId` with `Last-Event-ID: resume.id`. Its events throw
 * {@link StreamConnectionLost} when the connection breaks, anything else when the stream fails.
 */
export type OpenStreamConnection<T> = (
  resume: ResumePoint | undefined,
) => AsyncIterable<ReceivedEvent<T>>;

/**
 * The events of a stream, across as many connections as it takes (see the module comment):
 * `open(undefined)` first, then `open(point)` after each drop that may be resumed, waiting with
 * backoff between attempts (an abort of `signal` ends the wait with its reason). `settings`
 * undefined: no resumption (the first drop ends the stream with its cause). `afterDrop` says what
 * a drop right after an event means (default: resume).
 */
export async function* resumableStream<T>(
  open: OpenStreamConnection<T>,
  settings: ResumeSettings | undefined,
  signal: AbortSignal | undefined,
  afterDrop?: (event: T) => AfterDrop,
): AsyncGenerator<T, void, undefined> {
  /** The last event handed out, when it carried a usable id. */
  let last: ResumePoint | undefined;
  let resume: ResumePoint | undefined;
  /** Attempts since the last event handed out. */
  let failures = 0;
  /** The drop that started the current run of attempts. */
  let original: StreamConnectionLost | undefined;
  /** What a drop now means, after the last event handed out. */
  let verdict: AfterDrop = "resume";
  for (;;) {
    try {
      for await (const event of open(resume)) {
        const point = resumePoint(event.id);
        // A resumed connection may repeat what the caller has (a server replaying from an earlier point).
        if (resume !== undefined && isAtOrBefore(point, last)) continue;
        last = point;
        verdict =
          settings === undefined || afterDrop === undefined ? "resume" : afterDrop(event.message);
        failures = 0;
        original = undefined;
        if (event.id !== undefined && typeof event.message === "object" && event.message !== null)
          receivedIds.set(event.message, event.id);
        yield event.message;
      }
      return;
    } catch (e) {
      if (!(e instanceof StreamConnectionLost)) throw e;
      original ??= e;
      const aborted = signal?.aborted === true;
      if (verdict === "end" && last !== undefined && !aborted) return;
      const exhausted = settings === undefined || failures >= settings.maxAttempts;
      if (verdict === "fail" || exhausted || last === undefined || aborted) throw original.cause;
      await backoff(
        Math.min(settings.initialDelayMs * 2 ** failures, settings.maxDelayMs, MAX_TIMEOUT),
        signal,
      );
      failures++;
      resume = last;
    }
  }
}

/** The SSE ids of the events the HTTP clients handed out, by event. */
const receivedIds = new WeakMap<object, string>();

/**
 * The SSE `id:` an event handed out by an HTTP client's stream (JSON-RPC, HTTP+JSON) carried
 * itself, e.g. `"7:task-1"` (`<seq>:<task id>`, see task/event-ids.ts); undefined when it had none,
 * or for an event of another client (gRPC messages carry no id).
 */
export function receivedEventId(event: unknown): string | undefined {
  return typeof event === "object" && event !== null ? receivedIds.get(event) : undefined;
}

/** The resume point of an event with id `id`: undefined when it has none, or not a `<seq>:<task id>` one. */
function resumePoint(id: string | undefined): ResumePoint | undefined {
  const parsed = id === undefined ? undefined : parseEventId(id);
  return parsed === undefined || id === undefined ? undefined : { ...parsed, id };
}

/** Whether `point` is an event of the task of `last` the caller already has. */
function isAtOrBefore(point: ResumePoint | undefined, last: ResumePoint | undefined): boolean {
  return (
    point !== undefined &&
    last !== undefined &&
    point.taskId === last.taskId &&
    point.seq <= last.seq
  );
}

/** setTimeout's largest delay; longer ones fire at once. */
const MAX_TIMEOUT = 2_147_483_647;

/** Resolves after `ms`, or rejects with the abort reason of `signal`. */
function backoff(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
