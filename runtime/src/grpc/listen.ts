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
import { installLeanUnary, leanUnaryMethods } from "./lean-unary.js";
import { guardHttp2Sessions } from "./session-guard.js";

/** Where and how to listen. */
export interface GrpcListenOptions {
  readonly host?: string | undefined;
  /** 0 (default) picks a free port. */
  readonly port?: number | undefined;
  /** Key and certificate (PEM): TLS with ALPN h2 (and HTTP/1.1 for gRPC-web/Connect). Omit for h2c. */
  readonly tls?: Pick<SecureServerOptions, "key" | "cert" | "ca" | "passphrase"> | undefined;
  /** Connect adapter options: readMaxBytes (largest message, default 4 MiB here), maxTimeoutMs, … */
  readonly adapter?: Partial<Omit<ConnectNodeAdapterOptions, "routes">> | undefined;
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
 * `goawayGraceMs`.
 */
export async function listenGrpc(routes: ConnectNodeAdapterOptions["routes"], options?: GrpcListenOptions): Promise<GrpcEndpoint> {
  let router: ConnectRouter | undefined;
  const withReflection = (r: ConnectRouter) => {
    router = r;
    routes?.(r);
    if (options?.reflection === true) registerGrpcReflection(r);
  };
  const adapter = { readMaxBytes: DEFAULT_GRPC_READ_MAX_BYTES, ...options?.adapter };
  const handler = connectNodeAdapter({ ...adapter, routes: withReflection });
  const server = options?.tls !== undefined ? createSecureServer({ ...options.tls, allowHTTP1: true }, handler) : createServer(handler);
  // Plain gRPC unary calls of the A2A service skip Connect's per-call pipeline (lean-unary.ts); everything else is Connect's.
  const lean = leanUnaryMethods(router, adapter);
  if (lean !== undefined) installLeanUnary(server, lean, adapter);
  // Sessions that are over (GOAWAY after a protocol error, …) lose their socket after a grace (session-guard.ts).
  const guard = guardHttp2Sessions(server, options?.goawayGraceMs);
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
