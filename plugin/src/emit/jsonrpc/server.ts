// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
import type { Schema } from "@bufbuild/protoplugin";
import type { FileModel } from "../../model/service-model.js";
import { outputModule } from "../file-names.js";
import { serviceSymbols } from "../common/handler-interface.js";
import { emitHttpServerFactory } from "../common/server-factory.js";
import { generateTsFile } from "../preamble.js";

/**
 * Emits `<file>_a2a_jsonrpc_server.ts`: per service, `create<Service>JsonRpcServer`,
 * binding the runtime's JSON-RPC pipeline to the service's method table.
 */
export function emitJsonRpcServer(schema: Schema<object>, model: FileModel): void {
  const f = generateTsFile(schema, model, "jsonRpcServer");
  for (const service of model.services) {
    emitHttpServerFactory(f, model, service, {
      name: "JsonRpc",
      runtime: "jsonrpc",
      createFunction: "createJsonRpcHandler",
      adapterBasePath: true,
      optionsType: "JsonRpcServerOptions",
      doc: [
        `Serves ${service.typeName} over JSON-RPC 2.0 (A2A spec §9): POST a JSON-RPC request to`,
        "the endpoint; streaming operations answer with Server-Sent Events, one JSON-RPC response",
        "per event. Validation, version negotiation, extensions, authentication and error",
        "mapping happen before the handler is called.",
      ],
      definition: (g, s) => [
        [
          "methods",
          g.import(serviceSymbols(s).jsonRpcMethods, outputModule(model.file, "jsonRpcMethods")),
        ],
      ],
    });
  }
}
