// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
import type { GeneratedFile, ImportSymbol, Printable } from "@bufbuild/protoplugin";
import type { FileModel, ServiceModel } from "../../model/service-model.js";
import { outputModule } from "../file-names.js";
import { runtimeImport, type RuntimeEntry } from "../runtime-package.js";
import { serviceSymbols } from "./handler-interface.js";
import { TYPE_REGISTRY } from "./type-registry.js";
import { planJsonWriters } from "../../model/json-writer-plan.js";
import { responseWritersName } from "./json-writers.js";
import { planJsonReaders } from "../../model/json-reader-plan.js";
import { requestReadersName } from "./json-readers.js";

/** What differs between the HTTP bindings' generated server factories. */
export interface HttpServerFlavor {
  /** "JsonRpc" or "Rest": part of the generated names. */
  readonly name: string;
  /** Runtime entry point with the handler factory and its options type. */
  readonly runtime: RuntimeEntry;
  readonly createFunction: string;
  readonly optionsType: string;
  /** Whether the adapters apply `basePath` (JSON-RPC: answer only there); REST applies it itself. */
  readonly adapterBasePath: boolean;
  /** JSDoc paragraph of the factory. */
  readonly doc: readonly string[];
  /** The binding-specific members of the service definition, e.g. `methods: …`. */
  readonly definition: (f: GeneratedFile, service: ServiceModel) => [string, Printable][];
}

/**
 * Emits, for one service, the `<Service><Flavor>Server` interface and the
 * `create<Service><Flavor>Server(handler, options)` factory that binds the runtime's
 * pipeline to the service's tables and dispatcher and serves it both on node:http and
 * through the fetch API.
 */
export function emitHttpServerFactory(
  f: GeneratedFile,
  model: FileModel,
  service: ServiceModel,
  flavor: HttpServerFlavor,
): void {
  const create = f.import(flavor.createFunction, runtimeImport(flavor.runtime));
  const Options = f.import(flavor.optionsType, runtimeImport(flavor.runtime), true);
  const serveNode = f.import("serveNode", runtimeImport("http"));
  const serveFetch = f.import("serveFetch", runtimeImport("http"));
  const NodeListener = f.import("NodeRequestListener", runtimeImport("http"), true);
  const UniversalHandler = f.import("UniversalHandler", runtimeImport("http"), true);
  const errorSpecs = f.import("errorSpecs", outputModule(model.file, "errors"));
  const names = serviceSymbols(service);
  const fromHandler = (name: string, typeOnly = false): ImportSymbol =>
    f.import(name, outputModule(model.file, "handler"), typeOnly);
  const serverName = `${service.desc.name}${flavor.name}Server`;

  f.print(
    f.jsDoc(
      `A ${flavor.name === "Rest" ? "HTTP+JSON" : "JSON-RPC 2.0"} server of ${service.typeName}, ready to mount.`,
    ),
  );
  f.print(f.export("interface", serverName), " {");
  f.print(
    "  /** For `http.createServer(server.node)`, `http2.createServer(server.node)`, Express `app.use(path, server.node)`. */",
  );
  f.print("  readonly node: ", NodeListener, ";");
  f.print(
    "  /** For fetch-API runtimes and frameworks: Deno, Bun, workers, Hono (`(c) => server.fetch(c.req.raw)`). */",
  );
  f.print("  readonly fetch: (request: Request) => Promise<Response>;");
  f.print("  /** The framework-neutral handler both are built on. */");
  f.print("  readonly handler: ", UniversalHandler, ";");
  f.print("}");
  f.print();
  f.print(f.jsDoc([...flavor.doc, "", `@generated from service ${service.typeName}`].join("\n")));
  f.print(
    f.export("function", `create${serverName}`),
    "<Principal = unknown>(handler: ",
    fromHandler(names.handler, true),
    "<Principal>, options?: ",
    Options,
    "<Principal>",
    flavor.adapterBasePath ? " & { readonly basePath?: string }" : "",
    "): ",
    serverName,
    " {",
  );
  f.print("  const universal = ", create, "<Principal>(");
  f.print("    {");
  for (const [key, value] of flavor.definition(f, service))
    f.print("      ", key, ": ", value, ",");
  f.print("      requestFields: ", fromHandler(names.requiredFields), ",");
  f.print("      responseFields: ", fromHandler(names.responseFields), ",");
  if ((planJsonReaders(model).roots.get(service.typeName) ?? []).length > 0) {
    f.print(
      "      requestReaders: ",
      f.import(requestReadersName(service.desc.name), outputModule(model.file, "jsonWriters")),
      ",",
    );
  }
  if (planJsonWriters(model).writers.length > 0)
    f.print(
      "      responseWriters: ",
      f.import(responseWritersName(service.desc.name), outputModule(model.file, "jsonWriters")),
      ",",
    );
  f.print("      errors: ", errorSpecs, ",");
  f.print("      registry: ", fromHandler(TYPE_REGISTRY), ",");
  f.print(
    "      dispatch: (operation, request, context) => ",
    fromHandler(names.dispatch),
    "(handler, operation as ",
    fromHandler(names.operationName, true),
    ", request, context),",
  );
  f.print("    },");
  f.print("    options,");
  f.print("  );");
  if (flavor.adapterBasePath) {
    f.print(
      "  return { node: ",
      serveNode,
      "(universal, options), fetch: ",
      serveFetch,
      "(universal, { basePath: options?.basePath }), handler: universal };",
    );
  } else {
    f.print("  // basePath is the router's own here, not stripped by the listener.");
    f.print(
      "  return { node: ",
      serveNode,
      "(universal, { ...options, basePath: undefined }), fetch: ",
      serveFetch,
      "(universal), handler: universal };",
    );
  }
  f.print("}");
  f.print();
}
