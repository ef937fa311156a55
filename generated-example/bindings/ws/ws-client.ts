// Written by protoc-gen-a2a scaffold-binding v0.1.0 for lf.a2a.v1.A2AService (a2a.proto); now yours.
// The client side of the https://protoc-gen-a2a.github.io/bindings/websocket/v1 binding (spec §12): the typed client of the generated
// handler file (`A2AServiceClient`, one method per RPC) over the runtime's framed transport
// (`FramedTransport` and `createFramedConnection` of @protoc-gen-a2a/runtime/binding: calls
// multiplexed by id on one channel, cancel frames, answer frames back to messages and typed
// errors, a lost channel as UNAVAILABLE). Yours: the channel of your transport, how frames look
// on it, and the error form. Fill the places marked A2A-SCAFFOLD; a rerun of
// `protoc-gen-a2a scaffold-binding` leaves this file alone.
import {
  createFramedConnection,
  FramedTransport,
  jsonClientFrames,
  type FramedAnswer,
  type FramedChannel,
  type FramedChannelEvents,
  type FramedClientCodec,
  type FramedConnection,
  type FramedOutboundCall,
  type FramedTransportOptions,
} from "@protoc-gen-a2a/runtime/binding";
import { WebSocket, type RawData } from "ws";
import { errorRegistry, UnsupportedOperationError } from "../../gen/a2a_a2a_errors.js";
import { A2AServiceTransportClient } from "../../gen/a2a_a2a_handler.js";
import { wsOperations } from "./ws-operations.js";

/**
 * What the A2A-SCAFFOLD places not filled yet do: throw UnsupportedOperationError, which the
 * caller gets as that error. Exported, so that filling the last place leaves no unused code.
 */
export function unfilledWsClient(place: string): never {
  throw new UnsupportedOperationError(`${place}: not filled in yet (A2A-SCAFFOLD, ws-client.ts)`);
}

/** One call as the client sends it: operation (its wire name), ProtoJSON request, service parameters (the connection gives it its id). */
export type WsOutboundCall = FramedOutboundCall;

/** One answer frame of a call: a result; an event (then more, then an end); or an error in the binding's native form. */
export type WsAnswerFrame = FramedAnswer;

/** The client's end of the binding: `call` sends one call and yields its answer frames; an abort (or a consumer that stops) cancels it on the wire. */
export type WsConnection = FramedConnection;

/** Options of the https://protoc-gen-a2a.github.io/bindings/websocket/v1 client: the standard client options, `connection` (default: `connectWs(url)`) and `url` (the AgentInterface.url). */
export type WsClientOptions = FramedTransportOptions;

/** Options of {@link connectWs}. */
export interface WsConnectOptions {
  /**
   * Headers of the HTTP upgrade request. `A2A-Version`, `A2A-Extensions` and `Authorization`
   * are connection-level service parameters: the server applies them to every call of the
   * socket (a call's own service parameters win).
   */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** Largest answer frame accepted, in bytes; a larger one closes the socket (1009). Default 100 MiB. */
  readonly maxFrameBytes?: number | undefined;
  /** How long the opening handshake may take, in ms. Default 30 000. */
  readonly handshakeTimeoutMs?: number | undefined;
  /**
   * Answer frames received but not yet read by their callers, over all calls of the socket,
   * at which the socket stops reading (TCP then makes the server wait: end-to-end
   * backpressure); it reads again at half of it. Default 1 000.
   */
  readonly highWaterFrames?: number | undefined;
}

/** A channel of {@link openWsChannel}: one WebSocket. */
export interface WsChannel extends FramedChannel<string> {
  readonly socket: WebSocket;
}

/** A connection of {@link connectWs}: one WebSocket, opened by the first call and again by the first call after it closed. */
export interface WsSocketConnection extends WsConnection {
  /** The open socket, if any (for tests and diagnostics). */
  readonly socket: WebSocket | undefined;
  /** Closes the socket (1000); its running calls fail. The next call opens a new one. */
  close(): Promise<void>;
}

function rawText(data: RawData): string {
  const bytes = Buffer.isBuffer(data)
    ? data
    : Array.isArray(data)
      ? Buffer.concat(data)
      : Buffer.from(data);
  return bytes.toString("utf8");
}

