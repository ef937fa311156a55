// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
// What `npm run tck:v03` needs on the machine, checked without installing anything: the 0.3 TCK's
// Python modules (its runner run_tck.py and what its tests under tests/mandatory and
// tests/optional import), Debian's protoc and grpc_python_plugin and the npm package
// google-proto-files (for the harness changes of ./harness.mjs). The programs, the Python
// choice and the report are the 1.0 line's (../prerequisites.mjs); only the module list differs.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { PROGRAMS, missingReport, pythonOf, which } from "../prerequisites.mjs";

/** The Python modules the 0.3 TCK imports (runner and tests), with the Debian and pip packages that provide them. */
export const PYTHON_MODULES_V03 = [
  { module: "pytest", deb: "python3-pytest", pip: "pytest" },
  { module: "pytest_asyncio", deb: "python3-pytest-asyncio", pip: "pytest-asyncio" },
  { module: "dotenv", deb: "python3-dotenv", pip: "python-dotenv" },
  { module: "requests", deb: "python3-requests", pip: "requests" },
  { module: "responses", deb: "python3-responses", pip: "responses" },
  { module: "httpx", deb: "python3-httpx", pip: "httpx" },
  { module: "OpenSSL", deb: "python3-openssl", pip: "pyOpenSSL" },
  { module: "grpc", deb: "python3-grpcio", pip: "grpcio" },
  { module: "google.protobuf", deb: "python3-protobuf", pip: "protobuf" },
];

const PROBE = `
import importlib, json, sys
out = {"version": list(sys.version_info[:2]), "missing": []}
for name in sys.argv[1:]:
    try:
        importlib.import_module(name)
    except Exception:
        out["missing"].append(name)
print(json.dumps(out))
`;

/**
 * What is missing (the shape of ../prerequisites.mjs's checkPrerequisites, so that its
 * anythingMissing and missingReport apply).
 */
export function checkV03Prerequisites({ repoRoot, env = process.env }) {
  const python = pythonOf(env);
  const result = { python, modules: [], programs: [], npm: [], paths: {} };
  const probe = spawnSync(python, ["-c", PROBE, ...PYTHON_MODULES_V03.map((m) => m.module)], { encoding: "utf8" });
  if (probe.error !== undefined || probe.status !== 0) {
    result.pythonProblem = `cannot run ${python}${probe.error ? ` (${probe.error.message})` : `: ${probe.stderr.trim()}`}`;
    result.modules = PYTHON_MODULES_V03;
  } else {
    const { version, missing } = JSON.parse(probe.stdout);
    if (version[0] < 3 || (version[0] === 3 && version[1] < 11)) result.pythonProblem = `${python} is Python ${version.join(".")}; use a Python ≥ 3.11`;
    result.modules = PYTHON_MODULES_V03.filter((m) => missing.includes(m.module));
  }
  for (const p of PROGRAMS) {
    const path = which(p.program, env);
    if (path === undefined) result.programs.push(p);
    else result.paths[p.program] = path;
  }
  const protos = join(repoRoot, "node_modules", "google-proto-files");
  if (!existsSync(join(protos, "google", "api", "annotations.proto"))) result.npm.push("google-proto-files");
  else result.paths["google-proto-files"] = protos;
  return result;
}

/** The 1.0 line's report, said by `npm run tck:v03`. */
export const missingReportV03 = (r) => missingReport(r).replace(/^npm run tck:/, "npm run tck:v03:");
