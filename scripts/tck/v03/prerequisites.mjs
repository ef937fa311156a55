// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
// What `npm run tck:v03` needs on the machine, checked without installing anything: the 0.3 TCK's
// Python modules (its runner run_tck.py and what its tests under tests/mandatory and
// tests/optional import), Debian's protoc and grpc_python_plugin and the npm package
// google-proto-files (for the harness changes of ./harness.mjs). The programs, the Python
// choice and the report are the 1.0 line's (../prerequisites.mjs); only the module list differs.
import { checkPrerequisites, missingReport } from "../prerequisites.mjs";

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

/** What is missing: the 1.0 line's check (../prerequisites.mjs) with the 0.3 TCK's module list. */
export const checkV03Prerequisites = ({ repoRoot, env = process.env }) =>
  checkPrerequisites({ repoRoot, env, modules: PYTHON_MODULES_V03 });

/** The 1.0 line's report, said by `npm run tck:v03`. */
export const missingReportV03 = (r) =>
  missingReport(r).replace(/^npm run tck:/, "npm run tck:v03:");
