// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * @protoc-gen-a2a/runtime/grpc-client in a browser build (the package's `browser` condition): the API of
 * `./index.ts` without `@connectrpc/connect-node`. A client needs `transport`, a connect-web transport
 * (`createGrpcWebTransport` or `createConnectTransport` at the agent's gRPC-web or Connect interface);
 * errors come back as the generated A2A error classes, as on Node.
 */
export { GrpcTransport, grpcBaseUrl, type GrpcClientOptions } from "../grpc/client.js";
export { fromConnectError, isCancellation } from "../grpc/status.js";
export type { StatusDetailSchemas } from "../grpc-wire/status-detail-schemas.js";
