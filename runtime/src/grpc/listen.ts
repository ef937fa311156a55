// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Starting a gRPC endpoint: h2c (plaintext HTTP/2, for local use and conformance kits)
 * or TLS (spec §10.1, production), or mounting on an existing http2 server.
 */
import { createServer, createSecureServer, type Http2SecureServer, type Http2Server, type SecureServerOptions } from "node:http2";
import type { AddressInfo } from "node:net";
import type { ConnectRouter } from "@connectrpc/connect";
import { DEFAULT_GRPC_READ_MAX_BYTES } from "./limits.js";
import { connectNodeAdapter, type ConnectNodeAdapterOptions } from "@connectrpc/connect-node";
import { registerGrpcReflection } from "./reflection-service.js";
import { setRouterReadOptions } from "./request-guard.js";
import { installLeanUnary, leanUnaryMethods } from "./lean-unary.js";
import { clampDeadlineHeaders } from "./timeout-header.js";
import { isGrpcJsonCodec, refuseGrpcJsonCodec } from "./json-codecs.js";
import { DEFAULT_HANDSHAKE_TIMEOUT_MS, DEFAULT_MAX_CONCURRENT_STREAMS, guardHttp2Sessions, type SessionTimeouts } from "./session-guard.js";

/** Where and how to listen, and the connection limits (the timeouts: session-guard.ts). */
export interface GrpcListenOptions extends SessionTimeouts {
  readonly host?: string | undefined;
  /** 0 (default) picks a free port. */
  readonly port?: number | undefined;
  /** Key and certificate (PEM): TLS with ALPN h2 (and HTTP/1.1 for gRPC-web/Connect). Omit for h2c. */
  readonly tls?: Pick<SecureServerOptions, "key" | "cert" | "ca" | "passphrase"> | undefined;
  /** Connect adapter options: readMaxBytes (largest message, default 4 MiB here), maxTimeoutMs, … */
  readonly adapter?: Partial<Omit<ConnectNodeAdapterOptions, "routes">> | undefined;
  /**
   * Serve gRPC with the JSON codec (`application/grpc+json`) as well: off by default, such calls get
   * 415 with INVALID_ARGUMENT (the A2A gRPC binding is protobuf; json-codecs.ts says why).
   */
  readonly jsonCodecs?: boolean | undefined;
  /**
   * Serve gRPC Server Reflection (`grpc.reflection.v1` and `v1alpha`) for the service, so `grpcurl`
   * and `buf curl` list, describe and call it with no proto file. Off by default: reflection
   * discloses the whole schema to anyone who can connect.
   */
  readonly reflection?: boolean | undefined;
  /**
   * How long (ms) a connection whose HTTP/2 session is over keeps its socket before the server
   * destroys it: after the server sent GOAWAY for an HTTP/2 protocol error (DATA on stream 0, an
   * oversized frame, a malformed HPACK block, …), after a session error, or after a graceful close
   * the peer does not finish. Node's http2 leaves such sockets open for good (one file descriptor
   * each, issue #17); the grace lets a well-behaved peer read the GOAWAY first. Default 3000; the
   * socket goes between this and twice this after the fact. Healthy connections, idle or busy, are
   * not affected (session-guard.ts). Both stacks: listenGrpc and listenGrpcJs.
   */
  readonly goawayGraceMs?: number | undefined;
  /**
   * Most streams (calls, server streams included) open at once on one connection, announced in the
   * HTTP/2 SETTINGS (`SETTINGS_MAX_CONCURRENT_STREAMS`): a client opens more only when one ends; one
   * that does not wait gets RST_STREAM REFUSED_STREAM. Default 100 (RFC 9113's recommended minimum;
   * Node's own default is 2³² − 1). On grpc-js it is `grpc.max_concurrent_streams` (`grpcJs` wins).
   */
  readonly maxConcurrentStreams?: number | undefined;
  // handshakeTimeoutMs (default 10 s), idleTimeoutMs (default 5 min), requestMessageTimeoutMs (default 30 s),
  // stalledWriteTimeoutMs (default 60 s), maxPendingWriteBytes (default 64 MiB) or writeBudget: SessionTimeouts.
}

/** The session timeouts of listen options (for guardHttp2Sessions). */
export function sessionTimeouts(options: SessionTimeouts | undefined): SessionTimeouts {
  return {
    handshakeTimeoutMs: options?.handshakeTimeoutMs,
    idleTimeoutMs: options?.idleTimeoutMs,
    requestMessageTimeoutMs: options?.requestMessageTimeoutMs,
    stalledWriteTimeoutMs: options?.stalledWriteTimeoutMs,
    maxPendingWriteBytes: options?.maxPendingWriteBytes,
    writeBudget: options?.writeBudget,
  };
}

