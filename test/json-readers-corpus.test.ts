/**
 * The generated ProtoJSON readers on protos beyond A2A: the corpus fixtures (well-known types, Any,
 * proto2 and editions, REQUIRED fields, awkward names) and Google APIs (Pub/Sub, Firestore, Secret
 * Manager, long-running operations), generated into a temporary folder. Same property as
 * json-readers.test.ts: a reader returns undefined or exactly the message fromJson builds (REQUIRED
 * table passed), and decodeRequest with the readers answers as without them.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import type { JsonValue, Registry } from "@bufbuild/protobuf";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import type { JsonReaderTable, PipelineErrorSpecs, RequirementTable } from "@protoc-gen-a2a/runtime";
import { bufGenTemplate } from "./support/buf-gen-template.js";
import { checkReader, mutatedJson, newTally, oddJson, randomMessageJson, type ReaderSuite } from "./support/json-reader-check.js";
import { repoRoot } from "./support/plugin-runner.js";

const buf = join(repoRoot, "node_modules/.bin/buf");
const gp = "node_modules/google-proto-files";
const GOOGLE_APIS = ["google/longrunning/operations.proto", "google/firestore/v1/firestore.proto", "google/cloud/secretmanager/v1/service.proto", "google/pubsub/v1/pubsub.proto"];
const FIXTURES = join(repoRoot, "test/fixtures/corpus");

mkdirSync(join(repoRoot, "test/.tmp"), { recursive: true });
const tmp = mkdtempSync(join(repoRoot, "test/.tmp/json-readers-corpus-"));
const out = join(tmp, "out");

function generate(name: string, inputs: readonly string[]): void {
  const template = join(tmp, `${name}.gen.yaml`);
  writeFileSync(template, bufGenTemplate({ inputs, out: relative(repoRoot, out), options: ["import_extension=js", "bindings=jsonrpc+rest"] }));
  const run = spawnSync(buf, ["generate", "--template", template], { cwd: repoRoot, encoding: "utf8" });
  if (run.status !== 0) throw new Error(`buf generate (${name}) failed: ${run.stderr}`);
}

generate("google", [`  - directory: ${gp}`, `    paths: [${GOOGLE_APIS.map((p) => `${gp}/${p}`).join(", ")}]`]);
if (existsSync(FIXTURES)) {
  const protos = join(tmp, "protos");
  cpSync(join(repoRoot, gp, "google/api"), join(protos, "google/api"), { recursive: true });
  cpSync(FIXTURES, protos, { recursive: true });
  const rel = relative(repoRoot, protos);
  const dirs = readdirSync(FIXTURES, { withFileTypes: true }).filter((d) => d.isDirectory());
  generate("fixtures", [`  - directory: ${rel}`, `    paths: [${dirs.map((d) => `${rel}/${d.name}`).join(", ")}]`]);
}

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

interface ReaderCase {
  readonly label: string;
  readonly typeName: string;
  readonly suite: ReaderSuite;
}

const cases: ReaderCase[] = [];
for (const file of readdirSync(out, { recursive: true, encoding: "utf8" })
  .filter((f) => f.endsWith("_a2a_json.ts"))
  .sort()) {
  const base = file.slice(0, -"_a2a_json.ts".length);
  const json = (await import(pathToFileURL(join(out, file)).href)) as Record<string, unknown>;
  const handler = (await import(pathToFileURL(join(out, `${base}_a2a_handler.ts`)).href)) as Record<string, unknown>;
  const errors = ((await import(pathToFileURL(join(out, `${base}_a2a_errors.ts`)).href)) as Record<string, unknown>)["errorSpecs"] as PipelineErrorSpecs;
  for (const key of Object.keys(json).sort()) {
    if (!key.endsWith("RequestJsonReaders")) continue;
    const service = key.slice(0, -"RequestJsonReaders".length);
    const suite: ReaderSuite = {
      label: `${base}.proto ${service}`,
      readers: json[key] as JsonReaderTable,
      requestFields: handler[`${service}RequiredFields`] as RequirementTable,
      registry: handler["typeRegistry"] as Registry,
      errors,
    };
    for (const typeName of Object.keys(suite.readers)) cases.push({ label: suite.label, typeName, suite });
  }
}

const total = newTally();

describe("generated ProtoJSON readers on the corpus and Google APIs", () => {
  it("are generated for the corpus services", () => {
    expect(cases.length).toBeGreaterThan(20);
  });

  it.each(cases.map((c) => [`${c.label}: ${c.typeName}`, c] as const))("%s", (_label, c) => {
    const schema = c.suite.registry.getMessage(c.typeName);
    expect(schema, c.typeName).toBeDefined();
    const tally = newTally();
    const inputs = fc.oneof(
      randomMessageJson(schema!, c.suite.registry).filter((j): j is JsonValue => j !== undefined),
      mutatedJson(schema!),
      oddJson(schema!, c.suite.registry),
    );
    fc.assert(
      fc.property(inputs, (json) => checkReader(c.suite, schema!, json, tally)),
      { numRuns: 80 },
    );
    total.inputs += tally.inputs;
    total.referenceAccepted += tally.referenceAccepted;
    total.readerAccepted += tally.readerAccepted;
  });

  it("read a good share of what fromJson accepts themselves (run after the cases above)", () => {
    console.log(`json-readers corpus: ${total.inputs} inputs, ${total.referenceAccepted} accepted by fromJson, ${total.readerAccepted} read by the readers`);
    expect(total.referenceAccepted).toBeGreaterThan(1000);
    expect(total.readerAccepted).toBeGreaterThan(total.referenceAccepted / 3);
  });
});
