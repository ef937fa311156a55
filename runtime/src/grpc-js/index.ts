// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * @protoc-gen-a2a/runtime/grpc-js: the gRPC server on `@grpc/grpc-js` (an optional peer
 * dependency of this package), the faster stack of the generated `listen<Service>Grpc` with
 * `grpc_server=grpc-js` (the default), and gRPC Server Reflection for a grpc-js Server.
 */
export {
  grpcJsService,
  listenGrpcJs,
  toGrpcJsStatus,
  type GrpcJsEndpoint,
  type GrpcJsListenOptions,
  type GrpcJsServiceDefinition,
  type GrpcJsServiceEntry,
  type GrpcJsStatusSchemas,
} from "./server.js";
export { addGrpcJsReflection } from "./reflection.js";
export {
  DEFAULT_GOAWAY_GRACE_MS,
  DEFAULT_GRPC_STALLED_WRITE_TIMEOUT_MS,
  DEFAULT_HANDSHAKE_TIMEOUT_MS,
  DEFAULT_IDLE_TIMEOUT_MS,
  DEFAULT_MAX_CONCURRENT_STREAMS,
  DEFAULT_REQUEST_MESSAGE_TIMEOUT_MS,
  type SessionTimeouts,
} from "../grpc-wire/session-guard.js";
