/**
 * The corpus of the generated ProtoJSON readers' and writers' tests beyond A2A (json-readers-corpus and
 * json-writers-corpus): Google APIs (long-running operations, Firestore, Secret Manager, Pub/Sub) and the
 * corpus fixtures (well-known types, Any, proto2 and editions, REQUIRED fields, awkward names), generated with
 * the JSON bindings into a temporary folder, and the generated modules of each file, loaded.
 */
import { spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { bufGenTemplate } from "./buf-gen-template.js";
import { repoRoot } from "./plugin-runner.js";

const buf = join(repoRoot, "node_modules/.bin/buf");
const gp = "node_modules/google-proto-files";
const GOOGLE_APIS = [
  "google/longrunning/operations.proto",
  "google/firestore/v1/firestore.proto",
  "google/cloud/secretmanager/v1/service.proto",
  "google/pubsub/v1/pubsub.proto",
];
const FIXTURES = join(repoRoot, "test/fixtures/corpus");

/** The generated modules of one proto file of the corpus. */
export interface CorpusFile {
  /** The proto file's path without `.proto` (as the generated files are named). */
  readonly base: string;
  /** `<base>_a2a_json.ts`: the readers and writers. */
  readonly json: Record<string, unknown>;
  /** `<base>_a2a_handler.ts`: REQUIRED tables, the type registry. */
  readonly handler: Record<string, unknown>;
  /** `<base>_a2a_errors.ts`. */
  readonly errors: Record<string, unknown>;
}

/**
 * Generates the corpus into a new folder under test/.tmp (named after `name`) and loads the generated modules of
 * every file, sorted by path; `remove()` deletes the folder (call it in afterAll).
 */
export async function generateJsonCorpus(
  name: string,
): Promise<{ readonly files: CorpusFile[]; readonly remove: () => void }> {
  mkdirSync(join(repoRoot, "test/.tmp"), { recursive: true });
  const tmp = mkdtempSync(join(repoRoot, `test/.tmp/${name}-`));
  const out = join(tmp, "out");
  const generate = (label: string, inputs: readonly string[]) => {
    const template = join(tmp, `${label}.gen.yaml`);
    writeFileSync(
      template,
      bufGenTemplate({
        inputs,
        out: relative(repoRoot, out),
        options: ["import_extension=js", "bindings=jsonrpc+rest"],
      }),
    );
    const run = spawnSync(buf, ["generate", "--template", template], {
      cwd: repoRoot,
      encoding: "utf8",
    });
    if (run.status !== 0) throw new Error(`buf generate (${label}) failed: ${run.stderr}`);
  };
  generate("google", [
    `  - directory: ${gp}`,
    `    paths: [${GOOGLE_APIS.map((p) => `${gp}/${p}`).join(", ")}]`,
  ]);
  if (existsSync(FIXTURES)) {
    const protos = join(tmp, "protos");
    cpSync(join(repoRoot, gp, "google/api"), join(protos, "google/api"), { recursive: true });
    cpSync(FIXTURES, protos, { recursive: true });
    const rel = relative(repoRoot, protos);
    const dirs = readdirSync(FIXTURES, { withFileTypes: true }).filter((d) => d.isDirectory());
    generate("fixtures", [
      `  - directory: ${rel}`,
      `    paths: [${dirs.map((d) => `${rel}/${d.name}`).join(", ")}]`,
    ]);
  }
  const load = async (file: string) =>
    (await import(pathToFileURL(join(out, file)).href)) as Record<string, unknown>;
  const files: CorpusFile[] = [];
  for (const file of readdirSync(out, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith("_a2a_json.ts"))
    .sort()) {
    const base = file.slice(0, -"_a2a_json.ts".length);
    files.push({
      base,
      json: await load(file),
      handler: await load(`${base}_a2a_handler.ts`),
      errors: await load(`${base}_a2a_errors.ts`),
    });
  }
  return { files, remove: () => rmSync(tmp, { recursive: true, force: true }) };
}
