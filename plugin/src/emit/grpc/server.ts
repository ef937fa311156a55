import type { Schema } from "@bufbuild/protoplugin";
import type { FileModel } from "../../model/service-model.js";
import { outputFile, outputModule } from "../file-names.js";
import { runtimeModule } from "../runtime-files.js";
import { serviceSymbols } from "../common/handler-interface.js";
import { statusDetailSchemas } from "./status-details.js";

/**
 * Emits `<file>_a2a_grpc_server.ts`: per service, the Connect routes that serve the
 * handler over gRPC (and gRPC-web and Connect), and a helper that listens on h2c or TLS.
 */
export function emitGrpcServer(schema: Schema<object>, model: FileModel): void {
  const f = schema.generateFile(outputFile(model.file, "grpcServer"));
  f.preamble(model.file);
  const registerGrpcService = f.import("registerGrpcService", runtimeModule("grpc/server"));
  const GrpcServerOptions = f.import("GrpcServerOptions", runtimeModule("grpc/server"), true);
  const listenGrpc = f.import("listenGrpc", runtimeModule("grpc/listen"));
  const GrpcListenOptions = f.import("GrpcListenOptions", runtimeModule("grpc/listen"), true);
  const GrpcEndpoint = f.import("GrpcEndpoint", runtimeModule("grpc/listen"), true);
  const ConnectRouter = f.import("ConnectRouter", "@connectrpc/connect", true);
  const errorSpecs = f.import("errorSpecs", outputModule(model.file, "errors"));
  for (const service of model.services) {
    const names = serviceSymbols(service);
    const fromHandler = (name: string, typeOnly = false) => f.import(name, outputModule(model.file, "handler"), typeOnly);
    const routesName = `${service.desc.name}GrpcRoutes`;
    f.print(
      f.jsDoc(
        [
          `Connect routes serving ${service.typeName} over gRPC (A2A spec §10), gRPC-web and Connect:`,
          "pass them to `connectNodeAdapter({ routes })`, `fastifyConnectPlugin`, `expressConnectMiddleware`,",
          `or use \`listen${service.desc.name}Grpc\`. Service parameters come from metadata (\`a2a-version\`,`,
          "`a2a-extensions`); errors go out as gRPC statuses with google.rpc.ErrorInfo details.",
          "",
          `@generated from service ${service.typeName}`,
        ].join("\n"),
      ),
    );
    f.print(
      f.export("function", `create${routesName}`),
      "<Principal = unknown>(handler: ", fromHandler(names.handler, true), "<Principal>, options?: ", GrpcServerOptions,
      "<Principal>): (router: ", ConnectRouter, ") => void {",
    );
    f.print("  return (router) =>");
    f.print("    ", registerGrpcService, "<Principal>(");
    f.print("      router,");
    f.print("      {");
    f.print("        service: ", f.importSchema(service.desc), ",");
    f.print("        operations: ", fromHandler(names.operationsByName), ",");
    f.print("        requestFields: ", fromHandler(names.requiredFields), ",");
    f.print("        errors: ", errorSpecs, ",");
    f.print("        statusDetails: ", statusDetailSchemas(f), ",");
    f.print(
      "        dispatch: (operation, request, context) => ", fromHandler(names.dispatch),
      "(handler, operation as ", fromHandler(names.operationName, true), ", request, context),",
    );
    f.print("      },");
    f.print("      options,");
    f.print("    );");
    f.print("}");
    f.print();
    f.print(
      f.jsDoc(
        [
          `Serves ${service.typeName} over gRPC on a new HTTP/2 server: TLS when \`listen.tls\` has a key and`,
          "certificate (spec §10.1), h2c otherwise. Resolves when listening; `address` is the `host:port`",
          "an AgentInterface advertises.",
        ].join("\n"),
      ),
    );
    f.print(
      f.export("function", `listen${service.desc.name}Grpc`),
      "<Principal = unknown>(handler: ", fromHandler(names.handler, true), "<Principal>, options?: ", GrpcServerOptions,
      "<Principal> & { readonly listen?: ", GrpcListenOptions, " }): Promise<", GrpcEndpoint, "> {",
    );
    f.print("  return ", listenGrpc, "(create", routesName, "(handler, options), options?.listen);");
    f.print("}");
    f.print();
  }
}
