// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
import type { GeneratedFile, Printable } from "@bufbuild/protoplugin";

/**
 * Where protoc-gen-es puts google/rpc/{error_details,status}.proto when they are generated
 * into the same output (see buf.gen.yaml): the gRPC binding imports their schemas.
 */
export const errorDetailsModule = "./google/rpc/error_details_pb.js";
export const statusModule = "./google/rpc/status_pb.js";

/** `{ errorInfo, badRequest[, status] }` schemas, as printables (grpc-js packs the Status itself). */
export function statusDetailSchemas(f: GeneratedFile, withStatus = false): Printable[] {
  const parts: Printable[] = [
    "{ errorInfo: ",
    f.import("ErrorInfoSchema", errorDetailsModule),
    ", badRequest: ",
    f.import("BadRequestSchema", errorDetailsModule),
  ];
  if (withStatus) parts.push(", status: ", f.import("StatusSchema", statusModule));
  parts.push(" }");
  return parts;
}
