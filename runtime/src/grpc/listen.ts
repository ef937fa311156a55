// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Starting a gRPC endpoint: h2c (plaintext HTTP/2, for local use and conformance kits)
 * or TLS (spec §10.1, production), or mounting on an existing http2 server.
 */
import { createServer, createSecureServer } from "node:http2";
import type { AddressInfo } from "node:net";
import type { ConnectRouter } from "@connectrpc/connect";
import { DEFAULT_GRPC_READ_MAX_BYTES } from "../grpc-wire/limits.js";
import { connectNodeAdapter, type ConnectNodeAdapterOptions } from "@connectrpc/connect-node";
import { registerGrpcReflection } from "./reflection-service.js";
import { setRouterReadOptions } from "./request-guard.js";
import { installLeanUnary, leanUnaryMethods } from "./lean-unary.js";
import { clampDeadlineHeaders } from "../grpc-wire/timeout-header.js";
import { isGrpcJsonCodec, refuseGrpcJsonCodec } from "./json-codecs.js";
import { DEFAULT_HANDSHAKE_TIMEOUT_MS, guardHttp2Sessions } from "../grpc-wire/session-guard.js";
import {
  maxConcurrentStreamsOf,
  sessionTimeouts,
  type GrpcEndpoint,
  type GrpcListenOptions,
} from "../grpc-wire/listen-options.js";

/**
 * Starts an HTTP/2 server for the given Connect routes. The unary methods registered by
 * `registerGrpcService` (the generated `create<Service>GrpcRoutes`) are served, for plain gRPC
 * calls (binary, no request compression), on a lean node:http2 path that answers as Connect does
 * without Connect's per-call pipeline (lean-unary.ts); everything else goes through Connect.
 * Connections whose HTTP/2 session is over (GOAWAY after a protocol error, …) are closed after
 * `goawayGraceMs`; the connection limits (`maxConcurrentStreams`, `handshakeTimeoutMs`, `idleTimeoutMs`,
 * `requestMessageTimeoutMs`, `stalledWriteTimeoutMs`) and the write budget (`maxPendingWriteBytes` or `writeBudget`) apply.
 */
export async function listenGrpc(
  routes: ConnectNodeAdapterOptions["routes"],
  options?: GrpcListenOptions,
): Promise<GrpcEndpoint> {
  let router: ConnectRouter | undefined;
  const adapter = { readMaxBytes: DEFAULT_GRPC_READ_MAX_BYTES, ...options?.adapter };
  const withReflection = (r: ConnectRouter) => {
    router = r;
    // The A2A service's request check decodes as this adapter will (request-guard.ts).
    setRouterReadOptions(r, adapter);
    routes?.(r);
    if (options?.reflection === true) registerGrpcReflection(r);
  };
  const connect = connectNodeAdapter({
    fallback: unknownMethod,
    ...adapter,
    routes: withReflection,
  });
  const handler: typeof connect =
    options?.jsonCodecs === true
      ? connect
      : (req, res) =>
          isGrpcJsonCodec(req.headers["content-type"])
            ? refuseGrpcJsonCodec(req, res)
            : connect(req, res);
  const settings = { maxConcurrentStreams: maxConcurrentStreamsOf(options) };
  // TLS: the TLS handshake gets the same bound as the HTTP/2 one (node:tls's default is 120 s).
  const handshakeTimeout = options?.handshakeTimeoutMs ?? DEFAULT_HANDSHAKE_TIMEOUT_MS;
  const server =
    options?.tls !== undefined
      ? createSecureServer(
          {
            ...options.tls,
            allowHTTP1: true,
            settings,
            ...(handshakeTimeout > 0 ? { handshakeTimeout } : {}),
          },
          handler,
        )
      : createServer({ settings }, handler);
  // Plain gRPC unary calls of the A2A service skip Connect's per-call pipeline (lean-unary.ts); everything else is Connect's.
  const lean = leanUnaryMethods(router, adapter);
  if (lean !== undefined) installLeanUnary(server, lean, adapter);
  // Deadlines beyond a timer's range read as the longest one, not as 1 ms (grpc-wire/timeout-header.ts).
  server.prependListener("stream", (_stream, headers) => clampDeadlineHeaders(headers));
  // Sessions that are over (GOAWAY after a protocol error, …) lose their socket after a grace (grpc-wire/session-guard.ts).
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
    res.writeHead(200, {
      "content-type": "application/grpc",
      "grpc-status": "12",
      "grpc-message": encodeURIComponent(`unknown method ${req.url ?? ""}`.slice(0, 200)),
    });
  } else {
    res.writeHead(404);
  }
  res.end();
};
