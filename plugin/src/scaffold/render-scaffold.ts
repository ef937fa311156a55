// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Handlebars from "handlebars";
import { templatesDir } from "../templates-dir.js";
import type { ScaffoldOperation, ScaffoldView } from "./scaffold-view.js";

/** The files of a binding's scaffold: where each goes (in the scaffold's folder) and its template in templates/binding/. */
export function scaffoldFiles(
  view: ScaffoldView,
): readonly { readonly path: string; readonly template: string }[] {
  return [
    { path: `${view.name}-operations.ts`, template: "operations.ts.hbs" },
    { path: `${view.name}-server.ts`, template: "server.ts.hbs" },
    { path: `${view.name}-client.ts`, template: "client.ts.hbs" },
    { path: "BINDING.md", template: "BINDING.md.hbs" },
  ];
}

let engine: typeof Handlebars | undefined;

/** Handlebars with the scaffold's partials, `noEscape` (code, not HTML) and `strict` (a missing field throws). */
function handlebars(): typeof Handlebars {
  if (engine !== undefined) return engine;
  engine = Handlebars.create();
  engine.registerPartial(
    "operation-entry",
    readFileSync(join(templatesDir(), "binding", "operation-entry.hbs"), "utf8"),
  );
  return engine;
}

/** Renders one template of templates/binding/ with the view. */
export function renderScaffold(template: string, view: ScaffoldView): string {
  const source = readFileSync(join(templatesDir(), "binding", template), "utf8");
  return handlebars().compile(source, { noEscape: true, strict: true })(view);
}

/** The entry of one operation in the operations table, as a fresh scaffold writes it. */
export function renderOperationEntry(operation: ScaffoldOperation): string {
  const source = readFileSync(join(templatesDir(), "binding", "operation-entry.hbs"), "utf8");
  return handlebars().compile(source, { noEscape: true, strict: true })(operation);
}
