import type { GeneratedFile, Printable } from "@bufbuild/protoplugin";

/**
 * Where protoc-gen-es puts google/rpc/error_details.proto when it is generated into the
 * same output (see buf.gen.yaml): the gRPC binding imports ErrorInfo and BadRequest from it.
 */
export const errorDetailsModule = "./google/rpc/error_details_pb.js";

/** `{ errorInfo: ErrorInfoSchema, badRequest: BadRequestSchema }`, as printables. */
export function statusDetailSchemas(f: GeneratedFile): Printable[] {
  return [
    "{ errorInfo: ", f.import("ErrorInfoSchema", errorDetailsModule), ", badRequest: ", f.import("BadRequestSchema", errorDetailsModule), " }",
  ];
}
