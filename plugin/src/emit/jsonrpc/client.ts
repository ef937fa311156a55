import type { Schema } from "@bufbuild/protoplugin";
import type { FileModel } from "../../model/service-model.js";
import { docText } from "../js-doc.js";
import { outputFile, outputModule } from "../file-names.js";
import { runtimeModule } from "../runtime-files.js";
import { serviceSymbols } from "../common/handler-interface.js";

/**
 * Emits `<file>_a2a_jsonrpc_client.ts`: per service, `<Service>JsonRpcClient`, one typed
 * method per RPC over the runtime's JSON-RPC transport.
 */
export function emitJsonRpcClient(schema: Schema<object>, model: FileModel): void {
  const f = schema.generateFile(outputFile(model.file, "jsonRpcClient"));
  f.preamble(model.file);
  const JsonRpcTransport = f.import("JsonRpcTransport", runtimeModule("jsonrpc/client"));
  const JsonRpcClientOptions = f.import("JsonRpcClientOptions", runtimeModule("jsonrpc/client"), true);
  const CallOptions = f.import("CallOptions", runtimeModule("call-options"), true);
  const MessageInitShape = f.import("MessageInitShape", "@bufbuild/protobuf", true);
  const errorRegistry = f.import("errorRegistry", outputModule(model.file, "errors"));
  for (const service of model.services) {
    const names = serviceSymbols(service);
    const clientInterface = f.import(names.client, outputModule(model.file, "handler"), true);
    const operations = f.import(names.operations, outputModule(model.file, "handler"));
    const className = `${service.desc.name}JsonRpcClient`;
    f.print(
      f.jsDoc(
        [
          `Calls ${service.typeName} over JSON-RPC 2.0 (A2A spec §9) with \`fetch\`. Every call sends`,
          "`A2A-Version`; wire errors are thrown as the generated error classes.",
          "",
          `@generated from service ${service.typeName}`,
        ].join("\n"),
      ),
    );
    f.print(f.export("class", className), " implements ", clientInterface, " {");
    f.print("  readonly #transport: ", JsonRpcTransport, ";");
    f.print();
    f.print("  constructor(options: ", JsonRpcClientOptions, ") {");
    f.print("    this.#transport = new ", JsonRpcTransport, "(options, ", errorRegistry, ");");
    f.print("  }");
    for (const op of service.operations) {
      f.print();
      f.print(f.jsDoc(docText(op.desc), "  "));
      const input = f.importSchema(op.input, true);
      const output = f.importShape(op.output);
      const call = op.kind === "unary" ? "unary" : "stream";
      const ret = op.kind === "unary" ? ["Promise<", output, ">"] : ["AsyncIterable<", output, ">"];
      f.print("  ", op.localName, "(request: ", MessageInitShape, "<typeof ", input, ">, options?: ", CallOptions, "): ", ...ret, " {");
      f.print("    return this.#transport.", call, "(", operations, ".", op.localName, ", request, options);");
      f.print("  }");
    }
    f.print("}");
    f.print();
  }
}
