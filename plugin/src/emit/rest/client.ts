// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
import type { Schema } from "@bufbuild/protoplugin";
import type { FileModel } from "../../model/service-model.js";
import { outputModule } from "../file-names.js";
import { serviceSymbols } from "../common/handler-interface.js";
import { emitClientClass } from "../common/client-class.js";
import { generateTsFile } from "../preamble.js";
import { restServices } from "./route-table.js";

/** Emits `<file>_a2a_rest_client.ts`: per service, `<Service>RestClient`. */
export function emitRestClient(schema: Schema<object>, model: FileModel): void {
  const f = generateTsFile(schema, model, "restClient");
  for (const service of restServices(model)) {
    const names = serviceSymbols(service);
    emitClientClass(f, model, service, {
      name: "Rest",
      runtime: "rest",
      transportClass: "RestTransport",
      optionsType: "RestClientOptions",
      // RPCs without a google.api.http rule are not offered (the runtime would refuse them with
      // UnsupportedOperationError). A2A-shaped services keep the full interface: the agent client
      // and the equivalence kit take every binding's client as the service's client.
      omitMethods: (s) =>
        s.taskRuntime !== undefined
          ? []
          : s.operations.filter((op) => op.httpBindings.length === 0).map((op) => op.localName),
      doc: [
        `Calls ${service.typeName} over HTTP+JSON (A2A spec §11) with \`fetch\`: paths from the route`,
        "table (the tenant form when a tenant is set), query strings per §11.5, SSE for streams.",
        "Every call sends `A2A-Version`; §11.6 errors are thrown as the generated error classes.",
      ],
      transportArgs: (g) => [
        g.import(names.routes, outputModule(model.file, "restRoutes")),
        g.import(names.restRequests, outputModule(model.file, "restRoutes")),
        g.import("errorRegistry", outputModule(model.file, "errors")),
      ],
    });
  }
}
