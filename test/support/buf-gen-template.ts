/**
 * The buf.gen.yaml the generation tests run: protoc-gen-es (target=ts, imports included) and the
 * bundled protoc-gen-a2a (`npm run build`) into one output folder. Plugin paths are absolute, so
 * the template works from any working directory.
 */
import { join } from "node:path";
import { repoRoot } from "./plugin-runner.js";

export interface BufGenTemplate {
  /** The `inputs:` entries, as YAML lines (e.g. `  - directory: proto`). */
  readonly inputs: readonly string[];
  /** The output folder, as buf should read it (relative to buf's working directory, or absolute). */
  readonly out: string;
  /** protoc-gen-a2a's options. */
  readonly options: readonly string[];
  /** `clean: true` (buf empties the output folder first). */
  readonly clean?: boolean;
  /** protoc-gen-a2a gets all protos in one request (`strategy: all`: A2A 0.3's proto beside a2a.proto). */
  readonly allInOneRequest?: boolean;
}

/** The text of a buf.gen.yaml (v2). */
export function bufGenTemplate(template: BufGenTemplate): string {
  return [
    "version: v2",
    ...(template.clean === true ? ["clean: true"] : []),
    "inputs:",
    ...template.inputs,
    "plugins:",
    `  - local: ["node", "${join(repoRoot, "node_modules/@bufbuild/protoc-gen-es/bin/protoc-gen-es")}"]`,
    `    out: ${template.out}`,
    "    opt: [target=ts, import_extension=js]",
    "    include_imports: true",
    `  - local: ["node", "${join(repoRoot, "plugin/bin/protoc-gen-a2a")}"]`,
    `    out: ${template.out}`,
    `    opt: [${template.options.join(", ")}]`,
    ...(template.allInOneRequest === true ? ["    strategy: all"] : []),
    "",
  ].join("\n");
}
