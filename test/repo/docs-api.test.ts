// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * `npm run docs:api` (scripts/docs-api.mjs): TypeDoc over the runtime's entry points (its package.json `exports`) writes the API
 * reference to docs/api/ (gitignored) with warnings as errors, so a `{@link}` that does not resolve,
 * or resolves to something left out of the reference, fails here and in CI.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../support/repo-root.js";

describe("npm run docs:api", () => {
  it("documents every entry point of the runtime package without a warning", () => {
    const config = JSON.parse(readFileSync(join(repoRoot, "typedoc.json"), "utf8")) as {
      treatWarningsAsErrors: boolean;
      out: string;
    };
    expect(config.treatWarningsAsErrors).toBe(true);
    const exports = (
      JSON.parse(readFileSync(join(repoRoot, "runtime/package.json"), "utf8")) as {
        exports: Record<string, string | Record<string, string>>;
      }
    ).exports;
    const sources = Object.values(exports).filter(
      (e) => typeof e === "object" && e["@protoc-gen-a2a/source"] !== undefined,
    );

    let output = "";
    try {
      output = execFileSync("npm", ["run", "--silent", "docs:api"], {
        cwd: repoRoot,
        encoding: "utf8",
        stdio: "pipe",
      });
    } catch (e) {
      const { stdout = "", stderr = "" } = e as { stdout?: string; stderr?: string };
      expect.fail(`npm run docs:api failed:\n${stdout}${stderr}`);
    }
    expect(output).not.toMatch(/\[warning\]|\[error\]/);
    expect(existsSync(join(repoRoot, config.out, "index.html"))).toBe(true);
    // One module page per entry point (scripts/docs-api.mjs takes them from the exports).
    expect(
      readdirSync(join(repoRoot, config.out, "modules")).filter((f) => f.endsWith(".html")),
    ).toHaveLength(sources.length);
  }, 300_000);
});
