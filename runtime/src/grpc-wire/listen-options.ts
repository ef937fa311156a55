// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The listen options and the listening endpoint of a gRPC server, shared by both stacks (`listenGrpc` on
 * Connect, `listenGrpcJs` on grpc-js), with the checks of the options both apply. Free of Connect and
 * grpc-js at run time: `adapter` is typed by Connect's adapter options, a type only.
 */
import type { Http2SecureServer, Http2Server, SecureServerOptions } from "node:http2";
import type { ConnectNodeAdapterOptions } from "@connectrpc/connect-node";
import { DEFAULT_MAX_CONCURRENT_STREAMS, type SessionTimeouts } from "./session-guard.js";

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
export function maxConcurrentStreamsOf(
  options: { readonly maxConcurrentStreams?: number | undefined } | undefined,
): number {
  const value = options?.maxConcurrentStreams ?? DEFAULT_MAX_CONCURRENT_STREAMS;
  if (!Number.isInteger(value) || value < 1 || value > 2 ** 32 - 1)
    throw new RangeError(
      `maxConcurrentStreams must be an integer from 1 to 2^32 - 1, got ${value}`,
    );
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
