// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The gRPC client transport on Node: a client created without `transport` dials the interface's
 * address with Connect's gRPC transport over HTTP/2 (`@connectrpc/connect-node`).
 */
import type { Transport } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import {
  GrpcTransport as BrowserSafeGrpcTransport,
  grpcBaseUrl,
  type GrpcClientOptions,
} from "./client.js";

/** Calls A2A operations over gRPC; statuses come back as the generated error classes. Without `transport`, gRPC over HTTP/2 to `address`. */
export class GrpcTransport extends BrowserSafeGrpcTransport {
  /** Connect's gRPC transport to `options.address` (h2c, or TLS for https:// and port 443), with `transportOptions`. */
  protected override defaultTransport(options: GrpcClientOptions): Transport {
    return createGrpcTransport({
      baseUrl: grpcBaseUrl(options.address, options.tls),
      ...options.transportOptions,
    });
  }
}
