// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
import type { GeneratedFile, ImportSymbol, Printable, Schema } from "@bufbuild/protoplugin";
import type { FileModel, OperationModel, ServiceModel } from "../../model/service-model.js";
import { docText } from "../js-doc.js";
import { runtimeImport } from "../runtime-package.js";
import { version } from "../../version.js";
import { emitRequirementTable } from "./requirement-table.js";
import { generateTsFile } from "../preamble.js";
import { emitTypeRegistry } from "./type-registry.js";

/** Names of the symbols emitted for a service, shared by every emitter that refers to them. */
export function serviceSymbols(service: ServiceModel) {
  const base = service.desc.name;
  return {
    handler: `${base}Handler`,
    operations: `${base}Operations`,
    operationsByName: `${base}OperationsByName`,
    operationName: `${base}OperationName`,
    requiredFields: `${base}RequiredFields`,
    responseFields: `${base}ResponseFields`,
    client: `${base}Client`,
    transportClient: `${base}TransportClient`,
    dispatch: `dispatch${base}`,
    jsonRpcMethods: `${base}JsonRpcMethods`,
    routes: `${base}Routes`,
    restRequests: `${base}RestRequests`,
  };
}

/**
 * Emits `<file>_a2a_handler.ts`: per service, the handler interface agent authors
 * implement (one method per RPC), the operation descriptors and the REQUIRED-field
 * table; per file, the service parameters.
 */
export function emitHandlerFile(schema: Schema<object>, model: FileModel): void {
  const f = generateTsFile(schema, model, "handler");
  const CallContext = f.import("CallContext", runtimeImport(""), true);
  const OperationDescriptor = f.import("OperationDescriptor", runtimeImport(""), true);
  const operationOf = f.import("operationOf", runtimeImport(""));
  // Every generated file imports this one: a runtime of another release line fails here, at load, saying what to do.
  f.print(
    f.import("checkRuntimeVersion", runtimeImport("")),
    '("v',
    version,
    '", "',
    model.file.name,
    '.proto");',
  );
  f.print();

  for (const service of model.services) {
    const names = serviceSymbols(service);
    // Handler interface.
    f.print(
      f.jsDoc(
        docText(service.desc, [
          "Implement this interface to serve the service: every binding (JSON-RPC, gRPC,",
          "HTTP+JSON) decodes and validates the request, negotiates the version and",
          "extensions, authenticates, then calls the method of the operation. Throw the",
          `generated A2A error classes (${model.file.name}_a2a_errors.ts) to answer with an error.`,
        ]),
      ),
    );
    f.print(f.export("interface", names.handler), "<Principal = unknown> {");
    service.operations.forEach((op, i) => {
      if (i > 0) f.print();
      f.print(f.jsDoc(docText(op.desc, bindingLines(op)), "  "));
      const req = f.importShape(op.input);
      const res = f.importShape(op.output);
      // A unary RPC answers once; a streaming one yields its responses.
      const returns = op.kind === "unary" ? "Promise" : "AsyncIterable";
      f.print(
        "  ",
        op.localName,
        "(request: ",
        req,
        ", context: ",
        CallContext,
        `<Principal>): ${returns}<`,
        res,
        ">;",
      );
    });
    f.print("}");
    f.print();

    // Client interface, implemented by every binding's generated client.
    emitClientInterface(f, service, names);

    // Operation descriptors.
    f.print(
      f.jsDoc(
        `The operations of ${service.typeName}, in proto order, keyed by handler method name.`,
      ),
    );
    f.print(f.export("const", names.operations), " = {");
    // Kind, schemas and gRPC path come from protobuf-es's service descriptor; the RPC name is given as a literal for the types.
    const serviceDesc = f.importSchema(service.desc);
    for (const op of service.operations) {
      const escaped = op.localName === op.desc.localName ? "" : `, ${JSON.stringify(op.localName)}`;
      f.print(
        "  ",
        op.localName,
        ": ",
        operationOf,
        "(",
        serviceDesc,
        ".method.",
        op.desc.localName,
        ", ",
        f.string(op.name),
        escaped,
        "),",
      );
    }
    f.print("} as const satisfies Record<string, ", OperationDescriptor, ">;");
    f.print();
    f.print(f.jsDoc(`The operations of ${service.typeName}, keyed by RPC name.`));
    f.print(f.export("const", names.operationsByName), " = {");
    for (const op of service.operations)
      f.print("  ", op.name, ": ", names.operations, ".", op.localName, ",");
    f.print("} as const;");
    f.print();
    f.print(f.jsDoc(`RPC name of an operation of ${service.typeName}.`));
    f.print(
      f.export("type", names.operationName),
      " = (typeof ",
      names.operations,
      ")[keyof typeof ",
      names.operations,
      ']["name"];',
    );
    f.print();

    emitRequirementTable(
      f,
      service.requirements,
      names.requiredFields,
      [
        `REQUIRED fields (google.api.field_behavior) of the messages reachable from the requests of ${service.typeName},`,
        "with the nested messages to descend into. Validate a decoded request with",
        "`findMissingFields(table, request.$typeName, request)`.",
      ].join("\n"),
      false,
    );
    emitRequirementTable(
      f,
      service.responseRequirements,
      names.responseFields,
      [
        `REQUIRED fields of the messages reachable from the responses of ${service.typeName}: ProtoJSON`,
        "omits zero values, but REQUIRED fields are emitted even then (spec §3.1.4: `nextPageToken`",
        "is always present; §8.4.1). Applied with `fillRequiredDefaults(table, typeName, json)`.",
      ].join("\n"),
      true,
    );
    emitDispatch(f, service, names, CallContext);
  }

  // Service parameters (spec §3.2.6).
  f.print(
    f.jsDoc(
      "The service parameters of A2A (spec §3.2.6): HTTP header names and gRPC metadata keys.",
    ),
  );
  f.print(f.export("const", "serviceParameters"), " = {");
  for (const p of model.serviceParameters) {
    const key = p.name.replace(/^A2A-/, "").toLowerCase();
    f.print("  /** ", p.description, " */");
    f.print(
      "  ",
      key,
      ": { name: ",
      f.string(p.name),
      ", grpcKey: ",
      f.string(p.grpcKey),
      ", query: ",
      p.query,
      " },",
    );
  }
  f.print("} as const;");
  f.print();
  emitTypeRegistry(f, model);
}

