// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
// Types of scripts/tck/v03/harness.mjs (for test/tck/v03-results.test.ts).

export function notATckV03(dir: string): string | undefined;
export function prepareTckV03(options: {
  source: string;
  work: string;
  protoc: string;
  grpcPythonPlugin: string;
  googleProtos: string;
}): {
  root: string;
  pythonPath: string;
  changes: string[];
};
