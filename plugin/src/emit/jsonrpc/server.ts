import type { Schema } from "@bufbuild/protoplugin";
import type { FileModel } from "../../model/service-model.js";
import { outputFile, outputModule } from "../file-names.js";
import { runtimeModule } from "../runtime-files.js";
import { serviceSymbols } from "../common/handler-interface.js";

/**
 * Emits `<file>_a2a_jsonrpc_server.ts`: per service, `create<Service>JsonRpcServer`,
 * binding the runtime's JSON-RPC pipeline to the service's method table, REQUIRED
 * tables, error table and typed dispatcher.
 */
export function emitJsonRpcServer(schema: Schema<object>, model: FileModel): void {
  const f = schema.generateFile(outputFile(model.file, "jsonRpcServer"));
  f.preamble(model.file);
  const createJsonRpcHandler = f.import("createJsonRpcHandler", runtimeModule("jsonrpc/server"));
  const JsonRpcServerOptions = f.import("JsonRpcServerOptions", runtimeModule("jsonrpc/server"), true);
  const serveNode = f.import("serveNode", runtimeModule("http/node-adapter"));
  const serveFetch = f.import("serveFetch", runtimeModule("http/fetch-adapter"));
  const NodeListener = f.import("NodeRequestListener", runtimeModule("http/node-adapter"), true);
  const UniversalHandler = f.import("UniversalHandler", runtimeModule("http/universal"), true);
  const errorSpecs = f.import("errorSpecs", outputModule(model.file, "errors"));
  for (const service of model.services) {
    const names = serviceSymbols(service);
    const handlerType = f.import(names.handler, outputModule(model.file, "handler"), true);
    const operationName = f.import(names.operationName, outputModule(model.file, "handler"), true);
    const dispatch = f.import(names.dispatch, outputModule(model.file, "handler"));
    const requiredFields = f.import(names.requiredFields, outputModule(model.file, "handler"));
    const responseFields = f.import(names.responseFields, outputModule(model.file, "handler"));
    const methods = f.import(names.jsonRpcMethods, outputModule(model.file, "jsonRpcMethods"));
    const serverName = `${service.desc.name}JsonRpcServer`;
    f.print(f.jsDoc(`A JSON-RPC 2.0 server of ${service.typeName}, ready to mount.`));
    f.print(f.export("interface", serverName), " {");
    f.print("  /** For `http.createServer(server.node)`, `http2.createServer(server.node)`, Express `app.post(path, server.node)`. */");
    f.print("  readonly node: ", NodeListener, ";");
    f.print("  /** For fetch-API runtimes and frameworks: Deno, Bun, workers, Hono (`(c) => server.fetch(c.req.raw)`). */");
    f.print("  readonly fetch: (request: Request) => Promise<Response>;");
    f.print("  /** The framework-neutral handler both are built on. */");
    f.print("  readonly handler: ", UniversalHandler, ";");
    f.print("}");
    f.print();
    f.print(
      f.jsDoc(
        [
          `Serves ${service.typeName} over JSON-RPC 2.0 (A2A spec §9): POST a JSON-RPC request to`,
          "any path; streaming operations answer with Server-Sent Events, one JSON-RPC response",
          "per event. Validation, version negotiation, extensions, authentication and error",
          "mapping happen before the handler is called.",
          "",
          `@generated from service ${service.typeName}`,
        ].join("\n"),
      ),
    );
    f.print(
      f.export("function", `create${serverName}`),
      "<Principal = unknown>(handler: ", handlerType, "<Principal>, options?: ", JsonRpcServerOptions, "<Principal>): ", serverName, " {",
    );
    f.print("  const universal = ", createJsonRpcHandler, "<Principal>(");
    f.print("    {");
    f.print("      methods: ", methods, ",");
    f.print("      requestFields: ", requiredFields, ",");
    f.print("      responseFields: ", responseFields, ",");
    f.print("      errors: ", errorSpecs, ",");
    f.print("      dispatch: (operation, request, context) => ", dispatch, "(handler, operation as ", operationName, ", request, context),");
    f.print("    },");
    f.print("    options,");
    f.print("  );");
    f.print("  return { node: ", serveNode, "(universal), fetch: ", serveFetch, "(universal), handler: universal };");
    f.print("}");
    f.print();
  }
}
