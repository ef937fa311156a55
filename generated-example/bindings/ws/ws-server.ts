// Written by protoc-gen-a2a scaffold-binding v0.1.0 for lf.a2a.v1.A2AService (a2a.proto); now yours.
// The server side of the https://protoc-gen-a2a.github.io/bindings/websocket/v1 binding (spec §12): the holes of your transport's framing,
// and the server made of them. The core is the runtime's (`createFramedBindingServer` of
// @protoc-gen-a2a/runtime/binding, so that its fixes reach this binding with the runtime):
// calls multiplexed by id on a connection, cancellation, error frames, activated extensions,
// streaming with backpressure, and every call through the shared pipeline (service parameters,
// version negotiation, extensions, REQUIRED validation, error mapping: the same steps and errors
// as the JSON-RPC, HTTP+JSON and gRPC servers). Fill the places marked A2A-SCAFFOLD; a rerun of
// `protoc-gen-a2a scaffold-binding` leaves this file alone.
import type { IncomingMessage, Server as HttpServer } from "node:http";
import {
  WriteBudget,
  toJsonRpcError,
  type A2AError,
  type JsonRpcErrorObject,
  type ServerOptions,
} from "@protoc-gen-a2a/runtime";
import {
  createFramedBindingServer,
  decodeJsonCallFrame,
  jsonCancelFrameId,
  jsonReplySink,
  peekJsonCallId,
  type FramedBindingServer,
  type FramedCallId,
  type FramedInboundCall,
  type FramedReplySink,
  type FramedServerConnection,
  type JsonAnswerFrame,
} from "@protoc-gen-a2a/runtime/binding";
import { DEFAULT_STALLED_WRITE_TIMEOUT_MS, routeUpgrade } from "@protoc-gen-a2a/runtime/http";
import { WebSocket, WebSocketServer } from "ws";
import {
  errorSpecs,
  InvalidRequestError,
  UnsupportedOperationError,
} from "../../gen/a2a_a2a_errors.js";
import {
  A2AServiceOperationsByName,
  A2AServiceRequiredFields,
  A2AServiceResponseFields,
  dispatchA2AService,
  type A2AServiceHandler,
  type A2AServiceOperationName,
} from "../../gen/a2a_a2a_handler.js";
import { A2AServiceRequestJsonReaders } from "../../gen/a2a_a2a_json.js";
import { createWsFlow } from "./ws-flow.js";
import { WS_PROTOCOL_BINDING, wsOperations } from "./ws-operations.js";

/** A call's id on the wire: answers carry it, so that calls can share one connection. */
export type WsCallId = FramedCallId;

/** One call as {@link decodeWsCall} read it from an inbound frame: id, operation (its wire name), ProtoJSON request, service parameters, tenant. */
export type WsInboundCall = FramedInboundCall;

/**
 * Where the server writes the answer frames of a call, in order: a result; or events, then an
 * end; or an error (`id` null when the frame could not be read). Each may return a promise,
 * awaited before the call's next frame (backpressure). The error form is what
 * {@link encodeWsError} returns: change both together.
 */
export type WsReplySink = FramedReplySink<JsonRpcErrorObject>;

/** One connection (socket, session, process): `receive` every frame that arrives on it; `cancel(id)` for a cancel frame; `close()` when it closes. */
export type WsServerConnection = FramedServerConnection;

/** The server of the binding for one agent: `connect(sink, parameters?)` per connection (parameters: service parameters of the whole connection). */
export type WsBindingServer = FramedBindingServer<JsonRpcErrorObject>;

/**
 * What the A2A-SCAFFOLD places not filled yet do: throw UnsupportedOperationError, which the
 * caller gets as that error. Exported, so that filling the last place leaves no unused code.
 */
export function unfilledWsServer(place: string): never {
  throw new UnsupportedOperationError(`${place}: not filled in yet (A2A-SCAFFOLD, ws-server.ts)`);
}

