// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
import type { DescEnum, DescMessage } from "@bufbuild/protobuf";
import type { Schema } from "@bufbuild/protoplugin";
import type { FileModel } from "../../model/service-model.js";
import { outputFile, schemaFileDir } from "../file-names.js";
import { generatedNotice } from "./generated-notice.js";
import { operationDefs, sharedBindingDefs } from "./binding-schemas.js";
import {
  bundleRef,
  enumSchema,
  fileRef,
  messageSchema,
  reachableTypes,
  type JsonSchema,
  type RefStyle,
} from "./message-schema.js";
import { printJson, writeJsonDocument } from "./print-json.js";
import type { PluginOptions } from "../../options.js";

const DIALECT = "https://json-schema.org/draft/2020-12/schema";

/** Every definition of a file's services: messages and enums reachable from their operations, then the binding envelopes. */
export function fileDefinitions(
  model: FileModel,
  ref: RefStyle,
): { types: (DescMessage | DescEnum)[]; defs: Record<string, JsonSchema> } {
  // The OpenAPI and OpenRPC documents both use a file's definitions with componentRef: built once (read-only).
  let byRef = definitionsCache.get(model);
  if (byRef === undefined) definitionsCache.set(model, (byRef = new Map()));
  let definitions = byRef.get(ref);
  if (definitions === undefined) byRef.set(ref, (definitions = buildFileDefinitions(model, ref)));
  return definitions;
}

const definitionsCache = new WeakMap<
  FileModel,
  Map<RefStyle, { types: (DescMessage | DescEnum)[]; defs: Record<string, JsonSchema> }>
>();

function buildFileDefinitions(
  model: FileModel,
  ref: RefStyle,
): { types: (DescMessage | DescEnum)[]; defs: Record<string, JsonSchema> } {
  const roots = model.services.flatMap((s) => s.operations.flatMap((op) => [op.input, op.output]));
  const types = reachableTypes(roots);
  const defs: Record<string, JsonSchema> = {};
  for (const t of types) defs[t.typeName] = typeSchema(t, ref);
  Object.assign(defs, sharedBindingDefs(model.errors, ref));
  for (const service of model.services) Object.assign(defs, operationDefs(service, ref));
  return { types, defs };
}

export function typeSchema(t: DescMessage | DescEnum, ref: RefStyle): JsonSchema {
  return t.kind === "enum" ? enumSchema(t) : messageSchema(t, ref);
}

/**
 * Emits the JSON Schemas (2020-12) of a proto file's services:
 * - `<file>_a2a_schema.json`: one bundle, every message and enum reachable from the
 *   operations plus the JSON-RPC envelopes, SSE events and error bodies of every binding,
 *   under `$defs` (validate against `#/$defs/<name>`);
 * - `<file>_a2a_schema/<type>.schema.json`: one schema per message and enum, referring
 *   to each other by relative file name.
 */
export function emitJsonSchemas(
  schema: Schema<PluginOptions>,
  model: FileModel,
  parameter: string,
): void {
  const { types, defs } = fileDefinitions(model, bundleRef);
  writeJsonDocument(schema, model, outputFile(model.file, "jsonSchema"), {
    $schema: DIALECT,
    $comment: generatedNotice(model, parameter),
    title: `JSON Schemas of ${model.services.map((s) => s.typeName).join(", ")} (${model.fileName})`,
    description:
      "The ProtoJSON form of every message and enum the operations use, and the JSON-RPC 2.0 envelopes, SSE events and HTTP+JSON error bodies of each operation. Validate a payload against #/$defs/<name>: a message by its full proto name (lf.a2a.v1.Task), a wire payload by <service>.<Rpc>.<JsonRpcRequest|JsonRpcResponse|JsonRpcStreamEvent|HttpRequestBody|HttpResponse|HttpStreamEvent>.",
    $defs: defs,
  });
  const dir = schemaFileDir(model.file);
  for (const t of types) {
    const f = schema.generateFile(`${dir}/${t.typeName}.schema.json`);
    f.print(
      printJson({
        $schema: DIALECT,
        $id: `${t.typeName}.schema.json`,
        $comment: generatedNotice(model, parameter, t.typeName),
        title: t.typeName,
        ...typeSchema(t, fileRef),
      }),
    );
  }
}
