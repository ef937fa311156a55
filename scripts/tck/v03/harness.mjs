// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
// The A2A TCK's 0.3 line (a2aproject/a2a-tck, branch 0.3.x) copied to a temporary folder with the
// harness changes that make it run on Debian's Python packages, and nothing else: no test,
// assertion, runner option or fixture is touched.
//   1. tck/grpc_stubs/a2a_pb2{,_grpc}.py regenerated from the TCK's own a2a.proto with the local
//      protoc and grpc_python_plugin (the committed stubs import google.protobuf.runtime_version,
//      protobuf ≥ 5.26; Debian 12 has 3.21);
//   2. the google/api and google/rpc Python stubs generated from the npm package
//      google-proto-files into a folder put on PYTHONPATH (no googleapis-common-protos);
//   3. tck/transport/grpc_client.py reads a gRPC interface url without a scheme (`host:port`, what
//      the card gives: the 1.0 form, and what the 0.3 SDK clients hand to their gRPC libraries)
//      as a plaintext target: its urlparse() otherwise makes it the target "None:80" and every gRPC
//      test fails on DNS before reaching the agent. The card test that wants an http(s) URL for
//      every interface (test_agent_interfaces_structure) is unchanged and still says so.
// Its runner, run_tck.py, is run as it is; ../../tck-v03.mjs adds `--junitxml` through
// PYTEST_ADDOPTS (pytest-json-report, which only its --compliance-report needs, is not used).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { copyTck, generateA2aStubs, generateGoogleStubs } from "../harness.mjs";

/** The files a 0.3 TCK checkout must have. */
const TCK_V03_FILES = [
  "run_tck.py",
  "a2a.proto",
  "tests/conftest.py",
  "tests/mandatory",
  "tck/grpc_stubs/a2a_pb2.py",
  "tck/transport/grpc_client.py",
];

/** Why `dir` is not a checkout of the TCK's 0.3 line, or undefined. */
export function notATckV03(dir) {
  if (!existsSync(dir)) return `${dir} does not exist`;
  const missing = TCK_V03_FILES.filter((f) => !existsSync(join(dir, f)));
  if (missing.length > 0) {
    const v10 = existsSync(join(dir, "tests", "compatibility"))
      ? " (it looks like the 1.0 line: check out branch 0.3.x)"
      : "";
    return `${dir} is not an a2aproject/a2a-tck 0.3.x checkout (no ${missing.join(", ")})${v10}`;
  }
  return undefined;
}

/** Replaces `from` (which must occur exactly once) in a file; throws if the TCK no longer has it. */
function patch(file, from, to, what) {
  const text = readFileSync(file, "utf8");
  if (text.split(from).length !== 2)
    throw new Error(
      `harness change "${what}": ${file} does not contain ${from} exactly once; this TCK version needs a new recipe`,
    );
  writeFileSync(file, text.replace(from, to));
}

/**
 * Copies the 0.3 TCK at `source` to `<work>/tck` and applies the harness changes.
 * @param {{ source: string, work: string, protoc: string, grpcPythonPlugin: string, googleProtos: string }} options
 * @returns {{ root: string, pythonPath: string, changes: string[] }}
 */
export function prepareTckV03({ source, work, protoc, grpcPythonPlugin, googleProtos }) {
  const root = join(work, "tck");
  // SUT/ holds systems under test that run_sut.py clones; reports/ earlier results; .env a local configuration.
  const skip = new Set([".git", "reports", "SUT", "__pycache__", ".venv", ".pytest_cache", ".env"]);
  copyTck(source, root, skip);
  const changes = [];

  const stubs = join(root, "tck", "grpc_stubs");
  generateA2aStubs({ protoc, grpcPythonPlugin, googleProtos, protoDir: root, out: stubs });
  changes.push(
    "tck/grpc_stubs/a2a_pb2.py, a2a_pb2_grpc.py: regenerated from a2a.proto with the local protoc and grpc_python_plugin",
  );

  const { pythonPath, change } = generateGoogleStubs({ protoc, googleProtos, work });
  changes.push(change);

  patch(
    join(root, "tck", "transport", "grpc_client.py"),
    "parsed = urlparse(base_url)\n",
    'parsed = urlparse(base_url if "://" in base_url else f"grpc://{base_url}")\n',
    "gRPC host:port",
  );
  changes.push(
    "tck/transport/grpc_client.py: a gRPC url without a scheme (host:port) is read as grpc://host:port (plaintext), not as the target None:80",
  );
  return { root, pythonPath, changes };
}
