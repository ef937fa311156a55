/**
 * A throwaway agent project for tests of the commands users run in theirs: proto/a2a.proto (maybe
 * changed), the google protos, buf.yaml, a buf.gen.yaml running protoc-gen-es and the bundled
 * protoc-gen-a2a into src/gen, generated with `buf generate`, plus `image.binpb` (`buf build`).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { repoRoot } from "./plugin-runner.js";
import { bufGenTemplate } from "./buf-gen-template.js";

const buf = join(repoRoot, "node_modules/.bin/buf");

/** An agent project: proto/ (a2a.proto, maybe changed), buf.yaml, buf.gen.yaml, `buf generate` into src/gen. */
export function project(
  root: string,
  name: string,
  editProto: (proto: string) => string = (p) => p,
): string {
  const dir = join(root, name);
  mkdirSync(join(dir, "proto"), { recursive: true });
  writeFileSync(
    join(dir, "proto/a2a.proto"),
    editProto(readFileSync(join(repoRoot, "proto/a2a.proto"), "utf8")),
  );
  writeProjectFiles(dir);
  regenerate(dir);
  return dir;
}

/** Where {@link projectFrom} generates to, and protoc-gen-a2a's options there. */
export interface ProjectLayout {
  /** The output folder, relative to the project. Default `src/gen`. */
  readonly out?: string;
  /** protoc-gen-a2a's `opt:`. Default: `import_extension=js`, no JSON documents. */
  readonly options?: readonly string[];
  /** Also A2A 0.3's proto (the repository's proto/v0_3/), generated in the same request, as generated-example is. */
  readonly withV03?: boolean;
}

/**
 * An agent project whose proto/ is a copy of `protoDir` (e.g. a folder of test/fixtures/proto-history),
 * not generated yet: run {@link generate} (which reports failures) or {@link regenerate}.
 */
export function projectFrom(
  root: string,
  name: string,
  protoDir: string,
  layout: ProjectLayout = {},
): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  cpSync(protoDir, join(dir, "proto"), {
    recursive: true,
    filter: (source) => !source.endsWith(".md"),
  });
  if (layout.withV03 === true)
    cpSync(join(repoRoot, "proto/v0_3/a2a.proto"), join(dir, "proto/v0_3/a2a.proto"));
  writeProjectFiles(dir, layout);
  return dir;
}

/** `buf generate` in a project, without throwing: its exit status and stderr. */
export function generate(dir: string): { status: number | null; stderr: string } {
  const result = spawnSync(buf, ["generate"], { cwd: dir, encoding: "utf8" });
  return { status: result.status, stderr: result.stderr };
}

/** third_party/googleapis, buf.yaml and buf.gen.yaml (protoc-gen-es and the bundled protoc-gen-a2a into src/gen). */
function writeProjectFiles(dir: string, layout: ProjectLayout = {}): void {
  cpSync(join(repoRoot, "third_party/googleapis"), join(dir, "third_party/googleapis"), {
    recursive: true,
  });
  writeFileSync(
    join(dir, "buf.yaml"),
    "version: v2\nmodules:\n  - path: proto\n  - path: third_party/googleapis\n",
  );
  const out = relative(dir, join(dir, layout.out ?? "src/gen"));
  writeFileSync(
    join(dir, "buf.gen.yaml"),
    bufGenTemplate({
      clean: true,
      inputs: [
        "  - directory: proto",
        "  - directory: third_party/googleapis",
        "    paths: [third_party/googleapis/google/rpc/error_details.proto, third_party/googleapis/google/rpc/status.proto]",
      ],
      out,
      options: layout.options ?? [
        "import_extension=js",
        "json_schema=false",
        "openapi=none",
        "openrpc=false",
      ],
      allInOneRequest: layout.withV03 === true,
    }),
  );
}

export function regenerate(dir: string): void {
  execFileSync(buf, ["generate"], { cwd: dir, stdio: "pipe" });
  execFileSync(buf, ["build", "--path", "proto/a2a.proto", "-o", "image.binpb"], {
    cwd: dir,
    stdio: "pipe",
  });
}
