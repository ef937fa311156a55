// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
import type { GeneratedFile, Printable } from "@bufbuild/protoplugin";
import type { FileModel, ServiceModel } from "../../model/service-model.js";
import { outputModule } from "../file-names.js";
import { runtimeImport, type RuntimeEntry } from "../runtime-package.js";
import { serviceSymbols } from "./handler-interface.js";

/** What differs between the bindings' generated clients. */
export interface ClientFlavor {
  /** "JsonRpc", "Rest", …: part of the class name. */
  readonly name: string;
  /** Runtime entry point of the transport class and its options type. */
  readonly runtime: RuntimeEntry;
  readonly transportClass: string;
  readonly optionsType: string;
  readonly doc: readonly string[];
  /** Arguments after `options` given to the transport's constructor (tables, error registry). */
  readonly transportArgs: (f: GeneratedFile, service: ServiceModel) => Printable[];
}

/**
 * Emits `<Service><Flavor>Client`: the service's `<Service>TransportClient` (one typed method
 * per RPC, in the handler file) over this binding's runtime transport.
 */
export function emitClientClass(f: GeneratedFile, model: FileModel, service: ServiceModel, flavor: ClientFlavor): void {
  const Transport = f.import(flavor.transportClass, runtimeImport(flavor.runtime));
  const Options = f.import(flavor.optionsType, runtimeImport(flavor.runtime), true);
  const names = serviceSymbols(service);
  const base = f.import(names.transportClient, outputModule(model.file, "handler"));
  const className = `${service.desc.name}${flavor.name}Client`;
  f.print(f.jsDoc([...flavor.doc, "", `@generated from service ${service.typeName}`].join("\n")));
  f.print(f.export("class", className), " extends ", base, " {");
  f.print("  constructor(options: ", Options, ") {");
  const args = flavor.transportArgs(f, service).flatMap((a) => [", ", a]);
  f.print("    super(new ", Transport, "(options", ...args, "));");
  f.print("  }");
  f.print("}");
  f.print();
}
