// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * `protoc-gen-a2a init [dir] [--force]`: turns a folder into an A2A agent project. Writes
 * the normative a2a.proto (with its license and source note) and the google/api and
 * google/rpc protos it needs, buf.yaml and buf.gen.yaml for `buf generate`, a strict
 * tsconfig.json and a starter agent (src/agent.ts) on all three bindings; adds the npm
 * scripts it uses (`generate`, `build`, `start`) and `"type": "module"` to package.json.
 * Existing files are kept unless `--force`; every action is reported on one line.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import Handlebars from "handlebars";
import { templatesDir } from "../templates-dir.js";
import { version } from "../version.js";

/** The files of the package copied as they are: (package path, project path). */
const COPIED: readonly (readonly [string, string])[] = [
  ["proto/a2a.proto", "proto/a2a.proto"],
  ["proto/LICENSE", "proto/LICENSE"],
  ["proto/SOURCE.md", "proto/SOURCE.md"],
  ...["annotations", "client", "field_behavior", "http", "launch_stage"].map(
    (n) =>
      [
        `third_party/googleapis/google/api/${n}.proto`,
        `third_party/googleapis/google/api/${n}.proto`,
      ] as const,
  ),
  ...["status", "error_details"].map(
    (n) =>
      [
        `third_party/googleapis/google/rpc/${n}.proto`,
        `third_party/googleapis/google/rpc/${n}.proto`,
      ] as const,
  ),
  ["third_party/googleapis/LICENSE", "third_party/googleapis/LICENSE"],
];

/** The skeletons rendered from templates/starter: (template, project path). */
const RENDERED: readonly (readonly [string, string])[] = [
  ["starter/buf.yaml.hbs", "buf.yaml"],
  ["starter/buf.gen.yaml.hbs", "buf.gen.yaml"],
  ["starter/tsconfig.json.hbs", "tsconfig.json"],
  ["starter/agent.ts.hbs", "src/agent.ts"],
];

/** The npm scripts the starter relies on. */
const SCRIPTS: Readonly<Record<string, string>> = {
  generate: "buf generate",
  build: "tsc",
  start: "node dist/agent.js",
};

export interface InitResult {
  readonly lines: string[];
  readonly ok: boolean;
}

/** The package's root (where proto/ and templates/ ship), from the templates folder. */
const packageRoot = (): string => dirname(templatesDir());

