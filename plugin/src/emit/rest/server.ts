// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
import type { Schema } from "@bufbuild/protoplugin";
import type { FileModel } from "../../model/service-model.js";
import { outputModule } from "../file-names.js";
import { serviceSymbols } from "../common/handler-interface.js";
import { emitHttpServerFactory } from "../common/server-factory.js";
import { generateTsFile } from "../preamble.js";
import { restServices } from "./route-table.js";

/**
 * Emits `<file>_a2a_rest_server.ts`: per service, `create<Service>RestServer`, binding the
 * runtime's HTTP+JSON pipeline to the service's precompiled route table.
 */
export function emitRestServer(schema: Schema<object>, model: FileModel): void {
  const f = generateTsFile(schema, model, "restServer");
  for (const service of restServices(model)) {
    const names = serviceSymbols(service);
    emitHttpServerFactory(f, model, service, {
      name: "Rest",
      runtime: "rest",
      createFunction: "createRestHandler",
      adapterBasePath: false,
      optionsType: "RestServerOptions",
      doc: [
        `Serves ${service.typeName} over HTTP+JSON (A2A spec §11) at the paths of its google.api.http`,
        "bindings (tenant forms included), below `basePath`: requests are assembled from path,",
        "query and JSON body; streaming operations answer with Server-Sent Events; errors are",
        "google.rpc.Status bodies with ErrorInfo (§11.6).",
      ],
      definition: (g) => [
        ["routes", g.import(names.routes, outputModule(model.file, "restRoutes"))],
        ["operations", g.import(names.operationsByName, outputModule(model.file, "handler"))],
        ["requests", g.import(names.restRequests, outputModule(model.file, "restRoutes"))],
      ],
    });
  }
}
