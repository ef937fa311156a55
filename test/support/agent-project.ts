/**
 * A throwaway agent project for tests of the commands users run in theirs: proto/a2a.proto (maybe
 * changed), the google protos, buf.yaml, a buf.gen.yaml running protoc-gen-es and the bundled
 * protoc-gen-a2a into src/gen, generated with `buf generate`, plus `image.binpb` (`buf build`).
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { repoRoot } from "./plugin-runner.js";

const buf = join(repoRoot, "node_modules/.bin/buf");

/** An agent project: proto/ (a2a.proto, maybe changed), buf.yaml, buf.gen.yaml, `buf generate` into src/gen. */
export function project(root: string, name: string, editProto: (proto: string) => string = (p) => p): string {
  const dir = join(root, name);
  mkdirSync(join(dir, "proto"), { recursive: true });
  writeFileSync(join(dir, "proto/a2a.proto"), editProto(readFileSync(join(repoRoot, "proto/a2a.proto"), "utf8")));
  cpSync(join(repoRoot, "third_party/googleapis"), join(dir, "third_party/googleapis"), { recursive: true });
  writeFileSync(join(dir, "buf.yaml"), "version: v2\nmodules:\n  - path: proto\n  - path: third_party/googleapis\n");
  const out = relative(dir, join(dir, "src/gen"));
  writeFileSync(
    join(dir, "buf.gen.yaml"),
    [
      "version: v2",
      "clean: true",
      "inputs:",
      "  - directory: proto",
      "  - directory: third_party/googleapis",
      "    paths: [third_party/googleapis/google/rpc/error_details.proto, third_party/googleapis/google/rpc/status.proto]",
      "plugins:",
      `  - local: ["node", "${join(repoRoot, "node_modules/@bufbuild/protoc-gen-es/bin/protoc-gen-es")}"]`,
      `    out: ${out}`,
      "    opt: [target=ts, import_extension=js]",
      "    include_imports: true",
      `  - local: ["node", "${join(repoRoot, "plugin/bin/protoc-gen-a2a")}"]`,
      `    out: ${out}`,
      "    opt: [import_extension=js, json_schema=false, openapi=none, openrpc=false]",
      "",
    ].join("\n"),
  );
  regenerate(dir);
  return dir;
}

export function regenerate(dir: string): void {
  execFileSync(buf, ["generate"], { cwd: dir, stdio: "pipe" });
  execFileSync(buf, ["build", "--path", "proto/a2a.proto", "-o", "image.binpb"], { cwd: dir, stdio: "pipe" });
}