/**
 * A2A-SCAFFOLD(framing): reads one inbound frame of your transport (a WebSocket message, a
 * queue message, a line of stdin, …). Throw an A2A error for a frame that is no call:
 * `JsonParseError` for one that does not parse, `InvalidRequestError` for one that is no call.
 * The runtime's JSON call frames (what the client's default `wsClientFrames` sends:
 * `{"id", "method", "params", "serviceParameters"?}`) read with
 * `return decodeJsonCallFrame(frame, errorSpecs);` (@protoc-gen-a2a/runtime/binding).
 *
 * On this binding: a call is one WebSocket text frame holding one JSON call frame of the runtime,
 * `{"id": <number|string>, "method": <wire name>, "params"?: <ProtoJSON request>, "serviceParameters"?: {name: value}}`;
 * {@link attachWsServer} hands a text frame over as its string, a binary frame as its bytes.
 */
export function decodeWsCall(frame: unknown): WsInboundCall {
  if (typeof frame !== "string")
    throw new InvalidRequestError(
      "binary frames are not part of this binding: send text frames of JSON",
    );
  return decodeJsonCallFrame(frame, errorSpecs);
}

/**
 * A2A-SCAFFOLD(framing): the call id of a frame {@link decodeWsCall} refused, when it can
 * still be read, so that the error frame carries it; null otherwise (`peekJsonCallId` for JSON
 * call frames). An id in use by a running call is never used.
 *
 * On this binding, as on JSON-RPC (§9.5): an error frame carries an id only for a frame that
 * was read as a call; one that is not (not JSON, no id or method, bad `serviceParameters`,
 * binary) is answered with id null, so that it can never end a call of the client's.
 */
export function peekWsCallId(frame: unknown): WsCallId | null {
  void frame;
  return null;
}

/**
 * A2A-SCAFFOLD(service-parameters): the service parameters of a call (§12.3). Default: the
 * call's own map; add what your transport carries elsewhere (connection-level headers set at
 * connect time, a message's metadata `a2a-service-parameters` as fallback).
 */
export function wsServiceParameters(
  call: WsInboundCall,
  connection: Readonly<Record<string, string>>,
): Readonly<Record<string, string>> {
  // Names are case-insensitive (they are HTTP header names at the upgrade): lower-cased here so
  // that a frame's "Authorization" replaces the upgrade's "authorization" instead of joining it.
  // Connection-level values (the upgrade request's A2A-Version, A2A-Extensions, Authorization)
  // apply to every call of the socket; a frame's own value for a name wins.
  const merged: Record<string, string> = {};
  for (const [name, value] of Object.entries(connection)) merged[name.toLowerCase()] = value;
  const own: Record<string, string> = {};
  for (const [name, value] of Object.entries(call.serviceParameters)) {
    const key = name.toLowerCase();
    // The same name twice in one frame (differing in case) is joined, as repeated HTTP headers are (RFC 9110 §5.3).
    own[key] = own[key] === undefined ? value : `${own[key]}, ${value}`;
  }
  return Object.assign(merged, own);
}

/**
 * A2A-SCAFFOLD(errors): the native form of an A2A error on your wire (§12.4; BINDING.md lists
 * every error). Default: the JSON-RPC error object (code, message, data: [ErrorInfo, …]),
 * which the generated `errorRegistry.fromJsonRpcError` turns back into the typed class.
 */
export function encodeWsError(error: A2AError): JsonRpcErrorObject {
  // The scaffold's default, kept: {code, message, data: [google.rpc.ErrorInfo, google.rpc.BadRequest?]},
  // the codes of spec §5.4 / §9.5 (plus -32098 / -32099 for the auth errors, as on JSON-RPC).
  return toJsonRpcError(error);
}

/**
 * Serves `handler` over the https://protoc-gen-a2a.github.io/bindings/websocket/v1 binding. `options` are those of the standard servers
 * (supportedVersions, versionWhenMissing, requiredExtensions, authenticate, logger), so that
 * every binding of the agent answers alike. Your transport's adapter calls `connect(sink,
 * parameters)` per connection and hands it every frame (`receive`), cancel frame (`cancel`)
 * and the connection's end (`close`); `jsonReplySink(write)` writes JSON answer frames.
 *
 * A2A-SCAFFOLD(auth): credentials travel as service parameters (e.g. `authorization`), per
 * call or for the connection, and `options.authenticate` receives them before anything else
 * runs (§12.6).
 * On this binding: `Authorization` of the upgrade request applies to every call of the socket,
 * a frame's `serviceParameters.authorization` to that call (and wins); the upgrade itself is
 * never refused for its credentials: a bad or missing token is the UnauthenticatedError of each
 * call it applies to (the error frame is the challenge; the card's securitySchemes name the scheme).
 * A2A-SCAFFOLD(streaming): a stream's events go to `sink.event` in order, then `sink.end`;
 * an error after the first event is the stream's last frame (`sink.error`); `cancel` stops it.
 * On this binding: `{"id", "event"}` frames (the first with `activatedExtensions` when the agent
 * activated any), then `{"id", "end": true}` or `{"id", "error"}`; a `{"id", "cancel": true}`
 * frame or the socket closing aborts the handler's signal; the sink of {@link attachWsServer}
 * resolves `event` once the socket has written the frame out, so a client that reads nothing
 * stops the stream instead of filling the server's memory.
 */
