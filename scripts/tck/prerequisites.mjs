// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
// What `npm run tck` needs on the machine, checked without installing anything: a Python ≥ 3.11
// with the TCK's test dependencies (Debian's packages, or pip's), Debian's protoc and
// grpc_python_plugin (for the harness changes of scripts/tck/harness.mjs), and the npm package
// google-proto-files (a devDependency). `missingReport` says exactly what to install.
import { spawnSync } from "node:child_process";
import { accessSync, constants, existsSync } from "node:fs";
import { delimiter, join } from "node:path";

/** The Python modules the TCK's tests import, with the Debian and pip packages that provide them. */
export const PYTHON_MODULES = [
  { module: "pytest", deb: "python3-pytest", pip: "pytest" },
  { module: "pytest_asyncio", deb: "python3-pytest-asyncio", pip: "pytest-asyncio" },
  { module: "httpx", deb: "python3-httpx", pip: "httpx" },
  { module: "jsonschema", deb: "python3-jsonschema", pip: "jsonschema" },
  { module: "jinja2", deb: "python3-jinja2", pip: "Jinja2" },
  { module: "grpc", deb: "python3-grpcio", pip: "grpcio" },
  { module: "google.protobuf", deb: "python3-protobuf", pip: "protobuf" },
];

/** The programs the harness changes run, with their Debian packages. */
export const PROGRAMS = [
  { program: "protoc", deb: "protobuf-compiler" },
  { program: "grpc_python_plugin", deb: "protobuf-compiler-grpc" },
];

/** The Python to run the TCK with: A2A_TCK_PYTHON, else Debian's /usr/bin/python3, else python3 on PATH. */
export function pythonOf(env = process.env) {
  if (env.A2A_TCK_PYTHON) return env.A2A_TCK_PYTHON;
  return existsSync("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
}

/** A program's path on PATH, or undefined. */
export function which(program, env = process.env) {
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (dir === "") continue;
    const candidate = join(dir, program);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

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
 * What is missing (`modules`: the Python modules to look for; the 1.0 TCK's by default).
 * @returns {{ python: string, pythonProblem?: string, modules: typeof PYTHON_MODULES, programs: typeof PROGRAMS, npm: string[], paths: Record<string, string> }}
 */
export function checkPrerequisites({ repoRoot, env = process.env, modules = PYTHON_MODULES }) {
  const python = pythonOf(env);
  const result = { python, modules: [], programs: [], npm: [], paths: {} };
  const probe = spawnSync(python, ["-c", PROBE, ...modules.map((m) => m.module)], {
    encoding: "utf8",
  });
  if (probe.error !== undefined || probe.status !== 0) {
    result.pythonProblem = `cannot run ${python}${probe.error ? ` (${probe.error.message})` : `: ${probe.stderr.trim()}`}`;
    result.modules = modules;
  } else {
    const { version, missing } = JSON.parse(probe.stdout);
    if (version[0] < 3 || (version[0] === 3 && version[1] < 11))
      result.pythonProblem = `${python} is Python ${version.join(".")}; the TCK needs ≥ 3.11`;
    result.modules = modules.filter((m) => missing.includes(m.module));
  }
  for (const p of PROGRAMS) {
    const path = which(p.program, env);
    if (path === undefined) result.programs.push(p);
    else result.paths[p.program] = path;
  }
  const protos = join(repoRoot, "node_modules", "google-proto-files");
  if (!existsSync(join(protos, "google", "api", "annotations.proto")))
    result.npm.push("google-proto-files");
  else result.paths["google-proto-files"] = protos;
  return result;
}

/** Whether anything is missing. */
export const anythingMissing = (r) =>
  r.pythonProblem !== undefined ||
  r.modules.length > 0 ||
  r.programs.length > 0 ||
  r.npm.length > 0;

/** The message that says what to install (one line per kind, with the command). */
export function missingReport(r) {
  const lines = ["npm run tck: prerequisites missing (nothing was installed):"];
  if (r.pythonProblem !== undefined)
    lines.push(
      `  python: ${r.pythonProblem} (set A2A_TCK_PYTHON to a Python ≥ 3.11, e.g. Debian 12's /usr/bin/python3)`,
    );
  const debs = [...r.modules.map((m) => m.deb), ...r.programs.map((p) => p.deb)];
  if (r.modules.length > 0)
    lines.push(
      `  Python modules (for ${r.python}): ${r.modules.map((m) => `${m.module} (Debian ${m.deb}, pip ${m.pip})`).join(", ")}`,
    );
  if (r.programs.length > 0)
    lines.push(`  programs: ${r.programs.map((p) => `${p.program} (Debian ${p.deb})`).join(", ")}`);
  if (debs.length > 0) {
    lines.push(`  install on Debian/Ubuntu: sudo apt-get install -y ${debs.join(" ")}`);
    if (r.modules.length > 0 && r.python !== "/usr/bin/python3")
      lines.push(
        "  (Debian's python3-* packages serve /usr/bin/python3: run with A2A_TCK_PYTHON=/usr/bin/python3, or install the modules with pip)",
      );
    if (r.modules.length > 0)
      lines.push(
        `  or the Python modules with pip: ${r.python} -m pip install ${r.modules.map((m) => m.pip).join(" ")}`,
      );
    lines.push(
      "  (python3-grpc-tools is not needed: it bundles an old protoc; use protobuf-compiler and protobuf-compiler-grpc)",
    );
  }
  if (r.npm.length > 0)
    lines.push(`  npm packages: ${r.npm.join(", ")} (devDependencies: run npm ci)`);
  return lines.join("\n");
}
