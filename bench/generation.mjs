#!/usr/bin/env node
// bench/generation: how generation scales (issue #28). protoc-gen-es and protoc-gen-a2a, each run
// alone on the same CodeGeneratorRequest (stdin → stdout, buf's compile step left out), over
//   a2a.proto     proto/a2a.proto with its imports (buf build proto);
//   compute.proto Google's Compute Engine API (node_modules/google-proto-files, 993 RPCs, 4 MB of proto).
// Wall time and peak RSS of each plugin process, measured in the same run and interleaved (this
// machine is noisy: read the ratios protoc-gen-a2a / protoc-gen-es, not the absolute figures).
//
//   npm run bench:generation [-- --runs 7] [--compute-runs 1] [--only a2a,compute] [--before <bin>] [--results file.json]
//
// --before adds another protoc-gen-a2a (a bundle of an earlier commit, e.g. `git archive <rev> plugin
// runtime/src templates | tar -x -C test/.tmp/old && node test/.tmp/old/plugin/build.mjs`, then
// `--before test/.tmp/old/plugin/bin/protoc-gen-a2a`) to every table, for before/after figures.
//
// protoc-gen-es takes minutes on compute.proto, hence one run there by default. protoc-gen-a2a runs
// there twice: with the default options (JSON documents over json_documents_max_bytes left out) and
// with json_documents_max_bytes=none (every document written). Peak RSS comes from the plugin process
// itself (a preloaded module reports process.resourceUsage().maxRSS at exit), so no /usr/bin/time is needed.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import {
  CodeGeneratorRequestSchema,
  CodeGeneratorResponseSchema,
  FileDescriptorSetSchema,
} from "@bufbuild/protobuf/wkt";
import { parseBenchArgs } from "./lib/args.mjs";
import { root } from "./lib/build.mjs";
import { fmtRatio, table } from "./lib/report.mjs";
import { writeResults } from "./lib/results.mjs";

const { args, intArg } = parseBenchArgs(
  "usage: node bench/generation.mjs [--runs 7] [--compute-runs 1] [--only a2a,compute] [--before <bin>] [--results file.json]",
  {
    runs: { type: "string", default: "7" },
    "compute-runs": { type: "string", default: "1" },
    only: { type: "string", default: "a2a,compute" },
    before: { type: "string", default: "" },
    results: { type: "string", default: "" },
  },
);
const before = args.before === "" ? [] : [["protoc-gen-a2a before", resolve(args.before), ""]];
const RUNS = intArg("runs", 1, 1000);
const COMPUTE_RUNS = intArg("compute-runs", 1, 100);
const only = new Set(args.only.split(","));
for (const o of only)
  if (o !== "a2a" && o !== "compute") throw new Error(`--only: a2a and/or compute, got ${o}`);

const buf = join(root, "node_modules/.bin/buf");
const work = mkdtempSync(join(tmpdir(), "bench-generation-"));
const PARAMETER = "target=ts,import_extension=js";
const plugins = {
  "protoc-gen-es": join(root, "node_modules/@bufbuild/protoc-gen-es/bin/protoc-gen-es"),
  "protoc-gen-a2a": join(root, "plugin/bin/protoc-gen-a2a"),
};

// The preload: writes the process's peak RSS (KiB) to $BENCH_MAXRSS_FILE when it exits.
const preload = join(work, "maxrss.cjs");
writeFileSync(
  preload,
  'process.on("exit", () => require("node:fs").writeFileSync(process.env.BENCH_MAXRSS_FILE, String(process.resourceUsage().maxRSS)));\n',
);

/** A CodeGeneratorRequest as buf sends it: `paths` of `input` to generate, with every import. */
function request(input, paths, parameter) {
  const image = join(work, "image.binpb");
  execFileSync(
    buf,
    ["build", input, ...paths.flatMap((p) => ["--path", join(input, p)]), "-o", image],
    { cwd: root, stdio: "pipe" },
  );
  const files = fromBinary(FileDescriptorSetSchema, readFileSync(image)).file;
  return toBinary(
    CodeGeneratorRequestSchema,
    create(CodeGeneratorRequestSchema, { fileToGenerate: paths, protoFile: files, parameter }),
  );
}

/** Runs one plugin on `input`; wall ms, peak RSS MiB, files and bytes written (JSON documents apart). */
function runPlugin(bin, input) {
  const rssFile = join(work, "maxrss");
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ["--require", preload, bin], {
    input,
    env: { ...process.env, BENCH_MAXRSS_FILE: rssFile },
    maxBuffer: 2 ** 31 - 1,
  });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`${bin} failed (${r.status}): ${r.stderr}`);
  const response = fromBinary(CodeGeneratorResponseSchema, r.stdout);
  if (response.error !== undefined && response.error !== "")
    throw new Error(`${bin}: ${response.error}`);
  let bytes = 0;
  let jsonBytes = 0;
  for (const f of response.file) {
    const n = Buffer.byteLength(f.content);
    bytes += n;
    if (f.name.endsWith(".json")) jsonBytes += n;
  }
  const notices = String(r.stderr)
    .split("\n")
    .filter((l) => l.includes("notice:") && l.includes("json_documents_max_bytes")).length;
  return {
    ms,
    rssMiB: Number(readFileSync(rssFile, "utf8")) / 1024,
    files: response.file.length,
    bytes,
    jsonBytes,
    notices,
  };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

