// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

let cached: string | undefined;

/**
 * The project's `templates/` folder. The plugin runs from source (tests) and as a
 * bundle in plugin/dist, so walk up from this module until the folder is found.
 */
export function templatesDir(): string {
  if (cached !== undefined) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, "templates");
    if (existsSync(join(candidate, "errors.ts.hbs"))) return (cached = candidate);
    const parent = dirname(dir);
    if (parent === dir)
      throw new Error(
        `protoc-gen-a2a: templates/ not found above ${fileURLToPath(import.meta.url)}`,
      );
    dir = parent;
  }
}
