// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The documentation as written: README.md, CONTRIBUTING.md, runtime/README.md and docs/*.md.
 * - TypeScript blocks type-check, each as a module of its own, under a strict tsconfig like the one
 *   `init` writes, against the runtime's sources and the checked-in generated code (`./gen/…` is
 *   generated-example/gen). Blocks marked ```ts fragment are excerpts: skipped, and counted.
 * - `npm run <script>` (in shell blocks and inline code) names a script of package.json,
 *   runtime/package.json or the starter project `init` writes; `npx protoc-gen-a2a <command>`
 *   a command the CLI has.
 * - Relative links resolve: files exist, `#anchors` are headings of the page they point to.
 * The API reference (`npm run docs:api`) is checked by test/repo/docs-api.test.ts.
 */
import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../support/repo-root.js";

const checkDir = join(repoRoot, "node_modules", ".cache", "docs-check");

/** The pages checked, relative to the repository root. */
const pages: string[] = [
  "README.md",
  "CONTRIBUTING.md",
  "runtime/README.md",
  ...readdirSync(join(repoRoot, "docs"))
    .filter((f) => f.endsWith(".md"))
    .sort()
    .map((f) => `docs/${f}`),
];

interface Block {
  readonly page: string;
  /** 1-based line of the block's first content line in the page. */
  readonly line: number;
  readonly lang: string;
  readonly flags: readonly string[];
  readonly code: string;
}

/** The fenced code blocks of a page (also those indented in list items). */
function blocksOf(page: string, text: string): Block[] {
  const lines = text.split("\n");
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,})(.*)$/.exec(lines[i]!);
    if (open === null) continue;
    const [, indent = "", fence = "```", info = ""] = open;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !lines[j]!.trimStart().startsWith(fence); j++)
      body.push(lines[j]!.startsWith(indent) ? lines[j]!.slice(indent.length) : lines[j]!);
    const [lang = "", ...flags] = info.trim().split(/\s+/);
    blocks.push({ page, line: i + 2, lang, flags, code: body.join("\n") });
    i = j;
  }
  return blocks;
}

