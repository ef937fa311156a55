// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Connection-level limits of the node:http server an agent listens on (issue #17): header size,
 * the time a client may take to send its headers and its whole request (slowloris), the idle time
 * of a kept-alive connection, and spec-shaped answers (a google.rpc.Status JSON body, as the
 * HTTP+JSON binding's errors, §11.6) where Node would answer a bare `431`, `408` or `400` (malformed
 * HTTP/1.1, or HTTP/1.1 without Host).
 *
 * Node applies some of these by default, with lenient values: headers within 60 s, the request within
 * 300 s, checked every 30 s (so a client can hold a connection with half a header for up to 90 s).
 * `createA2AHttpServer` applies the defaults below; `applyHttpServerLimits` applies them (but the
 * header size and checking interval, which node:http takes only at creation) to a server of yours.
 */
import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerOptions as NodeHttpServerOptions,
  type ServerResponse,
} from "node:http";
import type { Duplex } from "node:stream";
import { ERROR_DOMAIN } from "../errors/a2a-error.js";

/** Default of `maxHeaderBytes`: 16 KiB (Node's own default), answered 431. */
export const DEFAULT_MAX_HEADER_BYTES = 16 * 1024;
/** Default of `headersTimeoutMs`: 10 s for the request line and headers, answered 408. */
export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
/** Default of `requestTimeoutMs`: 60 s for the whole request, body included (10 MiB at 175 KB/s), answered 408. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
/** Default of `keepAliveTimeoutMs`: 5 s of idle time between requests on a kept-alive connection (Node's own default). */
export const DEFAULT_KEEP_ALIVE_TIMEOUT_MS = 5_000;
/** Default of `connectionsCheckingIntervalMs`: the two timeouts are checked every second (Node: every 30 s). */
export const DEFAULT_CONNECTIONS_CHECKING_INTERVAL_MS = 1_000;

/** Connection limits of an HTTP/1.1 server (see createA2AHttpServer). */
export interface HttpServerLimits {
  /** Largest request line plus headers, in bytes; more is answered 431. Default {@link DEFAULT_MAX_HEADER_BYTES} (16 KiB). Creation only. */
  readonly maxHeaderBytes?: number | undefined;
  /** Time a client has to send the request line and headers, in ms; then 408 and the connection closed. Default {@link DEFAULT_HEADERS_TIMEOUT_MS} (10 s). */
  readonly headersTimeoutMs?: number | undefined;
  /**
   * Time a client has to send its whole request, body included, in ms; then 408 (when no answer has
   * begun) and the connection closed. Not the time to answer: streams last as long as they need.
   * At least `headersTimeoutMs`. Default {@link DEFAULT_REQUEST_TIMEOUT_MS} (60 s).
   */
  readonly requestTimeoutMs?: number | undefined;
  /** Idle time of a kept-alive connection between requests, in ms, before the server closes it. Default {@link DEFAULT_KEEP_ALIVE_TIMEOUT_MS} (5 s). */
  readonly keepAliveTimeoutMs?: number | undefined;
  /** How often the two request timeouts are checked, in ms (their granularity). Default {@link DEFAULT_CONNECTIONS_CHECKING_INTERVAL_MS} (1 s). Creation only. */
  readonly connectionsCheckingIntervalMs?: number | undefined;
}

interface ResolvedLimits {
  readonly maxHeaderBytes: number;
  readonly headersTimeoutMs: number;
  readonly requestTimeoutMs: number;
  readonly keepAliveTimeoutMs: number;
  readonly connectionsCheckingIntervalMs: number;
}

function positive(name: string, value: number, zeroAllowed: boolean): number {
  if (Number.isInteger(value) && (value > 0 || (zeroAllowed && value === 0))) return value;
  throw new RangeError(
    `${name} must be a ${zeroAllowed ? "non-negative" : "positive"} integer, got ${value}`,
  );
}

function resolve(limits: HttpServerLimits | undefined): ResolvedLimits {
  const resolved = {
    maxHeaderBytes: positive(
      "maxHeaderBytes",
      limits?.maxHeaderBytes ?? DEFAULT_MAX_HEADER_BYTES,
      false,
    ),
    headersTimeoutMs: positive(
      "headersTimeoutMs",
      limits?.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS,
      true,
    ),
    requestTimeoutMs: positive(
      "requestTimeoutMs",
      limits?.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
      true,
    ),
    keepAliveTimeoutMs: positive(
      "keepAliveTimeoutMs",
      limits?.keepAliveTimeoutMs ?? DEFAULT_KEEP_ALIVE_TIMEOUT_MS,
      true,
    ),
    connectionsCheckingIntervalMs: positive(
      "connectionsCheckingIntervalMs",
      limits?.connectionsCheckingIntervalMs ?? DEFAULT_CONNECTIONS_CHECKING_INTERVAL_MS,
      false,
    ),
  };
  // node:http refuses a headers timeout beyond the request timeout.
  if (resolved.requestTimeoutMs > 0 && resolved.headersTimeoutMs > resolved.requestTimeoutMs) {
    throw new RangeError(
      `headersTimeoutMs (${resolved.headersTimeoutMs}) must not exceed requestTimeoutMs (${resolved.requestTimeoutMs})`,
    );
  }
  return resolved;
}

