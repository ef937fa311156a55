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
 * Free of Connect and grpc-js: both stacks use it.
 */
import type { Http2SecureServer, Http2Server, ServerHttp2Session } from "node:http2";
import type { Socket } from "node:net";

/** How long a connection that is over (GOAWAY sent, session error) stays open before its socket is destroyed. */
export const DEFAULT_GOAWAY_GRACE_MS = 3000;

/** Node's internal session handle, as far as the guard uses it. */
interface NativeSession {
  hasPendingData(): boolean;
}

interface Tracked {
  readonly socket: Pick<Socket, "destroy" | "destroyed"> | undefined;
  /** When the session was first seen over (Date.now()), undefined while it is healthy. */
  overSince: number | undefined;
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
export function guardHttp2Sessions(server: Http2Server | Http2SecureServer, graceMs: number = DEFAULT_GOAWAY_GRACE_MS): SessionGuard {
  if (!Number.isFinite(graceMs) || graceMs < 0) throw new RangeError(`goawayGraceMs must be a non-negative number of milliseconds, got ${graceMs}`);
  const sessions = new Map<ServerHttp2Session, Tracked>();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const sweep = () => {
    const now = Date.now();
    for (const [session, tracked] of sessions) {
      if (tracked.socket?.destroyed === true || (tracked.socket === undefined && session.destroyed)) {
        sessions.delete(session);
        continue;
      }
      if (tracked.overSince === undefined) {
        if (!isOver(session)) continue;
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

  const onSession = (session: ServerHttp2Session) => {
    if (stopped) return;
    const tracked: Tracked = { socket: rawSocket(session), overSince: undefined };
    sessions.set(session, tracked);
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
      timer = setInterval(sweep, Math.max(10, Math.floor(graceMs / 2)));
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
  return Object.getOwnPropertySymbols(session).find((key) => key.description === description) ?? null;
}

function nativeHandle(session: ServerHttp2Session): NativeSession | undefined {
  handleKey ??= privateKey(session, "kHandle");
  if (handleKey === null) return undefined;
  const handle = (session as unknown as Record<symbol, unknown>)[handleKey] as Partial<NativeSession> | undefined;
  return typeof handle?.hasPendingData === "function" ? (handle as NativeSession) : undefined;
}

/**
 * The session's own socket (not the proxy `session.socket`, which refuses every access once the
 * session is destroyed, when the socket may still be open). Falls back to the proxy.
 */
function rawSocket(session: ServerHttp2Session): Pick<Socket, "destroy" | "destroyed"> | undefined {
  socketKey ??= privateKey(session, "socket");
  const raw = socketKey === null ? undefined : (session as unknown as Record<symbol, unknown>)[socketKey];
  if (raw !== null && typeof raw === "object" && typeof (raw as Socket).destroy === "function") return raw as Socket;
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
