// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The client side of a framed binding's connection: calls multiplexed on one channel (a socket,
 * a child process's pipes) by call ids the connection assigns; each call's answer frames queued
 * until its caller reads them; a cancel frame for a call abandoned before its last frame; every
 * running call failed when the channel closes, and a new channel opened by the next call. The
 * carrier (how a channel opens, sends and reports what it reads) and the frame codec are the
 * binding's; everything else is here.
 */
import type { ErrorRegistry } from "../errors/a2a-error.js";
import { invalidAgentResponse } from "./agent-response-error.js";
import type {
  FramedAnswer,
  FramedCallId,
  FramedConnection,
  FramedOutboundCall,
} from "./framed-call.js";

/** What a channel reports to its connection. */
export interface FramedChannelEvents<F = string> {
  /** A frame arrived (an answer, or something the codec drops). */
  frame(frame: F): void;
  /** The channel closed or failed: its running calls fail with `reason` (the client reports it as UNAVAILABLE). */
  closed(reason: unknown): void;
}

/** One open channel of a carrier: a socket, a child process. */
export interface FramedChannel<F = string> {
  /** Sends one frame. */
  send(frame: F): void;
  /** True while frames can be sent on it (false once it closes or starts closing). */
  readonly writable: boolean;
  /** Closes the channel; resolves once it closed (its `closed` event fired). Its running calls fail. */
  close(): Promise<void>;
  /** Stops reading (too many answer frames unread): end-to-end backpressure. Optional. */
  pause?(): void;
  /** Reads again. */
  resume?(): void;
}

/** An answer frame as the codec read it: the call it answers, and the answer or why it is none. */
export type FramedDecodedAnswer =
  | { readonly id: FramedCallId; readonly answer: FramedAnswer }
  | { readonly id: FramedCallId; readonly invalid: string };

/** How calls and answers look on the binding's wire, on the client's side (`F`: a frame). */
export interface FramedClientCodec<F = string> {
  /** One call frame. */
  encodeCall(id: FramedCallId, call: FramedOutboundCall): F;
  /** The frame that stops call `id` on the server. */
  encodeCancel(id: FramedCallId): F;
  /** One inbound frame; undefined to drop it (not an answer, no call id). */
  decodeAnswer(frame: F): FramedDecodedAnswer | undefined;
}

/** What {@link createFramedConnection} is built from. */
export interface FramedConnectionOptions<C extends FramedChannel<F>, F = string> {
  /** Opens a channel (the first call, and the first call after the previous one closed), reporting to `events`. Rejects or throws when it cannot. */
  readonly open: (events: FramedChannelEvents<F>) => C | Promise<C>;
  /** The frames (e.g. `jsonClientFrames`). */
  readonly frames: FramedClientCodec<F>;
  /** The generated `errorRegistry`: an answer frame that is none is InvalidAgentResponseError. */
  readonly errors: ErrorRegistry;
  /** Answer frames received and not yet read, over all calls of the channel, at which it is paused; it resumes at half. Default 1 000. */
  readonly highWaterFrames?: number | undefined;
  /** The channel in messages ("the WebSocket to ws://…"). Default "the connection". */
  readonly label?: string | undefined;
}

/** A connection of {@link createFramedConnection}. */
export interface FramedClientConnection<C> extends FramedConnection {
  /** The open channel, if any (for tests and diagnostics). */
  readonly channel: C | undefined;
  /** Closes the channel; its running calls fail. The next call opens a new one. */
  close(): Promise<void>;
}

/** One channel with the count of its answer frames not yet read. */
interface Line<C> {
  channel: C | undefined;
  unread: number;
  paused: boolean;
  closed: boolean;
}

/** The client-side state of one call. */
interface PendingCall<C> {
  readonly line: Line<C>;
  readonly frames: FramedAnswer[];
  failure: unknown;
  /** Its last frame (result, end, error) was read. */
  done: boolean;
  wake: (() => void) | undefined;
}

/** `promise`, or the abort reason of `signal` when it aborts first. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(e);
      },
    );
  });
}

/**
 * A connection multiplexing calls on channels of a carrier: opened lazily by the first call and
 * again by the first call after it closed; ids assigned by the connection (1, 2, …), so one
 * connection may serve several clients; a call abandoned before its last frame (an abort, a
 * consumer that stopped iterating) sends the cancel frame; frames of calls no longer running
 * are dropped.
 */