export function createWsBindingServer<Principal>(
  handler: A2AServiceHandler<Principal>,
  options?: ServerOptions<Principal>,
): WsBindingServer {
  return createFramedBindingServer<Principal>(
    {
      operations: A2AServiceOperationsByName,
      requestFields: A2AServiceRequiredFields,
      // The generated ProtoJSON readers: a JSON request decoded and checked in one pass (reflection decides the rest).
      requestReaders: A2AServiceRequestJsonReaders,
      responseFields: A2AServiceResponseFields,
      errors: errorSpecs,
      dispatch: (operation, request, context) =>
        dispatchA2AService(handler, operation as A2AServiceOperationName, request, context),
    },
    WS_PROTOCOL_BINDING,
    {
      operations: wsOperations,
      decodeCall: decodeWsCall,
      peekCallId: peekWsCallId,
      serviceParameters: wsServiceParameters,
      encodeError: encodeWsError,
    },
    options,
  );
}

// ---------------------------------------------------------------------------------------
// The socket adapter: ws's WebSocketServer on a node:http server's `upgrade` event.
// ---------------------------------------------------------------------------------------

/** Where {@link attachWsServer} listens by default. */
export const WS_DEFAULT_PATH = "/a2a/ws";

/** The largest frame read by default, in bytes (as the HTTP servers' `maxBodyBytes`). */
export const WS_DEFAULT_MAX_FRAME_BYTES = 10 * 1024 * 1024;

/** The default of {@link WsServerOptions.maxBufferedBytes}: 1 MiB of unread answers per socket. */
export const WS_DEFAULT_MAX_BUFFERED_BYTES = 1024 * 1024;

/** The close code of a socket whose peer stopped reading (RFC 6455 §7.4.1 1008: it broke the server's policy; 1013 would tell it to retry). */
export const WS_STALLED_CLOSE_CODE = 1008;

/** How long a stalled socket gets to take its close frame before it is dropped, in ms. */
const WS_STALLED_CLOSE_GRACE_MS = 1000;

/** The upgrade request's headers taken as connection-level service parameters by default. */
export const WS_UPGRADE_PARAMETERS: readonly string[] = [
  "a2a-version",
  "a2a-extensions",
  "authorization",
];