/**
 * A2A-SCAFFOLD(framing): opens one channel of your transport to `url` (the AgentInterface.url):
 * a socket, a session, a child process. `send(frame)` writes a frame; `writable` says whether it
 * still can; `close()` closes it. Report every frame read to `events.frame`, and the channel
 * closing or failing to `events.closed(reason)` (its running calls fail with UNAVAILABLE).
 * Reject (or throw) when it cannot open. Optional `pause()`/`resume()`: stop reading while
 * answers pile up unread (backpressure).
 *
 * On this binding: a `ws:`/`wss:` URL, one WebSocket; text frames in and out (binary answer
 * frames are dropped); `pause`/`resume` stop and restart reading the socket.
 */
export function openWsChannel(
  url: string,
  events: FramedChannelEvents<string>,
  options: WsConnectOptions = {},
): Promise<WsChannel> {
  return new Promise<WsChannel>((resolve, reject) => {
    let opened = false;
    let lastError: Error | undefined;
    const socket = new WebSocket(url, {
      headers: { ...options.headers },
      maxPayload: options.maxFrameBytes ?? 100 * 1024 * 1024,
      handshakeTimeout: options.handshakeTimeoutMs ?? 30_000,
      perMessageDeflate: false,
    });
    const channel: WsChannel = {
      socket,
      send: (frame) => socket.send(frame),
      get writable() {
        return socket.readyState === WebSocket.OPEN;
      },
      close: () =>
        new Promise<void>((closed) => {
          if (socket.readyState === WebSocket.CLOSED) return closed();
          socket.once("close", () => closed());
          socket.resume();
          socket.close(1000, "client closed");
        }),
      pause: () => socket.pause(),
      resume: () => socket.resume(),
    };
    socket.on("message", (data, isBinary) => {
      if (!isBinary) events.frame(rawText(data));
    });
    socket.on("error", (e) => {
      lastError = e;
      if (!opened) reject(e);
    });
    socket.once("open", () => {
      opened = true;
      resolve(channel);
    });
    socket.once("close", (code, reason) => {
      const text = reason.toString("utf8");
      events.closed(
        new Error(
          `the WebSocket to ${url} closed (${code}${text !== "" ? ` ${text}` : ""}) before the call ended`,
          lastError === undefined ? undefined : { cause: lastError },
        ),
      );
    });
  });
}

/** A2A-SCAFFOLD(framing): how calls and answers look on your wire, the client's side of the server's decodeWsCall. On this binding: the runtime's JSON call frames. */
export const wsClientFrames: FramedClientCodec<string> = jsonClientFrames;

/**
 * A connection to `url`: calls multiplexed on the channel {@link openWsChannel} opens
 * (at the first call, and again at the first call after it closed).
 *
 * On this binding: every call and stream of the connection shares one WebSocket, told apart by
 * the frames' `id`, which the connection assigns.
 */
export function connectWs(url: string, options: WsConnectOptions = {}): WsSocketConnection {
  const connection = createFramedConnection<WsChannel>({
    open: (events) => openWsChannel(url, events, options),
    frames: wsClientFrames,
    errors: errorRegistry,
    highWaterFrames: options.highWaterFrames,
    label: `the WebSocket to ${url}`,
  });
  return {
    get socket() {
      return connection.channel?.socket;
    },
    call: (call, signal) => connection.call(call, signal),
    close: () => connection.close(),
  };
}

/**
 * A2A-SCAFFOLD(errors): an error frame back to the typed error class. Default: the JSON-RPC
 * error object the server's default encodeWsError writes.
 */
export function decodeWsError(error: unknown): Error {
  // The scaffold's default, kept: the server writes JSON-RPC error objects (encodeWsError);
  // ErrorInfo's reason, then the code, picks the generated class.
  return errorRegistry.fromJsonRpcError(error);
}

/** The Transport of the https://protoc-gen-a2a.github.io/bindings/websocket/v1 binding: every typed call as frames. */
export class WsTransport extends FramedTransport {
  constructor(options: WsClientOptions) {
    super(
      {
        operations: wsOperations,
        errors: errorRegistry,
        connect: connectWs,
        decodeError: decodeWsError,
      },
      options,
    );
  }
}

/** The typed client of lf.a2a.v1.A2AService over the https://protoc-gen-a2a.github.io/bindings/websocket/v1 binding. */
export class A2AServiceWsClient extends A2AServiceTransportClient {
  constructor(options: WsClientOptions) {
    super(new WsTransport(options));
  }

  /** Closes the client's connection. */
  close(): Promise<void> {
    return (this.transport as WsTransport).close();
  }
}
