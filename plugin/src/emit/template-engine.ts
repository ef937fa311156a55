// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The templates of templates/ that the plugin renders (render-template.ts), compiled with Handlebars
 * when first used. This is the module of the sources (tests); the bundle replaces it (plugin/build.mjs)
 * with the same templates precompiled at build time with {@link TEMPLATE_OPTIONS}, on Handlebars'
 * runtime only: the plugin then neither loads Handlebars' compiler nor compiles at each run.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Handlebars from "handlebars";
import { templatesDir } from "../templates-dir.js";

/** Compile options of every template: `noEscape`, `strict` (a missing field throws), only the helpers `sym` and `json`. */
export const TEMPLATE_OPTIONS = {
  noEscape: true,
  strict: true,
  knownHelpers: { sym: true, json: true },
  knownHelpersOnly: true,
};

const hb = Handlebars.create();

/** The template `templates/<name>`, compiled. */
export function compileTemplate(name: string): Handlebars.TemplateDelegate {
  return hb.compile(readFileSync(join(templatesDir(), name), "utf8"), TEMPLATE_OPTIONS);
}
