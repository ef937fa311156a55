// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
import type Handlebars from "handlebars";
import type { GeneratedFile, ImportSymbol, Printable } from "@bufbuild/protoplugin";
import { compileTemplate } from "./template-engine.js";

const compiled = new Map<string, Handlebars.TemplateDelegate>();
const TOKEN = "\u0000";

/**
 * Renders a Handlebars template of templates/ (static skeletons only) into a
 * generated file. Imported identifiers never appear as text: the template names
 * them with `{{sym "Name"}}`, and each is printed as protoplugin's ImportSymbol, so
 * the import is added, and aliased on a collision, like any other.
 *
 * Templates are compiled with `noEscape` and `strict` (a missing field throws) and
 * may use only the helpers registered here: `sym`, `json`.
 */
export function renderTemplate(
  f: GeneratedFile,
  name: string,
  view: object,
  symbols: Readonly<Record<string, ImportSymbol>>,
): void {
  const order: ImportSymbol[] = [];
  const sym = (symbolName: unknown) => {
    const s = typeof symbolName === "string" ? symbols[symbolName] : undefined;
    if (s === undefined) throw new Error(`template ${name}: unknown symbol ${String(symbolName)}`);
    order.push(s);
    return `${TOKEN}${order.length - 1}${TOKEN}`;
  };
  const json = (value: unknown) => JSON.stringify(value);
  let template = compiled.get(name);
  if (template === undefined) {
    template = compileTemplate(name);
    compiled.set(name, template);
  }
  const text = template(view, { helpers: { sym, json } });
  const parts: Printable[] = [];
  text.split(TOKEN).forEach((piece, i) => {
    if (i % 2 === 0) {
      if (piece !== "") parts.push(piece);
    } else {
      const symbol = order[Number(piece)];
      if (symbol === undefined) throw new Error(`template ${name}: bad symbol token`);
      parts.push(symbol);
    }
  });
  f.print(...parts);
}
