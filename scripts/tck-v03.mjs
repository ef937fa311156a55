// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
// `npm run tck:v03 [-- TCK_DIR] [--report FILE] [--keep]`: runs the official A2A TCK's 0.3 line
// (a2aproject/a2a-tck, branch 0.3.x; its folder from A2A_TCK_V03_DIR or the first argument)
// against the example agent's A2A 0.3 side, prints the totals (transport × category) and every
// test that did not pass with the reason from test/tck/v03-expected-outcomes.ts, and exits 1 on
// any unexpected outcome: a non-pass that is not listed, or a listed one that now passes or no
// longer runs ("stale expectation").
//
// The agent: startExampleAgent() in its default profile (0.3 beside 1.0 on every binding, the
// hybrid card) on free ports (scripts/tck/v03/agent.mjs). The TCK gets
// the card's 0.3 `url` (JSON-RPC) as --sut-url and is run as its own `run_tck.py --category all
// --transports jsonrpc,rest,grpc` runs it: each of mandatory, capabilities, quality and features
// once per transport (--transports T), then transport-equivalence once across the three; each run
// is `python3 run_tck.py --sut-url URL --category C --transports T`, unchanged, with
// PYTEST_ADDOPTS=--junitxml=… for the results.
//
// Like `npm run tck`, it installs nothing: missing Debian/pip packages are named with the command
// to install them (exit 2); the TCK runs from a temporary copy with only the harness changes of
// scripts/tck/v03/harness.mjs.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { startAgent } from "./tck/agent.mjs";
import { announceCheckout } from "./tck/harness.mjs";
import { importTypeScript } from "./tck/import-typescript.mjs";
import { anythingMissing } from "./tck/prerequisites.mjs";
import { verdict } from "./tck/results.mjs";
import { bundleV03Agent } from "./tck/v03/agent.mjs";
import { notATckV03, prepareTckV03 } from "./tck/v03/harness.mjs";
import { checkV03Prerequisites, missingReportV03 } from "./tck/v03/prerequisites.mjs";
import {
  ALL,
  EQUIVALENCE,
  PER_TRANSPORT_CATEGORIES,
  TRANSPORTS,
  rowsOfRun,
  totalsTableV03,
} from "./tck/v03/results.mjs";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const RECORDED_AT = "eb1f804";
const RUN = "v03";
/** How long one run_tck.py run may take before it is stopped (and counted as failed). */
const RUN_TIMEOUT_MS = 10 * 60_000;

function parseArgs(argv) {
  const args = { dir: process.env.A2A_TCK_V03_DIR, report: undefined, keep: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--report") args.report = argv[++i];
    else if (a === "--keep") args.keep = true;
    else if (a === "--help" || a === "-h") usage();
    else if (a.startsWith("-")) usage(`unknown option ${a}`);
    else args.dir = a;
  }
  if (args.dir === undefined || args.dir === "")
    usage(
      "name the TCK's folder (a checkout of a2aproject/a2a-tck, branch 0.3.x): A2A_TCK_V03_DIR=… npm run tck:v03, or npm run tck:v03 -- /path/to/a2a-tck",
    );
  return args;
}

function usage(problem) {
  if (problem !== undefined) console.error(`npm run tck:v03: ${problem}`);
  console.error(
    "usage: npm run tck:v03 -- [TCK_DIR] [--report FILE] [--keep]   (TCK_DIR defaults to $A2A_TCK_V03_DIR)",
  );
  process.exit(problem === undefined ? 0 : 2);
}

/** Loads test/tck/v03-expected-outcomes.ts. */
async function loadExpectedOutcomes(cacheDir) {
  const outcomes = await importTypeScript(
    join(repoRoot, "test", "tck", "v03-expected-outcomes.ts"),
    join(cacheDir, "v03-expected-outcomes.mjs"),
  );
  return outcomes.TCK_V03_EXPECTED_OUTCOMES;
}