/**
 * Emits the typed dispatcher every binding's server calls: operation name → handler
 * method, without reflection or casts in user-facing code.
 */
function emitDispatch(
  f: GeneratedFile,
  service: ServiceModel,
  names: ReturnType<typeof serviceSymbols>,
  CallContext: ImportSymbol,
): void {
  const Message = f.import("Message", "@bufbuild/protobuf", true);
  f.print(
    f.jsDoc(
      [
        `Calls the handler method of an operation of ${service.typeName}. The request must be`,
        "a message of the operation's input type (the bindings decode it from the operation's",
        "schema); returns a promise for unary operations and an async iterable for streaming ones.",
      ].join("\n"),
    ),
  );
  f.print(
    f.export("function", names.dispatch),
    "<Principal>(handler: ",
    names.handler,
    "<Principal>, operation: ",
    names.operationName,
    ", request: ",
    Message,
    ", context: ",
    CallContext,
    "<Principal>): Promise<",
    Message,
    "> | AsyncIterable<",
    Message,
    "> {",
  );
  if (service.operations.length === 0) {
    // Every RPC was skipped (unsupported_rpcs=skip): `operation` is never.
    f.print(
      "  throw new Error(",
      f.string(`${service.typeName} has no operation the bindings carry: `),
      " + String(operation));",
    );
    f.print("}");
    f.print();
    return;
  }
  f.print("  switch (operation) {");
  for (const op of service.operations) {
    f.print("    case ", f.string(op.name), ":");
    f.print(
      "      return handler.",
      op.localName,
      "(request as ",
      f.importShape(op.input),
      ", context);",
    );
  }
  f.print("  }");
  f.print("}");
  f.print();
}

/**
 * The binding-independent client interface (the same methods as the handler, with init shapes
 * and call options) and its one implementation over a runtime `Transport`, which every
 * binding's generated client extends.
 */
function emitClientInterface(
  f: GeneratedFile,
  service: ServiceModel,
  names: ReturnType<typeof serviceSymbols>,
): void {
  const CallOptions = f.import("CallOptions", runtimeImport(""), true);
  const Transport = f.import("Transport", runtimeImport(""), true);
  const MessageInitShape = f.import("MessageInitShape", "@bufbuild/protobuf", true);
  const signature = (op: ServiceModel["operations"][number]): Printable[] => {
    const input = f.importSchema(op.input, true);
    const output = f.importShape(op.output);
    const ret = op.kind === "unary" ? ["Promise<", output, ">"] : ["AsyncIterable<", output, ">"];
    return [
      op.localName,
      "(request: ",
      MessageInitShape,
      "<typeof ",
      input,
      ">, options?: ",
      CallOptions,
      "): ",
      ...ret,
    ];
  };
  f.print(
    f.jsDoc(
      [
        `A client of ${service.typeName}, whatever the binding: the generated JSON-RPC, HTTP+JSON`,
        "and gRPC clients all implement it, so code written against it runs on any of them.",
        "",
        `@generated from service ${service.typeName}`,
      ].join("\n"),
    ),
  );
  f.print(f.export("interface", names.client), " {");
  service.operations.forEach((op, i) => {
    if (i > 0) f.print();
    f.print(f.jsDoc(docText(op.desc), "  "));
    f.print("  ", ...signature(op), ";");
  });
  f.print("}");
  f.print();
  f.print(
    f.jsDoc(
      [
        `${names.client} over any runtime \`Transport\`: each method hands its operation to the transport.`,
        "The bindings' generated clients are this class with their transport; give it a",
        "transport of your own to call the service over a custom binding.",
        "",
        `@generated from service ${service.typeName}`,
      ].join("\n"),
    ),
  );
  f.print(f.export("class", names.transportClient), " implements ", names.client, " {");
  f.print("  constructor(readonly transport: ", Transport, ") {}");
  for (const op of service.operations) {
    f.print();
    f.print(f.jsDoc(docText(op.desc), "  "));
    f.print("  ", ...signature(op), " {");
    f.print(
      "    return this.transport.",
      op.kind === "unary" ? "unary" : "stream",
      "(",
      names.operations,
      ".",
      op.localName,
      ", request, options);",
    );
    f.print("  }");
  }
  f.print("}");
  f.print();
}

/** The wire names of an operation on each binding, for its JSDoc. */
function bindingLines(op: OperationModel): string[] {
  const lines = [
    `- JSON-RPC: \`${op.jsonRpcMethod}\`${op.kind === "server_streaming" ? " (SSE stream)" : ""}`,
    `- gRPC: \`${op.grpcPath}\``,
  ];
  for (const b of op.httpBindings) {
    lines.push(
      `- HTTP: \`${b.method} ${b.template}\`${b.origin === "spec-alias" ? " (spec text alias)" : b.origin === "erratum" ? " (the proto's template corrected)" : ""}`,
    );
  }
  return lines;
}
