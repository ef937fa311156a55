// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
import type { GeneratedFile, Printable } from "@bufbuild/protoplugin";
import type { FileModel, ServiceModel } from "../../model/service-model.js";
import { outputModule } from "../file-names.js";
import { runtimeImport, type RuntimeEntry } from "../runtime-package.js";
import { serviceSymbols } from "./handler-interface.js";
import { TYPE_REGISTRY } from "./type-registry.js";

/** What differs between the bindings' generated clients. */
export interface ClientFlavor {
  /** "JsonRpc", "Rest", …: part of the class name. */
  readonly name: string;
  /** Runtime entry point of the transport class and its options type. */
  readonly runtime: RuntimeEntry;
  readonly transportClass: string;
  readonly optionsType: string;
  readonly doc: readonly string[];
  /**
   * Client methods the binding cannot carry (the REST client's RPCs without a `google.api.http` rule):
   * the class's type leaves them out (its base is `Omit<<Service>TransportClient, …>`). Default: none.
   */
  readonly omitMethods?: (service: ServiceModel) => readonly string[];
  /** Arguments after `options` given to the transport's constructor (tables, error registry). */
  readonly transportArgs: (f: GeneratedFile, service: ServiceModel) => Printable[];
}

/**
 * Emits `<Service><Flavor>Client`: the service's `<Service>TransportClient` (one typed method
 * per RPC, in the handler file) over this binding's runtime transport.
 */
export function emitClientClass(
  f: GeneratedFile,
  model: FileModel,
  service: ServiceModel,
  flavor: ClientFlavor,
): void {
  const Transport = f.import(flavor.transportClass, runtimeImport(flavor.runtime));
  const Options = f.import(flavor.optionsType, runtimeImport(flavor.runtime), true);
  const names = serviceSymbols(service);
  const handlerModule = outputModule(model.file, "handler");
  const transportClient = f.import(names.transportClient, handlerModule);
  const className = `${service.desc.name}${flavor.name}Client`;
  const omitted = flavor.omitMethods?.(service) ?? [];
  let base: Printable = transportClient;
  if (omitted.length > 0) {
    base = `${className}Base`;
    f.print(
      f.jsDoc(
        `${names.transportClient} without the methods this binding cannot carry: ${omitted.join(", ")}.`,
      ),
    );
    const keys = omitted.map((m) => JSON.stringify(m)).join(" | ");
    f.print(
      "const ",
      base,
      ": new (...args: ConstructorParameters<typeof ",
      transportClient,
      ">) => Omit<",
      transportClient,
      ", ",
      keys,
      "> = ",
      transportClient,
      ";",
    );
    f.print();
  }
  f.print(f.jsDoc([...flavor.doc, "", `@generated from service ${service.typeName}`].join("\n")));
  f.print(f.export("class", className), " extends ", base, " {");
  f.print("  constructor(options: ", Options, ") {");
  // The REQUIRED table (requests are checked before sending) and the type registry (Any, extensions).
  const tables: Printable[] = [
    "{ requestFields: ",
    f.import(names.requiredFields, handlerModule),
    ", registry: ",
    f.import(TYPE_REGISTRY, handlerModule),
    " }",
  ];
  const args = [...flavor.transportArgs(f, service), tables].flatMap((a) => [", ", a]);
  f.print("    super(new ", Transport, "(options", ...args, "));");
  f.print("  }");
  f.print("}");
  f.print();
}
