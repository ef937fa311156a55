// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The type registry ProtoJSON needs for `google.protobuf.Any` (the packed message's type, by its
 * `@type` URL) and proto2 extensions (`"[pkg.ext]"` keys). The generated code hands servers and
 * clients a registry of every file its proto imports plus the well-known types; an agent adds its
 * own types with the `registry` option. Merged once, when a server or client is created.
 */
import { createRegistry, type Registry } from "@bufbuild/protobuf";

/** The option servers and clients take for the agent's own types. */
export interface TypeRegistryOption {
  /**
   * Types of your own that `google.protobuf.Any` fields may pack, and extensions to read and write
   * in ProtoJSON (`createRegistry(MySchema, file_my_types, …)` of `@bufbuild/protobuf`). Merged with
   * the generated registry (every message and extension of the proto's files and imports, and the
   * well-known types); yours win on a name both have.
   */
  readonly registry?: Registry | undefined;
}

/** One registry of the generated types and the agent's own (which win), or undefined when there is neither. */
export function mergeRegistries(
  generated: Registry | undefined,
  own: Registry | undefined,
): Registry | undefined {
  if (own === undefined) return generated;
  if (generated === undefined) return own;
  return createRegistry(generated, own);
}
