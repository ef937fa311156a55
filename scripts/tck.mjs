// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
// `npm run tck [-- TCK_DIR] [--profile tck|default|all] [--report FILE] [--keep]`: runs the
// official A2A TCK (a2aproject/a2a-tck, branch 1.0-dev; its folder from A2A_TCK_DIR or the first
// argument) against the example agent on all three bindings at every level, prints the totals
// (transport × level) and every test that did not pass with the reason from
// test/tck/expected-outcomes.ts, and exits 1 on any unexpected outcome: a non-pass that is not
// listed, or a listed one that now passes or no longer runs ("stale expectation").
//
// It installs nothing: missing Debian/pip packages are named with the command to install them
// (exit 2). The TCK is run from a temporary copy with only the harness changes of
// scripts/tck/harness.mjs. Profiles: "tck" (the agent's TCK profile on code generated with
// errors=v1.0.0, the spec version the TCK pins) and "default" (the agent as `npm run example`
// starts it: v1.0.1); --profile all (the default) runs both. After each, the tests it skipped
// because the agent declares a capability (the capability-negative ones) run again against the
// same agent with no optional capability (A2A_CAPABILITIES=none): the run "<profile>:capabilities-off".
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { bundleAgent, generateV100, startAgent } from "./tck/agent.mjs";
import { announceCheckout, notATck, prepareTck } from "./tck/harness.mjs";
import { importTypeScript } from "./tck/import-typescript.mjs";
import { anythingMissing, checkPrerequisites, missingReport } from "./tck/prerequisites.mjs";
import { metadataFromCompatibilityReport, readRun, totalsTable, verdict } from "./tck/results.mjs";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const RECORDED_AT = "357c4a8";
const PROFILES = {
  tck: "TCK profile (errors=v1.0.0, loopback webhooks, REST application/json)",
  default: "default profile (v1.0.1, as npm run example)",
};
const OFF = ":capabilities-off";
/** A run's title. */
const titleOf = (run) =>
  run.endsWith(OFF)
    ? `${PROFILES[run.slice(0, -OFF.length)]}, no optional capability: the capability-negative tests`
    : PROFILES[run];
/** A skip because the agent declares a capability (the test needs an agent without it). */
const CAPABILITY_SKIP = /^Agent supports /;

function parseArgs(argv) {
  const args = {
    dir: process.env.A2A_TCK_DIR,
    profiles: ["tck", "default"],
    report: undefined,
    keep: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--profile") {
      const p = argv[++i];
      if (p === "all") args.profiles = ["tck", "default"];
      else if (p === "tck" || p === "default") args.profiles = [p];
      else usage(`--profile must be tck, default or all, got ${p}`);
    } else if (a === "--report") args.report = argv[++i];
    else if (a === "--keep") args.keep = true;
    else if (a === "--help" || a === "-h") usage();
    else if (a.startsWith("-")) usage(`unknown option ${a}`);
    else args.dir = a;
  }
  if (args.dir === undefined || args.dir === "")
    usage(
      "name the TCK's folder (a checkout of a2aproject/a2a-tck, branch 1.0-dev): A2A_TCK_DIR=… npm run tck, or npm run tck -- /path/to/a2a-tck",
    );
  return args;
}

function usage(problem) {
  if (problem !== undefined) console.error(`npm run tck: ${problem}`);
  console.error(
    "usage: npm run tck -- [TCK_DIR] [--profile tck|default|all] [--report FILE] [--keep]   (TCK_DIR defaults to $A2A_TCK_DIR)",
  );
  process.exit(problem === undefined ? 0 : 2);
}

/** Loads test/tck/expected-outcomes.ts. */
async function loadExpectedOutcomes(cacheDir) {
  const outcomes = await importTypeScript(
    join(repoRoot, "test", "tck", "expected-outcomes.ts"),
    join(cacheDir, "expected-outcomes.mjs"),
  );
  return outcomes.TCK_EXPECTED_OUTCOMES;
}

