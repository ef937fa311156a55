import { readFileSync } from "node:fs";
import { join } from "node:path";
import { create, fromBinary } from "@bufbuild/protobuf";
import {
  CodeGeneratorRequestSchema,
  FileDescriptorSetSchema,
  type CodeGeneratorResponse,
  type FileDescriptorProto,
} from "@bufbuild/protobuf/wkt";
import { protocGenA2a } from "../../plugin/src/protoc-gen-a2a-plugin.js";
import { repoRoot } from "./repo-root.js";

export { repoRoot };

/** The checked-in descriptor fixtures (`npm run fixtures`, i.e. `buf build -o`). */
export const fixtures = {
  a2a: { set: "test/fixtures/a2a.binpb", file: "a2a.proto" },
  library: { set: "test/fixtures/library.binpb", file: "demo/v1/library.proto" },
} as const;

/** Loads a fixture's FileDescriptorProtos (a fresh copy every call, so tests may mutate them). */
export function loadFixture(name: keyof typeof fixtures): FileDescriptorProto[] {
  const bytes = readFileSync(join(repoRoot, fixtures[name].set));
  return fromBinary(FileDescriptorSetSchema, bytes).file;
}

export interface PluginRun {
  readonly response: CodeGeneratorResponse;
  /** Generated files by name. */
  readonly files: ReadonlyMap<string, string>;
}

/** Runs protoc-gen-a2a in-process on a fixture, like buf does over stdin/stdout. */
export function runPlugin(
  name: keyof typeof fixtures,
  parameter = "target=ts,import_extension=js",
  mutate?: (files: FileDescriptorProto[]) => void,
): PluginRun {
  const protoFile = loadFixture(name);
  mutate?.(protoFile);
  const request = create(CodeGeneratorRequestSchema, {
    fileToGenerate: [fixtures[name].file],
    protoFile,
    parameter,
  });
  const response = protocGenA2a.run(request);
  return { response, files: new Map(response.file.map((f) => [f.name, f.content])) };
}

/** The content of one generated file, failing clearly when it is missing. */
export function fileOf(run: PluginRun, name: string): string {
  const content = run.files.get(name);
  if (content === undefined)
    throw new Error(`no generated file ${name}; got ${[...run.files.keys()].join(", ")}`);
  return content;
}
