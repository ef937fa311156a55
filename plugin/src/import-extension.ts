// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * protoplugin's `import_extension` option, checked before protoplugin reads it: protoplugin (and
 * so protoc-gen-es) accepts `js`, `ts` and `none` (with or without the dot) and refuses anything
 * else with a bare `invalid option "import_extension=.mjs"`. This says why and what to use.
 */

/** The values protoplugin accepts. */
const ACCEPTED: ReadonlySet<string> = new Set(["", "none", "js", ".js", "ts", ".ts"]);

/** Throws the one-line reason when the parameter has an `import_extension` protoplugin refuses. */
export function checkImportExtension(parameter: string): void {
  for (const part of parameter.split(",")) {
    const [key, ...rest] = part.split("=");
    if (key?.trim() !== "import_extension") continue;
    const value = rest.join("=").trim();
    if (ACCEPTED.has(value)) continue;
    const error = new Error(
      `invalid option "import_extension=${value}": import_extension must be js, ts or none (as for protoc-gen-es, whose _pb.ts files the generated code imports): both write .ts files, which TypeScript compiles to .js, so imports ending in ${value.startsWith(".") ? value : `.${value}`} would find no file; for ES modules use import_extension=js with "type": "module" in package.json`,
    );
    // protoplugin prints a PluginOptionError's message as it is, after the plugin's name.
    error.name = "PluginOptionError";
    throw error;
  }
}
