// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
import type { Schema } from "@bufbuild/protoplugin";
import type { FileModel } from "../../model/service-model.js";
import { outputModule } from "../file-names.js";
import { emitClientClass } from "../common/client-class.js";
import { generateTsFile } from "../preamble.js";

/** Emits `<file>_a2a_jsonrpc_client.ts`: per service, `<Service>JsonRpcClient`. */
export function emitJsonRpcClient(schema: Schema<object>, model: FileModel): void {
  const f = generateTsFile(schema, model, "jsonRpcClient");
  for (const service of model.services) {
    emitClientClass(f, model, service, {
      name: "JsonRpc",
      runtime: "jsonrpc",
      transportClass: "JsonRpcTransport",
      optionsType: "JsonRpcClientOptions",
      doc: [
        `Calls ${service.typeName} over JSON-RPC 2.0 (A2A spec §9) with \`fetch\`. Every call sends`,
        "`A2A-Version`; wire errors are thrown as the generated error classes.",
      ],
      transportArgs: (g) => [g.import("errorRegistry", outputModule(model.file, "errors"))],
    });
  }
}
