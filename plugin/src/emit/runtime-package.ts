// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The runtime library generated code imports: `@protoc-gen-a2a/runtime`, released with the
 * plugin at the same version (grpc-gateway's `runtime` package, protobuf-es's
 * `@bufbuild/protobuf`). Generated files hold only what the proto determines and import the
 * rest from the entry point of its area, so a file only loads what its binding needs (the
 * gRPC entry points are the only ones that need `@connectrpc/*` or `@grpc/grpc-js`, the
 * SQLite one the only one that needs `better-sqlite3`, the PostgreSQL one `pg`).
 */

/** The runtime's package name. */
export const RUNTIME_PACKAGE = "@protoc-gen-a2a/runtime";

/** The runtime's entry points ("" is the package's main entry: errors, call context, pipeline). */
export type RuntimeEntry =
  | ""
  | "client"
  | "http"
  | "jsonrpc"
  | "rest"
  | "grpc"
  | "grpc-client"
  | "grpc-js"
  | "task"
  | "sqlite"
  | "postgres"
  | "v0_3"
  | "v0_3/client";

/** The module specifier of an entry point, for `f.import(name, from)`. */
export function runtimeImport(entry: RuntimeEntry): string {
  return entry === "" ? RUNTIME_PACKAGE : `${RUNTIME_PACKAGE}/${entry}`;
}
