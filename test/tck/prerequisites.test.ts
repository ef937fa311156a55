// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * `npm run tck` installs nothing and says exactly what is missing (scripts/tck/prerequisites.mjs):
 * with a stand-in Python that reports which modules it lacks and a PATH without protoc and
 * grpc_python_plugin, the report names each missing module with its Debian and pip package, each
 * program with its Debian package, and gives one apt-get line with exactly those packages; a
 * Python older than 3.11, or one that cannot run, is named as the problem; nothing missing means
 * no report. CI has neither the TCK nor these packages; the stand-ins make it testable.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  anythingMissing,
  checkPrerequisites,
  missingReport,
} from "../../scripts/tck/prerequisites.mjs";

const dir = mkdtempSync(join(tmpdir(), "tck-prereq-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const repoRoot = join(import.meta.dirname, "..", "..");

/** A stand-in `python3` that answers the probe with this version and these missing modules. */
function fakePython(name: string, version: [number, number], missing: string[]): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\necho '${JSON.stringify({ version, missing })}'\n`);
  chmodSync(path, 0o755);
  return path;
}
/** A PATH folder with stand-ins for the named programs. */
function programs(...names: string[]): string {
  const bin = mkdtempSync(join(dir, "bin-"));
  mkdirSync(bin, { recursive: true });
  for (const n of names) {
    writeFileSync(join(bin, n), "#!/bin/sh\n");
    chmodSync(join(bin, n), 0o755);
  }
  return bin;
}

describe("the prerequisites check", () => {
  it("names each missing module and program with its packages, and one apt-get line with exactly those", () => {
    const python = fakePython("python-some", [3, 11], ["httpx", "grpc"]);
    const r = checkPrerequisites({ repoRoot, env: { A2A_TCK_PYTHON: python, PATH: programs() } });
    expect(anythingMissing(r)).toBe(true);
    expect(r.modules.map((m) => m.module)).toEqual(["httpx", "grpc"]);
    expect(r.programs.map((p) => p.program)).toEqual(["protoc", "grpc_python_plugin"]);
    const report = missingReport(r);
    expect(report).toContain(
      "httpx (Debian python3-httpx, pip httpx), grpc (Debian python3-grpcio, pip grpcio)",
    );
    expect(report).toContain(
      "protoc (Debian protobuf-compiler), grpc_python_plugin (Debian protobuf-compiler-grpc)",
    );
    expect(report).toContain(
      "sudo apt-get install -y python3-httpx python3-grpcio protobuf-compiler protobuf-compiler-grpc\n",
    );
    expect(report).toContain(`${python} -m pip install httpx grpcio`);
    expect(report).toMatch(/nothing was installed/);
  });

  it("nothing missing: no report, and the programs' paths for the harness", () => {
    const bin = programs("protoc", "grpc_python_plugin");
    const r = checkPrerequisites({
      repoRoot,
      env: { A2A_TCK_PYTHON: fakePython("python-all", [3, 12], []), PATH: bin },
    });
    expect(anythingMissing(r)).toBe(false);
    expect(r.paths).toMatchObject({
      protoc: join(bin, "protoc"),
      grpc_python_plugin: join(bin, "grpc_python_plugin"),
    });
    expect(r.paths["google-proto-files"]).toBe(
      join(repoRoot, "node_modules", "google-proto-files"),
    );
  });

  it("a Python older than 3.11, or none at all, is the problem named", () => {
    const bin = programs("protoc", "grpc_python_plugin");
    const old = checkPrerequisites({
      repoRoot,
      env: { A2A_TCK_PYTHON: fakePython("python-old", [3, 9], []), PATH: bin },
    });
    expect(missingReport(old)).toMatch(/is Python 3\.9; the TCK needs ≥ 3\.11/);
    const none = checkPrerequisites({
      repoRoot,
      env: { A2A_TCK_PYTHON: join(dir, "no-such-python"), PATH: bin },
    });
    expect(anythingMissing(none)).toBe(true);
    expect(missingReport(none)).toMatch(/cannot run .*no-such-python/);
  });
});
