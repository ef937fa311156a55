/**
 * `protoc-gen-a2a init` (plugin/src/init/init-command.ts) in temporary folders: what it writes,
 * what it keeps, what it adds to package.json, and its errors. The whole path (install, init,
 * generate, build, run, call) is scripts/consumer-test.mjs, run by CI.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runInit } from "../../../plugin/src/init/init-command.js";
import { version as pluginVersion } from "../../../plugin/src/version.js";
import { repoRoot } from "../../support/plugin-runner.js";

const dirs: string[] = [];
const fresh = () => {
  const dir = mkdtempSync(join(tmpdir(), "a2a-init-"));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const WRITTEN = [
  "proto/a2a.proto",
  "proto/LICENSE",
  "proto/SOURCE.md",
  "third_party/googleapis/google/api/annotations.proto",
  "third_party/googleapis/google/api/client.proto",
  "third_party/googleapis/google/api/field_behavior.proto",
  "third_party/googleapis/google/api/http.proto",
  "third_party/googleapis/google/api/launch_stage.proto",
  "third_party/googleapis/google/rpc/status.proto",
  "third_party/googleapis/google/rpc/error_details.proto",
  "third_party/googleapis/LICENSE",
  "buf.yaml",
  "buf.gen.yaml",
  "tsconfig.json",
  "src/agent.ts",
];

describe("protoc-gen-a2a init", () => {
  it("writes the protos as shipped, buf and TypeScript config, a starter agent and package.json", () => {
    const dir = fresh();
    const result = runInit([], dir);
    expect(result.ok).toBe(true);
    expect(result.lines.slice(0, WRITTEN.length)).toEqual(WRITTEN.map((f) => `wrote   ${f}`));
    expect(readFileSync(join(dir, "proto/a2a.proto"), "utf8")).toBe(
      readFileSync(join(repoRoot, "proto/a2a.proto"), "utf8"),
    );
    expect(readFileSync(join(dir, "third_party/googleapis/google/api/http.proto"), "utf8")).toBe(
      readFileSync(join(repoRoot, "third_party/googleapis/google/api/http.proto"), "utf8"),
    );
    expect(readFileSync(join(dir, "buf.gen.yaml"), "utf8")).toContain("out: src/gen");
    expect(readFileSync(join(dir, "src/agent.ts"), "utf8")).toContain(
      `name: "${dir.split("/").pop()}"`,
    );
    expect(
      JSON.parse(readFileSync(join(dir, "tsconfig.json"), "utf8")).compilerOptions,
    ).toMatchObject({ strict: true, module: "NodeNext", exactOptionalPropertyTypes: true });
    expect(JSON.parse(readFileSync(join(dir, "package.json"), "utf8"))).toMatchObject({
      private: true,
      type: "module",
      scripts: { generate: "buf generate", build: "tsc", start: "node dist/agent.js" },
    });
    expect(result.lines).toContain("  npm run generate && npm run build && npm start");
  });

  it("names only the packages package.json lacks, the runtime by registry version in a new project", () => {
    const dir = fresh();
    const result = runInit([], dir);
    const next = result.lines.slice(result.lines.indexOf("next:") + 1);
    expect(next).toEqual([
      `  npm install @protoc-gen-a2a/runtime@${pluginVersion} @bufbuild/protobuf @connectrpc/connect @connectrpc/connect-node @grpc/grpc-js`,
      `  npm install --save-dev protoc-gen-a2a@${pluginVersion} @bufbuild/protoc-gen-es @bufbuild/buf typescript @types/node`,
      "  npm run generate && npm run build && npm start",
    ]);
  });

  it("names the runtime tarball beside protoc-gen-a2a's, or the runtime folder of a folder install, and nothing already installed", () => {
    const dir = fresh();
    const packs = join(dir, "packs");
    mkdirSync(packs);
    writeFileSync(join(packs, `protoc-gen-a2a-runtime-${pluginVersion}.tgz`), "");
    const project = join(dir, "agent");
    mkdirSync(project);
    const pkg = (
      devDependencies: Record<string, string>,
      dependencies: Record<string, string> = {},
    ) =>
      writeFileSync(
        join(project, "package.json"),
        JSON.stringify({ name: "agent", dependencies, devDependencies }),
      );
    pkg({
      "protoc-gen-a2a": `file:../packs/protoc-gen-a2a-${pluginVersion}.tgz`,
      typescript: "5.9.3",
    });
    let lines = runInit([], project).lines;
    expect(lines.slice(lines.indexOf("next:") + 1)).toEqual([
      `  npm install ../packs/protoc-gen-a2a-runtime-${pluginVersion}.tgz @bufbuild/protobuf @connectrpc/connect @connectrpc/connect-node @grpc/grpc-js`,
      "  npm install --save-dev @bufbuild/protoc-gen-es @bufbuild/buf @types/node",
      "  npm run generate && npm run build && npm start",
    ]);
    // A folder install (a clone): its runtime/ folder.
    pkg({ "protoc-gen-a2a": `file:${repoRoot}` });
    lines = runInit(["--force"], project).lines;
    expect(
      lines.find((l) => l.startsWith("  npm install @") || l.startsWith("  npm install .")),
    ).toBe(
      `  npm install ${relative(project, join(repoRoot, "runtime"))} @bufbuild/protobuf @connectrpc/connect @connectrpc/connect-node @grpc/grpc-js`,
    );
    // Everything installed: only the last step is left.
    const all = [
      "@protoc-gen-a2a/runtime",
      "@bufbuild/protobuf",
      "@connectrpc/connect",
      "@connectrpc/connect-node",
      "@grpc/grpc-js",
    ];
    pkg(
      Object.fromEntries(
        [
          "protoc-gen-a2a",
          "@bufbuild/protoc-gen-es",
          "@bufbuild/buf",
          "typescript",
          "@types/node",
        ].map((n) => [n, "*"]),
      ),
      Object.fromEntries(all.map((n) => [n, "*"])),
    );
    lines = runInit(["--force"], project).lines;
    expect(lines.slice(lines.indexOf("next:") + 1)).toEqual([
      "  npm run generate && npm run build && npm start",
    ]);
  });

  it("keeps what exists, unless --force", () => {
    const dir = fresh();
    runInit([], dir);
    writeFileSync(join(dir, "src/agent.ts"), "// mine\n");
    const again = runInit([], dir);
    expect(again.lines).toContain("kept    src/agent.ts (exists; --force overwrites)");
    expect(readFileSync(join(dir, "src/agent.ts"), "utf8")).toBe("// mine\n");
    runInit(["--force"], dir);
    expect(readFileSync(join(dir, "src/agent.ts"), "utf8")).not.toBe("// mine\n");
  });

  it("adds to an existing package.json: the missing scripts and type module, keeping the user's", () => {
    const dir = fresh();
    writeFileSync(
      join(dir, "package.json"),
      JSON.stringify({ name: "x", type: "commonjs", scripts: { build: "tsc -b", test: "vitest" } }),
    );
    const result = runInit([], dir);
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    expect(pkg).toMatchObject({
      name: "x",
      type: "module",
      scripts: {
        build: "tsc -b",
        test: "vitest",
        generate: "buf generate",
        start: "node dist/agent.js",
      },
    });
    expect(result.lines).toEqual(
      expect.arrayContaining([
        "updated package.json (type: module; scripts generate, start)",
        'note    package.json: "type" was "commonjs"; set to "module" (the generated code and the runtime are ES modules)',
        'note    package.json: kept your script "build" (the starter\'s is "tsc")',
      ]),
    );
  });

  it("writes into a folder it is given, relative paths shown from where it runs", () => {
    const dir = fresh();
    const result = runInit(["agent"], dir);
    expect(existsSync(join(dir, "agent/buf.yaml"))).toBe(true);
    expect(result.lines[0]).toBe("wrote   agent/proto/a2a.proto");
  });

  it.each([
    [
      ["--bogus"],
      "protoc-gen-a2a init: unknown option --bogus (usage: protoc-gen-a2a init [dir] [--force])",
    ],
    [
      ["a", "b"],
      "protoc-gen-a2a init: one folder at most (usage: protoc-gen-a2a init [dir] [--force])",
    ],
  ])("refuses %j with a usage line, writing nothing", (args, line) => {
    const dir = fresh();
    expect(runInit(args, dir)).toEqual({ ok: false, lines: [line] });
    expect(existsSync(join(dir, "proto"))).toBe(false);
  });
});