/** Runs `python run_tck.py` against the agent at `baseUrl` (`select`: a pytest -k expression); its output goes to `log`. */
function runTck({ python, root, pythonPath, baseUrl, log, select }) {
  rmSync(join(root, "reports"), { recursive: true, force: true });
  const env = {
    ...process.env,
    PYTHONPATH: [pythonPath, process.env.PYTHONPATH].filter(Boolean).join(":"),
    PYTHONDONTWRITEBYTECODE: "1",
  };
  return new Promise((done, fail) => {
    const args = [
      "run_tck.py",
      "--sut-host",
      baseUrl,
      "--transport",
      "jsonrpc,http_json,grpc",
      ...(select !== undefined ? ["--", "-k", select] : []),
    ];
    const child = spawn(python, args, { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (c) => {
      out += c;
    });
    child.stderr.setEncoding("utf8").on("data", (c) => {
      out += c;
    });
    child.once("error", fail);
    child.once("exit", (code) => {
      writeFileSync(log, out);
      const junit = join(root, "reports", "junitreport.xml");
      if (!existsSync(junit))
        fail(
          new Error(
            `the TCK wrote no JUnit report (exit ${code}); its output is in ${log}:\n${out.slice(-3000)}`,
          ),
        );
      else
        done({
          junit: readFileSync(junit, "utf8"),
          compatibility: JSON.parse(
            readFileSync(join(root, "reports", "compatibility.json"), "utf8"),
          ),
        });
    });
  });
}

/** The Markdown section of one run. */
function section(run, rows, result) {
  const lines = [`### ${titleOf(run)}`, "", totalsTable(rows), ""];
  const groups = new Map();
  for (const f of result.findings) {
    const id = `${f.kind}\u0000${f.key}\u0000${f.test}\u0000${f.outcome}\u0000${f.reason ?? f.message}`;
    const g = groups.get(id) ?? { ...f, transports: [] };
    g.transports.push(f.transport);
    groups.set(id, g);
  }
  for (const kind of ["unexpected", "stale", "expected"]) {
    const list = [...groups.values()].filter((g) => g.kind === kind);
    if (list.length === 0) continue;
    lines.push(
      kind === "expected"
        ? "Expected non-passes (test/tck/expected-outcomes.ts):"
        : kind === "unexpected"
          ? "UNEXPECTED outcomes:"
          : "STALE expectations:",
      "",
    );
    for (const g of list) {
      const detail =
        kind === "expected"
          ? g.reason
          : kind === "stale"
            ? `${g.message} (listed because: ${g.reason})`
            : g.message.split("\n")[0].slice(0, 400);
      lines.push(`- **${g.key}** ${g.test} [${g.transports.join(", ")}] ${g.outcome}: ${detail}`);
    }
    lines.push("");
  }
  return lines.join("\n");
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const source = resolve(args.dir);
  const problem = notATck(source);
  if (problem !== undefined) usage(problem);
  const prerequisites = checkPrerequisites({ repoRoot });
  if (anythingMissing(prerequisites)) {
    console.error(missingReport(prerequisites));
    process.exit(2);
  }
  announceCheckout({
    source,
    label: "TCK",
    python: prerequisites.python,
    recordedAt: RECORDED_AT,
  });

  const work = mkdtempSync(join(tmpdir(), "a2a-tck-"));
  // Bundles inside the repository, so that their external packages resolve from node_modules.
  const cacheDir = join(repoRoot, "node_modules", ".cache", "tck");
  mkdirSync(cacheDir, { recursive: true });
  const markdown = [];
  let ok = true;
  try {
    const tck = prepareTck({
      source,
      work,
      protoc: prerequisites.paths.protoc,
      grpcPythonPlugin: prerequisites.paths.grpc_python_plugin,
      googleProtos: prerequisites.paths["google-proto-files"],
    });
    console.log(
      `harness changes in the copy ${tck.root} (no test changed):\n${tck.changes.map((c) => `  - ${c}`).join("\n")}`,
    );
    const collected = join(work, "collected.json");
    const collect = spawnSync(
      prerequisites.python,
      [join(repoRoot, "scripts", "tck", "collect.py"), collected],
      {
        cwd: tck.root,
        env: { ...process.env, PYTHONPATH: tck.pythonPath, PYTHONDONTWRITEBYTECODE: "1" },
        encoding: "utf8",
      },
    );
    if (collect.status !== 0)
      throw new Error(`collecting the TCK's tests failed:\n${collect.stdout}${collect.stderr}`);
    const tests = JSON.parse(readFileSync(collected, "utf8"));
    const expected = await loadExpectedOutcomes(cacheDir);

    const judge = (run, rows) => {
      const result = verdict(rows, expected, run, ["tck", "default"]);
      ok &&= result.ok;
      const text = section(run, rows, result);
      markdown.push(text);
      console.log(`\n${text}`);
      console.log(
        result.ok
          ? `${run}: every non-pass is expected.`
          : `${run}: UNEXPECTED outcomes (see above).`,
      );
    };
    /** Starts the agent, runs the TCK against it (all of it, or the tests `only` names, with no optional capability), and reads the result. */
    const runOnce = async (run, bundle, only) => {
      const profile = run.replace(OFF, "");
      const agent = await startAgent({
        bundle,
        profile,
        ...(only !== undefined ? { capabilities: "none" } : {}),
      });
      const log = join(cacheDir, `tck-${run.replace(":", "-")}.log`);
      console.log(
        `\n${titleOf(run)}: agent at ${agent.baseUrl}; running the TCK${only === undefined ? " (about 2–3 minutes)" : ""}; pytest output: ${log}`,
      );
      let output;
      try {
        const select =
          only === undefined ? undefined : [...new Set(only.map((r) => r.test))].join(" or ");
        output = await runTck({
          python: prerequisites.python,
          root: tck.root,
          pythonPath: tck.pythonPath,
          baseUrl: agent.baseUrl,
          log,
          select,
        });
      } finally {
        await agent.stop();
      }
      const rows = readRun(output.junit, {
        tests,
        ...metadataFromCompatibilityReport(output.compatibility),
      });
      // -k matches substrings: keep exactly the tests asked for.
      // A test asked for that did not run counts as a failure of the run.
      return only === undefined
        ? rows
        : only.map(
            (o) =>
              rows.find((r) => r.nodeid === o.nodeid) ?? {
                ...o,
                outcome: "failed",
                message: `did not run in the ${run} run`,
              },
          );
    };

    for (const profile of args.profiles) {
      const bundle = join(cacheDir, `agent-${profile}.mjs`);
      let generatedCode;
      if (profile === "tck") {
        generatedCode = join(work, "gen-v1.0.0");
        generateV100({
          repoRoot,
          out: generatedCode,
          templateFile: join(work, "buf.gen.v1.0.0.yaml"),
        });
      }
      await bundleAgent({ repoRoot, outfile: bundle, generatedCode });
      const rows = await runOnce(profile, bundle);
      judge(profile, rows);
      const negative = rows.filter(
        (r) => r.outcome === "skipped" && CAPABILITY_SKIP.test(r.message),
      );
      if (negative.length > 0)
        judge(`${profile}${OFF}`, await runOnce(`${profile}${OFF}`, bundle, negative));
    }
  } finally {
    if (args.keep) console.log(`kept ${work}`);
    else rmSync(work, { recursive: true, force: true });
  }
  if (args.report !== undefined) writeFileSync(args.report, `${markdown.join("\n")}\n`);
  process.exit(ok ? 0 : 1);
}

main().catch((e) => {
  console.error(`npm run tck: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(2);
});
