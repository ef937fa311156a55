// Flow control of one socket of the https://protoc-gen-a2a.github.io/bindings/websocket/v1 binding (BINDING.md,
// "Limits"): what the server holds for one peer is bounded by bytes, not only by calls. A peer
// that does not read its answers must not make the server hold them: every answer frame waits
// for room before it is encoded, reading stops while the socket is over its bound, and a
// socket that writes nothing out for a while is closed.
import { WebSocket } from "ws";

/** What {@link createWsFlow} needs to know. */
export interface WsFlowOptions {
  /** Answer bytes the socket may hold unwritten (`bufferedAmount`) before answers wait and reading stops. */
  readonly maxBufferedBytes: number;
  /** How long the socket may stay over the bound without writing a byte out, in ms, before `onStalled`; 0 = forever. */
  readonly stalledWriteTimeoutMs: number;
  /** The socket stayed over its bound for `stalledWriteTimeoutMs` without progress: close it. */
  readonly onStalled: () => void;
}

/** Something read from the socket, run in the order read. */
export interface WsInbound {
  /** A call starts work that answers (it waits for room, one per event-loop turn); a cancel frame does not (it runs at once, in order). */
  readonly call: boolean;
  readonly run: () => void;
}

/** The flow control of one socket (see {@link createWsFlow}). */
export interface WsFlow {
  /**
   * Resolves when one answer frame may be encoded and sent: at once while the socket holds at
   * most `maxBufferedBytes` and no other answer waits, else in turn once it has written enough
   * out (or closed). Every resolution must be followed by {@link sent}, sent or not.
   */
  room(): Promise<void>;
  /** After the frame {@link room} let through went to the socket (or was given up). */
  sent(): void;
  /** A frame was written out by the socket (its send callback): room may have come back. */
  written(): void;
  /** Queues what was read: run in order; calls only while the socket is under its bound, one per event-loop turn. */
  read(inbound: WsInbound): void;
  /** True while the socket's reading is stopped by its bound (the peer's pongs are not read then). */
  readonly paused: boolean;
  /** The socket closed: whatever waits is let go, nothing queued runs. */
  close(): void;
}

/**
 * The flow control of `socket`. Memory held for the peer: at most `maxBufferedBytes` of answer
 * frames plus the one answer frame that crossed the bound, and the answers of calls already
 * running (each waits unencoded). Calls read are started one per event-loop turn and only
 * while the socket is under its bound, so that a burst of calls in one TCP segment is not all
 * answered before the bound is seen; while the socket is over its bound, or calls read wait,
 * the socket is not read (TCP back-pressure on the peer).
 */
export function createWsFlow(socket: WebSocket, options: WsFlowOptions): WsFlow {
  const { maxBufferedBytes, stalledWriteTimeoutMs, onStalled } = options;
  /** Answers waiting for room, in order. */
  const waiting: (() => void)[] = [];
  /** What was read and not run yet. */
  const backlog: WsInbound[] = [];
  /** Answers let through and not yet handed to the socket (at most one: they are encoded one at a time). */
  let releasing = 0;
  /** A call was started in this event-loop turn: the next waits for the next turn. */
  let turnTaken = false;
  let closed = false;
  let stallTimer: ReturnType<typeof setTimeout> | undefined;

  const over = () => socket.bufferedAmount > maxBufferedBytes;
  const open = () => !closed && socket.readyState === WebSocket.OPEN;

  function update(): void {
    if (!open()) {
      letGo();
      return;
    }
    if (releasing === 0 && waiting.length > 0 && !over()) {
      releasing++;
      waiting.shift()!();
    }
    if (over()) armStallTimer();
    else disarmStallTimer();
    pump();
  }

  function pump(): void {
    while (backlog.length > 0 && open()) {
      const next = backlog[0]!;
      if (next.call && (turnTaken || over() || waiting.length > 0)) break;
      backlog.shift();
      if (next.call) {
        turnTaken = true;
        setImmediate(() => {
          turnTaken = false;
          update();
        });
      }
      next.run();
    }
    steerReading();
  }

  function steerReading(): void {
    if (!open()) return;
    const stop = backlog.length > 0 || over() || waiting.length > 0;
    if (stop && !socket.isPaused) socket.pause();
    else if (!stop && socket.isPaused) socket.resume();
  }

  function armStallTimer(): void {
    if (stalledWriteTimeoutMs <= 0 || stallTimer !== undefined) return;
    let mark = socket.bufferedAmount;
    const check = () => {
      stallTimer = undefined;
      if (!open() || !over()) return;
      const now = socket.bufferedAmount;
      // Progress (the peer reads, however slowly) keeps the socket: it holds no more than its bound.
      if (now < mark) {
        mark = now;
        stallTimer = setTimeout(check, stalledWriteTimeoutMs);
        stallTimer.unref?.();
        return;
      }
      onStalled();
    };
    stallTimer = setTimeout(check, stalledWriteTimeoutMs);
    stallTimer.unref?.();
  }

  function disarmStallTimer(): void {
    if (stallTimer === undefined) return;
    clearTimeout(stallTimer);
    stallTimer = undefined;
  }

  function letGo(): void {
    closed = true;
    disarmStallTimer();
    backlog.length = 0;
    for (const resolve of waiting.splice(0)) resolve();
  }

  return {
    room: () => {
      if (!open()) return Promise.resolve();
      if (releasing === 0 && waiting.length === 0 && !over()) {
        releasing++;
        return Promise.resolve();
      }
      return new Promise<void>((resolve) => {
        waiting.push(() => resolve());
        steerReading();
        if (over()) armStallTimer();
      });
    },
    sent: () => {
      releasing = Math.max(0, releasing - 1);
      update();
    },
    written: update,
    read: (inbound) => {
      if (!open()) return;
      backlog.push(inbound);
      pump();
    },
    get paused() {
      return socket.isPaused;
    },
    close: letGo,
  };
}
