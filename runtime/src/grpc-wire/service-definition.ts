// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * What the generated code hands a gRPC server, and the options of one: the same on both stacks
 * (`registerGrpcService` on Connect, `grpcJsService` and `listenGrpcJs` on grpc-js).
 */
import type { DescService } from "@bufbuild/protobuf";
import type { OperationDescriptor } from "../protocol/operation.js";
import type { ServerOptions, ServiceDefinitionBase } from "../pipeline/server-pipeline.js";
import type { StatusDetailSchemas } from "./status-detail-schemas.js";

/** What the generated code hands the gRPC binding. */
export interface GrpcServiceDefinition<Principal> extends ServiceDefinitionBase<Principal> {
  /** The protobuf-es service descriptor (from the `_pb` file). */
  readonly service: DescService;
  /** RPC name → operation. */
  readonly operations: Readonly<Record<string, OperationDescriptor>>;
  readonly statusDetails: StatusDetailSchemas;
}

/** Options of the gRPC binding (limits such as the message size are Connect's adapter options). */
export interface GrpcServerOptions<Principal> extends ServerOptions<Principal> {
  /**
   * The `WWW-Authenticate` challenge of an UNAUTHENTICATED answer: the Connect protocol answers it with
   * HTTP 401, which MUST carry one (RFC 9110 §15.5.2). Default `"Bearer"`, as the HTTP servers' `authChallenge`.
   */
  readonly authChallenge?: string | undefined;
}
