import type { GeneratedFile, Printable } from "@bufbuild/protoplugin";
import type { FileModel, ServiceModel } from "../../model/service-model.js";
import { docText } from "../js-doc.js";
import { outputModule } from "../file-names.js";
import { runtimeModule } from "../runtime-files.js";
import { serviceSymbols } from "./handler-interface.js";

/** What differs between the bindings' generated clients. */
export interface ClientFlavor {
  /** "JsonRpc", "Rest", …: part of the class name. */
  readonly name: string;
  /** Runtime module of the transport class and its options type. */
  readonly runtime: string;
  readonly transportClass: string;
  readonly optionsType: string;
  readonly doc: readonly string[];
  /** Arguments after `options` given to the transport's constructor (tables, error registry). */
  readonly transportArgs: (f: GeneratedFile, service: ServiceModel) => Printable[];
}

/**
 * Emits `<Service><Flavor>Client`: one typed method per RPC (streaming ones return
 * AsyncIterable) over the runtime transport, implementing `<Service>Client`.
 */
export function emitClientClass(f: GeneratedFile, model: FileModel, service: ServiceModel, flavor: ClientFlavor): void {
  const Transport = f.import(flavor.transportClass, runtimeModule(flavor.runtime));
  const Options = f.import(flavor.optionsType, runtimeModule(flavor.runtime), true);
  const CallOptions = f.import("CallOptions", runtimeModule("call-options"), true);
  const MessageInitShape = f.import("MessageInitShape", "@bufbuild/protobuf", true);
  const names = serviceSymbols(service);
  const clientInterface = f.import(names.client, outputModule(model.file, "handler"), true);
  const operations = f.import(names.operations, outputModule(model.file, "handler"));
  const className = `${service.desc.name}${flavor.name}Client`;
  f.print(f.jsDoc([...flavor.doc, "", `@generated from service ${service.typeName}`].join("\n")));
  f.print(f.export("class", className), " implements ", clientInterface, " {");
  f.print("  readonly #transport: ", Transport, ";");
  f.print();
  f.print("  constructor(options: ", Options, ") {");
  const args = flavor.transportArgs(f, service).flatMap((a) => [", ", a]);
  f.print("    this.#transport = new ", Transport, "(options", ...args, ");");
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