/** Options of {@link attachWsServer}: the standard servers' options, and the socket's. */
export interface WsServerOptions<Principal> extends ServerOptions<Principal> {
  /** The upgrade path (query strings ignored). Default {@link WS_DEFAULT_PATH}. */
  readonly path?: string | undefined;
  /** Frames larger than this are answered with an InvalidRequestError frame (`id` null) and not read. Default 10 MiB. */
  readonly maxFrameBytes?: number | undefined;
  /** Frames larger than this close the socket (1009, ws's `maxPayload`): ws buffers a whole frame before it is read. Default 4 × maxFrameBytes. */
  readonly maxPayloadBytes?: number | undefined;
  /** Calls running at once on one socket; one more is answered with an InvalidRequestError frame. Default 1 000. */
  readonly maxCallsPerSocket?: number | undefined;
  /** Upgrade request headers that are service parameters of every call of the socket. Default {@link WS_UPGRADE_PARAMETERS}. */
  readonly upgradeParameters?: readonly string[] | undefined;
  /** Interval of the pings that find dead peers (a socket that missed a pong is closed and its calls cancelled), in ms; 0 = none. Default 30 000. */
  readonly pingIntervalMs?: number | undefined;
  /**
   * Answer bytes one socket may hold unwritten (ws's `bufferedAmount`: the peer has not read them)
   * before the server stops reading the socket's frames and its answers wait, unencoded, for the
   * peer to read (back-pressure). The server then holds at most this plus one answer frame for the
   * socket, and the answers of calls already running. A peer that reads gets every answer, in
   * order; one that stops reading stops the socket. Default {@link WS_DEFAULT_MAX_BUFFERED_BYTES} (1 MiB).
   */
  readonly maxBufferedBytes?: number | undefined;
  /**
   * How long a socket may stay over `maxBufferedBytes` without writing a byte out (the peer reads
   * nothing), in ms, before the server closes it with 1008 (policy violation) and a reason, and
   * drops it one second later whether the close frame got through or not: its calls are cancelled
   * and what it held is freed. 0 = never. Default 60 000 (`DEFAULT_STALLED_WRITE_TIMEOUT_MS`, as
   * the HTTP servers' stalled responses).
   */
  readonly stalledWriteTimeoutMs?: number | undefined;
  /**
   * The bound on what all the sockets together hold unwritten (their `bufferedAmount`), shared with
   * the agent's other listeners when it is the same {@link WriteBudget} (serveNode's and the gRPC
   * listeners' `writeBudget`): over it, the socket that has waited longest for its peer is dropped
   * (its calls are cancelled). Default: a budget of this attachment's own, of
   * `DEFAULT_MAX_PENDING_WRITE_BYTES` (64 MiB).
   */
  readonly writeBudget?: WriteBudget | undefined;
}

/** What {@link attachWsServer} returns. */
export interface WsServerAttachment {
  /** The upgrade path served. */
  readonly path: string;
  /** The open sockets (their `bufferedAmount` is what the server has not written out yet). */
  readonly sockets: ReadonlySet<WebSocket>;
  /** Stops serving upgrades and closes every socket (their calls are cancelled). Call it before the HTTP server's `close`. */
  close(): Promise<void>;
}

/**
 * Serves `handler` over WebSocket on `server`'s upgrade requests to `options.path`: one
 * {@link createWsBindingServer} for the agent, one of its connections per socket (`connect`,
 * with the upgrade's service parameters), text frames of JSON in and out (BINDING.md).
 * Every other upgrade request (another path, `Upgrade: h2c`) is served as the plain HTTP/1.1
 * request it also is (`routeUpgrade` of the runtime), or left to the server's own `upgrade`
 * listeners when it has some; other attachments and `routeUpgrade` routes on the same server
 * share the one listener. Each socket is bounded by bytes (`maxBufferedBytes`,
 * `stalledWriteTimeoutMs`) and by calls (`maxCallsPerSocket`), all of them together by `writeBudget`.
 */
