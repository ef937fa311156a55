// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
import type { Schema } from "@bufbuild/protoplugin";
import type { FileModel } from "../../model/service-model.js";
import type { PluginOptions } from "../../options.js";
import { outputModule } from "../file-names.js";
import { runtimeImport } from "../runtime-package.js";
import { serviceSymbols } from "../common/handler-interface.js";
import { TYPE_REGISTRY } from "../common/type-registry.js";
import { statusDetailSchemas } from "./status-details.js";
import { generateTsFile } from "../preamble.js";

/**
 * Emits `<file>_a2a_grpc_server.ts`: per service, the definition both gRPC server stacks
 * take (schemas, tables, dispatcher), the Connect routes (gRPC, gRPC-web, Connect), the
 * grpc-js service when grpc-js is the chosen stack, and `listen<Service>Grpc` on h2c or TLS.
 */
export function emitGrpcServer(schema: Schema<PluginOptions>, model: FileModel): void {
  const f = generateTsFile(schema, model, "grpcServer");
  const grpcJs = schema.options.grpcServer === "grpc-js";
  const registerGrpcService = f.import("registerGrpcService", runtimeImport("grpc"));
  const GrpcServerOptions = f.import("GrpcServerOptions", runtimeImport("grpc"), true);
  const ConnectRouter = f.import("ConnectRouter", "@connectrpc/connect", true);
  const errorSpecs = f.import("errorSpecs", outputModule(model.file, "errors"));
  const Definition = grpcJs
    ? f.import("GrpcJsServiceDefinition", runtimeImport("grpc-js"), true)
    : f.import("GrpcServiceDefinition", runtimeImport("grpc"), true);
  const ListenOptions = grpcJs
    ? f.import("GrpcJsListenOptions", runtimeImport("grpc-js"), true)
    : f.import("GrpcListenOptions", runtimeImport("grpc"), true);
  const Endpoint = grpcJs
    ? f.import("GrpcJsEndpoint", runtimeImport("grpc-js"), true)
    : f.import("GrpcEndpoint", runtimeImport("grpc"), true);
  for (const service of model.services) {
    const names = serviceSymbols(service);
    const base = service.desc.name;
    const fromHandler = (name: string, typeOnly = false) =>
      f.import(name, outputModule(model.file, "handler"), typeOnly);
    const definitionName = `grpcDefinitionOf${base}`;

    f.print(
      f.jsDoc(
        `What the gRPC server stacks need of ${service.typeName}: schemas, tables and the handler's dispatcher.`,
      ),
    );
    f.print(
      "function ",
      definitionName,
      "<Principal>(handler: ",
      fromHandler(names.handler, true),
      "<Principal>): ",
      Definition,
      "<Principal> {",
    );
    f.print("  return {");
    f.print("    service: ", f.importSchema(service.desc), ",");
    f.print("    operations: ", fromHandler(names.operationsByName), ",");
    f.print("    requestFields: ", fromHandler(names.requiredFields), ",");
    f.print("    errors: ", errorSpecs, ",");
    f.print("    registry: ", fromHandler(TYPE_REGISTRY), ",");
    f.print("    statusDetails: ", statusDetailSchemas(f, grpcJs), ",");
    f.print(
      "    dispatch: (operation, request, context) => ",
      fromHandler(names.dispatch),
      "(handler, operation as ",
      fromHandler(names.operationName, true),
      ", request, context),",
    );
    f.print("  };");
    f.print("}");
    f.print();

    f.print(
      f.jsDoc(
        [
          `Connect routes serving ${service.typeName} over gRPC (A2A spec §10), gRPC-web and Connect:`,
          "pass them to `connectNodeAdapter({ routes })`, `fastifyConnectPlugin`, `expressConnectMiddleware`.",
          "Service parameters come from metadata (`a2a-version`, `a2a-extensions`); errors go out as gRPC",
          "statuses with google.rpc.ErrorInfo details.",
          "",
          `@generated from service ${service.typeName}`,
        ].join("\n"),
      ),
    );
    f.print(
      f.export("function", `create${base}GrpcRoutes`),
      "<Principal = unknown>(handler: ",
      fromHandler(names.handler, true),
      "<Principal>, options?: ",
      GrpcServerOptions,
      "<Principal>): (router: ",
      ConnectRouter,
      ") => void {",
    );
    f.print(
      "  return (router) => ",
      registerGrpcService,
      "<Principal>(router, ",
      definitionName,
      "(handler), options);",
    );
    f.print("}");
    f.print();

    if (grpcJs) {
      const grpcJsService = f.import("grpcJsService", runtimeImport("grpc-js"));
      f.print(
        f.jsDoc(
          [
            `${service.typeName} as a @grpc/grpc-js service, to mount on your own \`Server\`:`,
            "`server.addService(service, implementation)`.",
            "",
            `@generated from service ${service.typeName}`,
          ].join("\n"),
        ),
      );
      f.print(
        f.export("function", `create${base}GrpcJsService`),
        "<Principal = unknown>(handler: ",
        fromHandler(names.handler, true),
        "<Principal>, options?: ",
        GrpcServerOptions,
        "<Principal>) {",
      );
      f.print("  return ", grpcJsService, "<Principal>(", definitionName, "(handler), options);");
      f.print("}");
      f.print();
    }

    f.print(
      f.jsDoc(
        [
          `Serves ${service.typeName} over gRPC on a new HTTP/2 server (${grpcJs ? "@grpc/grpc-js" : "Connect on node:http2"}):`,
          "TLS when `listen.tls` has a key and certificate (spec §10.1), h2c otherwise. Resolves when",
          "listening; `address` is the `host:port` an AgentInterface advertises. `listen.reflection: true`",
          "adds gRPC Server Reflection (for grpcurl and buf curl).",
        ].join("\n"),
      ),
    );
    f.print(
      f.export("function", `listen${base}Grpc`),
      "<Principal = unknown>(handler: ",
      fromHandler(names.handler, true),
      "<Principal>, options?: ",
      GrpcServerOptions,
      "<Principal> & { readonly listen?: ",
      ListenOptions,
      " }): Promise<",
      Endpoint,
      "> {",
    );
    if (grpcJs) {
      f.print(
        "  return ",
        f.import("listenGrpcJs", runtimeImport("grpc-js")),
        "(",
        definitionName,
        "(handler), options, options?.listen);",
      );
    } else {
      f.print(
        "  return ",
        f.import("listenGrpc", runtimeImport("grpc")),
        "(create",
        base,
        "GrpcRoutes(handler, options), options?.listen);",
      );
    }
    f.print("}");
    f.print();
  }
}
