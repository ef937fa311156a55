// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
import type { Schema } from "@bufbuild/protoplugin";
import type { FileModel } from "../../model/service-model.js";
import { ERROR_DOMAIN } from "../../model/error-catalog.js";
import { runtimeImport } from "../runtime-package.js";
import { renderTemplate } from "../render-template.js";
import { generateTsFile } from "../preamble.js";

/**
 * Emits `<file>_a2a_errors.ts`: the error table of the selected profile as data, one
 * error class per row, and the reverse registry clients use. The mapping functions
 * (to JSON-RPC, gRPC status, HTTP §11.6 body) live in the runtime's a2a-error.ts.
 */
export function emitErrorsFile(schema: Schema<object>, model: FileModel): void {
  const f = generateTsFile(schema, model, "errors");
  const from = runtimeImport("");
  const symbols = {
    A2AError: f.import("A2AError", from),
    A2AErrorSpec: f.import("A2AErrorSpec", from, true),
    A2AErrorOptions: f.import("A2AErrorOptions", from, true),
    ErrorRegistry: f.import("ErrorRegistry", from, true),
    createErrorRegistry: f.import("createErrorRegistry", from),
    toA2AError: f.import("toA2AError", from),
  };
  const internal = model.errors.find(
    (e) => e.category === "jsonrpc" && e.grpcStatus === "INTERNAL",
  );
  if (internal === undefined) throw new Error("error catalog has no internal error");
  const view = {
    profile: model.options.errorProfile,
    domain: ERROR_DOMAIN,
    internal: internal.name,
    errors: model.errors.map((e) => ({
      name: e.name,
      reason: e.reason,
      jsonRpcCode: e.jsonRpcCode,
      grpcCode: e.grpcCode,
      grpcStatus: e.grpcStatus,
      httpStatus: e.httpStatus,
      message: e.message,
      docLines: [
        ...wrap(e.description, 96),
        "",
        `JSON-RPC \`${e.jsonRpcCode}\` · gRPC \`${e.grpcStatus}\` · HTTP \`${e.httpStatus}\` · ErrorInfo reason \`${e.reason}\``,
      ],
    })),
  };
  renderTemplate(f, "errors.ts.hbs", view, symbols);
}

/** Word-wraps a paragraph for a JSDoc block. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.replace(/\*\//g, "* /").split(/\s+/).filter(Boolean)) {
    if (line !== "" && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line === "" ? word : `${line} ${word}`;
    }
  }
  if (line !== "") lines.push(line);
  return lines;
}