export function runInit(args: readonly string[], cwd = process.cwd()): InitResult {
  const force = args.includes("--force");
  const unknown = args.filter((a) => a.startsWith("-") && a !== "--force");
  if (unknown.length > 0)
    return {
      ok: false,
      lines: [
        `protoc-gen-a2a init: unknown option ${unknown.join(", ")} (usage: protoc-gen-a2a init [dir] [--force])`,
      ],
    };
  const dirs = args.filter((a) => !a.startsWith("-"));
  if (dirs.length > 1)
    return {
      ok: false,
      lines: [
        "protoc-gen-a2a init: one folder at most (usage: protoc-gen-a2a init [dir] [--force])",
      ],
    };
  const root = resolve(cwd, dirs[0] ?? ".");
  const lines: string[] = [];
  const shown = (p: string) => relative(cwd, join(root, p)) || ".";
  const write = (path: string, content: string) => {
    const target = join(root, path);
    if (existsSync(target) && !force) {
      lines.push(`kept    ${shown(path)} (exists; --force overwrites)`);
      return;
    }
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, content);
    lines.push(`wrote   ${shown(path)}`);
  };

  for (const [from, to] of COPIED) write(to, readFileSync(join(packageRoot(), from), "utf8"));
  const hb = Handlebars.create();
  const view = {
    pluginVersion: `protoc-gen-a2a ${version}`,
    name: basename(root).replace(/["\\]/g, ""),
    genDir: "src/gen",
  };
  for (const [template, to] of RENDERED) {
    const source = readFileSync(join(templatesDir(), template), "utf8");
    write(to, hb.compile(source, { noEscape: true, strict: true })(view));
  }
  lines.push(
    ...updatePackageJson(join(root, "package.json"), shown("package.json"), basename(root)),
  );
  lines.push("", "next:", ...nextSteps(join(root, "package.json"), root));
  return { ok: true, lines };
}

/** What the starter needs at run time and to build, by package name. */
const RUNTIME_DEPENDENCIES = [
  "@protoc-gen-a2a/runtime",
  "@bufbuild/protobuf",
  "@connectrpc/connect",
  "@connectrpc/connect-node",
  "@grpc/grpc-js",
];
const DEV_DEPENDENCIES = [
  "protoc-gen-a2a",
  "@bufbuild/protoc-gen-es",
  "@bufbuild/buf",
  "typescript",
  "@types/node",
];

/**
 * The commands left to run: installs of the packages package.json does not list yet (none when the project
 * has them all), then generate, build, start. Where protoc-gen-a2a came from a tarball or a folder
 * (`file:` in package.json), the runtime is named the same way (its tarball beside it, or the folder's
 * `runtime/`), not by a registry version that may not exist there.
 */
function nextSteps(packageJson: string, root: string): string[] {
  let listed: Record<string, string> = {};
  try {
    const pkg = JSON.parse(readFileSync(packageJson, "utf8")) as Record<string, unknown>;
    for (const key of ["dependencies", "devDependencies"]) {
      const deps = pkg[key];
      if (typeof deps === "object" && deps !== null)
        listed = { ...listed, ...(deps as Record<string, string>) };
    }
  } catch {
    // Not JSON (reported above): every package is listed as missing.
  }
  const runtimeSpec = runtimeSpecifier(listed["protoc-gen-a2a"], root);
  const missing = (names: readonly string[]) => names.filter((n) => !Object.hasOwn(listed, n));
  const spec = (name: string) =>
    name === "@protoc-gen-a2a/runtime"
      ? runtimeSpec
      : name === "protoc-gen-a2a"
        ? `protoc-gen-a2a@${version}`
        : name;
  const steps: string[] = [];
  const runtime = missing(RUNTIME_DEPENDENCIES);
  const dev = missing(DEV_DEPENDENCIES);
  if (runtime.length > 0) steps.push(`  npm install ${runtime.map(spec).join(" ")}`);
  if (dev.length > 0) steps.push(`  npm install --save-dev ${dev.map(spec).join(" ")}`);
  steps.push("  npm run generate && npm run build && npm start");
  return steps;
}

/** How to install the runtime that goes with the protoc-gen-a2a of `pluginSpec` (package.json's specifier, if any). */
function runtimeSpecifier(pluginSpec: string | undefined, root: string): string {
  const registry = `@protoc-gen-a2a/runtime@${version}`;
  if (pluginSpec === undefined || !pluginSpec.startsWith("file:")) return registry;
  const path = resolve(root, pluginSpec.slice("file:".length));
  if (path.endsWith(".tgz")) {
    const tarball = join(dirname(path), `protoc-gen-a2a-runtime-${version}.tgz`);
    return existsSync(tarball) ? relativeSpec(root, tarball) : registry;
  }
  const folder = join(path, "runtime");
  return existsSync(join(folder, "package.json")) ? relativeSpec(root, folder) : registry;
}

/** A path as npm install takes it from the project folder (`./x` or `../x`). */
function relativeSpec(root: string, path: string): string {
  const rel = relative(root, path);
  return rel.startsWith(".") ? rel : `./${rel}`;
}

/** Adds the starter's scripts (those not there yet) and `"type": "module"`; creates the file when missing. */
function updatePackageJson(path: string, shown: string, name: string): string[] {
  if (!existsSync(path)) {
    writeFileSync(
      path,
      `${JSON.stringify({ name: name.toLowerCase().replace(/[^a-z0-9._-]+/g, "-"), version: "0.1.0", private: true, type: "module", scripts: SCRIPTS }, null, 2)}\n`,
    );
    return [`wrote   ${shown}`];
  }
  let pkg: Record<string, unknown>;
  try {
    pkg = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
  } catch (e) {
    return [
      `kept    ${shown} (not JSON: ${e instanceof Error ? e.message : String(e)}); add "type": "module" and the scripts ${JSON.stringify(SCRIPTS)} yourself`,
    ];
  }
  const lines: string[] = [];
  const scripts = (
    typeof pkg["scripts"] === "object" && pkg["scripts"] !== null ? pkg["scripts"] : {}
  ) as Record<string, string>;
  const added = Object.entries(SCRIPTS).filter(([k]) => scripts[k] === undefined);
  for (const [k, v] of added) scripts[k] = v;
  const kept = Object.keys(SCRIPTS).filter(
    (k) => !added.some(([a]) => a === k) && scripts[k] !== SCRIPTS[k],
  );
  pkg["scripts"] = scripts;
  if (pkg["type"] !== "module") {
    // The generated code and the runtime are ES modules (and tsconfig's NodeNext emits what "type" says).
    if (pkg["type"] === "commonjs")
      lines.push(
        `note    ${shown}: "type" was "commonjs"; set to "module" (the generated code and the runtime are ES modules)`,
      );
    pkg["type"] = "module";
  }
  writeFileSync(path, `${JSON.stringify(pkg, null, 2)}\n`);
  lines.unshift(
    `updated ${shown} (type: module${added.length > 0 ? `; scripts ${added.map(([k]) => k).join(", ")}` : ""})`,
  );
  for (const k of kept)
    lines.push(`note    ${shown}: kept your script "${k}" (the starter's is "${SCRIPTS[k]}")`);
  return lines;
}
