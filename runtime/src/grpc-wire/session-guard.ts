// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Closes the connections node:http2 leaves open (issue #17): after an HTTP/2 protocol error (DATA on
 * stream 0, a frame over the frame size, a malformed HPACK block, …) nghttp2 sends GOAWAY and stops
 * reading, but Node (20, and grpc-js on it) is told nothing: no 'error', no 'goaway', no 'close'. The
 * socket stays open, and since nobody reads it, not even the peer leaving is noticed: one file
 * descriptor per such connection, forever. Likewise a session closed gracefully waits for the peer
 * to close the socket, however long that takes.
 *
 * The guard looks at every session of a server: one whose HTTP/2 state machine is over (nghttp2
 * wants neither to read nor to write: "the application should drop the connection", nghttp2's
 * `nghttp2_session_want_read`), that failed ('error', 'frameError' on stream 0), or that is destroyed
 * but whose socket is still open, is destroyed together with its socket after a grace period (so that
 * a well-behaved peer can read the GOAWAY). Healthy sessions, idle or busy, are never touched.
 *
 * Node exposes "is the state machine over" only on its internal session handle (`hasPendingData()`,
 * the check its own graceful close uses); it is looked up defensively. Without it (another Node
 * version), failed and destroyed sessions are still reaped, protocol errors are not detected.
 * The same sweeps enforce the connection timeouts (issue #17: a connection that opens HTTP/2 and sends
 * nothing, or a call whose request never arrives, was held forever): a connection that has not sent
 * its SETTINGS (the HTTP/2 preface) within `handshakeTimeoutMs` is destroyed; one without an open stream
 * for `idleTimeoutMs` is closed gracefully (GOAWAY NO_ERROR: clients reconnect); a call whose request
 * message has not fully arrived within `requestMessageTimeoutMs` is answered INVALID_ARGUMENT (ErrorInfo
 * INVALID_REQUEST) and its stream reset; a stream whose response data has been waiting, unmoved, for
 * `stalledWriteTimeoutMs` (a peer that stopped reading: flow control or a full socket holds the server's
 * writes) is reset (RST_STREAM CANCEL), which releases what it held. Their granularity is the sweep interval.
 * And what the streams hold unsent counts in a write budget (write-budget.ts; `maxPendingWriteBytes` of
 * the server, or a `writeBudget` shared with the agent's other listeners), checked at every write: over
 * it, the stream that has waited longest for its peer is reset the same way.
 *
 * Free of Connect and grpc-js: both stacks use it.
 */
import {
  constants,
  type Http2SecureServer,
  type Http2Server,
  type ServerHttp2Session,
  type ServerHttp2Stream,
} from "node:http2";
import type { Socket } from "node:net";
import { Writable } from "node:stream";
import { statusDetailsBin } from "./status-details-bin.js";
import {
  DEFAULT_MAX_PENDING_WRITE_BYTES,
  WriteBudget,
  type PendingWrite,
} from "../pipeline/write-budget.js";

/** How long a connection that is over (GOAWAY sent, session error) stays open before its socket is destroyed. */
export const DEFAULT_GOAWAY_GRACE_MS = 3000;
/** Default of `handshakeTimeoutMs`: a connection must send the HTTP/2 preface and SETTINGS within 10 s. */
export const DEFAULT_HANDSHAKE_TIMEOUT_MS = 10_000;
/** Default of `idleTimeoutMs`: a connection without an open stream for 5 minutes is closed gracefully (GOAWAY). */
export const DEFAULT_IDLE_TIMEOUT_MS = 300_000;
/** Default of `requestMessageTimeoutMs`: a call's request message must have fully arrived 30 s after its headers. */
export const DEFAULT_REQUEST_MESSAGE_TIMEOUT_MS = 30_000;
/**
 * Default of `stalledWriteTimeoutMs`: a stream whose response data has not moved for 60 s is reset
 * (as the HTTP bindings' `stalledWriteTimeoutMs`).
 */
export const DEFAULT_GRPC_STALLED_WRITE_TIMEOUT_MS = 60_000;
/** Default of `maxConcurrentStreams`: 100 open streams (calls) per connection, RFC 9113's recommended minimum (Node's default: 2³² − 1). */
export const DEFAULT_MAX_CONCURRENT_STREAMS = 100;

/** The connection timeouts of a guard (see the file comment); 0 turns one off. */
export interface SessionTimeouts {
  /** Time a connection has to send its HTTP/2 preface and SETTINGS, in ms. Default {@link DEFAULT_HANDSHAKE_TIMEOUT_MS}. */
  readonly handshakeTimeoutMs?: number | undefined;
  /** Time a connection may stay open without a stream, in ms, before a graceful close. Default {@link DEFAULT_IDLE_TIMEOUT_MS}. */
  readonly idleTimeoutMs?: number | undefined;
  /** Time a call's request message has to arrive in full after its headers, in ms. Default {@link DEFAULT_REQUEST_MESSAGE_TIMEOUT_MS}. */
  readonly requestMessageTimeoutMs?: number | undefined;
  /**
   * Time a stream's response data may wait without moving, in ms, before the stream is reset
   * (RST_STREAM CANCEL) and what it held is released: the bound on a peer that stops reading (sends no
   * WINDOW_UPDATE, or leaves the socket unread) while the server writes a large answer or a stream.
   * "Moving" is a write of the stream completing; a slow reader that keeps taking data is not cut, one
   * that takes nothing for this long is (its call ends as cancelled on the server; the peer sees the
   * reset). Other streams and connections are not affected. Default {@link DEFAULT_GRPC_STALLED_WRITE_TIMEOUT_MS}.
   */
  readonly stalledWriteTimeoutMs?: number | undefined;
  /**
   * Bytes the server's streams may hold for peers that have not taken them (written, not yet taken
   * by nghttp2: held by flow control or a full socket), summed over its connections. Over it, the
   * stream that has waited longest for its peer is reset (RST_STREAM CANCEL), then the next, until the
   * rest fit; the stream being written is never the one reset, so one answer alone may exceed it.
   * Default {@link DEFAULT_MAX_PENDING_WRITE_BYTES} (64 MiB, as serveNode's); 0: no bound. Not with `writeBudget`.
   */
  readonly maxPendingWriteBytes?: number | undefined;
  /**
   * The byte budget to count the streams' pending writes in, instead of one of the server's own
   * (`maxPendingWriteBytes`): share one {@link WriteBudget} between the gRPC listener, serveNode and
   * custom bindings to bound what the whole agent holds for peers that do not read.
   */
  readonly writeBudget?: WriteBudget | undefined;
}

/** Node's internal session handle, as far as the guard uses it. */
interface NativeSession {
  hasPendingData(): boolean;
}

interface Tracked {
  readonly socket: Pick<Socket, "destroy" | "destroyed"> | undefined;
  /** When the session was first seen over (Date.now()), undefined while it is healthy. */
  overSince: number | undefined;
  /** When the session started. */
  readonly since: number;
  /** The peer's SETTINGS arrived (the handshake is done). */
  settled: boolean;
  /** Open streams whose request has not fully arrived, with the time their headers arrived. */
  readonly streams: Map<ServerHttp2Stream, number>;
  /** Open streams and how far their response had got at the last sweep (for `stalledWriteTimeoutMs`). */
  readonly writes: Map<ServerHttp2Stream, WriteProgress>;
  /** Since when the session has had no open stream (undefined while it has one). */
  idleSince: number | undefined;
  /** A graceful close for idleness was asked for. */
  closing: boolean;
}

/** The response bytes a stream had sent at a sweep, and since when that number has not changed. */
interface WriteProgress {
  sent: number;
  since: number;
}

/** The guard of one server: `stop()` ends the sweeps (the sessions are left as they are). */
export interface SessionGuard {
  stop(): void;
}

/**
 * Guards every session `server` accepts from now on (see the file comment). `graceMs` (default
 * DEFAULT_GOAWAY_GRACE_MS): how long a session that is over keeps its socket at least; the socket
 * is destroyed between `graceMs` and 2 × `graceMs` after the protocol error (a sweep every
 * `graceMs` / 2). The sweep timer runs only while the server has sessions, and does not keep the
 * process alive.
 */
export function guardHttp2Sessions(
  server: Http2Server | Http2SecureServer,
  graceMs: number = DEFAULT_GOAWAY_GRACE_MS,
  timeouts?: SessionTimeouts,
): SessionGuard {
  if (!Number.isFinite(graceMs) || graceMs < 0)
    throw new RangeError(
      `goawayGraceMs must be a non-negative number of milliseconds, got ${graceMs}`,
    );
  const handshakeMs = timeout(
    "handshakeTimeoutMs",
    timeouts?.handshakeTimeoutMs ?? DEFAULT_HANDSHAKE_TIMEOUT_MS,
  );
  const idleMs = timeout("idleTimeoutMs", timeouts?.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS);
  const messageMs = timeout(
    "requestMessageTimeoutMs",
    timeouts?.requestMessageTimeoutMs ?? DEFAULT_REQUEST_MESSAGE_TIMEOUT_MS,
  );
  const stalledMs = timeout(
    "stalledWriteTimeoutMs",
    timeouts?.stalledWriteTimeoutMs ?? DEFAULT_GRPC_STALLED_WRITE_TIMEOUT_MS,
  );
  if (timeouts?.writeBudget !== undefined && timeouts.maxPendingWriteBytes !== undefined) {
    throw new TypeError(
      "give maxPendingWriteBytes or writeBudget, not both (the budget has its own size)",
    );
  }
  const budget =
    timeouts?.writeBudget ??
    new WriteBudget(timeouts?.maxPendingWriteBytes ?? DEFAULT_MAX_PENDING_WRITE_BYTES);
  const budgeted = budget.maxBytes > 0;
  // Every bound is checked at least twice within its own length.
  const interval = Math.max(
    10,
    Math.floor(
      Math.min(
        graceMs,
        handshakeMs || Infinity,
        idleMs || Infinity,
        messageMs || Infinity,
        stalledMs || Infinity,
      ) / 2,
    ),
  );
  const sessions = new Map<ServerHttp2Session, Tracked>();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const sweep = () => {
    const now = Date.now();
    for (const [session, tracked] of sessions) {
      if (
        tracked.socket?.destroyed === true ||
        (tracked.socket === undefined && session.destroyed)
      ) {
        sessions.delete(session);
        continue;
      }
      if (tracked.overSince === undefined) {
        if (!isOver(session)) {
          enforceTimeouts(session, tracked, now);
          continue;
        }
        tracked.overSince = now;
      }
      if (now - tracked.overSince < graceMs) continue;
      reap(session, tracked);
      sessions.delete(session);
    }
    if (sessions.size === 0 && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
  };

  /** The handshake, idle and request-message timeouts of a healthy session. */
  const enforceTimeouts = (session: ServerHttp2Session, tracked: Tracked, now: number) => {
    if (!tracked.settled && handshakeMs > 0 && now - tracked.since >= handshakeMs) {
      // No preface, no SETTINGS: not an HTTP/2 client (or a slowloris one). Nothing to say to it.
      reap(session, tracked);
      return;
    }
    if (
      idleMs > 0 &&
      !tracked.closing &&
      tracked.idleSince !== undefined &&
      now - tracked.idleSince >= idleMs
    ) {
      tracked.closing = true;
      try {
        session.close(); // GOAWAY NO_ERROR; the guard reaps the socket if the peer does not finish
      } catch {
        // destroyed meanwhile
      }
      return;
    }
    if (messageMs > 0) {
      for (const [stream, since] of tracked.streams) {
        if (now - since < messageMs) break; // in arrival order: the rest is younger
        if (!requestReceived(stream)) cutStream(stream, messageMs);
        tracked.streams.delete(stream); // checked once; its 'close' removes nothing more
      }
    }
    if (stalledMs > 0) {
      for (const [stream, progress] of tracked.writes) {
        report(stream as CountedStream);
        const waiting = waitingBytes(stream);
        const sent = (stream as CountedStream)[WRITTEN] - waiting;
        if (waiting === 0 || sent !== progress.sent) {
          // Nothing waiting, or a write completed since the last sweep: the stream is not stalled.
          progress.sent = sent;
          progress.since = now;
        } else if (now - progress.since >= stalledMs) {
          tracked.writes.delete(stream);
          resetStream(stream);
        }
      }
    }
  };

  const onSession = (session: ServerHttp2Session) => {
    if (stopped) return;
    const now = Date.now();
    const tracked: Tracked = {
      socket: rawSocket(session),
      overSince: undefined,
      since: now,
      settled: false,
      streams: new Map(),
      writes: new Map(),
      idleSince: now,
      closing: false,
    };
    sessions.set(session, tracked);
    session.once("remoteSettings", () => {
      tracked.settled = true;
    });
    let open = 0;
    session.on("stream", (stream: ServerHttp2Stream) => {
      open++;
      tracked.idleSince = undefined;
      if (messageMs > 0 && !requestReceived(stream)) tracked.streams.set(stream, Date.now());
      if (stalledMs > 0 || budgeted) countWrites(stream, budgeted ? budget : undefined);
      if (stalledMs > 0) tracked.writes.set(stream, { sent: 0, since: Date.now() });
      stream.once("close", () => {
        (stream as CountedStream)[PENDING]?.close();
        tracked.streams.delete(stream);
        tracked.writes.delete(stream);
        if (--open === 0) tracked.idleSince = Date.now();
      });
    });
    const markOver = () => {
      tracked.overSince ??= Date.now();
    };
    session.on("error", markOver);
    // A frame of the connection itself (SETTINGS, PING, GOAWAY) could not be sent.
    session.on("frameError", (_type: number, _code: number, streamId: number) => {
      if (streamId === 0) markOver();
    });
    // The session has ended: its socket must go too (Node leaves it open until the peer closes it).
    session.once("close", () => {
      destroySocket(tracked);
      sessions.delete(session);
    });
    if (timer === undefined) {
      timer = setInterval(sweep, interval);
      timer.unref();
    }
  };
  server.on("session", onSession);

  return {
    stop() {
      stopped = true;
      server.off("session", onSession);
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
      sessions.clear();
    },
  };
}

function timeout(name: string, value: number): number {
  if (!Number.isFinite(value) || value < 0)
    throw new RangeError(
      `${name} must be a non-negative number of milliseconds (0: off), got ${value}`,
    );
  return value;
}

/** The client has sent its whole request (END_STREAM), or the stream is gone. */
function requestReceived(stream: ServerHttp2Stream): boolean {
  if (stream.destroyed || stream.closed || stream.readableEnded || stream.endAfterHeaders)
    return true;
  // END_STREAM seen, data not yet read by the handler.
  return (
    (stream as unknown as { _readableState?: { ended?: boolean } })._readableState?.ended === true
  );
}

/**
 * Ends a call whose request did not arrive in time: a trailers-only INVALID_ARGUMENT (ErrorInfo
 * INVALID_REQUEST in grpc-status-details-bin, as the HTTP bindings' 408) when nothing was answered yet,
 * then RST_STREAM (the client stops sending; the stack serving the call sees it closed).
 */
function cutStream(stream: ServerHttp2Stream, messageMs: number): void {
  const message = `the request message did not arrive within ${messageMs} ms`;
  try {
    if (!stream.headersSent) {
      stream.respond(
        {
          ":status": 200,
          "content-type": "application/grpc",
          "grpc-status": "3",
          "grpc-message": encodeURIComponent(message),
          "grpc-status-details-bin": statusDetailsBin(3, message, "INVALID_REQUEST"),
        },
        { endStream: true },
      );
    }
  } catch {
    // the stream went away meanwhile
  }
  try {
    stream.close(constants.NGHTTP2_CANCEL);
  } catch {
    // already closed
  }
}

/** Where a stream counts the bytes written to it (see countWrites). */
const WRITTEN = Symbol("a2a.grpc.bytesWritten");
/** The stream's entry in the write budget, and the bytes it had sent at its last report. */
const PENDING = Symbol("a2a.grpc.pendingWrite");
const REPORTED_SENT = Symbol("a2a.grpc.reportedSent");
type CountedStream = ServerHttp2Stream & {
  [WRITTEN]: number;
  [PENDING]?: PendingWrite;
  [REPORTED_SENT]: number;
};

/**
 * Makes `stream` count the bytes written to it, so that the sweeps can tell a stream that sends from
 * one that is stuck: sent = written − still waiting (`writableLength`, which drops when nghttp2 has
 * taken a write, i.e. when flow control and the socket let it go). The waiting byte count alone
 * cannot tell: a stream that completes one write and starts an equal one looks the same. Both
 * stacks write through `write()` (Connect's compat response too) or `end(chunk)`, Writable's own
 * methods, which `Http2Stream` does not override.
 */
function countWrites(stream: ServerHttp2Stream, budget: WriteBudget | undefined): void {
  const counted = stream as CountedStream;
  counted[WRITTEN] = 0;
  counted[REPORTED_SENT] = 0;
  if (budget !== undefined)
    counted[PENDING] = budget.watch(() => resetStream(stream), {
      measure: () => waitingBytes(stream),
    });
  stream.write = countedWrite as ServerHttp2Stream["write"];
  stream.end = countedEnd as ServerHttp2Stream["end"];
}

function countedWrite(
  this: CountedStream,
  chunk: unknown,
  encoding?: unknown,
  callback?: unknown,
): boolean {
  this[WRITTEN] += byteLength(chunk, encoding);
  const more = Writable.prototype.write.call(
    this,
    chunk,
    encoding as BufferEncoding,
    callback as () => void,
  );
  report(this);
  return more;
}

function countedEnd(
  this: CountedStream,
  chunk?: unknown,
  encoding?: unknown,
  callback?: unknown,
): CountedStream {
  if (chunk !== null && chunk !== undefined && typeof chunk !== "function")
    this[WRITTEN] += byteLength(chunk, encoding);
  const stream = Writable.prototype.end.call(
    this,
    chunk,
    encoding as BufferEncoding,
    callback as () => void,
  ) as CountedStream;
  report(this);
  return stream;
}

/** Tells the write budget what the stream holds now, and whether the peer took some of it since the last report. */
function report(stream: CountedStream): void {
  const pending = stream[PENDING];
  if (pending === undefined) return;
  const waiting = waitingBytes(stream);
  const sent = stream[WRITTEN] - waiting;
  const progressed = sent !== stream[REPORTED_SENT];
  stream[REPORTED_SENT] = sent;
  pending.update(waiting, progressed);
}

/** The bytes a chunk adds to `writableLength` (strings are encoded first: Http2Stream decodes strings). */
function byteLength(chunk: unknown, encoding: unknown): number {
  if (typeof chunk === "string")
    return Buffer.byteLength(
      chunk,
      typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8",
    );
  return (chunk as { byteLength?: number } | null)?.byteLength ?? 0;
}

/** The response bytes written to a stream and not yet taken by nghttp2 (held by flow control or a full socket). */
function waitingBytes(stream: ServerHttp2Stream): number {
  try {
    return stream.writableLength;
  } catch {
    return 0;
  }
}

/** Resets a stream whose peer stopped reading: RST_STREAM CANCEL; node:http2 then drops its queued data. */
function resetStream(stream: ServerHttp2Stream): void {
  try {
    stream.close(constants.NGHTTP2_CANCEL);
  } catch {
    // already closed
  }
}

/** Over: destroyed, or nghttp2 wants neither to read nor to write (GOAWAY sent after a protocol error, graceful close done). */
function isOver(session: ServerHttp2Session): boolean {
  if (session.destroyed) return true;
  const handle = nativeHandle(session);
  if (handle === undefined) return false;
  try {
    return !handle.hasPendingData();
  } catch {
    return false;
  }
}

function reap(session: ServerHttp2Session, tracked: Tracked): void {
  try {
    if (!session.destroyed) session.destroy();
  } catch {
    // destroyed meanwhile
  }
  destroySocket(tracked);
}

function destroySocket(tracked: Tracked): void {
  try {
    if (tracked.socket !== undefined && !tracked.socket.destroyed) tracked.socket.destroy();
  } catch {
    // the socket went away meanwhile
  }
}

/** Node's private symbols of a session, found by description once (undefined: not this Node). */
let handleKey: symbol | null | undefined;
let socketKey: symbol | null | undefined;

function privateKey(session: ServerHttp2Session, description: string): symbol | null {
  return (
    Object.getOwnPropertySymbols(session).find((key) => key.description === description) ?? null
  );
}

function nativeHandle(session: ServerHttp2Session): NativeSession | undefined {
  handleKey ??= privateKey(session, "kHandle");
  if (handleKey === null) return undefined;
  const handle = (session as unknown as Record<symbol, unknown>)[handleKey] as
    | Partial<NativeSession>
    | undefined;
  return typeof handle?.hasPendingData === "function" ? (handle as NativeSession) : undefined;
}

/**
 * The session's own socket (not the proxy `session.socket`, which refuses every access once the
 * session is destroyed, when the socket may still be open). Falls back to the proxy.
 */
function rawSocket(session: ServerHttp2Session): Pick<Socket, "destroy" | "destroyed"> | undefined {
  socketKey ??= privateKey(session, "socket");
  const raw =
    socketKey === null ? undefined : (session as unknown as Record<symbol, unknown>)[socketKey];
  if (raw !== null && typeof raw === "object" && typeof (raw as Socket).destroy === "function")
    return raw as Socket;
  const proxy = session.socket as Socket | undefined;
  if (proxy === undefined) return undefined;
  return {
    get destroyed() {
      try {
        return proxy.destroyed;
      } catch {
        return session.destroyed;
      }
    },
    destroy(error?: Error) {
      try {
        proxy.destroy(error);
      } catch {
        // unbound from its session: nothing left to reach
      }
      return proxy;
    },
  } as Pick<Socket, "destroy" | "destroyed">;
}
