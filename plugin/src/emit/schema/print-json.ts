// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
import type { Schema } from "@bufbuild/protoplugin";
import type { FileModel } from "../../model/service-model.js";
import { notice } from "../../notices.js";
import type { PluginOptions } from "../../options.js";
import { schemaFileDir } from "../file-names.js";

/**
 * Prints a generated JSON document: two-space indent, keys in the order the emitter built
 * them (deterministic), no trailing newline (the generated file adds one).
 */
export function printJson(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

/**
 * Writes one of the single-file JSON documents (the JSON Schema bundle, OpenAPI, OpenRPC) as
 * `name`, unless it is larger than `json_documents_max_bytes`: then it is left out, with a notice.
 */
export function writeJsonDocument(
  schema: Schema<Pick<PluginOptions, "jsonDocumentsMaxBytes">>,
  model: FileModel,
  name: string,
  document: unknown,
): void {
  const text = printJson(document);
  const max = schema.options.jsonDocumentsMaxBytes;
  // A string's UTF-8 length is at most 3 bytes per UTF-16 unit: count the bytes only near the limit.
  if (max !== undefined && text.length * 3 > max) {
    const bytes = Buffer.byteLength(text);
    if (bytes > max) {
      notice(
        { file: model.fileName, option: "json_documents_max_bytes" },
        `${name} not written: ${bytes} bytes, over json_documents_max_bytes=${max} (json_documents_max_bytes=none writes it; the schema of each type is in ${schemaFileDir(model.file)}/ with json_schema=true)`,
      );
      return;
    }
  }
  schema.generateFile(name).print(text);
}
