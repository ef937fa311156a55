// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
import type { Schema } from "@bufbuild/protoplugin";
import type { ErrorCatalogEntry } from "../../model/error-catalog.js";
import type { FileModel } from "../../model/service-model.js";
import type { Binding, PluginOptions } from "../../options.js";
import { outputModule, type outputSuffix } from "../file-names.js";
import { RUNTIME_PACKAGE } from "../runtime-package.js";
import { serviceSymbols } from "./handler-interface.js";
import { generateTsFile } from "../preamble.js";
import { hasRestBinding } from "../rest/route-table.js";

/** The runtime's Node-only entry point of the equivalence kit. */
const TESTING_ENTRY = `${RUNTIME_PACKAGE}/testing`;

/** Per emitted binding: its `protocolBinding` name (§5), symbol flavour, files, and how its server is started. */
const referenceBindings: readonly {
  binding: Binding;
  name: string;
  flavor: string;
  server: keyof typeof outputSuffix;
  client: keyof typeof outputSuffix;
}[] = [
  {
    binding: "jsonrpc",
    name: "JSONRPC",
    flavor: "JsonRpc",
    server: "jsonRpcServer",
    client: "jsonRpcClient",
  },
  {
    binding: "rest",
    name: "HTTP+JSON",
    flavor: "Rest",
    server: "restServer",
    client: "restClient",
  },
  { binding: "grpc", name: "GRPC", flavor: "Grpc", server: "grpcServer", client: "grpcClient" },
];

/**
 * The errors the reference agent raises on request, one scenario each: those whose meaning does
 * not depend on the binding. That is every error of the catalog but the JSON-RPC envelope errors
 * (parse error, invalid request, method not found, spec §9.5): the A2A errors of §5.4, the
 * authentication and authorization errors, and of the §9.5 standard errors the two §3.3.2 names as
 * the validation and system categories' codes (-32602 Invalid params, -32603 Internal error).
 */
function raisable(error: ErrorCatalogEntry): boolean {
  return (
    error.category !== "jsonrpc" || error.jsonRpcCode === -32602 || error.jsonRpcCode === -32603
  );
}

/**
 * Emits `<file>_a2a_equivalence.ts` for A2A-shaped services (the condition of the task handler
 * file): per service, the reference bindings (the generated server of every emitted binding on
 * 127.0.0.1 with its generated client) and `check<Service>BindingEquivalence(options)`, which hands
 * them and the service's tables (operations, error classes, REQUIRED fields) to the runtime's kit
 * (`@protoc-gen-a2a/runtime/testing`, Node only). An author adds their binding as a candidate.
 */
