// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * @protoc-gen-a2a/runtime/grpc-client: the client side of the gRPC binding (spec §10) alone, what the
 * generated `<Service>GrpcClient` imports. On Node a client dials the interface's address (Connect's gRPC
 * transport over HTTP/2); a browser build (the package's `browser` condition, see `./browser.ts`) gets the
 * same API without anything of Node, with a connect-web transport passed as `transport`.
 */
export { GrpcTransport } from "../grpc/node-client.js";
export { grpcBaseUrl, type GrpcClientOptions } from "../grpc/client.js";
export { fromConnectError, isCancellation } from "../grpc/status.js";
export type { StatusDetailSchemas } from "../grpc-wire/status-detail-schemas.js";
