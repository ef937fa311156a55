// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/** Limits shared by the gRPC stacks (Connect and grpc-js); free of both, so either may import it. */

/** The largest message a gRPC, gRPC-web or Connect server reads unless told otherwise: 4 MiB, as grpc-go and grpc-java. */
export const DEFAULT_GRPC_READ_MAX_BYTES = 4 * 1024 * 1024;
