#!/usr/bin/env node
// bench/generate: wall time of code generation over proto/a2a.proto,
// protoc-gen-a2a against protoc-gen-es, measured in the same run (this machine is noisy,
// so runs are interleaved and the figures reported as medians and ratios).
//
//   npm run bench:generate [-- --runs 15] [--results file.json]
//
// Two views:
//   1. `buf generate` end to end with one plugin each (what a user waits for);
//   2. the plugin process alone on the same CodeGeneratorRequest (stdin → stdout), which
//      leaves out buf's own compile step.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { CodeGeneratorRequestSchema, FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";
import { writeResults } from "./lib/results.mjs";

const root = join(fileURLToPath(import.meta.url), "..", "..");
const runsArg = process.argv.indexOf("--runs");
const runs = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 11;
const resultsArg = process.argv.indexOf("--results");
const resultsFile = resultsArg > 0 ? process.argv[resultsArg + 1] : "";
const buf = join(root, "node_modules/.bin/buf");
const work = mkdtempSync(join(tmpdir(), "bench-generate-"));

const plugins = {
  "protoc-gen-es": {
    local: ["node", "node_modules/@bufbuild/protoc-gen-es/bin/protoc-gen-es"],
    opt: "[target=ts, import_extension=js]",
  },
  "protoc-gen-a2a": {
    local: ["node", "plugin/bin/protoc-gen-a2a"],
    opt: "[target=ts, import_extension=js]",
  },
};

function template(name) {
  const p = plugins[name];
  const file = join(work, `${name}.yaml`);
  writeFileSync(
    file,
    `version: v2\ninputs:\n  - directory: proto\nplugins:\n  - local: ${JSON.stringify(p.local)}\n    out: ${relative(root, join(work, name))}\n    opt: ${p.opt}\n`,
  );
  return file;
}

function time(fn) {
  const start = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

// The request buf sends: a2a.proto with its imports, from the checked-in fixture.
const request = toBinary(
  CodeGeneratorRequestSchema,
  create(CodeGeneratorRequestSchema, {
    fileToGenerate: ["a2a.proto"],
    protoFile: fromBinary(
      FileDescriptorSetSchema,
      readFileSync(join(root, "test/fixtures/a2a.binpb")),
    ).file,
    parameter: "target=ts,import_extension=js",
  }),
);
const bins = {
  "protoc-gen-es": join(root, "node_modules/@bufbuild/protoc-gen-es/bin/protoc-gen-es"),
  "protoc-gen-a2a": join(root, "plugin/bin/protoc-gen-a2a"),
};

const templates = Object.fromEntries(Object.keys(plugins).map((n) => [n, template(n)]));
const bufTimes = { "protoc-gen-es": [], "protoc-gen-a2a": [] };
const procTimes = { "protoc-gen-es": [], "protoc-gen-a2a": [] };

for (let i = -1; i < runs; i++) {
  // Alternate the order so drift hits both sides alike; run -1 is a warm-up.
  const order =
    i % 2 === 0 ? ["protoc-gen-es", "protoc-gen-a2a"] : ["protoc-gen-a2a", "protoc-gen-es"];
  for (const name of order) {
    const t = time(() =>
      execFileSync(buf, ["generate", "--template", templates[name]], { cwd: root, stdio: "pipe" }),
    );
    const p = time(() => {
      const r = spawnSync(process.execPath, [bins[name]], { input: request });
      if (r.status !== 0) throw new Error(`${name} failed: ${r.stderr}`);
    });
    if (i >= 0) {
      bufTimes[name].push(t);
      procTimes[name].push(p);
    }
  }
}
rmSync(work, { recursive: true, force: true });

const fmt = (ms) => `${ms.toFixed(0)} ms`;
const rows = [
  ["buf generate (a2a.proto)", bufTimes],
  ["plugin process alone", procTimes],
];
console.log(`bench/generate: ${runs} runs each, interleaved, medians (node ${process.version})`);
for (const [label, t] of rows) {
  const es = median(t["protoc-gen-es"]);
  const a2a = median(t["protoc-gen-a2a"]);
  console.log(
    `  ${label.padEnd(26)} protoc-gen-es ${fmt(es).padStart(8)}   protoc-gen-a2a ${fmt(a2a).padStart(8)}   ratio a2a/es ${(a2a / es).toFixed(2)}`,
  );
}
const ratio = median(bufTimes["protoc-gen-a2a"]) / median(bufTimes["protoc-gen-es"]);
console.log(`target: ratio <= 1.00 for buf generate → ${ratio <= 1 ? "met" : "NOT met"}`);
writeResults(resultsFile, {
  bench: "generate",
  rows: rows.flatMap(([label, t]) =>
    ["protoc-gen-es", "protoc-gen-a2a"].map((name) => ({
      scenario: `generate: ${label}`,
      server: name,
      unit: "ms",
      value: median(t[name]),
      vsBare: `${(median(t[name]) / median(t["protoc-gen-es"])).toFixed(2)}×`,
      note: name === "protoc-gen-es" ? "baseline" : "",
    })),
  ),
  targets: [
    {
      name: "buf generate: protoc-gen-a2a ≤ 1.0× protoc-gen-es",
      measured: `${ratio.toFixed(2)}×`,
      pass: ratio <= 1,
    },
  ],
  notes: [
    `generation: ${runs} interleaved runs each, medians; "vs bare" is the time relative to protoc-gen-es (lower is better)`,
  ],
});