export function attachWsServer<Principal>(
  server: HttpServer,
  handler: A2AServiceHandler<Principal>,
  options: WsServerOptions<Principal> = {},
): WsServerAttachment {
  const path = options.path ?? WS_DEFAULT_PATH;
  const maxFrame = options.maxFrameBytes ?? WS_DEFAULT_MAX_FRAME_BYTES;
  const maxCalls = options.maxCallsPerSocket ?? 1_000;
  const names = (options.upgradeParameters ?? WS_UPGRADE_PARAMETERS).map((n) => n.toLowerCase());
  const pingMs = options.pingIntervalMs ?? 30_000;
  const maxBufferedBytes = options.maxBufferedBytes ?? WS_DEFAULT_MAX_BUFFERED_BYTES;
  const stalledWriteTimeoutMs = options.stalledWriteTimeoutMs ?? DEFAULT_STALLED_WRITE_TIMEOUT_MS;
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: options.maxPayloadBytes ?? maxFrame * 4,
    perMessageDeflate: false,
    clientTracking: true,
  });
  const binding = createWsBindingServer(handler, options);
  const budget = options.writeBudget ?? new WriteBudget();

  function serveSocket(socket: WebSocket, parameters: Readonly<Record<string, string>>): void {
    const flow = createWsFlow(socket, {
      maxBufferedBytes,
      stalledWriteTimeoutMs,
      onStalled: () => {
        // The close frame queues behind what the peer does not read: it reaches a peer that reads
        // again within the grace; the socket is dropped after it either way, freeing what it held.
        socket.close(WS_STALLED_CLOSE_CODE, `answers not read for ${stalledWriteTimeoutMs} ms`);
        setTimeout(() => socket.terminate(), WS_STALLED_CLOSE_GRACE_MS).unref();
      },
    });
    // What the socket holds unwritten counts in the write budget; over it, the socket that waited longest is dropped.
    const pending = budget.watch(() => socket.terminate(), {
      measure: () => socket.bufferedAmount,
    });
    // Every frame waits for room (the socket under its bound) before it is encoded, and resolves
    // once ws has handed it to the OS (its send callback): a stream's next event is not taken
    // from the handler before the previous one left, and a peer that stops reading stops the
    // socket with at most maxBufferedBytes plus one frame unwritten.
    const send = async (frame: JsonAnswerFrame): Promise<void> => {
      await flow.room();
      let written: Promise<void> = Promise.resolve();
      try {
        if (socket.readyState === WebSocket.OPEN) {
          written = new Promise<void>((resolve) => {
            socket.send(JSON.stringify(frame), () => {
              pending.update(socket.bufferedAmount, true);
              flow.written();
              resolve();
            });
          });
          pending.update(socket.bufferedAmount, false);
        }
      } finally {
        flow.sent();
      }
      return written;
    };
    const sink = jsonReplySink(send);
    const connection = binding.connect(sink, parameters);
    const refuse = (id: WsCallId | null, error: A2AError) =>
      void sink.error(id, encodeWsError(error));
    let running = 0;
    let alive = true;
    socket.on("pong", () => {
      alive = true;
    });
    const ping =
      pingMs > 0
        ? setInterval(() => {
            // While reading is stopped by the bound the peer's pongs are not read: the stalled-write timeout judges it then.
            if (flow.paused) return;
            if (!alive) return socket.terminate();
            alive = false;
            socket.ping();
          }, pingMs)
        : undefined;
    ping?.unref();

    socket.on("message", (data, isBinary) => {
      const bytes = Buffer.isBuffer(data)
        ? data
        : Array.isArray(data)
          ? Buffer.concat(data)
          : Buffer.from(data);
      if (bytes.length > maxFrame)
        return refuse(
          null,
          new InvalidRequestError(`the frame exceeds the limit of ${maxFrame} bytes`),
        );
      // A text frame as its string (ws checked its UTF-8), a binary one as its bytes (decodeWsCall refuses it).
      const frame = isBinary ? bytes : bytes.toString("utf8");
      const cancelled = jsonCancelFrameId(frame);
      // In the order read: a cancel frame right behind its call's frame finds the call started.
      if (cancelled !== undefined)
        return flow.read({ call: false, run: () => connection.cancel(cancelled) }); // a call that already ended: nothing to do
      flow.read({
        call: true,
        run: () => {
          if (running >= maxCalls)
            return refuse(
              peekJsonCallId(frame),
              new InvalidRequestError(`too many calls running on this socket (${maxCalls})`),
            );
          running++;
          void connection.receive(frame).finally(() => {
            running--;
          });
        },
      });
    });
    // ws closes the socket after a protocol error (invalid UTF-8, a frame over maxPayload); its calls end with it.
    socket.on("error", () => undefined);
    socket.once("close", () => {
      clearInterval(ping);
      pending.close();
      flow.close();
      connection.close();
    });
  }

  const isWebSocketUpgrade = (request: IncomingMessage) =>
    (request.url ?? "/").split("?")[0] === path &&
    (request.headers.upgrade ?? "")
      .split(",")
      .some((token) => token.trim().toLowerCase() === "websocket");
  // Only WebSocket upgrades to `path` upgrade; any other request that offers an upgrade (`Upgrade: h2c`
  // from curl --http2) is the plain HTTP/1.1 request it also is, served by the server's other listeners.
  const removeRoute = routeUpgrade(server, {
    matches: isWebSocketUpgrade,
    upgrade: (request, socket, head) => {
      const parameters: Record<string, string> = {};
      for (const name of names) {
        const value = request.headers[name];
        if (value !== undefined) parameters[name] = Array.isArray(value) ? value.join(", ") : value;
      }
      wss.handleUpgrade(request, socket, head, (ws) => serveSocket(ws, parameters));
    },
  });

  return {
    path,
    sockets: wss.clients,
    close: async () => {
      removeRoute();
      for (const socket of wss.clients) socket.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