/** One `run_tck.py --category C --transports T` run against `sutUrl`; its output goes to `log`; resolves to its JUnit XML. */
function runTck({ python, root, pythonPath, sutUrl, category, transports, log }) {
  const junit = join(root, "reports", `junit-${category}-${transports.replace(/,/g, "+")}.xml`);
  rmSync(junit, { force: true });
  const env = {
    ...process.env,
    PYTHONPATH: [pythonPath, process.env.PYTHONPATH].filter(Boolean).join(":"),
    PYTHONDONTWRITEBYTECODE: "1",
    PYTEST_ADDOPTS: [process.env.PYTEST_ADDOPTS, `--junitxml=${junit}`, "-p", "no:cacheprovider"]
      .filter(Boolean)
      .join(" "),
  };
  return new Promise((done, fail) => {
    const args = [
      "run_tck.py",
      "--sut-url",
      sutUrl,
      "--category",
      category,
      "--transports",
      transports,
    ];
    const child = spawn(python, args, {
      cwd: root,
      env,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let out = `$ ${python} ${args.join(" ")}\n`;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      process.kill(-child.pid, "SIGKILL");
    }, RUN_TIMEOUT_MS);
    child.stdout.setEncoding("utf8").on("data", (c) => {
      out += c;
    });
    child.stderr.setEncoding("utf8").on("data", (c) => {
      out += c;
    });
    child.once("error", (e) => {
      clearTimeout(timer);
      fail(e);
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      writeFileSync(log, out, { flag: "a" });
      if (timedOut)
        fail(
          new Error(
            `run_tck.py --category ${category} --transports ${transports} did not finish within ${RUN_TIMEOUT_MS / 60_000} minutes; its output is in ${log}`,
          ),
        );
      else if (!existsSync(junit))
        fail(
          new Error(
            `run_tck.py --category ${category} --transports ${transports} wrote no JUnit report (exit ${code}); its output is in ${log}:\n${out.slice(-3000)}`,
          ),
        );
      else done(readFileSync(junit, "utf8"));
    });
  });
}

