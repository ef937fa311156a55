// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
import type { Schema } from "@bufbuild/protoplugin";
import type { FileModel } from "../../model/service-model.js";
import { outputModule } from "../file-names.js";
import { serviceSymbols } from "../common/handler-interface.js";
import { generateTsFile } from "../preamble.js";

/**
 * Emits `<file>_a2a_jsonrpc_methods.ts`: per service, the JSON-RPC 2.0 method table
 * (spec §9: method = RPC name in PascalCase) mapping each method name to its
 * operation descriptor (request/response schemas, streaming kind).
 */
export function emitJsonRpcMethodTable(schema: Schema<object>, model: FileModel): void {
  const f = generateTsFile(schema, model, "jsonRpcMethods");
  for (const service of model.services) {
    const names = serviceSymbols(service);
    const operations = f.import(names.operations, outputModule(model.file, "handler"));
    f.print(
      f.jsDoc(
        [
          `JSON-RPC 2.0 methods of ${service.typeName}: \`method\` → operation.`,
          "Streaming operations answer with `text/event-stream` (spec §9.4.2).",
          "",
          `@generated from service ${service.typeName}`,
        ].join("\n"),
      ),
    );
    f.print(f.export("const", names.jsonRpcMethods), " = {");
    for (const op of service.operations) {
      f.print("  ", f.string(op.jsonRpcMethod), ": ", operations, ".", op.localName, ",");
      // An RPC name another service of the file also has is documented qualified; its clients send the RPC name.
      if (op.jsonRpcMethod !== op.name)
        f.print("  ", f.string(op.name), ": ", operations, ".", op.localName, ",");
    }
    f.print("} as const;");
    f.print();
    f.print(f.jsDoc(`A JSON-RPC method name of ${service.typeName}.`));
    f.print(
      f.export("type", `${service.desc.name}JsonRpcMethod`),
      " = keyof typeof ",
      names.jsonRpcMethods,
      ";",
    );
    f.print();
    f.print(
      f.jsDoc(
        "Looks up a JSON-RPC method by name; undefined for an unknown method (answer -32601).",
      ),
    );
    f.print(f.export("function", `find${service.desc.name}JsonRpcMethod`), "(method: string) {");
    f.print(
      "  return Object.hasOwn(",
      names.jsonRpcMethods,
      ", method) ? ",
      names.jsonRpcMethods,
      "[method as keyof typeof ",
      names.jsonRpcMethods,
      "] : undefined;",
    );
    f.print("}");
    f.print();
  }
}
