// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
import { createHash } from "node:crypto";
import { toBinary, type DescFile } from "@bufbuild/protobuf";
import { FileDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";
import { version } from "../version.js";

/** Where a generated file comes from: the proto's content, the options, the generator. */
export interface Provenance {
  /** SHA-256 (hex) of the proto's descriptor: its declarations, options and comments, as the compiler parsed them. */
  readonly protoSha256: string;
  /** SHA-256 (hex) of the plugin parameter (the options). */
  readonly optionsSha256: string;
  /** The one-line form every generated file carries. */
  readonly line: string;
}

/**
 * The provenance of the files generated from `file` with `parameter`. The proto's hash is that
 * of its FileDescriptorProto without unknown fields (tool-specific extensions, such as buf's in
 * an image, left out), so that the plugin and a check reading `buf build` output agree.
 */
export function provenanceOf(file: DescFile, parameter: string): Provenance {
  const protoSha256 = protoDescriptorSha256(file);
  const optionsSha256 = createHash("sha256").update(parameter).digest("hex");
  return {
    protoSha256,
    optionsSha256,
    line: `protoc-gen-a2a v${version} from ${file.proto.name} sha256:${protoSha256}, options sha256:${optionsSha256}`,
  };
}

/** SHA-256 (hex) of a proto file's descriptor, as {@link provenanceOf} hashes it. */
export function protoDescriptorSha256(file: DescFile): string {
  return createHash("sha256")
    .update(toBinary(FileDescriptorProtoSchema, file.proto, { writeUnknownFields: false }))
    .digest("hex");
}