/** A page's text outside code blocks and inline code, for links. */
function proseOf(text: string): string {
  return text.replace(/^(\s*)(`{3,})[^\n]*\n[\s\S]*?^\s*\2\s*$/gm, "").replace(/`[^`\n]*`/g, "");
}

/** GitHub's anchor for a heading. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/<[^>]*>/g, "")
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const m of proseOf(text).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(m[1]!.replace(/`/g, ""));
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

const texts = new Map(pages.map((p) => [p, readFileSync(join(repoRoot, p), "utf8")]));
const blocks = pages.flatMap((p) => blocksOf(p, texts.get(p)!));
const isTs = (b: Block) => ["ts", "typescript", "tsx"].includes(b.lang);
const isShell = (b: Block) => ["sh", "bash", "shell", "console"].includes(b.lang);

describe("documentation", () => {
  it("keeps the README's two set-up commands", () => {
    const readme = texts.get("README.md")!;
    expect(readme).toContain("npm ci && npm run generate && npm run example");
    expect(readme).toContain("npm run setup:browser && npm test");
  });

  it("has only known info strings on its code blocks", () => {
    const known = new Set([
      "ts",
      "typescript",
      "sh",
      "bash",
      "shell",
      "console",
      "json",
      "yaml",
      "",
      "text",
    ]);
    const odd = blocks
      .filter((b) => !known.has(b.lang) || b.flags.some((f) => f !== "fragment"))
      .map((b) => `${b.page}:${b.line - 1}: \`\`\`${b.lang} ${b.flags.join(" ")}`);
    expect(odd).toEqual([]);
  });

  it("type-checks its TypeScript blocks against the runtime and the generated example", () => {
    const checked = blocks.filter((b) => isTs(b) && !b.flags.includes("fragment"));
    const fragments = blocks.filter((b) => isTs(b) && b.flags.includes("fragment"));
    console.log(
      `docs: ${checked.length} TypeScript blocks type-checked, ${fragments.length} fragments skipped`,
    );
    expect(checked.length).toBeGreaterThan(0);

    rmSync(checkDir, { recursive: true, force: true });
    mkdirSync(checkDir, { recursive: true });
    symlinkSync(join(repoRoot, "generated-example", "gen"), join(checkDir, "gen"), "dir");
    writeFileSync(
      join(checkDir, "package.json"),
      `${JSON.stringify({ private: true, type: "module" })}\n`,
    );
    const files = new Map<string, Block>();
    for (const b of checked) {
      const name = `${b.page.replace(/[/.]/g, "-")}-L${b.line}.ts`;
      files.set(name, b);
      // `export {}` keeps every block a module of its own (top-level await, no shared globals).
      writeFileSync(join(checkDir, name), `${b.code}\nexport {};\n`);
    }
    // As strict as the tsconfig `init` writes, with the runtime resolved to its sources (as tsconfig.json does).
    const tsconfig = {
      compilerOptions: {
        target: "ES2022",
        lib: ["ES2023"],
        module: "NodeNext",
        moduleResolution: "NodeNext",
        types: ["node"],
        strict: true,
        exactOptionalPropertyTypes: true,
        noUncheckedIndexedAccess: true,
        noImplicitOverride: true,
        isolatedModules: true,
        skipLibCheck: true,
        noEmit: true,
        customConditions: ["@protoc-gen-a2a/source"],
      },
      files: [...files.keys()],
    };
    writeFileSync(join(checkDir, "tsconfig.json"), `${JSON.stringify(tsconfig, null, 2)}\n`);
    let output = "";
    try {
      execFileSync(
        process.execPath,
        [
          join(repoRoot, "node_modules", "typescript", "bin", "tsc"),
          "-p",
          join(checkDir, "tsconfig.json"),
          "--pretty",
          "false",
        ],
        {
          cwd: checkDir,
          encoding: "utf8",
          stdio: "pipe",
        },
      );
    } catch (e) {
      output = String((e as { stdout?: string }).stdout ?? e);
    }
    // Errors point at the page and line they come from.
    const errors = output
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => {
        const m = /^(.*?)\((\d+),(\d+)\): (.*)$/.exec(l);
        const block =
          m === null ? undefined : files.get(relative(checkDir, resolve(checkDir, m[1]!)));
        return block === undefined || m === null
          ? l
          : `${block.page}:${block.line + Number(m[2]) - 1}:${m[3]}: ${m[4]}`;
      });
    expect(errors).toEqual([]);
  }, 300_000);

  it("names only npm scripts and protoc-gen-a2a commands that exist", () => {
    const scriptsOf = (path: string) =>
      Object.keys(
        (
          JSON.parse(readFileSync(join(repoRoot, path), "utf8")) as {
            scripts?: Record<string, string>;
          }
        ).scripts ?? {},
      );
    // The starter project's scripts, as `init` adds them.
    const init = readFileSync(join(repoRoot, "plugin/src/init/init-command.ts"), "utf8");
    const starter = [
      ...(/const SCRIPTS[^=]*=\s*\{([^}]*)\}/.exec(init)?.[1] ?? "").matchAll(/(\w[\w:-]*)\s*:/g),
    ].map((m) => m[1]!);
    expect(starter).toEqual(expect.arrayContaining(["generate", "build", "start"]));
    const scripts = new Set([
      ...scriptsOf("package.json"),
      ...scriptsOf("runtime/package.json"),
      ...starter,
    ]);
    const cli = readFileSync(join(repoRoot, "plugin/src/cli.ts"), "utf8");
    const commands = new Set([...cli.matchAll(/command === "([a-z-]+)"/g)].map((m) => m[1]!));
    expect([...commands]).toEqual(
      expect.arrayContaining(["init", "diff", "check-generated", "scaffold-binding"]),
    );

    const unknown: string[] = [];
    let named = 0;
    const check = (page: string, text: string) => {
      for (const m of text.matchAll(/\bnpm run(?:-script)? ([\w:.-]+)/g)) {
        named++;
        if (!scripts.has(m[1]!)) unknown.push(`${page}: npm run ${m[1]}`);
      }
      for (const m of text.matchAll(/\bnpx protoc-gen-a2a ([a-z-]+)/g)) {
        named++;
        if (!commands.has(m[1]!)) unknown.push(`${page}: npx protoc-gen-a2a ${m[1]}`);
      }
    };
    for (const b of blocks.filter(isShell)) check(`${b.page}:${b.line}`, b.code);
    for (const [page, text] of texts)
      for (const m of text.matchAll(/`([^`\n]*)`/g)) check(page, m[1]!);
    console.log(
      `docs: ${blocks.filter(isShell).length} shell blocks; ${named} npm scripts and protoc-gen-a2a commands named, all checked`,
    );
    expect(unknown).toEqual([]);
  });

  it("links only to files and headings that exist", () => {
    const broken: string[] = [];
    let count = 0;
    for (const [page, text] of texts) {
      for (const m of proseOf(text).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
        const target = m[1]!;
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
        count++;
        const [path = "", anchor] = target.split("#");
        const file =
          path === ""
            ? join(repoRoot, page)
            : resolve(dirname(join(repoRoot, page)), decodeURIComponent(path));
        if (!existsSync(file)) {
          broken.push(`${page}: ${target} (no such file)`);
          continue;
        }
        if (anchor === undefined) continue;
        if (statSync(file).isDirectory() || !file.endsWith(".md")) {
          broken.push(`${page}: ${target} (an anchor into a file that is not Markdown)`);
          continue;
        }
        if (!anchorsOf(readFileSync(file, "utf8")).has(anchor))
          broken.push(`${page}: ${target} (no such heading)`);
      }
    }
    console.log(`docs: ${pages.length} pages, ${count} relative links checked`);
    expect(broken).toEqual([]);
  });

  it("lists every entry point of the runtime package in runtime/README.md", () => {
    const exports = Object.keys(
      (
        JSON.parse(readFileSync(join(repoRoot, "runtime/package.json"), "utf8")) as {
          exports: Record<string, unknown>;
        }
      ).exports,
    );
    const listed = new Set(
      [
        ...texts.get("runtime/README.md")!.matchAll(/^\| `(@protoc-gen-a2a\/runtime[^`]*)` \|/gm),
      ].map((m) => m[1]!),
    );
    const missing = exports
      .filter((e) => e !== "./package.json")
      .map((e) => `@protoc-gen-a2a/runtime${e.slice(1)}`)
      .filter((e) => !listed.has(e));
    expect(missing).toEqual([]);
  });

  it("marks the benchmark table for its next update", () => {
    expect(texts.get("docs/benchmarks.md")!.match(/^<!-- bench-table -->$/gm)).toHaveLength(2);
  });
});
