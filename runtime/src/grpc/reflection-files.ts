// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The files a Connect router's reflection serves besides its services' own: registerGrpcService adds
 * those of the A2A error details (google/rpc/error_details.proto, status.proto), which a2a.proto does
 * not import, and registerGrpcReflection serves them. Kept apart from the reflection service so that
 * registering the A2A service does not load the reflection schemas.
 */
import type { DescFile, DescMessage } from "@bufbuild/protobuf";

const files = new WeakMap<object, DescFile[]>();

/** Adds the files declaring `schemas` to what reflection on `router` serves. */
export function addReflectionFiles(router: object, schemas: readonly DescMessage[]): void {
  let list = files.get(router);
  if (list === undefined) files.set(router, (list = []));
  for (const schema of schemas) if (!list.includes(schema.file)) list.push(schema.file);
}

/** The files added for `router`. */
export function reflectionFilesOf(router: object): readonly DescFile[] {
  return files.get(router) ?? [];
}