/** The Markdown of the run: the totals, then the non-passes: unexpected and stale ones one by one, expected ones grouped by reason. */
function section(rows, result, title) {
  const lines = [`### ${title}`, "", totalsTableV03(rows), ""];
  /** One line per test and outcome, with the transports it happened on. */
  const byTest = (findings, detail) => {
    const groups = new Map();
    for (const f of findings) {
      const id = `${f.key}\u0000${f.outcome}\u0000${detail(f)}`;
      const g = groups.get(id) ?? { ...f, transports: [] };
      if (!g.transports.includes(f.transport)) g.transports.push(f.transport);
      groups.set(id, g);
    }
    return [...groups.values()].map(
      (g) =>
        `- **${g.key}** [${g.transports.join(", ")}] ${g.outcome}${detail(g) === "" ? "" : `: ${detail(g)}`}`,
    );
  };
  const unexpected = result.findings.filter((f) => f.kind === "unexpected");
  if (unexpected.length > 0)
    lines.push(
      "UNEXPECTED outcomes:",
      "",
      ...byTest(unexpected, (f) => f.message.split("\n")[0].slice(0, 400)),
      "",
    );
  const stale = result.findings.filter((f) => f.kind === "stale");
  if (stale.length > 0)
    lines.push(
      "STALE expectations:",
      "",
      ...byTest(stale, (f) => `${f.message} (listed because: ${f.reason})`),
      "",
    );
  const expected = result.findings.filter((f) => f.kind === "expected");
  if (expected.length > 0) {
    lines.push(
      `Expected non-passes (test/tck/v03-expected-outcomes.ts), ${expected.length} in all, by reason:`,
      "",
    );
    const reasons = new Map();
    for (const f of expected) reasons.set(f.reason, [...(reasons.get(f.reason) ?? []), f]);
    for (const [reason, findings] of reasons)
      lines.push(`${reason}`, "", ...byTest(findings, () => ""), "");
  }
  return lines.join("\n");
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const source = resolve(args.dir);
  const problem = notATckV03(source);
  if (problem !== undefined) usage(problem);
  const prerequisites = checkV03Prerequisites({ repoRoot });
  if (anythingMissing(prerequisites)) {
    console.error(missingReportV03(prerequisites));
    process.exit(2);
  }
  const commit = announceCheckout({
    source,
    label: "TCK (0.3 line)",
    python: prerequisites.python,
    recordedAt: RECORDED_AT,
  });

  const work = mkdtempSync(join(tmpdir(), "a2a-tck-v03-"));
  // Bundles inside the repository, so that their external packages resolve from node_modules.
  const cacheDir = join(repoRoot, "node_modules", ".cache", "tck");
  mkdirSync(cacheDir, { recursive: true });
  let markdown = "";
  let ok = false;
  try {
    const tck = prepareTckV03({
      source,
      work,
      protoc: prerequisites.paths.protoc,
      grpcPythonPlugin: prerequisites.paths.grpc_python_plugin,
      googleProtos: prerequisites.paths["google-proto-files"],
    });
    console.log(
      `harness changes in the copy ${tck.root} (no test changed):\n${tck.changes.map((c) => `  - ${c}`).join("\n")}`,
    );
    const expected = await loadExpectedOutcomes(cacheDir);
    const bundle = await bundleV03Agent({ repoRoot, outfile: join(cacheDir, "agent-v03.mjs") });
    const agent = await startAgent({ bundle, profile: "default" });
    const log = join(cacheDir, "tck-v03.log");
    writeFileSync(log, "");
    const rows = [];
    try {
      const cardUrl = `${agent.baseUrl}/.well-known/agent-card.json`;
      const card = await (await fetch(cardUrl)).json();
      if (typeof card.url !== "string" || card.protocolVersion !== "0.3.0")
        throw new Error(
          `the agent's card at ${cardUrl} has no 0.3 url/protocolVersion: ${JSON.stringify(card).slice(0, 300)}`,
        );
      const sutUrl = card.url;
      console.log(
        `\nexample agent at ${agent.baseUrl}; --sut-url ${sutUrl} (the card's 0.3 url, preferredTransport ${card.preferredTransport}); pytest output: ${log}`,
      );
      const runs = [
        ...Object.keys(TRANSPORTS).flatMap((t) =>
          PER_TRANSPORT_CATEGORIES.map((category) => ({
            category,
            transports: t,
            transport: TRANSPORTS[t],
          })),
        ),
        { category: EQUIVALENCE, transports: Object.keys(TRANSPORTS).join(","), transport: ALL },
      ];
      for (const r of runs) {
        const started = Date.now();
        const xml = await runTck({
          python: prerequisites.python,
          root: tck.root,
          pythonPath: tck.pythonPath,
          sutUrl,
          category: r.category,
          transports: r.transports,
          log,
        });
        const got = rowsOfRun(xml, r);
        rows.push(...got);
        const count = (o) => got.filter((x) => x.outcome === o).length;
        console.log(
          `  ${r.category} --transports ${r.transports}: ${got.length} tests, ${count("passed")} passed, ${count("failed")} failed, ${count("skipped")} skipped (${((Date.now() - started) / 1000).toFixed(1)} s)`,
        );
      }
    } finally {
      await agent.stop();
    }
    const result = verdict(rows, expected, RUN, [RUN]);
    ok = result.ok;
    markdown = section(
      rows,
      result,
      `A2A TCK 0.3 line (${(commit ?? "?").slice(0, 7)}) against the example agent's 0.3 side`,
    );
    console.log(`\n${markdown}`);
    console.log(ok ? "every non-pass is expected." : "UNEXPECTED outcomes (see above).");
  } finally {
    if (args.keep) console.log(`kept ${work}`);
    else rmSync(work, { recursive: true, force: true });
  }
  if (args.report !== undefined) writeFileSync(args.report, `${markdown}\n`);
  process.exit(ok ? 0 : 1);
}

main().catch((e) => {
  console.error(`npm run tck:v03: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(2);
});