/** `maxConcurrentStreams` of listen options, checked, with its default. */
export function maxConcurrentStreamsOf(options: { readonly maxConcurrentStreams?: number | undefined } | undefined): number {
  const value = options?.maxConcurrentStreams ?? DEFAULT_MAX_CONCURRENT_STREAMS;
  if (!Number.isInteger(value) || value < 1 || value > 2 ** 32 - 1) throw new RangeError(`maxConcurrentStreams must be an integer from 1 to 2^32 - 1, got ${value}`);
  return value;
}

/** A listening gRPC endpoint. */
export interface GrpcEndpoint {
  readonly server: Http2Server | Http2SecureServer;
  /** `host:port`, the form an AgentInterface advertises for gRPC. */
  readonly address: string;
  readonly port: number;
  close(): Promise<void>;
}

/**
 * Starts an HTTP/2 server for the given Connect routes. The unary methods registered by
 * `registerGrpcService` (the generated `create<Service>GrpcRoutes`) are served, for plain gRPC
 * calls (binary, no request compression), on a lean node:http2 path that answers as Connect does
 * without Connect's per-call pipeline (lean-unary.ts); everything else goes through Connect.
 * Connections whose HTTP/2 session is over (GOAWAY after a protocol error, …) are closed after
 * `goawayGraceMs`; the connection limits (`maxConcurrentStreams`, `handshakeTimeoutMs`, `idleTimeoutMs`,
 * `requestMessageTimeoutMs`, `stalledWriteTimeoutMs`) and the write budget (`maxPendingWriteBytes` or `writeBudget`) apply.
 */
export async function listenGrpc(routes: ConnectNodeAdapterOptions["routes"], options?: GrpcListenOptions): Promise<GrpcEndpoint> {
  let router: ConnectRouter | undefined;
  const adapter = { readMaxBytes: DEFAULT_GRPC_READ_MAX_BYTES, ...options?.adapter };
  const withReflection = (r: ConnectRouter) => {
    router = r;
    // The A2A service's request check decodes as this adapter will (request-guard.ts).
    setRouterReadOptions(r, adapter);
    routes?.(r);
    if (options?.reflection === true) registerGrpcReflection(r);
  };
  const connect = connectNodeAdapter({ fallback: unknownMethod, ...adapter, routes: withReflection });
  const handler: typeof connect = options?.jsonCodecs === true ? connect : (req, res) => (isGrpcJsonCodec(req.headers["content-type"]) ? refuseGrpcJsonCodec(req, res) : connect(req, res));
  const settings = { maxConcurrentStreams: maxConcurrentStreamsOf(options) };
  // TLS: the TLS handshake gets the same bound as the HTTP/2 one (node:tls's default is 120 s).
  const handshakeTimeout = options?.handshakeTimeoutMs ?? DEFAULT_HANDSHAKE_TIMEOUT_MS;
  const server =
    options?.tls !== undefined
      ? createSecureServer({ ...options.tls, allowHTTP1: true, settings, ...(handshakeTimeout > 0 ? { handshakeTimeout } : {}) }, handler)
      : createServer({ settings }, handler);
  // Plain gRPC unary calls of the A2A service skip Connect's per-call pipeline (lean-unary.ts); everything else is Connect's.
  const lean = leanUnaryMethods(router, adapter);
  if (lean !== undefined) installLeanUnary(server, lean, adapter);
  // Deadlines beyond a timer's range read as the longest one, not as 1 ms (timeout-header.ts).
  server.prependListener("stream", (_stream, headers) => clampDeadlineHeaders(headers));
  // Sessions that are over (GOAWAY after a protocol error, …) lose their socket after a grace (session-guard.ts).
  const guard = guardHttp2Sessions(server, options?.goawayGraceMs, sessionTimeouts(options));
  const host = options?.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    const failed = (error: Error) => {
      guard.stop();
      reject(error);
    };
    server.once("error", failed);
    server.listen(options?.port ?? 0, host, () => {
      server.off("error", failed);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const sessions = new Set<{ destroy(): void }>();
  server.on("session", (s) => {
    sessions.add(s);
    s.on("close", () => sessions.delete(s));
  });
  return {
    server,
    address: `${host.includes(":") ? `[${host}]` : host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sessions) s.destroy();
        server.close(() => {
          guard.stop();
          resolve();
        });
      }),
  };
}

/**
 * Calls of a method this server does not have. gRPC over HTTP/2 answers them with HTTP 200 and
 * `grpc-status: 12` (UNIMPLEMENTED) in a trailers-only response, as grpc-js and grpc-go do; anything
 * that is not gRPC gets a plain 404.
 */
const unknownMethod: NonNullable<ConnectNodeAdapterOptions["fallback"]> = (req, res) => {
  const type = String(req.headers["content-type"] ?? "").toLowerCase();
  if (type.startsWith("application/grpc") && !type.startsWith("application/grpc-web")) {
    res.writeHead(200, { "content-type": "application/grpc", "grpc-status": "12", "grpc-message": encodeURIComponent(`unknown method ${req.url ?? ""}`.slice(0, 200)) });
  } else {
    res.writeHead(404);
  }
  res.end();
};
