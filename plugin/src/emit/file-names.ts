// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
import type { DescFile } from "@bufbuild/protobuf";

/**
 * Output files per input proto, each with a suffix of its own (like protoc-gen-es's
 * `_pb.ts`): `a2a.proto` → `a2a_a2a_handler.ts`, `a2a_a2a_errors.ts`, …
 */
export const outputSuffix = {
  handler: "_a2a_handler.ts",
  errors: "_a2a_errors.ts",
  taskHandler: "_a2a_task_handler.ts",
  sqliteTaskStore: "_a2a_sqlite_task_store.ts",
  postgresTaskStore: "_a2a_postgres_task_store.ts",
  agentClient: "_a2a_agent_client.ts",
  v03: "_a2a_v03.ts",
  equivalenceKit: "_a2a_equivalence.ts",
  jsonWriters: "_a2a_json.ts",
  jsonRpcMethods: "_a2a_jsonrpc_methods.ts",
  jsonRpcServer: "_a2a_jsonrpc_server.ts",
  jsonRpcClient: "_a2a_jsonrpc_client.ts",
  restRoutes: "_a2a_rest_routes.ts",
  restServer: "_a2a_rest_server.ts",
  restClient: "_a2a_rest_client.ts",
  grpcServer: "_a2a_grpc_server.ts",
  grpcClient: "_a2a_grpc_client.ts",
  jsonSchema: "_a2a_schema.json",
  openApi: "_a2a_openapi.json",
  openRpc: "_a2a_openrpc.json",
  manifest: "_a2a_manifest.json",
} as const;

export function outputFile(file: DescFile, kind: keyof typeof outputSuffix): string {
  return file.name + outputSuffix[kind];
}

/** Import path of another output file of the same proto, relative to the output root. */
export function outputModule(file: DescFile, kind: keyof typeof outputSuffix): string {
  return "./" + outputFile(file, kind).replace(/\.ts$/, ".js");
}

/** The folder of the one-schema-per-type JSON Schema files: `a2a.proto` → `a2a_a2a_schema/`. */
export function schemaFileDir(file: DescFile): string {
  return `${file.name}_a2a_schema`;
}
