// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
import type { DescFile } from "@bufbuild/protobuf";
import type { GeneratedFile, Printable, Schema } from "@bufbuild/protoplugin";
import type { PluginOptions } from "../../options.js";
import type { FileModel } from "../../model/service-model.js";
import { outputModule } from "../file-names.js";
import { runtimeImport } from "../runtime-package.js";
import { serviceSymbols } from "./handler-interface.js";
import { generateTsFile } from "../preamble.js";
import { hasRestBinding } from "../rest/route-table.js";

/**
 * Emits `<file>_a2a_v03.ts` for the A2A-shaped services of a 1.0 proto when the run also has A2A 0.3's
 * proto (`v03`, see model/a2a-v0-3.ts): per service, `create<Service>V03(handler)`, which serves A2A 0.3
 * with the 1.0 handler on every emitted binding — the 0.3 JSON-RPC wire for the 1.0 JSON-RPC server, and
 * the 0.3 proto's own generated HTTP+JSON and gRPC servers over a translating handler. The translation is
 * the runtime's (`@protoc-gen-a2a/runtime/v0_3`); this file only joins the two protos' generated tables.
 */
export function emitV03CompatFile(
  schema: Schema<PluginOptions>,
  model: FileModel,
  v03: DescFile,
): void {
  const services = model.services.filter((s) => s.taskRuntime !== undefined);
  if (services.length === 0) return;
  const bindings = schema.options.bindings;
  const f = generateTsFile(schema, model, "v03");
  const v03Runtime = runtimeImport("v0_3");
  for (const service of services) {
    const base = service.desc.name;
    const names = serviceSymbols(service);
    const Handler = f.import(names.handler, outputModule(model.file, "handler"), true);
    const OperationName = f.import(names.operationName, outputModule(model.file, "handler"), true);
    const operationsByName = f.import(names.operationsByName, outputModule(model.file, "handler"));
    const dispatch = f.import(names.dispatch, outputModule(model.file, "handler"));
    const errorSpecs = f.import("errorSpecs", outputModule(model.file, "errors"));
    const V03Handler = f.import(names.handler, outputModule(v03, "handler"), true);
    const v03OperationsByName = f.import(names.operationsByName, outputModule(v03, "handler"));
    const JsonObject = f.import("JsonObject", "@bufbuild/protobuf", true);
    const rest = bindings.has("rest") && hasRestBinding(service);
    const grpc = bindings.has("grpc");
    const grpcJs = grpc && schema.options.grpcServer === "grpc-js";
    const jsonRpc = bindings.has("jsonrpc");
    const typeName = `${base}V03`;

    f.print(
      f.jsDoc(
        `A2A 0.3 served by a ${service.typeName} handler: what \`create${base}V03\` returns, one piece per binding.`,
      ),
    );
    f.print(f.export("interface", typeName), "<Principal = unknown> {");
    printMember(
      f,
      "The 0.3 service's handler (`a2a.v1.A2AService`): every call translated to the 1.0 handler and back.",
      ["readonly handler: ", V03Handler, "<Principal>;"],
    );
    if (jsonRpc) {
      const JsonRpcWire = f.import("JsonRpcWire", runtimeImport("jsonrpc"), true);
      printMember(
        f,
        "The 0.3 JSON-RPC wire (`message/send`, …), for the `wires` option of the 1.0 JSON-RPC server: one endpoint serves both versions.",
        ["readonly jsonRpcWire: ", JsonRpcWire, ";"],
      );
    }
    if (rest) {
      const RestServerOptions = f.import("RestServerOptions", runtimeImport("rest"), true);
      const V03RestServer = f.import(`${base}RestServer`, outputModule(v03, "restServer"), true);
      printMember(
        f,
        [
          "The 0.3 HTTP+JSON server (the 0.3 proto's `/v1/…` routes; 0.3's error bodies, `application/json`): mount it",
          "beside the 1.0 one with `routeRestVersions` (same `basePath`).",
        ].join("\n"),
        ["restServer(options?: ", RestServerOptions, "<Principal>): ", V03RestServer, ";"],
      );
    }
    if (grpc) {
      const GrpcServerOptions = f.import("GrpcServerOptions", runtimeImport("grpc"), true);
      const ConnectRouter = f.import("ConnectRouter", "@connectrpc/connect", true);
      if (grpcJs) {
        const GrpcJsServiceEntry = f.import("GrpcJsServiceEntry", runtimeImport("grpc-js"), true);
        printMember(
          f,
          "`a2a.v1.A2AService` for the `services` option of `listen…Grpc` (beside `lf.a2a.v1.A2AService` on one server), or your own grpc-js Server.",
          [
            "grpcJsService(options?: ",
            GrpcServerOptions,
            "<Principal>): ",
            GrpcJsServiceEntry,
            ";",
          ],
        );
      }
      printMember(
        f,
        "`a2a.v1.A2AService`'s Connect routes (gRPC, gRPC-web, Connect), to register beside the 1.0 routes.",
        [
          "grpcRoutes(options?: ",
          GrpcServerOptions,
          "<Principal>): (router: ",
          ConnectRouter,
          ") => void;",
        ],
      );
    }
    f.print("}");
    f.print();

    f.print(
      f.jsDoc(
        [
          `Serves A2A 0.3 with a ${service.typeName} handler (spec §3.6; 0.3 clients send no A2A-Version): the same handler, and`,
          "so the same task runtime, answers both versions. The 0.3 servers negotiate version 0.3 (`context.requestedVersion`),",
          "which the task runtime uses to send push notifications in the version their config was registered in.",
          "`publicCard`: the public Agent Card (1.0 JSON), answered to 0.3's GetAgentCard when the extended card is refused.",
          "",
          `@generated from service ${service.typeName}`,
        ].join("\n"),
      ),
    );
    f.print(
      f.export("function", `create${base}V03`),
      "<Principal = unknown>(handler: ",
      Handler,
      "<Principal>, options?: { readonly publicCard?: () => ",
      JsonObject,
      " | undefined }): ",
      typeName,
      "<Principal> {",
    );
    f.print(
      "  const v03 = ",
      f.import("createV03Handler", v03Runtime),
      "<",
      V03Handler,
      "<Principal>, Principal>(",
    );
    f.print("    {");
    f.print("      operations: ", operationsByName, ",");
    f.print(
      "      dispatch: (operation, request, context) => ",
      dispatch,
      "(handler, operation as ",
      OperationName,
      ", request, context),",
    );
    f.print("      errors: ", errorSpecs, ",");
    f.print("      publicCard: options?.publicCard,");
    f.print("    },");
    f.print("    ", v03OperationsByName, ",");
    f.print("  );");
    f.print("  return {");
    f.print("    handler: v03,");
    if (jsonRpc) f.print("    jsonRpcWire: ", f.import("v03JsonRpcWire", v03Runtime), "(),");
    if (rest) {
      const createRest = f.import(`create${base}RestServer`, outputModule(v03, "restServer"));
      const errorBody = f.import("v03RestErrorBody", v03Runtime);
      f.print(
        "    restServer: (serverOptions) => ",
        createRest,
        '(v03, { responseContentType: "application/json", errorBody: ',
        errorBody,
        ', ...serverOptions, supportedVersions: ["0.3"] }),',
      );
    }
    if (grpcJs) {
      const createGrpcJs = f.import(`create${base}GrpcJsService`, outputModule(v03, "grpcServer"));
      f.print(
        "    grpcJsService: (serverOptions) => ",
        createGrpcJs,
        '(v03, { ...serverOptions, supportedVersions: ["0.3"] }),',
      );
    }
    if (grpc) {
      const createRoutes = f.import(`create${base}GrpcRoutes`, outputModule(v03, "grpcServer"));
      f.print(
        "    grpcRoutes: (serverOptions) => ",
        createRoutes,
        '(v03, { ...serverOptions, supportedVersions: ["0.3"] }),',
      );
    }
    f.print("  };");
    f.print("}");
    f.print();
  }
}

/** Prints one member of the `<Service>V03` interface: its JSDoc, then its declaration (both indented). */
function printMember(f: GeneratedFile, doc: string, declaration: Printable[]): void {
  f.print(f.jsDoc(doc, "  "));
  f.print("  ", ...declaration);
}