export function createFramedConnection<C extends FramedChannel<F>, F = string>(
  options: FramedConnectionOptions<C, F>,
): FramedClientConnection<C> {
  const { frames, errors } = options;
  const highWater = options.highWaterFrames ?? 1_000;
  const label = options.label ?? "the connection";
  const calls = new Map<FramedCallId, PendingCall<C>>();
  let current: Line<C> | undefined;
  let opening: Promise<Line<C>> | undefined;
  let nextId = 1;

  function open(): Promise<Line<C>> {
    if (current?.channel?.writable === true) return Promise.resolve(current);
    if (opening !== undefined) return opening;
    const line: Line<C> = { channel: undefined, unread: 0, paused: false, closed: false };
    const started = (async () => {
      line.channel = await options.open({
        frame: (frame) => receive(line, frame),
        closed: (reason) => closed(line, reason),
      });
      if (!line.closed) current = line;
      return line;
    })();
    // Calls that come while it opens wait for the same channel; a failed opening is not kept.
    opening = started;
    const settled = () => {
      if (opening === started) opening = undefined;
    };
    started.then(settled, settled);
    return started;
  }

  /** One answer frame: to its call's queue. */
  function receive(line: Line<C>, frame: F): void {
    const decoded = frames.decodeAnswer(frame);
    if (decoded === undefined) return;
    const pending = calls.get(decoded.id);
    if (pending === undefined || pending.line !== line || pending.done) return;
    if ("invalid" in decoded) {
      pending.failure ??= invalidAgentResponse(
        errors,
        `call ${String(decoded.id)}: ${decoded.invalid}`,
      );
    } else {
      pending.frames.push(decoded.answer);
      line.unread++;
      if (line.unread >= highWater && !line.paused && line.channel?.pause !== undefined) {
        line.paused = true;
        line.channel.pause();
      }
    }
    pending.wake?.();
  }

  /** `count` frames were read (or dropped): the channel reads again once the backlog halved. */
  function read(line: Line<C>, count: number): void {
    if (count === 0 || line !== current) return;
    line.unread = Math.max(0, line.unread - count);
    if (line.paused && line.unread <= highWater / 2) {
      line.paused = false;
      line.channel?.resume?.();
    }
  }

  function closed(line: Line<C>, reason: unknown): void {
    line.closed = true;
    if (current === line) current = undefined;
    for (const pending of calls.values()) {
      if (pending.line !== line || pending.done) continue;
      pending.failure ??= reason;
      pending.wake?.();
    }
  }

  async function* call(
    outbound: FramedOutboundCall,
    signal: AbortSignal | undefined,
  ): AsyncGenerator<FramedAnswer> {
    signal?.throwIfAborted();
    const line = await abortable(open(), signal);
    const channel = line.channel;
    if (channel === undefined || line.closed || !channel.writable)
      throw new Error(`${label} closed before the call was sent`);
    // The connection's own ids (the transport gives none): one connection may serve several clients.
    const id = nextId++;
    const pending: PendingCall<C> = {
      line,
      frames: [],
      failure: undefined,
      done: false,
      wake: undefined,
    };
    calls.set(id, pending);
    const onAbort = () => {
      pending.failure ??= signal?.reason;
      pending.wake?.();
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      channel.send(frames.encodeCall(id, outbound));
      for (;;) {
        if (signal?.aborted === true) throw signal.reason;
        const next = pending.frames.shift();
        if (next !== undefined) {
          read(line, 1);
          if (next.kind !== "event") pending.done = true;
          yield next;
          if (pending.done) return;
          continue;
        }
        if (pending.failure !== undefined) throw pending.failure;
        await new Promise<void>((resolve) => {
          pending.wake = resolve;
        });
        pending.wake = undefined;
      }
    } finally {
      signal?.removeEventListener("abort", onAbort);
      calls.delete(id);
      read(line, pending.frames.length);
      // Abandoned before its last frame (an abort, a consumer that stopped iterating): the server stops it.
      if (!pending.done && !line.closed && channel.writable) channel.send(frames.encodeCancel(id));
    }
  }

  return {
    get channel() {
      return current?.channel;
    },
    call,
    close: async () => {
      const line = current ?? (await opening?.catch(() => undefined));
      if (line?.channel === undefined || line.closed) return;
      await line.channel.close();
    },
  };
}
