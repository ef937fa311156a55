// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
import type { Schema } from "@bufbuild/protoplugin";
import type { FileModel } from "../../model/service-model.js";
import { apiManifest } from "../../manifest/api-manifest.js";
import { outputFile } from "../file-names.js";
import { printJson } from "../schema/print-json.js";

/** Emits `<file>_a2a_manifest.json`, the API manifest of the file's services (plugin/src/manifest/api-manifest.ts). */
export function emitManifest(schema: Schema<object>, model: FileModel, parameter: string): void {
  const f = schema.generateFile(outputFile(model.file, "manifest"));
  f.print(printJson(apiManifest(model, parameter)));
}