/** The node:http `createServer` options of the limits (for `http.createServer` / `https.createServer` of your own; then {@link applyHttpServerLimits}). */
export function nodeHttpServerOptions(limits?: HttpServerLimits): NodeHttpServerOptions {
  const r = resolve(limits);
  return {
    maxHeaderSize: r.maxHeaderBytes,
    headersTimeout: r.headersTimeoutMs,
    requestTimeout: r.requestTimeoutMs,
    keepAliveTimeout: r.keepAliveTimeoutMs,
    connectionsCheckingInterval: r.connectionsCheckingIntervalMs,
  };
}

/**
 * Applies the timeouts to an existing server (the header size and checking interval are creation
 * options: pass {@link nodeHttpServerOptions} to `createServer`), and answers the requests Node refuses
 * itself (headers too large, too slow, not HTTP) with a JSON error body instead of a bare status line.
 * Returns the server.
 */
export function applyHttpServerLimits<S extends Server>(server: S, limits?: HttpServerLimits): S {
  const r = resolve(limits);
  server.headersTimeout = r.headersTimeoutMs;
  server.requestTimeout = r.requestTimeoutMs;
  server.keepAliveTimeout = r.keepAliveTimeoutMs;
  if (!server.listeners("clientError").includes(answerClientError))
    server.on("clientError", answerClientError);
  requireHost(server);
  return server;
}

/** Servers whose requests without Host are answered by {@link requireHost}. */
const hostChecked = new WeakSet<Server>();

/** The events node:http emits for a request (the latter two when it has `Expect`), each with (req, res). */
const REQUEST_EVENTS = new Set<string | symbol>(["request", "checkContinue", "checkExpectation"]);

/**
 * An HTTP/1.1 request without Host (RFC 9112 §3.2: answered 400) gets the JSON error body, the
 * connection closed. node:http (20, 22, 24) answers such requests itself with an empty 400 when
 * `server.requireHostHeader` is true, its default, which it reads for each request: it is turned off
 * here and the same check made before any listener sees the request (in `emit`, as node:http's own
 * check precedes them: a listener added later, e.g. `server.on("request")`, is covered too).
 */
function requireHost(server: Server): void {
  if (hostChecked.has(server)) return;
  hostChecked.add(server);
  (server as { requireHostHeader?: boolean }).requireHostHeader = false;
  const emit = server.emit as (this: Server, event: string | symbol, ...args: unknown[]) => boolean;
  server.emit = function emitWithHostCheck(
    this: Server,
    event: string | symbol,
    ...args: unknown[]
  ): boolean {
    if (REQUEST_EVENTS.has(event)) {
      const req = args[0] as IncomingMessage;
      if (
        req.headers.host === undefined &&
        req.httpVersionMajor === 1 &&
        req.httpVersionMinor === 1
      ) {
        answerWithoutHost(args[1] as ServerResponse);
        return true;
      }
    }
    return emit.call(this, event, ...args);
  } as Server["emit"];
}

function answerWithoutHost(res: ServerResponse): void {
  const body = statusBody(400, "an HTTP/1.1 request must have a Host header");
  res.on("error", () => {});
  res.writeHead(400, {
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(body)),
    connection: "close",
  });
  res.end(body);
}

/** The google.rpc.Status JSON body (INVALID_ARGUMENT, ErrorInfo INVALID_REQUEST) of a request node:http refuses. */
function statusBody(status: number, message: string): string {
  return JSON.stringify({
    error: {
      code: status,
      status: "INVALID_ARGUMENT",
      message,
      details: [
        {
          "@type": "type.googleapis.com/google.rpc.ErrorInfo",
          reason: "INVALID_REQUEST",
          domain: ERROR_DOMAIN,
          metadata: {},
        },
      ],
    },
  });
}

/**
 * A node:http server with the connection limits applied (defaults above) and JSON error bodies for
 * what Node refuses itself; `listener` as for `http.createServer`. The server an agent should listen on:
 * `createA2AHttpServer({}, serveNode(handler)).listen(8080)`.
 */
export function createA2AHttpServer(
  limits?: HttpServerLimits,
  listener?: (req: IncomingMessage, res: ServerResponse) => void,
): Server {
  const server =
    listener === undefined
      ? createServer(nodeHttpServerOptions(limits))
      : createServer(nodeHttpServerOptions(limits), listener);
  return applyHttpServerLimits(server, limits);
}

/** What node:http's parser errors become: status, reason phrase, message (fixed texts: nothing of the request is echoed). */
function classify(code: string | undefined): readonly [number, string, string] {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return [431, "Request Header Fields Too Large", "the request headers are too large"];
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return [408, "Request Timeout", "the request was not received in time"];
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return [413, "Content Too Large", "the chunk extensions of the request body are too large"];
    default:
      return [400, "Bad Request", "the request is not valid HTTP/1.1"];
  }
}

/** The 'clientError' listener: a google.rpc.Status body (INVALID_ARGUMENT, ErrorInfo INVALID_REQUEST) with the status of the case, then the connection closed. */
function answerClientError(this: Server, error: NodeJS.ErrnoException, socket: Duplex): void {
  // Nothing can be answered on a connection that is gone, or whose response has begun (Node's own rule).
  const inFlight = (socket as { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
  if (error.code !== "ECONNRESET" && socket.writable && inFlight?.headersSent !== true) {
    const [status, phrase, message] = classify(error.code);
    const body = statusBody(status, message);
    try {
      socket.write(
        `HTTP/1.1 ${status} ${phrase}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    } catch {
      // the socket went away meanwhile
    }
  }
  socket.destroy();
}
