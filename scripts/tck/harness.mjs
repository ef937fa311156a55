// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
// The A2A TCK (a2aproject/a2a-tck, branch 1.0-dev) copied to a temporary folder with the harness
// changes that make it run on Debian's Python packages, and nothing else: no test, assertion,
// requirement or fixture is touched (../shared/notes/a2a-tck.md lists them):
//   1. pyproject.toml: pytest minversion 8.0 → 7.0 (Debian 12 has pytest 7.2);
//   2. specification/generated/a2a_pb2{,_grpc}.py regenerated from the TCK's own a2a.proto with
//      the local protoc and grpc_python_plugin (the committed stubs need protobuf ≥ 6.30);
//   3. the google/api and google/rpc Python stubs generated from the npm package
//      google-proto-files into a folder put on PYTHONPATH (no googleapis-common-protos);
//   4. the regenerated a2a_pb2_grpc.py imports `from specification.generated import a2a_pb2`
//      (else protobuf 4.21 builds a second copy of every message class);
//   5. run_tck.py without `--html`/`--self-contained-html` (no pytest-html; the JUnit XML and the
//      compatibility JSON are still written).
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The files a TCK checkout must have. */
const TCK_FILES = [
  "run_tck.py",
  "pyproject.toml",
  "tests/compatibility/conftest.py",
  "specification/a2a.proto",
];

/** Why `dir` is not a TCK checkout, or undefined. */
export function notATck(dir) {
  if (!existsSync(dir)) return `${dir} does not exist`;
  const missing = TCK_FILES.filter((f) => !existsSync(join(dir, f)));
  return missing.length > 0
    ? `${dir} is not an a2aproject/a2a-tck checkout (no ${missing.join(", ")})`
    : undefined;
}

/** The checkout's commit (git rev-parse HEAD), or undefined. */
export function commitOf(dir) {
  const r = spawnSync("git", ["-C", dir, "rev-parse", "HEAD"], { encoding: "utf8" });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

/**
 * Prints which checkout runs (`label`, its commit, the Python that runs it) and a note when its
 * commit is not `recordedAt`, the one the expected outcomes were recorded against.
 * @returns {string | undefined} the checkout's commit
 */
export function announceCheckout({ source, label, python, recordedAt }) {
  const commit = commitOf(source);
  console.log(`${label}: ${source} at ${commit ?? "(not a git checkout)"}; Python ${python}`);
  if (commit !== undefined && !commit.startsWith(recordedAt))
    console.log(
      `note: the expected outcomes were recorded against ${recordedAt}; another commit may run other tests`,
    );
  return commit;
}

/** Replaces `from` (a string or RegExp that must match) in a file; throws if the TCK no longer has it. */
function patch(file, from, to, what) {
  const text = readFileSync(file, "utf8");
  const found = typeof from === "string" ? text.includes(from) : from.test(text);
  if (!found)
    throw new Error(
      `harness change "${what}": ${file} no longer contains ${String(from)}; this TCK version needs a new recipe`,
    );
  writeFileSync(file, text.replace(from, to));
}

function run(command, args, options) {
  const r = spawnSync(command, args, { encoding: "utf8", ...options });
  if (r.error !== undefined || r.status !== 0)
    throw new Error(`${command} ${args.join(" ")} failed: ${r.error?.message ?? r.stderr.trim()}`);
}

/** Copies the TCK checkout at `source` to `root`, leaving out the files and folders named in `skip`. */
export function copyTck(source, root, skip) {
  cpSync(source, root, {
    recursive: true,
    filter: (src) => !skip.has(src.split(/[\\/]/).pop() ?? ""),
  });
}

/**
 * Regenerates the TCK's a2a_pb2.py and a2a_pb2_grpc.py into `out` from the a2a.proto in `protoDir`
 * with the local protoc and grpc_python_plugin.
 */
export function generateA2aStubs({ protoc, grpcPythonPlugin, googleProtos, protoDir, out }) {
  run(
    protoc,
    [
      "-I",
      ".",
      "-I",
      googleProtos,
      `--python_out=${out}`,
      `--grpc_python_out=${out}`,
      `--plugin=protoc-gen-grpc_python=${grpcPythonPlugin}`,
      "a2a.proto",
    ],
    { cwd: protoDir },
  );
}

/**
 * Generates the google/api and google/rpc Python stubs from google-proto-files into
 * `<work>/python`, the folder to put on PYTHONPATH.
 * @returns {{ pythonPath: string, change: string }} the folder and the line that tells the change
 */
export function generateGoogleStubs({ protoc, googleProtos, work }) {
  const pythonPath = join(work, "python");
  mkdirSync(pythonPath, { recursive: true });
  const protos = ["api", "rpc"].flatMap((dir) =>
    readdirSync(join(googleProtos, "google", dir))
      .filter((f) => f.endsWith(".proto"))
      .map((f) => `google/${dir}/${f}`),
  );
  run(protoc, ["-I", googleProtos, `--python_out=${pythonPath}`, ...protos]);
  return {
    pythonPath,
    change: `google/api, google/rpc Python stubs: generated from google-proto-files into ${pythonPath} (on PYTHONPATH)`,
  };
}

/**
 * Copies the TCK at `source` to `<work>/tck` and applies the harness changes.
 * @param {{ source: string, work: string, protoc: string, grpcPythonPlugin: string, googleProtos: string }} options
 * @returns {{ root: string, pythonPath: string, changes: string[] }}
 */
export function prepareTck({ source, work, protoc, grpcPythonPlugin, googleProtos }) {
  const root = join(work, "tck");
  const skip = new Set([".git", "reports", "__pycache__", ".venv", ".pytest_cache"]);
  copyTck(source, root, skip);
  const changes = [];

  patch(
    join(root, "pyproject.toml"),
    /minversion = "8\.0"/,
    'minversion = "7.0"',
    "pytest minversion",
  );
  changes.push('pyproject.toml: pytest minversion "8.0" → "7.0"');

  const spec = join(root, "specification");
  const generated = join(spec, "generated");
  generateA2aStubs({ protoc, grpcPythonPlugin, googleProtos, protoDir: spec, out: generated });
  changes.push(
    "specification/generated/a2a_pb2.py, a2a_pb2_grpc.py: regenerated from specification/a2a.proto with the local protoc and grpc_python_plugin",
  );

  const { pythonPath, change } = generateGoogleStubs({ protoc, googleProtos, work });
  changes.push(change);

  patch(
    join(generated, "a2a_pb2_grpc.py"),
    /^import a2a_pb2 as a2a__pb2$/m,
    "from specification.generated import a2a_pb2 as a2a__pb2",
    "a2a_pb2_grpc import",
  );
  changes.push(
    "specification/generated/a2a_pb2_grpc.py: `import a2a_pb2` → `from specification.generated import a2a_pb2`",
  );

  patch(join(root, "run_tck.py"), /^.*--html=.*\n/m, "", "no pytest-html");
  changes.push(
    "run_tck.py: without --html/--self-contained-html (JUnit XML and compatibility JSON still written)",
  );
  return { root, pythonPath, changes };
}
