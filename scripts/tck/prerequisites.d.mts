// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
// Types of scripts/tck/prerequisites.mjs (for test/tck/prerequisites.test.ts).

export interface PythonModule {
  readonly module: string;
  readonly deb: string;
  readonly pip: string;
}
export interface Program {
  readonly program: string;
  readonly deb: string;
}
export interface Prerequisites {
  readonly python: string;
  readonly pythonProblem?: string;
  readonly modules: readonly PythonModule[];
  readonly programs: readonly Program[];
  readonly npm: readonly string[];
  readonly paths: Readonly<Record<string, string>>;
}

export const PYTHON_MODULES: readonly PythonModule[];
export const PROGRAMS: readonly Program[];
export function pythonOf(env?: Readonly<Record<string, string | undefined>>): string;
export function which(
  program: string,
  env?: Readonly<Record<string, string | undefined>>,
): string | undefined;
export function checkPrerequisites(options: {
  repoRoot: string;
  env?: Readonly<Record<string, string | undefined>>;
}): Prerequisites;
export function anythingMissing(r: Prerequisites): boolean;
export function missingReport(r: Prerequisites): string;
