// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The google.rpc schemas a gRPC status carries its details in (spec §10.6): the generated code hands
 * them to both stacks, which pack ErrorInfo and BadRequest into `grpc-status-details-bin`.
 */
import type { DescMessage } from "@bufbuild/protobuf";

/** The generated google.rpc message schemas the binding packs into status details. */
export interface StatusDetailSchemas {
  /** google.rpc.ErrorInfo. */
  readonly errorInfo: DescMessage;
  /** google.rpc.BadRequest. */
  readonly badRequest: DescMessage;
}
