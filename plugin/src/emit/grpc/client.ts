// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
import type { Schema } from "@bufbuild/protoplugin";
import type { FileModel } from "../../model/service-model.js";
import { outputModule } from "../file-names.js";
import { emitClientClass } from "../common/client-class.js";
import { statusDetailSchemas } from "./status-details.js";
import { generateTsFile } from "../preamble.js";

/**
 * Emits `<file>_a2a_grpc_client.ts`: per service, `<Service>GrpcClient` on Connect's gRPC transport, from the
 * runtime's `/grpc-client` entry (no server code; a browser build gets it without `@connectrpc/connect-node`).
 */
export function emitGrpcClient(schema: Schema<object>, model: FileModel): void {
  const f = generateTsFile(schema, model, "grpcClient");
  for (const service of model.services) {
    emitClientClass(f, model, service, {
      name: "Grpc",
      runtime: "grpc-client",
      transportClass: "GrpcTransport",
      optionsType: "GrpcClientOptions",
      doc: [
        `Calls ${service.typeName} over gRPC (A2A spec §10) with Connect's gRPC transport (HTTP/2).`,
        "Accepts `host:port` or a URL; sends `a2a-version` metadata; statuses with ErrorInfo details",
        "are thrown as the generated error classes. In a browser, pass a connect-web `transport`",
        "(`createGrpcWebTransport` at the agent's gRPC-web interface): the same errors, nothing of Node bundled.",
      ],
      transportArgs: (g) => [
        g.importSchema(service.desc),
        statusDetailSchemas(g),
        g.import("errorRegistry", outputModule(model.file, "errors")),
      ],
    });
  }
}