const cases = [];
if (only.has("a2a")) {
  cases.push({
    name: "a2a.proto",
    runs: RUNS,
    input: request("proto", ["a2a.proto"], PARAMETER),
    variants: [
      ["protoc-gen-es", plugins["protoc-gen-es"], ""],
      ...before,
      ["protoc-gen-a2a", plugins["protoc-gen-a2a"], ""],
    ],
  });
}
if (only.has("compute")) {
  cases.push({
    name: "compute.proto",
    runs: COMPUTE_RUNS,
    input: request(
      "node_modules/google-proto-files",
      ["google/cloud/compute/v1/compute.proto"],
      PARAMETER,
    ),
    variants: [
      ["protoc-gen-es", plugins["protoc-gen-es"], ""],
      ...before,
      ["protoc-gen-a2a", plugins["protoc-gen-a2a"], ""],
      [
        "protoc-gen-a2a json_documents_max_bytes=none",
        plugins["protoc-gen-a2a"],
        ",json_documents_max_bytes=none",
      ],
    ],
  });
}

const rows = [];
const targets = [];
console.log(
  `bench/generation: plugin processes alone on a captured CodeGeneratorRequest, interleaved, medians (node ${process.version})`,
);
for (const c of cases) {
  const inputs = new Map();
  for (const [label, , extra] of c.variants) {
    if (extra === "") inputs.set(label, c.input);
    else {
      const req = fromBinary(CodeGeneratorRequestSchema, c.input);
      req.parameter += extra;
      inputs.set(label, toBinary(CodeGeneratorRequestSchema, req));
    }
  }
  const samples = new Map(c.variants.map(([label]) => [label, []]));
  for (let i = c.runs > 2 ? -1 : 0; i < c.runs; i++) {
    // Alternate the order so that drift hits every plugin alike; run -1 (when there are several) warms the disk cache.
    const order = i % 2 === 0 ? c.variants : [...c.variants].reverse();
    for (const [label, bin] of order) {
      const s = runPlugin(bin, inputs.get(label));
      if (i >= 0) samples.get(label).push(s);
    }
  }
  const es = median(samples.get("protoc-gen-es").map((s) => s.ms));
  const esRss = median(samples.get("protoc-gen-es").map((s) => s.rssMiB));
  const tableRows = [];
  for (const [label] of c.variants) {
    const ss = samples.get(label);
    const ms = median(ss.map((s) => s.ms));
    const rssMiB = median(ss.map((s) => s.rssMiB));
    const last = ss[ss.length - 1];
    tableRows.push([
      label,
      `${(ms / 1000).toFixed(2)} s`,
      fmtRatio(ms / es),
      `${rssMiB.toFixed(0)} MiB`,
      fmtRatio(rssMiB / esRss),
      String(last.files),
      `${(last.bytes / 2 ** 20).toFixed(1)} MiB`,
      `${(last.jsonBytes / 2 ** 20).toFixed(1)} MiB`,
      String(last.notices),
    ]);
    rows.push({
      scenario: `generation: ${c.name}`,
      server: label,
      unit: "ms",
      value: ms,
      rssMiB,
      vsBare: fmtRatio(ms / es),
      note:
        label === "protoc-gen-es" ? "baseline" : `RSS ${fmtRatio(rssMiB / esRss)} of protoc-gen-es`,
    });
    if (label === "protoc-gen-a2a")
      targets.push({
        name: `${c.name}: protoc-gen-a2a ≤ 0.5× protoc-gen-es (wall time)`,
        measured: fmtRatio(ms / es),
        pass: ms / es <= 0.5,
      });
  }
  console.log(`\n${c.name} (${c.runs} run${c.runs === 1 ? "" : "s"} each)`);
  console.log(
    table(
      [
        "plugin",
        "wall",
        "× es",
        "peak RSS",
        "× es",
        "files",
        "written",
        "of it JSON",
        "skipped docs",
      ],
      tableRows,
    ),
  );
}
rmSync(work, { recursive: true, force: true });
console.log("\nTargets");
for (const t of targets) console.log(`  ${t.pass ? "PASS" : "FAIL"}  ${t.name}  (${t.measured})`);
writeResults(args.results, {
  bench: "generation",
  rows,
  targets,
  notes: [
    "generation: each plugin alone on a captured CodeGeneratorRequest; medians of interleaved runs; × es is relative to protoc-gen-es (lower is better)",
  ],
});