export function emitEquivalenceKitFile(schema: Schema<PluginOptions>, model: FileModel): void {
  const services = model.services.filter((s) => s.taskRuntime !== undefined);
  if (services.length === 0) return;
  const f = generateTsFile(schema, model, "equivalenceKit");
  const runBindingEquivalence = f.import("runBindingEquivalence", TESTING_ENTRY);
  const BindingEquivalenceOptions = f.import("BindingEquivalenceOptions", TESTING_ENTRY, true);
  const BindingFactory = f.import("BindingFactory", TESTING_ENTRY, true);
  const EquivalenceReport = f.import("EquivalenceReport", TESTING_ENTRY, true);
  const EquivalenceServiceSpec = f.import("EquivalenceServiceSpec", TESTING_ENTRY, true);
  const emitted = referenceBindings.filter((b) => schema.options.bindings.has(b.binding));
  const errors = model.errors.map((e) => ({
    entry: e,
    symbol: f.import(e.name, outputModule(model.file, "errors")),
  }));
  for (const service of services) {
    const base = service.desc.name;
    const names = serviceSymbols(service);
    // A service without google.api.http rules has no REST server and client.
    const bindings = emitted.filter((b) => b.binding !== "rest" || hasRestBinding(service));
    const fromHandler = (name: string, typeOnly = false) =>
      f.import(name, outputModule(model.file, "handler"), typeOnly);
    const Handler = fromHandler(names.handler, true);
    const Client = fromHandler(names.client, true);
    const specConst = `equivalenceSpecOf${base}`;
    const factoryType = `${base}BindingFactory`;
    const referencesConst = `${base}ReferenceBindings`;
    const optionsType = `${base}EquivalenceOptions`;

    f.print(
      f.jsDoc(
        `What the binding-equivalence kit needs of ${service.typeName}: its operations, its error classes (and those the reference agent raises), its REQUIRED table.`,
      ),
    );
    f.print("const ", specConst, ": ", EquivalenceServiceSpec, " = {");
    f.print("  service: ", JSON.stringify(service.typeName), ",");
    f.print("  operations: ", fromHandler(names.operations), ",");
    f.print("  errors: {");
    for (const e of errors) f.print("    ", e.entry.name, ": ", e.symbol, ",");
    f.print("  },");
    f.print(
      "  raisableErrors: [",
      errors
        .filter((e) => raisable(e.entry))
        .map((e) => JSON.stringify(e.entry.name))
        .join(", "),
      "],",
    );
    f.print("  requiredFields: ", fromHandler(names.requiredFields), ",");
    f.print("};");
    f.print();

    f.print(
      f.jsDoc(
        [
          `A binding of ${service.typeName} under test: serves the given handler (the kit's reference agent) with the`,
          "given server options over the binding, and returns the binding's client and what stops the server.",
        ].join("\n"),
      ),
    );
    f.print(f.export("type", factoryType), " = ", BindingFactory, "<", Handler, ", ", Client, ">;");
    f.print();

    f.print(
      f.jsDoc(
        [
          `The reference bindings of ${service.typeName}: the generated server of each binding of this output on`,
          "127.0.0.1 (a free port), with the generated client. The default references of",
          `\`check${base}BindingEquivalence\`.`,
          "",
          `@generated from service ${service.typeName}`,
        ].join("\n"),
      ),
    );
    f.print(f.export("const", referencesConst), " = {");
    for (const b of bindings) {
      const Client = f.import(`${base}${b.flavor}Client`, outputModule(model.file, b.client));
      const key = /^[A-Z_]+$/.test(b.name) ? b.name : JSON.stringify(b.name);
      f.print(f.jsDoc(`The generated ${b.name} server and client.`, "  "));
      f.print("  ", key, ": async (handler, serverOptions) => {");
      if (b.binding === "grpc") {
        const listen = f.import(`listen${base}Grpc`, outputModule(model.file, b.server));
        f.print(
          "    const endpoint = await ",
          listen,
          '(handler, { ...serverOptions, listen: { host: "127.0.0.1", port: 0 } });',
        );
        f.print("    const address = endpoint.address;");
        f.print(
          "    return { client: new ",
          Client,
          "({ address }), clientWith: (options) => new ",
          Client,
          "({ ...options, address }), close: () => endpoint.close() };",
        );
      } else {
        const create = f.import(
          `create${base}${b.flavor}Server`,
          outputModule(model.file, b.server),
        );
        f.print(
          "    const http = await ",
          f.import("listenHttp", TESTING_ENTRY),
          "(",
          create,
          "(handler, serverOptions).node);",
        );
        f.print("    const url = http.url;");
        f.print(
          "    return { client: new ",
          Client,
          "({ url }), clientWith: (options) => new ",
          Client,
          "({ ...options, url }), close: () => http.close() };",
        );
      }
      f.print("  },");
    }
    f.print("} as const satisfies Readonly<Record<string, ", factoryType, ">>;");
    f.print();

    f.print(
      f.jsDoc(
        `Options of \`check${base}BindingEquivalence\`: the candidates, and optionally other references, server options, a scenario filter.`,
      ),
    );
    f.print(
      f.export("interface", optionsType),
      " extends Omit<",
      BindingEquivalenceOptions,
      "<",
      Handler,
      ", ",
      Client,
      '>, "references"> {',
    );
    f.print(
      f.jsDoc(
        `The reference bindings, the first one's outcomes being the expected ones. Default: all of \`${referencesConst}\`.`,
        "  ",
      ),
    );
    f.print("  readonly references?: Readonly<Record<string, ", factoryType, ">> | undefined;");
    f.print("}");
    f.print();

    f.print(
      f.jsDoc(
        [
          `Checks that bindings of ${service.typeName} are equivalent (spec §5.1): the kit's reference agent is`,
          "served over every reference and candidate binding with the same server options, the same",
          "scenarios run through each binding's client (every operation, every error of the catalog,",
          "streaming order and termination, SubscribeToTask, tenant, versions, extensions, authentication,",
          "REQUIRED fields, cancellation), and each outcome is compared with the first reference's. Resolves",
          "with the report (`formatEquivalenceReport` prints it; `assertBindingEquivalence` throws with it",
          "when anything failed); every server is closed by then.",
          "",
          `@generated from service ${service.typeName}`,
        ].join("\n"),
      ),
    );
    f.print(
      f.export("function", `check${base}BindingEquivalence`),
      "(options?: ",
      optionsType,
      "): Promise<",
      EquivalenceReport,
      "> {",
    );
    f.print(
      "  return ",
      runBindingEquivalence,
      "(",
      specConst,
      ", { ...options, references: options?.references ?? ",
      referencesConst,
      " });",
    );
    f.print("}");
    f.print();
  }
}
