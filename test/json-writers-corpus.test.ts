/**
 * The generated ProtoJSON writers on protos beyond A2A: the corpus fixtures (well-known types,
 * Any, proto2, REQUIRED fields, awkward names) and Google APIs (Pub/Sub, Firestore, Secret
 * Manager, long-running operations), generated into a temporary folder. Same property as
 * json-writers.test.ts: byte-identical text where the reflective path writes, a refusal where it
 * refuses, and through `encodeMessageText` its own error.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import type { Registry } from "@bufbuild/protobuf";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { encodeMessage, encodeMessageText, type JsonTextWriterTable, type RequirementTable } from "@protoc-gen-a2a/runtime";
import { bufGenTemplate } from "./support/buf-gen-template.js";
import { repoRoot } from "./support/plugin-runner.js";
import { randomMessage } from "./support/proto-message-arbitrary.js";

const buf = join(repoRoot, "node_modules/.bin/buf");
const gp = "node_modules/google-proto-files";
const GOOGLE_APIS = ["google/longrunning/operations.proto", "google/firestore/v1/firestore.proto", "google/cloud/secretmanager/v1/service.proto", "google/pubsub/v1/pubsub.proto"];
const FIXTURES = join(repoRoot, "test/fixtures/corpus");

mkdirSync(join(repoRoot, "test/.tmp"), { recursive: true });
const tmp = mkdtempSync(join(repoRoot, "test/.tmp/json-writers-corpus-"));
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

interface WriterCase {
  readonly label: string;
  readonly typeName: string;
  readonly writers: JsonTextWriterTable;
  readonly responseFields: RequirementTable;
  readonly registry: Registry;
}

const cases: WriterCase[] = [];
for (const file of readdirSync(out, { recursive: true, encoding: "utf8" })
  .filter((f) => f.endsWith("_a2a_json.ts"))
  .sort()) {
  const base = file.slice(0, -"_a2a_json.ts".length);
  const json = (await import(pathToFileURL(join(out, file)).href)) as Record<string, unknown>;
  const handler = (await import(pathToFileURL(join(out, `${base}_a2a_handler.ts`)).href)) as Record<string, unknown>;
  for (const key of Object.keys(json).sort()) {
    if (!key.endsWith("ResponseJsonWriters")) continue;
    const service = key.slice(0, -"ResponseJsonWriters".length);
    const writers = json[key] as JsonTextWriterTable;
    for (const typeName of Object.keys(writers)) {
      cases.push({ label: `${base}.proto ${service}`, typeName, writers, responseFields: handler[`${service}ResponseFields`] as RequirementTable, registry: handler["typeRegistry"] as Registry });
    }
  }
}

type Verdict = { readonly text: string } | { readonly error: string };

function verdict(run: () => string): Verdict {
  try {
    return { text: run() };
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

describe("generated ProtoJSON writers on the corpus and Google APIs", () => {
  it("are generated for every corpus service with responses", () => {
    expect(cases.length).toBeGreaterThan(20);
  });

  it.each(cases.map((c) => [`${c.label}: ${c.typeName}`, c] as const))("%s", (_label, c) => {
    const schema = c.registry.getMessage(c.typeName);
    expect(schema, c.typeName).toBeDefined();
    fc.assert(
      fc.property(randomMessage(schema!), (message) => {
        const reference = verdict(() => JSON.stringify(encodeMessage(schema!, message, c.responseFields, c.registry)));
        const direct = verdict(() => c.writers[c.typeName]!(message, c.registry));
        if ("text" in reference) expect(direct).toEqual(reference);
        else expect("error" in direct).toBe(true);
        expect(verdict(() => encodeMessageText(schema!, message, c.responseFields, c.registry, c.writers))).toEqual(reference);
      }),
      { numRuns: 60 },
    );
  });
});
