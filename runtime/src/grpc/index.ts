// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * @protoc-gen-a2a/runtime/grpc: the gRPC binding (spec §10) on Connect (`@connectrpc/connect`,
 * `@connectrpc/connect-node`, optional peer dependencies of this package): service routes
 * (gRPC, gRPC-web, Connect), gRPC Server Reflection, an HTTP/2 listener, the client transport and the status mapping
 * with `google.rpc.ErrorInfo` details. For a server on @grpc/grpc-js see `/grpc-js`.
 */
export { registerGrpcService } from "./server.js";
export type { GrpcServerOptions, GrpcServiceDefinition } from "../grpc-wire/service-definition.js";
export { registerGrpcReflection } from "./reflection-service.js";
export { mountConnectRoutes, type ConnectHttpMountOptions } from "./http-mount.js";
export { CONNECT_PROTOCOL_BINDING, GRPC_WEB_PROTOCOL_BINDING } from "../protocol/discovery.js";
export { listenGrpc } from "./listen.js";
export type { GrpcEndpoint, GrpcListenOptions } from "../grpc-wire/listen-options.js";
export {
  DEFAULT_GOAWAY_GRACE_MS,
  DEFAULT_GRPC_STALLED_WRITE_TIMEOUT_MS,
  DEFAULT_HANDSHAKE_TIMEOUT_MS,
  DEFAULT_IDLE_TIMEOUT_MS,
  DEFAULT_MAX_CONCURRENT_STREAMS,
  DEFAULT_REQUEST_MESSAGE_TIMEOUT_MS,
  type SessionTimeouts,
} from "../grpc-wire/session-guard.js";
export { GrpcTransport } from "./node-client.js";
export { grpcBaseUrl, type GrpcClientOptions } from "./client.js";
export { fromConnectError, isCancellation, toConnectError } from "./status.js";
export type { StatusDetailSchemas } from "../grpc-wire/status-detail-schemas.js";
